"""The agent: the one object cellguard leaves in the user namespace (`_cellguard`). It owns the
settings, the execution history and the comm target, and answers requests."""

import sys

from . import protocol
from .history import History

COMM_TARGET = "cellguard"
NAMESPACE_NAME = "_cellguard"
DEFAULT_SETTINGS = {"max_columns": 20, "budget_ms": 200}


class Agent:
    def __init__(self, ipython, mode: str, records=()):
        self.ipython = ipython
        self.mode = mode  # "package" or "embedded"
        self.settings = dict(DEFAULT_SETTINGS)
        self.history = History(ipython, records)
        self.comms = []

    def __repr__(self) -> str:
        return f"<cellguard kernel agent ({self.mode}), {len(self.history.records)} cells recorded>"

    @property
    def user_ns(self) -> dict:
        return self.ipython.user_ns

    def public_names(self) -> list:
        hidden = self.ipython.user_ns_hidden
        return [name for name in self.user_ns if not name.startswith("_") and name not in hidden]

    def handle(self, request) -> dict:
        return protocol.handle(self, request)

    def start(self) -> None:
        self.ipython.events.register("post_run_cell", self.history.record)
        _comm_manager(self.ipython).register_target(COMM_TARGET, self._on_comm_open)
        self.user_ns[NAMESPACE_NAME] = self
        self.ipython.user_ns_hidden[NAMESPACE_NAME] = self  # out of %who and `names`

    def detach(self) -> list:
        """Undo `start` (the comm target is left to the next agent) and give back the history."""
        try:
            self.ipython.events.unregister("post_run_cell", self.history.record)
        except ValueError:
            pass
        for comm in self.comms:
            comm.close()  # the front end sees the close and opens a comm to the new agent
        self.comms = []
        return self.history.records

    def _on_comm_open(self, comm, open_msg) -> None:
        self.comms.append(comm)
        comm.on_msg(lambda msg: self._reply(comm, msg["content"].get("data")))
        comm.on_close(lambda msg: self.comms.remove(comm) if comm in self.comms else None)
        request = open_msg["content"].get("data")
        if request:  # a request may ride on the open message, saving a round trip
            self._reply(comm, request)

    def _reply(self, comm, request) -> None:
        reply = self.handle(request)
        try:
            comm.send(reply)
        except Exception:
            # The kernel's JSON writer refused the reply: still one answer to the request.
            echo = {key: reply.get(key) for key in ("type", "id")}
            comm.send(protocol.failure(echo, {"error": "unserializable"}))


def _comm_manager(ipython):
    comm = sys.modules.get("comm")
    if comm is not None:
        return comm.get_comm_manager()
    return ipython.kernel.comm_manager  # ipykernel < 6.18, before the `comm` package


def attach(ipython=None, agent: str = "package") -> Agent:
    """Serve cellguard requests in this kernel; running it again replaces the agent, keeping history."""
    if ipython is None:
        ipython = sys.modules["IPython"].get_ipython()
    if ipython is None:
        raise RuntimeError("cellguard.kernel.attach() needs a running IPython kernel")
    previous = ipython.user_ns.get(NAMESPACE_NAME)
    # Duck-typed: the previous agent may come from the other mode (package vs embedded).
    records = previous.detach() if callable(getattr(type(previous), "detach", None)) else ()
    new_agent = Agent(ipython, agent, records)
    new_agent.start()
    return new_agent
