"""The JSON-lines worker (`python -m cellguard.llm`) and `cellguard bench --llm` end to end against
the local replaying endpoint."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
KEY = "sk-test-SECRET-0123456789"


def env_for(fake):
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(REPO),
        CELLGUARD_LLM_BASE_URL=fake.base_url,
        CELLGUARD_LLM_MODEL="fake",
        CELLGUARD_LLM_API_KEY=KEY,
        CELLGUARD_LLM_RETRIES="1",
        CELLGUARD_PYTHON=sys.executable,
    )
    env.pop("OPENAI_API_KEY", None)
    return env


def run_worker(fake, requests):
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run(
        [sys.executable, "-m", "cellguard.llm"],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
        env=env_for(fake),
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return {r["id"]: r for r in map(json.loads, out.stdout.splitlines())}


def test_worker_answers_by_id():
    with FakeOpenAI("success") as fake:
        replies = run_worker(
            fake,
            [
                {
                    "id": "a",
                    "messages": [{"role": "user", "content": "x"}],
                    "n": 3,
                    "schema": {"type": "object"},
                },
                {"id": "b", "messages": []},
            ],
        )
        assert replies["a"]["ok"] and len(replies["a"]["contents"]) == 3
        assert replies["b"] == {"id": "b", "ok": False, "error": "the request has no messages"}
        assert len(fake.requests) == 3


def test_worker_reports_errors_without_the_key():
    with FakeOpenAI("server_errors") as fake:
        reply = run_worker(
            fake, [{"id": "a", "messages": [{"role": "user", "content": "x"}], "n": 2}]
        )["a"]
        assert not reply["ok"] and "HTTP 500" in reply["error"]
        assert KEY not in json.dumps(reply)


def cellguard_binary():
    for profile in ("debug", "release"):
        path = REPO / "target" / profile / "cellguard"
        if path.exists():
            return path
    return None


@pytest.mark.parametrize(
    "recording, llm_row, checked_row",
    [
        # The LLM says crash for both versions: TP 1, FP 1; its claim that 'Fare' is missing holds.
        ("success", "TP 1 FP 1 FN 0 TN 0", "TP 1 FP 1 FN 0 TN 0"),
        # Its structured claim that 'Age' is missing, the kernel refutes: both crash verdicts are
        # downgraded.
        ("refuted_claim", "TP 1 FP 1 FN 0 TN 0", "TP 0 FP 0 FN 1 TN 1"),
        # Unreadable answers count as no crash, and are reported.
        ("garbage", "TP 0 FP 0 FN 1 TN 1", "TP 0 FP 0 FN 1 TN 1"),
    ],
)
def test_bench_llm_end_to_end(recording, llm_row, checked_row):
    binary = cellguard_binary()
    if binary is None:
        pytest.skip("build the CLI first: cargo build")
    with FakeOpenAI(recording) as fake:
        out = subprocess.run(
            [
                str(binary),
                "bench",
                str(HERE / "cases.jsonl"),
                "--llm",
                fake.base_url,
                "--model",
                "fake",
                "--runs",
                "3",
            ],
            capture_output=True,
            text=True,
            check=False,
            env=env_for(fake),
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        rows = {
            line.split("  ")[0].strip(): " ".join(line.split("(")[-1].rstrip(")").split())
            for line in out.stdout.splitlines()
            if "(TP" in line
        }
        assert rows["LLM (+RT)"] == llm_row, out.stdout
        assert rows["LLM (+RT) + claims"] == checked_row, out.stdout
        assert "precision" in out.stdout and "accuracy" in out.stdout
        assert len(fake.requests) == 6  # 2 versions x 3 runs
        user = fake.requests[0][2]["messages"][1]["content"]
        assert "[Runtime Facts]" in user and "df: DataFrame shape (3, 2)" in user
        if recording == "garbage":
            assert "2 versions without a readable answer" in out.stdout
        if recording == "refuted_claim":
            assert (
                "the kernel's facts refute: “df has no column 'Age'”, but df has a column 'Age'."
                in out.stdout
            )
            assert "claim downgrades (+RT)           2 (right 1, wrong 1)" in out.stdout
