"""Hostile objects in a real kernel: every piece of user code they hold appends to `ran`, and each
test asserts that cellguard's requests ran none of it. Big and odd values must still get a reply,
within the request's bounds, and an interrupt during a request must still get one."""

import time
import uuid

import pytest
from conftest import TORCH_LOOKALIKES

pytestmark = pytest.mark.timeout(300)

HOSTILE = r"""
import functools, inspect, time
from collections import deque
import numpy as np, pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

ran = []

def spy(name, value=None):
    def run(*args, **kwargs):
        ran.append(name)
        return value
    return run

class Liar:
    "Every way of reading it runs code: attributes, its class, its signature, its text."
    @property
    def __class__(self):
        ran.append("__class__")
        return int
    def __getattr__(self, name):
        ran.append("__getattr__ " + name)
        raise AttributeError(name)
    @property
    def __signature__(self):
        ran.append("__signature__")
        return inspect.Signature()
    @property
    def __wrapped__(self):
        ran.append("__wrapped__")
        return len
    __hash__ = spy("__hash__", 1)
    __eq__ = spy("__eq__", False)
    __str__ = spy("__str__", "liar")
    __repr__ = spy("__repr__", "Liar()")
    __len__ = spy("__len__", 3)
    __iter__ = spy("__iter__", iter([]))
    __call__ = lambda self, x, y=1: ran.append("__call__")
    def method(self, a, b=2):
        ran.append("method")

class Meta(type):
    def __getattr__(cls, name):
        ran.append("Meta.__getattr__ " + name)
        raise AttributeError(name)

class WithMeta(metaclass=Meta):
    def __init__(self, a, b=1):
        ran.append("WithMeta.__init__")

class MetaAttributes(type):
    def __getattribute__(cls, name):
        ran.append("Meta.__getattribute__ " + name)
        return type.__getattribute__(cls, name)

class WithMetaAttributes(metaclass=MetaAttributes):
    def __init__(self, q):
        pass

def decorated(x, y):
    pass
decorated.__wrapped__ = Liar()  # inspect.unwrap would follow it through getattr

liar = Liar()
liar_method = liar.method

class LabelFrame(pd.DataFrame):
    @property
    def _constructor(self):
        ran.append("_constructor")
        return LabelFrame
    @property
    def _constructor_sliced(self):
        ran.append("_constructor_sliced")
        return pd.Series
    @property
    def columns(self):
        ran.append("columns")
        return pd.Index(["fake"])
    def __len__(self):
        ran.append("__len__")
        return 0
    def isna(self):
        ran.append("isna")
        return super().isna()

class LabelSeries(pd.Series):
    @property
    def _constructor(self):
        ran.append("Series._constructor")
        return LabelSeries
    @property
    def dtype(self):
        ran.append("Series.dtype")
        return np.dtype("int8")

sub_frame = LabelFrame({"age": [22.0, None, 38.0], "sex": ["m", "f", "m"]})
sub_series = LabelSeries([1.0, None, 3.0], name="age")

class Model(ClassifierMixin, BaseEstimator):
    def __init__(self, depth=3):
        self.depth = depth
    @property
    def classes_(self):
        ran.append("classes_")
        return np.array([0, 1])
    @property
    def n_features_in_(self):
        ran.append("n_features_in_")
        return 2
    def get_params(self, deep=True):
        ran.append("get_params")
        return {"depth": self.depth}
    def __sklearn_is_fitted__(self):
        ran.append("__sklearn_is_fitted__")
        return True
    def fit(self, X, y):
        return self

model = Model()
pipeline = make_pipeline(StandardScaler(), Model())

class Tracked(np.ndarray):
    def __array_finalize__(self, obj):
        ran.append("__array_finalize__")
    def __array_ufunc__(self, *args, **kwargs):
        ran.append("__array_ufunc__")
        return NotImplemented
    def __getitem__(self, key):
        ran.append("__getitem__")
        return np.ndarray.__getitem__(self, key)

tracked = np.arange(6.0).reshape(2, 3).view(Tracked)
tracked[0, 0] = np.nan

objects = pd.DataFrame({"thing": [Liar(), Liar(), None], "n": [1, 2, 3]})
labelled = pd.DataFrame([[1, 2]], columns=pd.Index([Liar(), "plain"], dtype=object))
liar_named = pd.Series([1, 2], name="x")
object.__setattr__(liar_named, "_name", Liar())
nested = [Liar(), {"key": Liar()}, (Liar(),)]
liar_keys = {Liar(): 1}
"""

# Datasets and loaders under torch's module names (torch itself is too big for CI).
DATASETS = r"""
TorchLoader = _fake("torch.utils.data.dataloader", "DataLoader")

class SlowImages(TorchDataset):
    def __init__(self):
        ran.append("SlowImages.__init__")
    def __len__(self):
        ran.append("SlowImages.__len__")
        time.sleep(10)
        return 100
    def __getitem__(self, index):
        ran.append("SlowImages.__getitem__")
        with open("opened-by-getitem.txt", "w") as f:  # a dataset that opens files
            f.write("x")
        return np.zeros(3), 0

class Sleeper(TorchDataset):
    def __len__(self):
        return 10
    def __getitem__(self, index):
        time.sleep(30)

slow = SlowImages()
slow_loader = TorchLoader()
slow_loader.dataset, slow_loader.batch_size = slow, 8
sleeper = Sleeper()
ran.clear()
"""


@pytest.fixture(scope="module")
def hostile(embedded_kernel):
    for code in (HOSTILE, TORCH_LOOKALIKES, DATASETS):
        result = embedded_kernel.execute(code)
        assert result["status"] == "ok", result["stdout"]
    embedded_kernel.execute("ran.clear()")
    return embedded_kernel


def user_code_that_ran(kernel) -> list:
    ran = kernel.evaluate("ran")
    kernel.execute("ran.clear()")
    return ran


def test_signatures_run_no_getattr_class_signature_or_wrapped(hostile):
    names = ["liar", "liar_method", "decorated", "WithMeta", "WithMetaAttributes", "Liar"]
    found = hostile.request("signature", names=names)["signatures"]
    assert user_code_that_ran(hostile) == []
    # A callable instance: its class's __call__, read statically.
    assert found["liar"]["signature"] == "(x, y=1)" and found["liar"]["kind"] == "function"
    assert found["liar_method"]["signature"] == "(a, b=2)"
    # `__wrapped__` is followed through the function's own `__dict__`, to the callable's class.
    assert found["decorated"]["signature"] == "(x, y=1)" and found["decorated"]["wrapped"] is True
    assert found["WithMeta"]["signature"] == "(a, b=1)" and found["WithMeta"]["kind"] == "class"
    assert found["WithMetaAttributes"]["signature"] == "(q)"
    # A class whose `__signature__` is a property: only running it would tell.
    assert found["Liar"]["signature"] is None and found["Liar"]["signature_error"] == "user_code"


def test_summaries_of_hostile_objects_and_classes_run_nothing(hostile):
    names = ["liar", "liar_method", "WithMeta", "WithMetaAttributes", "nested", "liar_keys",
             "liar.missing", "liar.method", "WithMeta.missing", "WithMeta.__init__"]  # fmt: skip
    objects = hostile.summarize(*names)["objects"]
    assert user_code_that_ran(hostile) == []
    assert objects["liar"] == {"type": "__main__.Liar", "kind": "object",
                               "R": {"class": "__main__.Liar"}}  # fmt: skip
    assert objects["WithMeta"]["kind"] == "class"
    assert objects["WithMeta"]["R"]["signature"] == "(a, b=1)"
    assert objects["nested"]["V"]["preview"] == "[<Liar>, {'key': <Liar>}, (<Liar>,)]"
    assert objects["liar_keys"]["R"]["keys"] == ["<Liar>"]
    assert objects["liar.missing"] == {"error": "not_evaluated", "owner": "'Liar' object",
                                       "attribute": "missing", "reason": "dynamic"}  # fmt: skip
    assert objects["liar.method"]["kind"] == "callable"
    # The metaclass `__getattr__` might provide it: not called, so not certain.
    assert objects["WithMeta.missing"]["error"] == "not_evaluated"
    assert objects["WithMeta.__init__"]["R"]["signature"] == "(self, a, b=1)"


def test_library_subclasses_are_read_through_base_class_views(hostile):
    names = ["sub_frame", "sub_series", "model", "pipeline", "tracked", "pipeline.classes_",
             "model.classes_", "pipeline.steps"]  # fmt: skip
    objects = hostile.summarize(*names, focus_columns=["age"])["objects"]
    assert user_code_that_ran(hostile) == []
    frame = objects["sub_frame"]
    assert frame["type"] == "__main__.LabelFrame" and frame["S"] == {"shape": [3, 2]}
    assert frame["R"]["columns"] == ["age", "sex"] and frame["V"]["nan_columns"] == ["age"]
    assert frame["V"]["column_values"]["age"]["range"] == [22.0, 38.0]
    series = objects["sub_series"]
    assert series["R"]["dtype"] == "float64" and series["R"]["name"] == "age"
    assert series["V"]["has_nan"] is True
    model = objects["model"]
    assert model["kind"] == "estimator" and model["R"]["params"] == {"depth": "3"}
    assert "n_features_in" not in model.get("S", {}) and "classes" not in model.get("V", {})
    # A class that decides its own fitted state: unknown, so left out.
    assert "fitted" not in model.get("V", {})
    pipeline = objects["pipeline"]
    assert [step[0] for step in pipeline["R"]["steps"]] == ["standardscaler", "model"]
    assert "fitted" not in pipeline.get("V", {})
    # Pipeline.classes_ would read the user step's property; the steps list is plain data.
    assert objects["pipeline.classes_"] == {"error": "not_evaluated", "owner": "'Pipeline' object",
                                            "attribute": "classes_", "reason": "property"}  # fmt: skip
    assert objects["model.classes_"]["error"] == "not_evaluated"
    assert objects["pipeline.steps"]["kind"] == "list"
    tracked = objects["tracked"]
    assert tracked["kind"] == "ndarray" and tracked["S"] == {"shape": [2, 3]}
    assert tracked["V"]["has_nan"] is True and tracked["V"]["range"] == [1.0, 5.0]


def test_objects_in_columns_and_labels_are_never_hashed_compared_or_formatted(hostile):
    objects = hostile.summarize("objects", "labelled", "liar_named", "objects.thing")["objects"]
    assert user_code_that_ran(hostile) == []
    thing = objects["objects"]["V"]["column_values"]["thing"]
    assert thing == {"kind": "object", "has_nan": True}
    assert objects["objects"]["V"]["nan_columns"] == ["thing"]
    assert objects["objects"]["V"]["column_values"]["n"]["unique"] == 3
    labelled = objects["labelled"]["R"]
    # A label of a user class shows by class; the list is then not the columns' real names.
    assert labelled["columns"] == ["<Liar>", "plain"] and labelled["columns_complete"] is False
    assert objects["liar_named"]["R"]["name"] == "<Liar>"
    assert objects["objects.thing"]["V"]["kind"] == "object"


def test_datasets_of_user_classes_are_not_probed(hostile):
    started = time.perf_counter()
    objects = hostile.summarize("slow", "slow_loader")["objects"]
    waited = time.perf_counter() - started
    assert user_code_that_ran(hostile) == []
    assert waited < 10, "the 10 s __len__ ran"
    assert objects["slow"] == {"type": "__main__.SlowImages", "kind": "torch_dataset",
                               "R": {"class": "__main__.SlowImages"}, "V": {"probed": 0}}  # fmt: skip
    assert objects["slow_loader"]["R"]["dataset"]["V"] == {"probed": 0}
    assert hostile.evaluate("__import__('os').path.exists('opened-by-getitem.txt')") is False


def test_big_values_are_bounded(hostile):
    created = hostile.execute(
        "long_deque = deque(range(5_000_000))\n"
        "holder = [long_deque]\n"
        "strings = pd.DataFrame({'s': pd.Series([f'v{i}' for i in range(3_000_000)], dtype=object)})\n"
        "wide = pd.DataFrame(np.zeros((1, 200_000)))",
        store_history=False,
    )
    assert created["status"] == "ok", created["stdout"]
    summary = hostile.summarize("holder", "strings", "wide", budget_ms=2000)
    objects = summary["objects"]
    # The deque is previewed through its first items, never repr'd whole.
    assert objects["holder"]["V"]["preview"] == "[deque([0, 1, 2, 3, 4, …])]"
    # Distinct strings are counted on a sample (a lower bound), not on 3M values.
    column = objects["strings"]["V"]["column_values"]["s"]
    assert column["sampled"] is True and column["kind"] == "text"
    assert 1_000 < column["unique"] <= 20_000
    # Only the first 2,000 columns of a very wide frame are looked at.
    wide = objects["wide"]
    assert wide["S"] == {"shape": [1, 200_000]} and wide["R"]["columns_complete"] is False
    assert len(wide["R"]["columns"]) == 2_000 and len(wide["R"]["dtypes"]) == 2_000
    assert "has_nan" not in wide["V"]  # not every column was checked: unknown
    hostile.execute("del long_deque, holder, strings, wide", store_history=False)


def test_the_deadline_holds_inside_objects(hostile):
    hostile.execute(
        "many = pd.DataFrame(np.full((2000, 1500), 'v', dtype=object))\n"
        "Module = _fake('torch.nn.modules.module', 'Module')\n"
        "network = Module()\n"
        "network._modules = {str(i): Module() for i in range(200_000)}",
        store_history=False,
    )
    summary = hostile.summarize("many", budget_ms=5)
    many = summary["objects"]["many"]
    # A frame stops between columns and says so.
    assert summary["partial"] is True and many["partial"] is True
    assert "has_nan" not in many["V"] and len(many["V"]["column_values"]) < 20
    # A walk that cannot stop with a partial result gives up at the deadline.
    summary = hostile.summarize("network", budget_ms=1)
    assert summary["partial"] is True
    assert summary["objects"]["network"] == {
        "type": "torch.nn.modules.module.Module",
        "error": "deadline",
    }
    assert (
        hostile.summarize("network", budget_ms=5000)["objects"]["network"]["S"]["n_layers"]
        == 200_000
    )
    hostile.execute("del many, network", store_history=False)


def test_huge_integers_cross_as_strings_and_keep_the_other_names(hostile):
    hostile.execute("huge = 10**5000\nbig = 2**60\nexact = 2**53\nnumbers = [huge, -huge, big]")
    objects = hostile.summarize("huge", "big", "exact", "numbers", "liar")["objects"]
    assert objects["huge"]["V"] == {"value": "~1e5000"}
    assert objects["big"]["V"] == {"value": str(2**60)}
    assert objects["exact"]["V"] == {"value": 2**53}
    assert objects["numbers"]["V"]["preview"] == f"[~1e5000, ~-1e5000, {2**60}]"
    assert objects["liar"]["kind"] == "object"


def test_an_interrupt_during_a_request_still_gets_a_reply(hostile):
    # Opting in to probing runs the dataset's code: here a 30 s `__getitem__`, interrupted.
    if hostile.comm_id is None:
        hostile.open_comm()
    request_id = uuid.uuid4().hex
    hostile._send(
        "comm_msg",
        {"comm_id": hostile.comm_id,
         "data": {"type": "summarize", "id": request_id, "names": ["sleeper", "huge"],
                  "options": {"probe_datasets": True, "budget_ms": 10_000}}},
    )  # fmt: skip
    time.sleep(2)
    hostile.manager.interrupt_kernel()
    reply = hostile.reply_to(request_id)
    assert reply == {"type": "summarize", "id": request_id, "ok": False, "error": "interrupted"}
    assert hostile.request("hello")["ok"] is True
