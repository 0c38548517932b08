"""Latency of `summarize` requests for JunoBench-sized objects and for a 10M x 50 frame.

Runs in-process (no kernel, no comm: a comm round trip adds 9-100 ms on top) through the same
request handler the comm uses, JSON cleaning included. Prints median and max over repeats; asserts
nothing. Targets: <= 20 ms for JunoBench-sized objects, <= 250 ms (the budget) for 10M x 50 and
for issue 17's big objects (3M strings, 1 x 200k columns, a 5M deque, 10**5000).

    .venv/bin/python benchmarks/kernel_summary.py [--skip-big] [--repeats=N]
"""

import json
import statistics
import sys
import time
from collections import deque
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cellguard.kernel.agent import DEFAULT_SETTINGS
from cellguard.kernel.protocol import handle

REPEATS = next((int(a.split("=")[1]) for a in sys.argv if a.startswith("--repeats=")), 15)


def titanic_like(rng, rows=891):
    return pd.DataFrame(
        {
            "PassengerId": np.arange(rows),
            "Survived": rng.integers(0, 2, rows),
            "Pclass": rng.integers(1, 4, rows),
            "Name": [f"Passenger {i}, Mr. Someone" for i in range(rows)],
            "Sex": rng.choice(["male", "female"], rows),
            "Age": np.where(rng.random(rows) < 0.2, np.nan, rng.random(rows) * 80),
            "SibSp": rng.integers(0, 8, rows),
            "Parch": rng.integers(0, 6, rows),
            "Ticket": [f"T{i % 681}" for i in range(rows)],
            "Fare": rng.random(rows) * 500,
            "Cabin": np.where(rng.random(rows) < 0.77, None, "C85"),
            "Embarked": rng.choice(["S", "C", "Q"], rows),
        }
    )


def mixed_frame(rng, rows, columns):
    data = {f"num_{i}": rng.random(rows) for i in range(columns - columns // 4)}
    data.update({f"cat_{i}": rng.choice(["a", "b", "c", "d"], rows) for i in range(columns // 4)})
    return pd.DataFrame(data)


def build_objects(rng, big: bool) -> dict:
    titanic = titanic_like(rng)
    forest = RandomForestClassifier(n_estimators=20).fit(
        titanic[["Pclass", "SibSp", "Fare"]], titanic.Survived
    )
    objects = {
        "titanic (891 x 12)": titanic,
        "frame (2000 x 8)": mixed_frame(rng, 2_000, 8),
        "frame (100k x 30)": mixed_frame(rng, 100_000, 30),
        "fitted RandomForest": forest,
        "ndarray (10000 x 784)": rng.random((10_000, 784)),
        "series (891)": titanic.Age,
        "list (1000)": list(range(1_000)),
    }
    # Issue 17's big objects: counted on samples, capped, previewed (budget 200 ms each).
    strings = pd.Series([f"v{i}" for i in range(3_000_000)], dtype=object)
    objects["strings (3M, object)"] = pd.DataFrame({"s": strings})
    objects["strings (3M, str dtype)"] = pd.DataFrame({"s": strings.astype("str")})
    objects["wide frame (1 x 200k)"] = pd.DataFrame(np.zeros((1, 200_000)))
    objects["list of a 5M deque"] = [deque(range(5_000_000))]
    objects["int 10**5000"] = 10**5000
    if big:
        values = rng.random(
            (50, 10_000_000), dtype=np.float32
        ).T  # column-major, as pandas keeps it
        objects["frame (10M x 50)"] = pd.DataFrame(
            values, columns=[f"c{i}" for i in range(50)], copy=False
        )
    return objects


def measure(name: str, namespace: dict) -> dict:
    agent = SimpleNamespace(settings=dict(DEFAULT_SETTINGS), user_ns=namespace, mode="benchmark")
    request = {"type": "summarize", "id": "bench", "names": [name]}
    timings, reply = [], None
    for _ in range(REPEATS):
        started = time.perf_counter()
        reply = handle(agent, request)
        timings.append((time.perf_counter() - started) * 1000)
    assert reply["ok"], reply
    summary = reply["summary"]
    return {
        "median_ms": statistics.median(timings),
        "max_ms": max(timings),
        "partial": summary["partial"],
        "sampled": summary["objects"][name].get("sampled", False),
        "reply_kb": len(json.dumps(reply)) / 1024,
    }


def main() -> None:
    objects = build_objects(np.random.default_rng(0), big="--skip-big" not in sys.argv)
    print(f"{'object':<24}{'median ms':>10}{'max ms':>9}{'reply KB':>10}  flags")
    for name in objects:
        figures = measure(name, objects)
        flags = " ".join(flag for flag in ("sampled", "partial") if figures[flag])
        print(
            f"{name:<24}{figures['median_ms']:>10.2f}{figures['max_ms']:>9.2f}{figures['reply_kb']:>10.1f}  {flags}"
        )


if __name__ == "__main__":
    main()
