"""PyTorch modules, datasets and DataLoaders, recognised by class name and module (never imported).

A DataLoader or an IterableDataset is never iterated: that would start workers, consume a stream or
shuffle. A map-style dataset is probed with `len()` and `ds[i]` for a few i while the budget lasts,
only when that runs library code alone: the dataset is of a library's own class and everything it
holds (transforms, wrapped datasets, loader functions) is library objects or plain data, or the
request opts in (`probe_datasets`). Python's, numpy's and torch's global random states are
restored afterwards, since `__getitem__` often applies random augmentations. Modules are read from
their `_modules` and `_parameters` dicts.
"""

import random
import sys
import types
from contextlib import contextmanager

from .array_kinds import shape_of
from .introspect import (
    class_name,
    holds_library_objects_only,
    instance_attr,
    instance_dict,
    is_trusted_type,
    library_attr,
    mro_has,
    qualified_name,
)
from .jsonsafe import short_repr

TORCH = ("torch",)
PROBES = 3
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), bytes, complex})
_BUILTIN_CALLABLES = (
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
)
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
    modules = _modules(module, ctx.budget)
    leaves = [candidate for candidate in modules if not _children(candidate)]
    return {
        "kind": "torch_module",
        "S": {"n_params": _count_params(modules), "n_layers": len(leaves)},
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
            "sampler": None if sampler is None else class_name(type(sampler)),
            "collate_fn": None if collate is None else _callable_name(collate),
            "dataset": None if dataset is None else ctx.summarize(dataset, ctx),
        },
    }


def _callable_name(fn) -> str:
    """`module.qualname` of a plain function (read from the function object itself, which runs no
    user code), else the qualified name of the callable's class."""
    if type(fn) is types.FunctionType and type(fn.__module__) is str:
        return f"{fn.__module__}.{fn.__qualname__}"
    return qualified_name(type(fn))


def summarize_iterable_dataset(dataset, ctx) -> dict:
    return {"kind": "torch_iterable_dataset", "R": {"class": qualified_name(type(dataset))}}


def summarize_dataset(dataset, ctx) -> dict:
    facts = {"kind": "torch_dataset", "S": {}, "R": {"class": qualified_name(type(dataset))}}
    # `len(dataset)` and `dataset[i]` run library code only when all it holds is a library's.
    if not (ctx.probe_datasets or holds_library_objects_only(dataset, ctx.budget)):
        facts["V"] = {"probed": 0}
        return facts
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
    facts["S"]["length"] = length
    facts["R"]["sample"] = samples[0] if samples else None
    facts["R"]["samples_agree"] = (
        len({_layout(sample) for sample in samples}) == 1 if samples else None
    )
    facts["V"] = {"probed": len(samples)}
    return facts


def _describe_sample(sample) -> list:
    """[{type, shape, dtype}] per element of a (tuple / list / dict) sample."""
    if type(sample) is dict:
        return [
            dict(_describe_value(value), key=key if type(key) is str else short_repr(key, 40))
            for key, value in sample.items()
        ]
    if type(sample) in (tuple, list):
        return [_describe_value(value) for value in sample]
    return [_describe_value(sample)]


def _layout(sample) -> tuple:
    """What must agree between samples for them to batch: types, shapes and dtypes, not values."""
    return tuple(
        (part.get("key"), part["type"], tuple(part.get("shape", ())), part.get("dtype"))
        for part in sample
    )


def _describe_value(value) -> dict:
    cls = type(value)
    described = {"type": class_name(cls)}
    shape = shape_of(value)
    if shape is not None:
        described["shape"] = shape
        described["dtype"] = str(library_attr(value, "dtype"))
    elif cls in (int, float, bool):
        described["value"] = value
    elif cls is str:
        described["value"] = value[:40]
    return described


def _modules(module, budget) -> list:
    """The module and its descendants (depth first, registration order), from `_modules` dicts."""
    found, pending = [], [module]
    while pending:  # as long as the deadline allows
        current = pending.pop()
        found.append(current)
        if len(found) % 1_000 == 0:
            budget.check()
        pending.extend(reversed([child for child in _children(current) if child is not None]))
    return found


def _children(module) -> list:
    children = instance_attr(module, "_modules")
    return list(dict.values(children)) if type(children) is dict else []


def _layer(layer) -> dict:
    facts = {"class": class_name(type(layer))}
    for name in LAYER_FACTS:
        value = instance_attr(layer, name)
        if value is not None:
            facts[name] = list(value) if type(value) is tuple else value
    return facts


def _count_params(modules):
    """Parameters of every module (shared ones once); None when one is not torch's own or has no
    size yet (lazy modules)."""
    total, seen = 0, set()
    for module in modules:
        parameters = instance_attr(module, "_parameters")
        for parameter in dict.values(parameters) if type(parameters) is dict else ():
            if parameter is None or id(parameter) in seen:
                continue
            if not is_trusted_type(type(parameter)):
                return None
            seen.add(id(parameter))
            try:
                total += int(parameter.numel())
            except Exception:  # an uninitialised (lazy) parameter
                return None
    return total


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
