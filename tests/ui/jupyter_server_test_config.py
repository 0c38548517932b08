"""Jupyter server for the Galata UI tests: no auth, a fixed port, files under tests/ui/.tmp."""

from jupyterlab.galata import configure_jupyter_server

configure_jupyter_server(c)  # noqa: F821 (`c` is the config object Jupyter passes in)
c.ServerApp.port = 8899  # noqa: F821
c.ServerApp.allow_root = True  # noqa: F821
c.FileContentsManager.delete_to_trash = False  # noqa: F821
c.LabApp.news_url = None  # noqa: F821
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"  # noqa: F821

# LLM checks go to the fake endpoint of tests/ui/fake_llm.py (started by playwright.config.js); the
# key is fake and must never reach the browser (tested).
c.CellguardLLM.base_url = "http://127.0.0.1:8898/v1"  # noqa: F821
c.CellguardLLM.model = "ui-verdict"  # noqa: F821
c.CellguardLLM.api_key = "sk-test-SECRET-1234"  # noqa: F821
c.CellguardLLM.retries = 0  # noqa: F821
