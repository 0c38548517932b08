"""The comm protocol in a real kernel: replies, names, signatures, history, attach and bootstrap."""

import subprocess
import sys

import pytest

from cellguard.kernel.bootstrap import bootstrap_source

pytestmark = pytest.mark.timeout(120)


def test_hello_reports_protocol_agent_and_imported_libraries(kernel, request):
    kernel.execute("import numpy as np")
    reply = kernel.request("hello")
    assert reply["ok"] and reply["type"] == "hello" and reply["id"]
    assert reply["protocol"] == 1
    assert reply["python"].count(".") == 2
    assert "numpy" in reply["libraries"]
    assert "torch" not in reply["libraries"]  # not imported, so not reported (nor imported)
    assert reply["agent"] == request.node.callspec.params["kernel"]


def test_bad_requests_get_a_clear_error_echoing_type_and_id(embedded_kernel):
    unknown = embedded_kernel.request("frobnicate")
    assert unknown == {
        "type": "frobnicate",
        "id": unknown["id"],
        "ok": False,
        "error": "unknown_type",
        "expected": ["hello", "history", "names", "signature", "summarize"],
    }
    malformed = embedded_kernel.request("summarize", names="df")
    assert malformed["ok"] is False and malformed["id"]
    assert malformed["error"] == "bad_request" and malformed["field"] == "names"
    for options, field in (
        ({"budget_ms": float("nan")}, "options.budget_ms"),
        ({"budget_ms": -1}, "options.budget_ms"),
        ({"budget_ms": True}, "options.budget_ms"),
        ({"max_columns": "20"}, "options.max_columns"),
        ({"probe_datasets": 1}, "options.probe_datasets"),
    ):
        reply = embedded_kernel.request("summarize", names=["x"], options=options)
        assert reply["ok"] is False and reply["error"] == "bad_request", options
        assert reply["field"] == field


def test_names_lists_public_user_names_with_types(embedded_kernel):
    embedded_kernel.execute("import pandas as pd\nframe = pd.DataFrame({'a': [1]})\n_private = 1")
    reply = embedded_kernel.request("names")
    assert {"pd", "frame"} <= set(reply["names"])
    assert not {"In", "Out", "get_ipython", "exit", "quit", "_private", "_cellguard"} & set(
        reply["names"]
    )
    assert reply["types"]["frame"] == "pandas.DataFrame"
    assert reply["types"]["pd"] == "module"


def test_signatures_of_functions_methods_classes_builtins_and_modules(embedded_kernel):
    embedded_kernel.execute(
        "import pandas as pd\nfrom sklearn.linear_model import LogisticRegression\n"
        "model = LogisticRegression()\n"
        "class Weird:\n"
        "    @property\n"
        "    def boom(self):\n"
        "        raise RuntimeError('property evaluated')\n"
        "weird = Weird()"
    )
    reply = embedded_kernel.request(
        "signature",
        names=[
            "pd.read_csv",
            "model.fit",
            "LogisticRegression",
            "len",
            "pd",
            "ghost",
            "weird.boom",
        ],
    )
    found = reply["signatures"]
    assert (
        found["pd.read_csv"]["kind"] == "function" and found["pd.read_csv"]["library"] == "pandas"
    )
    assert found["pd.read_csv"]["version"]
    assert found["pd.read_csv"]["parameters"][0] == {
        "name": "filepath_or_buffer",
        "kind": "POSITIONAL_OR_KEYWORD",
    }
    sep = next(p for p in found["pd.read_csv"]["parameters"] if p["name"] == "sep")
    assert sep["kind"] == "KEYWORD_ONLY" and "default" in sep
    assert found["model.fit"]["kind"] == "method" and found["model.fit"]["signature"].startswith(
        "(X, y"
    )
    assert found["model.fit"]["library"] == "sklearn"
    assert (
        found["LogisticRegression"]["kind"] == "class"
        and "penalty" in found["LogisticRegression"]["signature"]
    )
    assert found["len"]["kind"] == "builtin"
    assert found["pd"]["kind"] == "module" and found["pd"]["signature"] is None
    assert found["ghost"] == {"error": "undefined"}
    # The property did not run.
    assert found["weird.boom"] == {
        "error": "not_evaluated",
        "owner": "'Weird' object",
        "attribute": "boom",
        "reason": "property",
    }


def test_history_records_cells_with_outcome_and_skips_silent_ones(embedded_kernel):
    embedded_kernel.execute("history_probe = 1")
    embedded_kernel.execute("1 / 0")
    embedded_kernel.execute("history_probe = 2", silent=True, store_history=False)
    cells = embedded_kernel.request("history")["cells"]
    by_source = {cell["source"]: cell for cell in cells}
    assert by_source["history_probe = 1"]["success"] is True
    assert by_source["1 / 0"] == dict(
        by_source["1 / 0"], success=False, error_name="ZeroDivisionError", before_attach=False
    )
    assert "history_probe = 2" not in by_source
    counts = [cell["execution_count"] for cell in cells]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


def test_first_attach_adds_only_cellguard_and_finds_earlier_cells(tmp_path):
    from conftest import (
        KernelSession,
        _kernel_env,
    )  # a fresh kernel: the order of runs matters here
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3", env=_kernel_env(), cwd=str(tmp_path))
    session = KernelSession(manager, client)
    try:
        session.execute("early = 1")
        before = set(session.evaluate("sorted(get_ipython().user_ns)"))
        session.execute(bootstrap_source(), silent=True, store_history=False)
        assert set(session.evaluate("sorted(get_ipython().user_ns)")) - before == {"_cellguard"}
        session.execute("late = 2")
        cells = session.request("history")["cells"]
        assert [(c["source"], c["before_attach"]) for c in cells] == [
            ("early = 1", True),
            ("late = 2", False),
        ]
        assert cells[0]["success"] is None and cells[1]["success"] is True
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_bootstrap_is_silent_idempotent_and_leaves_only_cellguard(embedded_kernel):
    before = set(embedded_kernel.evaluate("sorted(get_ipython().user_ns)"))
    hooks_before = embedded_kernel.evaluate("len(get_ipython().events.callbacks['post_run_cell'])")
    history_before = embedded_kernel.request("history")["cells"]
    rerun = embedded_kernel.execute(bootstrap_source(), silent=True, store_history=False)
    assert rerun["status"] == "ok" and rerun["stdout"] == ""
    after = set(embedded_kernel.evaluate("sorted(get_ipython().user_ns)"))
    assert after == before and "_cellguard" in after
    assert (
        embedded_kernel.evaluate("len(get_ipython().events.callbacks['post_run_cell'])")
        == hooks_before
    )
    # The re-attach closed the old agent's comm; a new comm reaches the new agent, history kept.
    embedded_kernel.open_comm()
    assert embedded_kernel.request("history")["cells"] == history_before
    assert (
        embedded_kernel.evaluate("type(_cellguard).__module__") == "cellguard_embedded.kernel.agent"
    )


def test_bootstrap_cli_prints_the_source():
    printed = subprocess.run(
        [sys.executable, "-m", "cellguard.kernel.bootstrap"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=str(__import__("conftest").REPO),
    )
    assert printed.returncode == 0 and printed.stdout == bootstrap_source()
    compile(printed.stdout, "bootstrap", "exec")
