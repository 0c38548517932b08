"""cellguard's kernel side: runtime summaries and execution history served over the `cellguard` comm.

`attach()` registers the comm target and the history hook and leaves one object, `_cellguard`, in
the user namespace. The front end either imports this package in the kernel or, when the kernel's
environment lacks it, sends the same modules as one source string (see `bootstrap.py`).
"""

from .agent import COMM_TARGET, NAMESPACE_NAME, Agent, attach
from .protocol import PROTOCOL_VERSION
from .summarize import SCHEMA_VERSION

__all__ = ["COMM_TARGET", "NAMESPACE_NAME", "PROTOCOL_VERSION", "SCHEMA_VERSION", "Agent", "attach"]
