"""Measures cellguard's Python front end on a real corpus: every `.py` file under a directory
(by default the project's site-packages). Each file is compiled by this CPython (`compile()`) and
read by `cellguard syntax` (the parser path of a cell); prints how many files CPython compiles,
how many of those cellguard calls a syntax error (the goal is 0), and the reverse.

    python benchmarks/syntax_corpus.py [DIR] [--cellguard target/debug/cellguard] [--show N]
"""

import argparse
import json
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path


def cpython_compiles(path: Path) -> bool | None:
    """True/False as CPython's compile() decides; None when the file is not UTF-8 text."""
    try:
        source = path.read_bytes()
    except OSError:
        return None
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "root",
        nargs="?",
        default="/work/main/.venv/lib/python3.11/site-packages",
    )
    parser.add_argument("--cellguard", default="target/debug/cellguard")
    parser.add_argument("--show", type=int, default=10, help="examples listed per mismatch")
    args = parser.parse_args()

    files = sorted(p for p in Path(args.root).rglob("*.py") if p.is_file())
    verdicts = {path: cpython_compiles(path) for path in files}
    readable = [path for path, ok in verdicts.items() if ok is not None]
    result = subprocess.run(
        [args.cellguard, "syntax"],
        input="\n".join(str(p) for p in readable),
        capture_output=True,
        text=True,
        check=True,
    )
    ours = {}
    for line in result.stdout.splitlines():
        report = json.loads(line)
        ours[Path(report["path"])] = report.get("syntax_error")

    compiled = [p for p in readable if verdicts[p]]
    rejected = [p for p in readable if not verdicts[p]]
    false_errors = [p for p in compiled if ours.get(p)]
    missed = [p for p in rejected if not ours.get(p)]
    print(f"python {sys.version.split()[0]}, corpus {args.root}")
    print(f"files: {len(files)} (.py), {len(readable)} UTF-8")
    print(
        f"CPython compiles {len(compiled)}; cellguard reports a syntax error on {len(false_errors)}"
    )
    print(f"CPython rejects {len(rejected)}; cellguard reports none on {len(missed)}")
    messages = Counter(ours[p]["message"] for p in false_errors)
    for message, count in messages.most_common(args.show):
        print(f"  {count:5d}  {message}")
    for path in false_errors[: args.show]:
        print(f"  false error: {path}:{ours[path]['line']}: {ours[path]['message']}")
    for path in missed[: args.show]:
        print(f"  missed: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
