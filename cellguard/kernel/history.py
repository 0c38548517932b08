"""Execution history: a `post_run_cell` hook records every cell run after attach; cells run before
come from IPython's input history, marked `before_attach` (their outcome is unknown).

Only cells stored in history are recorded, so silent executions (the extension's bootstrap, its
own probes) never show up.
"""

from .errors import raised


class History:
    def __init__(self, ipython, records=()):
        self.ipython = ipython
        self.records = list(records)  # carried over when attach() runs again in the same kernel
        # Cells numbered up to here ran before the hook existed.
        self.attach_count = ipython.execution_count

    def record(self, result) -> None:
        """The `post_run_cell` callback."""
        info = result.info
        if info is None or not info.store_history or info.silent:
            return
        error = result.error_before_exec or result.error_in_exec
        failure = raised(error) if error is not None else {}
        self.records.append(
            {
                "execution_count": result.execution_count,
                "source": info.raw_cell,
                "success": error is None,
                "error_name": failure.get("exception"),
                # The exception's own message string; never `str(error)`, a user's `__str__`.
                "error_message": failure.get("message"),
                "before_attach": False,
            }
        )

    def cells(self) -> list:
        recorded = {cell["execution_count"] for cell in self.records}
        inputs = self.ipython.history_manager.input_hist_raw
        earlier = [
            {
                "execution_count": count,
                "source": inputs[count],
                "success": None,
                "error_name": None,
                "before_attach": True,
            }
            for count in range(1, min(len(inputs), self.attach_count + 1))
            if count not in recorded
        ]
        return earlier + self.records
