"""The fixtures of Python's own semantics (crate/tests/fixtures/pytypes/, checked by the Rust test
crate/tests/pytypes.rs) behave in CPython as labelled: every `crash` case raises, every `runs` case
runs; and summaries.json is what cellguard's kernel summarizer says today of their earlier cells."""

import importlib.util
import json
import pathlib

import pytest

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "crate/tests/fixtures/pytypes"

pytestmark = pytest.mark.timeout(60)


def load_verify():
    spec = importlib.util.spec_from_file_location("verify", FIXTURES / "verify.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_case_behaves_as_labelled_and_the_summaries_are_current():
    summaries, failures, outcomes = load_verify().run_cases()
    assert failures == []
    assert sum(label == "crash" for _, label, _ in outcomes) >= 80
    committed = json.loads((FIXTURES / "summaries.json").read_text())
    assert summaries == committed, "run python3 crate/tests/fixtures/pytypes/verify.py"
