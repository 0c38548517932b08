"""Dry runs in a real kernel: fork-to-result overhead and the total time of typical cells, for a
kernel holding about 100 MB of frames and one holding about 2 GB.

Starts an IPython kernel (jupyter_client), attaches cellguard, fills the namespace, and sends
`dry_run` requests over the comm as the front end does. Per cell it prints medians over repeats:
`total` (fork to report, the kernel's `elapsed_ms`), `cell` (the cell alone, `run_ms`),
`overhead` (total - cell: fork, isolation, report, reaping) and `round trip` (request sent to reply
read, here). Prints figures; asserts nothing.

    .venv/bin/python benchmarks/dry_run.py [--skip-big] [--only-big] [--repeats N]
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "kernel"))
from conftest import _kernel_env, _start  # noqa: E402

REPEATS = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 5
SIZES = {"100 MB": 1_300_000, "2 GB": 27_000_000}  # rows of 10 float64 columns (+ a key column)
FILL = """
import numpy as np, pandas as pd
rng = np.random.default_rng(0)
df = pd.DataFrame({{f"c{{i}}": rng.random({rows}) for i in range(10)}})
df["key"] = rng.integers(0, 100, {rows})
f"{{df.memory_usage().sum() / 2**20:.0f}} MiB"
"""
CELLS = {
    "pass": "pass",
    "column mean": "m = df['c0'].mean()",
    "filter rows": "part = df[df.c1 > 0.5]",
    "groupby mean": "g = df.groupby('key')['c2'].mean()",
    "describe": "d = df.describe()",
    "missing column (crash)": "x = df['Fare']",
    "new column": "df['c11'] = df.c0 * 2",
}


def measure(session, code: str, budget_ms: int) -> dict:
    totals, cells, trips, outcome = [], [], [], None
    for _ in range(REPEATS):
        started = time.perf_counter()
        reply = session.request("dry_run", code=code, budget_ms=budget_ms, memory_mb=8192)
        trips.append((time.perf_counter() - started) * 1000)
        outcome = reply.get("outcome"), (reply.get("reason") or {}).get("code")
        totals.append(reply["elapsed_ms"])
        cells.append(reply.get("run_ms", float("nan")))
    return {
        "total": statistics.median(totals),
        "cell": statistics.median(cells),
        "overhead": statistics.median(t - c for t, c in zip(totals, cells)),
        "trip": statistics.median(trips),
        "outcome": outcome[0] if outcome[1] is None else f"{outcome[0]} ({outcome[1]})",
    }


def main() -> None:
    sizes = {
        k: v
        for k, v in SIZES.items()
        if not ("--skip-big" in sys.argv and k == "2 GB")
        and not ("--only-big" in sys.argv and k != "2 GB")
    }
    for label, rows in sizes.items():
        session = _start(_kernel_env(PYTHONPATH=str(REPO)), Path(tempfile.mkdtemp()))
        try:
            session.execute("import cellguard.kernel; cellguard.kernel.attach()")
            filled = session.execute(FILL.format(rows=rows))
            assert filled["status"] == "ok", filled
            size = session.evaluate("f'{df.memory_usage().sum() / 2**20:.0f} MiB'")
            print(f"\nkernel holding {label} of frames ({size}), median of {REPEATS} (ms)")
            print(f"{'cell':<24}{'total':>9}{'cell':>9}{'overhead':>10}{'trip':>9}  outcome")
            for name, code in CELLS.items():
                m = measure(session, code, budget_ms=25_000)  # under the 30 s reply wait
                print(
                    f"{name:<24}{m['total']:>9.1f}{m['cell']:>9.1f}{m['overhead']:>10.1f}"
                    f"{m['trip']:>9.1f}  {m['outcome']}"
                )
        finally:
            session.client.stop_channels()
            session.manager.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
