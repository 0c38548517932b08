"""The per-request time budget and the options every summarizer reads."""

import time
from dataclasses import dataclass, field
from typing import Any, Callable

# Value facts of big data are computed on at most this many cells (rows x columns), so that a
# 10M x 50 frame costs about what a 100k x 50 one does.
SAMPLE_CELLS = 5_000_000
MIN_SAMPLE_ROWS = 1_000


class DeadlineExceeded(Exception):
    """The request's deadline passed inside a loop that cannot stop with a partial result."""


class Opaque(Exception):
    """Reading the object's data would run user code it holds: it is summarized as a plain object."""


class Budget:
    """A deadline measured with `time.perf_counter`, checked between objects and inside loops:
    `expired` where a loop can stop and report what it has, `check` where it cannot."""

    def __init__(self, budget_ms: float):
        self.start = time.perf_counter()
        self.deadline = self.start + budget_ms / 1000.0

    def expired(self) -> bool:
        return time.perf_counter() >= self.deadline

    def check(self) -> None:
        if self.expired():
            raise DeadlineExceeded

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.start) * 1000.0


@dataclass
class Context:
    """What a summarizer may use: the budget, the request's options and a way to nest summaries."""

    budget: Budget
    max_columns: int = 20
    focus_columns: tuple[str, ...] = ()
    # Map-style datasets of user classes are probed (`len`, `ds[i]`: their code runs) only when
    # the request opts in.
    probe_datasets: bool = False
    # Set by summarize.py so that container summarizers (a DataLoader's dataset) can recurse
    # without importing the dispatcher.
    summarize: Callable[[Any, "Context"], dict] = field(default=None, repr=False)
    # Set by a summarizer that stopped early because the budget ran out.
    truncated: bool = False


def sample_step(rows: int, columns: int = 1) -> int:
    """Row step that keeps a sample within SAMPLE_CELLS; 1 means "use everything"."""
    wanted_rows = max(MIN_SAMPLE_ROWS, SAMPLE_CELLS // max(columns, 1))
    if rows <= wanted_rows:
        return 1
    return -(-rows // wanted_rows)
