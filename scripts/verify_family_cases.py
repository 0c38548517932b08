"""Runs the rule-family variant cases (crate/tests/fixtures/families/*.json) under the real
libraries: every crashing cell must raise the recorded exception, every twin must run.

    .venv/bin/python scripts/verify_family_cases.py [FILE.json ...]
"""

import json
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "crate/tests/fixtures/families"


def outcome(source: str) -> str | None:
    """The name of the exception `source` raises (and of its bases), or None."""
    try:
        # A notebook runs its cells in the module `__main__`.
        exec(compile(source, "<case>", "exec"), {"__name__": "__main__"})
    except Exception as e:  # any exception is the outcome recorded
        return " ".join(c.__name__ for c in type(e).__mro__)
    return None


def main(files: list[str]) -> int:
    paths = [Path(f) for f in files] or sorted(FIXTURES.glob("*.json"))
    failures = 0
    total = 0
    for path in paths:
        for case in json.loads(path.read_text()):
            prelude = case["history"] + "\n" + case.get("setup", "") + "\n"
            crash = outcome(prelude + case["crash"])
            twin = outcome(prelude + case["twin"])
            total += 1
            ok = crash is not None and case["error"] in crash.split() and twin is None
            if not ok:
                failures += 1
                print(f"FAIL {path.name}: {case['name']}: crash -> {crash}, twin -> {twin}")
    print(f"{total - failures} of {total} cases: the crash raises and the twin runs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
