import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
for p in (str(REPO), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from cellguard.llm import client as client_module  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_structured_memory():
    client_module._NO_STRUCTURED.clear()
    yield
    client_module._NO_STRUCTURED.clear()
