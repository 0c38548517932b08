"""cellguard runs inside the user's kernel: it must never advance, mutate, block or break anything."""

import time

import pytest
from conftest import TORCH_LOOKALIKES

pytestmark = pytest.mark.timeout(180)

HOSTILE = r"""
import time, random
import numpy as np, pandas as pd

advanced = []
def counting():
    advanced.append(1)
    yield 1
    yield 2
gen = counting()
it = iter([10, 20, 30])
mapped = map(str, [1, 2, 3])

class Sleepy:
    def __len__(self):
        time.sleep(5)
        return 1
    def __repr__(self):
        time.sleep(5)
        return "Sleepy()"
    def __getattr__(self, name):
        time.sleep(5)
        raise AttributeError(name)

class Raising:
    def __len__(self):
        raise RuntimeError("len exploded")
    def __repr__(self):
        raise RuntimeError("repr exploded")
    @property
    def value(self):
        raise RuntimeError("property exploded")

class SleepyList(list):
    def __len__(self):
        time.sleep(5)
        return 0
    def __iter__(self):
        raise RuntimeError("iterated")

sleepy, raising = Sleepy(), Raising()
sleepy_list = SleepyList([1, 2, 3])
zoo = [Sleepy(), Raising(), 1]
frame = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": ["x", "y", "z"], "c": [[1], [2], [3]]})
"""

# Look-alikes of torch.utils.data classes: the DataLoader must not be iterated, and probing a
# map-style dataset must leave the random state as it was.
FAKE_TORCH = r"""
TorchIterable = _fake("torch.utils.data.dataset", "IterableDataset", (TorchDataset,))
TorchLoader = _fake("torch.utils.data.dataloader", "DataLoader")

class Stream(TorchIterable):
    def __iter__(self):
        advanced.append("stream")
        yield 1

probes = []

class Images(TorchDataset):
    def __len__(self):
        probes.append("len")
        return 1000
    def __getitem__(self, index):
        probes.append(index)
        noise = np.random.random((3, 8, 8))  # random augmentation: consumes the global RNG
        return noise, random.randint(0, 4)

def _tensor_getitem(self, index):
    item = tuple(tensor[index] for tensor in self.tensors)
    return item if self.transform is None else self.transform(item)

# A library dataset (the class is torch's): probed when all it holds is library objects or data.
TensorDataset = _fake("torch.utils.data.dataset", "TensorDataset", (TorchDataset,), {
    "__len__": lambda self: len(self.tensors[0]), "__getitem__": _tensor_getitem})

def library_dataset(transform=None):
    dataset = TensorDataset()
    dataset.tensors, dataset.transform = (np.zeros((10, 4)), np.arange(10)), transform
    return dataset

def user_transform(item):
    probes.append("transform")
    return item

plain_tensors = library_dataset()
transformed_tensors = library_dataset(user_transform)

def _loader(dataset, batch_size):
    loader = TorchLoader()
    loader.dataset, loader.batch_size, loader.drop_last, loader.num_workers = dataset, batch_size, False, 0
    loader.collate_fn = default_collate
    return loader

def default_collate(batch):
    advanced.append("collate")

default_collate.__module__ = "torch.utils.data._utils.collate"

stream_loader = _loader(Stream(), 32)
image_loader = _loader(Images(), 16)
"""


@pytest.fixture(scope="module")
def hostile(embedded_kernel):
    for code in (HOSTILE, TORCH_LOOKALIKES, FAKE_TORCH):
        result = embedded_kernel.execute(code)
        assert result["status"] == "ok", result["stdout"]
    return embedded_kernel


def test_generators_and_iterators_are_not_advanced(hostile):
    objects = hostile.summarize("gen", "it", "mapped")["objects"]
    assert objects["gen"]["kind"] == "iterator" and objects["gen"]["V"] == {"state": "GEN_CREATED"}
    assert objects["it"]["kind"] == "iterator" and objects["mapped"]["kind"] == "iterator"
    assert hostile.evaluate("advanced") == []
    assert hostile.evaluate("[next(it), next(mapped)]") == [10, "1"]


def test_sleeping_and_raising_dunders_never_run(hostile):
    started = time.perf_counter()
    summary = hostile.summarize(
        "sleepy", "raising", "sleepy_list", "zoo", "raising.value", "sleepy.missing"
    )
    assert time.perf_counter() - started < 2, "a sleeping dunder was called"
    objects = summary["objects"]
    assert objects["sleepy"] == {
        "type": "__main__.Sleepy",
        "kind": "object",
        "R": {"class": "__main__.Sleepy"},
    }
    assert objects["raising"]["kind"] == "object"
    assert (
        objects["sleepy_list"]["S"] == {"length": 3}
        and objects["sleepy_list"]["V"]["preview"] == "[1, 2, 3]"
    )
    assert objects["zoo"]["V"]["preview"] == "[<Sleepy>, <Raising>, 1]"
    assert objects["raising.value"]["error"] == "not_evaluated"
    assert objects["raising.value"]["reason"] == "property"
    assert objects["sleepy.missing"]["error"] == "not_evaluated"
    assert objects["sleepy.missing"]["reason"] == "dynamic"


def test_a_failing_column_gives_an_error_entry_not_a_failed_request(hostile):
    frame = hostile.summarize("frame")["objects"]["frame"]
    assert frame["V"]["column_values"]["a"]["has_nan"] is True
    # Lists are neither hashed nor formatted (their items may be user objects): no unique count.
    assert frame["V"]["column_values"]["c"] == {"kind": "object", "has_nan": False}


def test_a_summarizer_that_raises_is_isolated(hostile):
    # A library object whose property raises (a torch.Tensor look-alike: torch code is trusted).
    hostile.execute(
        "Exploding = type('Tensor', (), {'shape': property(lambda self: 1 / 0)})\n"
        "Exploding.__module__ = 'torch'\n"
        "bad = Exploding()"
    )
    objects = hostile.summarize("bad", "frame")["objects"]
    assert objects["bad"] == {
        "type": "torch.Tensor",
        "error": "raised",
        "exception": "ZeroDivisionError",
        "message": "division by zero",
    }
    assert objects["frame"]["kind"] == "dataframe"


def test_dataloaders_are_read_not_iterated(hostile):
    state_before = hostile.evaluate(
        "[random.random() for _ in [random.seed(7)]] and "
        "str(np.random.seed(7) or np.random.get_state()[1][:4])"
    )
    objects = hostile.summarize("stream_loader", "image_loader")["objects"]
    stream = objects["stream_loader"]
    assert stream["kind"] == "dataloader" and stream["S"] == {"batch_size": 32, "num_workers": 0}
    assert stream["R"]["dataset"]["kind"] == "torch_iterable_dataset"
    assert hostile.evaluate("advanced") == []
    assert (
        objects["image_loader"]["R"]["collate_fn"]
        == "torch.utils.data._utils.collate.default_collate"
    )
    # A user's dataset class runs user code on len() and [i]: not probed without opt-in.
    images = objects["image_loader"]["R"]["dataset"]
    assert images == {
        "type": "__main__.Images",
        "kind": "torch_dataset",
        "R": {"class": "__main__.Images"},
        "V": {"probed": 0},
    }
    assert hostile.evaluate("probes") == []
    opted_in = hostile.summarize("image_loader", probe_datasets=True)["objects"]
    images = opted_in["image_loader"]["R"]["dataset"]
    assert images["kind"] == "torch_dataset" and images["S"] == {"length": 1000}
    assert images["V"] == {"probed": 3} and images["R"]["samples_agree"] is True
    assert images["R"]["sample"] == [
        {"type": "ndarray", "shape": [3, 8, 8], "dtype": "float64"},
        {"type": "int", "value": images["R"]["sample"][1]["value"]},
    ]
    assert hostile.evaluate("probes") == ["len", 0, 500, 999]
    assert hostile.evaluate("str(np.random.get_state()[1][:4])") == state_before
    hostile.execute("probes.clear()")


def test_library_datasets_are_probed_only_when_they_hold_no_user_code(hostile):
    objects = hostile.summarize("plain_tensors", "transformed_tensors")["objects"]
    plain = objects["plain_tensors"]
    assert plain["S"] == {"length": 10} and plain["V"] == {"probed": 3}
    assert plain["R"]["sample"] == [
        {"type": "ndarray", "shape": [4], "dtype": "float64"},
        {"type": "int64"},
    ]
    assert objects["transformed_tensors"]["V"] == {"probed": 0}
    assert "S" not in objects["transformed_tensors"]
    assert hostile.evaluate("probes") == []


def test_user_frames_are_unchanged(hostile):
    fingerprint = (
        "[str(pd.util.hash_pandas_object(train, index=True).sum()), list(train.columns), "
        "[str(d) for d in train.dtypes], train.attrs, train.index.name]"
    )
    hostile.execute("train = pd.DataFrame({'Age': [22.0, None, 38.0], 'Sex': ['m', 'f', None]})")
    before = hostile.evaluate(fingerprint)
    hostile.summarize("train", "train.Age", "train.Sex", focus_columns=["Sex"])
    assert hostile.evaluate(fingerprint) == before


def test_ten_million_rows_by_fifty_columns_is_sampled_and_left_unchanged(hostile):
    # 2 GB of zeros is allocated lazily: the frame costs no time to build, and the summary must
    # still sample it rather than read it all. How fast it is: benchmarks/kernel_summary.py.
    created = hostile.execute(
        "big_values = np.zeros((50, 10_000_000), dtype=np.float32).T\n"
        "big_values[5_000_000, 3] = np.nan\n"
        "big_values[7, 1] = 2.5\n"
        "big = pd.DataFrame(big_values, columns=[f'c{i}' for i in range(50)], copy=False)\n"
        "big_fingerprint = lambda: [float(big_values[7, 1]), bool(np.isnan(big_values[5_000_000, 3])),\n"
        "                           big.shape, id(big._mgr), list(big.columns)]\n"
        "big_before = big_fingerprint()",
        store_history=False,
    )
    assert created["status"] == "ok", created["stdout"]
    summary = hostile.summarize("big", budget_ms=250)
    big = summary["objects"]["big"]
    assert big["S"] == {"shape": [10_000_000, 50]} and big["sampled"] is True
    assert len(big["R"]["columns"]) == 50 and len(big["V"]["column_values"]) <= 20
    assert hostile.evaluate("big_fingerprint() == big_before") is True
    hostile.execute("del big, big_values, big_before, big_fingerprint", store_history=False)
