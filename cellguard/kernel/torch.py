"""PyTorch modules, datasets and DataLoaders, recognised by class name and module (never imported).

A DataLoader or an IterableDataset is never iterated: that would start workers, consume a stream or
shuffle. A map-style dataset is probed with `len()` and `ds[i]` for a few i while the budget lasts,
as the issue allows; the global random states are restored afterwards, since `__getitem__` often
applies random augmentations.
"""

import random
import sys
import types
from contextlib import contextmanager

from .introspect import instance_attr, instance_dict, library_attr, mro_has, qualified_name

TORCH = ("torch",)
PROBES = 3
LAYER_FACTS = (
    "in_features",
    "out_features",
    "in_channels",
    "out_channels",
    "kernel_size",
    "num_embeddings",
    "embedding_dim",
    "normalized_shape",
    "num_features",
    "input_size",
    "hidden_size",
    "num_layers",
)


def summarizer_for(obj):
    if mro_has(obj, {"Module"}, ("torch.nn",)):
        return summarize_module
    if mro_has(obj, {"DataLoader"}, TORCH):
        return summarize_dataloader
    if mro_has(obj, {"IterableDataset"}, TORCH):
        return summarize_iterable_dataset
    if mro_has(obj, {"Dataset"}, TORCH):
        return summarize_dataset
    return None


def summarize_module(module, ctx) -> dict:
    leaves = _leaf_modules(module)
    return {
        "kind": "torch_module",
        "S": {"n_params": _count_params(module), "n_layers": len(leaves)},
        "R": {
            "first_layer": _layer(leaves[0]) if leaves else None,
            "last_layer": _layer(leaves[-1]) if leaves else None,
        },
        "V": {"training": instance_attr(module, "training")},
    }


def summarize_dataloader(loader, ctx) -> dict:
    attrs = instance_dict(loader)
    dataset = attrs.get("dataset")
    sampler = attrs.get("sampler")
    collate = attrs.get("collate_fn")
    return {
        "kind": "dataloader",
        "S": {"batch_size": attrs.get("batch_size"), "num_workers": attrs.get("num_workers")},
        "R": {
            "drop_last": attrs.get("drop_last"),
            "sampler": None if sampler is None else type(sampler).__name__,
            "collate_fn": None if collate is None else _callable_name(collate),
            "dataset": None if dataset is None else ctx.summarize(dataset, ctx),
        },
    }


def _callable_name(fn) -> str:
    """`module.qualname` of a plain function (read from the function object itself, which runs no
    user code), else the qualified name of the callable's class."""
    if isinstance(fn, types.FunctionType):
        return f"{fn.__module__}.{fn.__qualname__}"
    return qualified_name(type(fn))


def summarize_iterable_dataset(dataset, ctx) -> dict:
    return {"kind": "torch_iterable_dataset", "R": {"class": qualified_name(type(dataset))}}


def summarize_dataset(dataset, ctx) -> dict:
    try:
        length = len(dataset)
    except TypeError:  # a map-style dataset need not define __len__; then nothing is probed
        length = None
    samples = []
    with _preserved_random_state():
        for index in sorted({0, length // 2, length - 1})[:PROBES] if length else []:
            if ctx.budget.expired():
                ctx.truncated = True
                break
            samples.append(_describe_sample(dataset[index]))
    return {
        "kind": "torch_dataset",
        "S": {"length": length},
        "R": {
            "class": qualified_name(type(dataset)),
            "sample": samples[0] if samples else None,
            "samples_agree": len({_layout(sample) for sample in samples}) == 1 if samples else None,
        },
        "V": {"probed": len(samples)},
    }


def _describe_sample(sample) -> list:
    """[{type, shape, dtype}] per element of a (tuple / list / dict) sample."""
    if isinstance(sample, dict):
        return [dict(_describe_value(value), key=str(key)) for key, value in sample.items()]
    if isinstance(sample, (tuple, list)):
        return [_describe_value(value) for value in sample]
    return [_describe_value(sample)]


def _layout(sample) -> tuple:
    """What must agree between samples for them to batch: types, shapes and dtypes, not values."""
    return tuple(
        (part.get("key"), part["type"], tuple(part.get("shape", ())), part.get("dtype"))
        for part in sample
    )


def _describe_value(value) -> dict:
    described = {"type": type(value).__name__}
    shape = library_attr(value, "shape") if hasattr(type(value), "shape") else None
    if shape is not None:
        described["shape"] = [int(n) for n in shape]
        described["dtype"] = str(library_attr(value, "dtype"))
    elif isinstance(value, (int, float, bool, str)):
        described["value"] = value if not isinstance(value, str) else value[:40]
    return described


def _leaf_modules(module) -> list:
    """Modules without children, in registration order, read from the `_modules` dicts."""
    children = instance_attr(module, "_modules") or {}
    if not children:
        return [module]
    leaves = []
    for child in children.values():
        if child is not None:
            leaves.extend(_leaf_modules(child))
    return leaves


def _layer(layer) -> dict:
    facts = {"class": type(layer).__name__}
    for name in LAYER_FACTS:
        value = instance_attr(layer, name)
        if value is not None:
            facts[name] = list(value) if isinstance(value, tuple) else value
    return facts


def _count_params(module):
    try:
        return int(sum(parameter.numel() for parameter in module.parameters()))
    except Exception:  # lazy modules hold uninitialised parameters
        return None


@contextmanager
def _preserved_random_state():
    numpy_random = vars(sys.modules["numpy"]).get("random") if "numpy" in sys.modules else None
    torch_random = vars(sys.modules["torch"]).get("random") if "torch" in sys.modules else None
    states = [(random.setstate, random.getstate())]
    if numpy_random is not None:
        states.append((numpy_random.set_state, numpy_random.get_state()))
    if torch_random is not None:
        states.append((torch_random.set_rng_state, torch_random.get_rng_state()))
    try:
        yield
    finally:
        for restore, state in states:
            restore(state)
