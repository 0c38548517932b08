"""Jupyter server for the Galata UI tests: no auth, a fixed port, files under tests/ui/.tmp."""

from jupyterlab.galata import configure_jupyter_server

configure_jupyter_server(c)  # noqa: F821 (`c` is the config object Jupyter passes in)
c.ServerApp.port = 8899  # noqa: F821
c.ServerApp.allow_root = True  # noqa: F821
c.FileContentsManager.delete_to_trash = False  # noqa: F821
c.LabApp.news_url = None  # noqa: F821
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"  # noqa: F821
