"""Runs the rule-family variant cases (crate/tests/fixtures/families/*.json) under the real
libraries: every crashing cell must raise the recorded exception, every twin must run.

A case with `keras_datasets` runs with a stand-in for the download of Keras's MNIST (no machine
here reaches the internet): a file of zeros, labels 0 to 9, of the shapes the loader's docstring
asserts, read by the installed loader's own code.

A case with `objects_from` (names its `setup` binds) takes its `objects` from the real kernel
summarizer: `--write` stores what the summarizer says of those names after history and setup ran;
without it, stored `objects` that differ from what the summarizer says now are a failure.

    .venv/bin/python scripts/verify_family_cases.py [--write] [FILE.json ...]
"""

import contextlib
import inspect
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "crate/tests/fixtures/families"
sys.path.insert(0, str(ROOT))

from cellguard.kernel.summarize import summarize_names  # noqa: E402


def outcome(source: str) -> str | None:
    """The name of the exception `source` raises (and of its bases), or None."""
    try:
        # A notebook runs its cells in the module `__main__`.
        exec(compile(source, "<case>", "exec"), {"__name__": "__main__"})
    except Exception as e:  # any exception is the outcome recorded
        return " ".join(c.__name__ for c in type(e).__mro__)
    return None


def documented_shapes(module) -> dict[str, tuple[int, ...]]:
    """The shapes the docstring of `module.load_data` asserts: `x_train.shape == (60000, 28, 28)`."""
    doc = inspect.getdoc(module.load_data) or ""
    return {
        name: tuple(int(d) for d in dims.split(",") if d.strip())
        for name, dims in re.findall(r"assert (\w+)\.shape == \(([\d, ]*)\)", doc)
    }


def stand_in(shape: tuple[int, ...]) -> np.ndarray:
    """uint8 zeros of `shape`; a 1-D one holds the labels 0 to 9 in turn."""
    if len(shape) == 1:
        return (np.arange(shape[0]) % 10).astype(np.uint8)
    return np.zeros(shape, dtype=np.uint8)


@contextlib.contextmanager
def keras_dataset_stand_ins():
    """MNIST's `get_file` gives a file written here, of the documented shapes."""
    from keras.src.datasets import mnist

    with tempfile.TemporaryDirectory() as tmp:
        npz = Path(tmp, "mnist.npz")
        shapes = documented_shapes(mnist)
        np.savez(npz, **{name: stand_in(shape) for name, shape in shapes.items()})
        saved = mnist.get_file
        mnist.get_file = lambda *args, **kwargs: str(npz)
        try:
            yield
        finally:
            mnist.get_file = saved


def ran_before(case) -> str:
    """What ran before the case's target: its history, then its `cells` (executed cells the rules
    know by their code alone), then its `setup` (known to them only through the kernel)."""
    return "\n".join([case["history"], *case.get("cells", []), case.get("setup", "")])


def kernel_objects(case) -> str:
    """The `objects` text (the inside of a summary document's `objects`) the kernel summarizer
    gives for the case's `objects_from` names once its history and setup ran."""
    keras = sys.modules.get("keras")
    if keras is not None:
        keras.backend.clear_session()  # layer names count from zero again, as in a fresh kernel
    namespace = {"__name__": "__main__"}
    exec(compile(ran_before(case), "<setup>", "exec"), namespace)
    summary = summarize_names(
        case["objects_from"], namespace, max_columns=20, focus_columns=(), budget_ms=10_000
    )
    return ", ".join(
        f"{json.dumps(name)}: {json.dumps(facts)}" for name, facts in summary["objects"].items()
    )


def main(args: list[str]) -> int:
    write = "--write" in args
    files = [a for a in args if a != "--write"]
    paths = [Path(f).resolve() for f in files] or sorted(FIXTURES.glob("*.json"))
    # Cases write files (`json.dump(obj, open('results.json', 'w'))`): not into the checkout.
    os.chdir(tempfile.mkdtemp(prefix="cellguard-cases-"))
    failures = 0
    total = 0
    for path in paths:
        cases = json.loads(path.read_text())
        for case in cases:
            prelude = ran_before(case) + "\n"
            datasets = case.get("keras_datasets")
            with keras_dataset_stand_ins() if datasets else contextlib.nullcontext():
                crash = outcome(prelude + case["crash"])
                twin = outcome(prelude + case["twin"])
            total += 1
            problems = []
            if crash is None or case["error"] not in crash.split() or twin is not None:
                problems.append(f"crash -> {crash}, twin -> {twin}")
            if "objects_from" in case:
                objects = kernel_objects(case)
                if write:
                    case["objects"] = objects
                elif json.loads("{" + case.get("objects", "") + "}") != json.loads(
                    "{" + objects + "}"
                ):
                    problems.append(f"objects differ from the kernel's summary: {objects}")
            if problems:
                failures += 1
                print(f"FAIL {path.name}: {case['name']}: {'; '.join(problems)}")
        if write:
            path.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n")
    print(f"{total - failures} of {total} cases: the crash raises and the twin runs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
