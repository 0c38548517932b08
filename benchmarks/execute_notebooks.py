"""Executes the notebooks of a corpus for real (nbclient and an IPython kernel of the running
Python), keeping errors in the outputs as Jupyter saves them, so that the corpus holds executed
notebooks: `executed/` under the corpus directory. Each notebook gets a time limit; one that runs
past it keeps the outputs of the cells that finished.

    python benchmarks/execute_notebooks.py CORPUS_DIR [--cell-timeout 30] [--notebook-timeout 120]
"""

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

RUN_ONE = """
import sys, nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
source, target, cell_timeout = sys.argv[1], sys.argv[2], int(sys.argv[3])
nb = nbformat.read(source, as_version=4)
client = NotebookClient(nb, timeout=cell_timeout, allow_errors=True, kernel_name="python3",
                        resources={"metadata": {"path": str(__import__("pathlib").Path(source).parent)}})
try:
    client.execute()
except (CellTimeoutError, DeadKernelError, RuntimeError) as error:
    print(f"stopped: {type(error).__name__}", file=sys.stderr)
nbformat.write(nb, target)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--cell-timeout", type=int, default=30)
    parser.add_argument("--notebook-timeout", type=int, default=120)
    args = parser.parse_args()
    out = args.corpus / "executed"
    out.mkdir(exist_ok=True)
    sources = sorted(p for p in args.corpus.rglob("*.ipynb") if out not in p.parents)
    for number, source in enumerate(sources, 1):
        digest = hashlib.sha1(str(source).encode()).hexdigest()[:8]
        target = out / f"{source.stem}-{digest}.ipynb"
        if target.exists():
            continue
        try:
            result = subprocess.run(
                [sys.executable, "-c", RUN_ONE, str(source), str(target), str(args.cell_timeout)],
                check=False,
                capture_output=True,
                text=True,
                timeout=args.notebook_timeout,
                cwd=source.parent,
            )
            status = "ok" if result.returncode == 0 else f"exit {result.returncode}"
        except subprocess.TimeoutExpired:
            status = "notebook timeout (outputs lost)"
        print(f"[{number}/{len(sources)}] {source.name}: {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
