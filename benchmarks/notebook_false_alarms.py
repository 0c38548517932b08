"""Error diagnostics on notebook cells that ran fine, per 1000 such cells: `cellguard check
--execution-order --json` on every executed notebook under a directory (see
benchmarks/notebook_corpus.sh), for one or more cellguard binaries (e.g. before and after a change).

A cell ran fine when it has an execution count (its own, or its outputs') and no error output: an
error diagnostic on it is a false alarm, as the saved notebook shows.

    python benchmarks/notebook_false_alarms.py CORPUS_DIR BINARY [BINARY...] [--show N]
"""

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path


def ran_fine(cell: dict) -> bool:
    if cell.get("cell_type") != "code":
        return False
    outputs = cell.get("outputs") or []
    counted = cell.get("execution_count") is not None or any(
        o.get("execution_count") is not None for o in outputs
    )
    return counted and not any(o.get("output_type") == "error" for o in outputs)


def crashed(cell: dict) -> bool:
    outputs = cell.get("outputs") or []
    return cell.get("cell_type") == "code" and any(o.get("output_type") == "error" for o in outputs)


def executed_notebooks(root: Path):
    for path in sorted(root.rglob("*.ipynb")):
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(notebook, dict) or notebook.get("nbformat") != 4:
            continue
        cells = notebook.get("cells") or []
        fine = {i for i, cell in enumerate(cells) if ran_fine(cell)}
        if fine:
            yield path, cells, fine, {i for i, cell in enumerate(cells) if crashed(cell)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--show", type=int, default=0, help="false alarms listed per binary")
    args = parser.parse_args()

    notebooks = list(executed_notebooks(args.corpus))
    cells_fine = sum(len(fine) for _, _, fine, _ in notebooks)
    cells_crashed = sum(len(crashes) for _, _, _, crashes in notebooks)
    print(
        f"corpus {args.corpus}: {len(notebooks)} executed notebooks, {cells_fine} cells that ran "
        f"fine, {cells_crashed} whose saved output is an error"
    )
    for binary in args.binaries:
        alarms = []
        warnings = 0
        predicted = 0
        for path, _cells, fine, crashes in notebooks:
            result = subprocess.run(
                [binary, "check", str(path), "--execution-order", "--json"],
                check=False,
                capture_output=True,
                text=True,
            )
            if result.returncode not in (0, 1):
                print(f"  {binary}: {path}: exit {result.returncode}: {result.stderr.strip()}")
                continue
            for cell in json.loads(result.stdout)["cells"]:
                errors = [d for d in cell["diagnostics"] if d["severity"] == "error"]
                predicted += cell["index"] in crashes and bool(errors)
                if cell["index"] not in fine:
                    continue
                for d in cell["diagnostics"]:
                    if d["severity"] == "error":
                        alarms.append((path, cell["index"], d))
                    elif d["severity"] == "warning":
                        warnings += 1
        per_1000 = 1000 * len(alarms) / cells_fine if cells_fine else 0.0
        print(
            f"{binary}: {len(alarms)} error diagnostics on cells that ran fine "
            f"({per_1000:.1f} per 1000 cells); {warnings} warnings; "
            f"{predicted} of the {cells_crashed} crashed cells get an error diagnostic"
        )
        for code, count in Counter(d["code"] for _, _, d in alarms).most_common():
            print(f"  {count:5d}  {code}")
        for path, index, d in alarms[: args.show]:
            source = "".join(cells_source(path)[index])
            first = source.splitlines()[d["start"]["line"] - 1] if source else ""
            print(
                f"  {path} cell {index + 1} {d['start']['line']}: {d['code']}: {d['message'][:140]}"
            )
            print(f"      | {first[:120]}")
    return 0


def cells_source(path: Path) -> list:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [c.get("source", "") for c in cells]


if __name__ == "__main__":
    sys.exit(main())
