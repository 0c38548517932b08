"""numpy arrays and scalars, torch tensors and TensorFlow tensors / Variables.

Tensors are recognised by class name and module (torch and TensorFlow are never imported) and their
value facts are computed by the numpy code below on a host copy of at most SAMPLE_CELLS elements:
big data is sampled along its first axis with a step and flagged `sampled`.

A user's ndarray subclass is read as a plain ndarray over the same memory (`ndarray.view`, which
calls no `__array_finalize__`), so its overrides never run; a user's tensor subclass (whose
`__torch_function__` would run on every operation) is summarized as a plain object.
"""

import sys

from . import basic
from .array_kinds import NDARRAY, NUMPY_SCALAR, TF_TENSOR, TORCH_TENSOR, array_kind, plain_array
from .context import sample_step
from .introspect import library_class
from .jsonsafe import cut, short_repr

UNIQUE_SCAN = 100_000  # unique values are counted only on (sampled) data this small
UNIQUE_LISTED = 20  # and listed when there are at most this many
TEXT_EXAMPLES = 5  # distinct strings listed of an object array
# The element types of an object array whose strings are listed: builtin scalars that convert
# to float, or (str) raise ValueError (None would raise TypeError instead, first or not).
_PLAIN_ELEMENTS = (str, int, float, bool)


def summarizer_for(obj):
    return _SUMMARIZERS.get(array_kind(obj))


def summarize_ndarray(array, ctx) -> dict:
    array = plain_array(array)
    sample, sampled = _sample(array)
    return {
        "kind": "ndarray",
        "S": {"shape": list(array.shape)},
        "R": {"dtype": str(array.dtype)},
        "V": array_value_facts(sample),
        "sampled": sampled,
    }


def summarize_numpy_scalar(value, ctx) -> dict:
    generic = library_class("numpy", "generic")
    plain = generic.item(value)  # numpy's own methods, not a subclass's
    if basic.summarizer_for(plain) is basic.summarize_scalar:
        facts = basic.summarize_scalar(plain, ctx)
    else:  # datetime64 and friends
        facts = {"kind": "object", "V": {"value": short_repr(plain, 80)}}
    facts["R"] = {"dtype": str(vars(generic)["dtype"].__get__(value))}
    return facts


def summarize_torch_tensor(tensor, ctx) -> dict:
    facts = {
        "kind": "tensor",
        "S": {"shape": list(tensor.shape)},
        "R": {
            "dtype": str(tensor.dtype),
            "device": str(tensor.device),
            "requires_grad": bool(tensor.requires_grad),
        },
    }
    try:
        sample, sampled = _sample(tensor.detach())
        host = sample.cpu()
        if not _numpy_compatible(host):
            host = host.float()  # bfloat16 and float8 have no numpy equivalent
        facts["V"] = array_value_facts(host.numpy())
        facts["sampled"] = sampled
    except Exception as exc:
        # Meta, sparse or quantized tensors have no host values; the layout facts still stand.
        facts["V"] = {"values_error": f"{type(exc).__name__}: {exc}"}
    return facts


def summarize_tf_tensor(tensor, ctx) -> dict:
    shape = tensor.shape
    dims = shape.as_list() if shape.rank is not None else None
    facts = {
        "kind": "tf_tensor",
        "S": {"shape": dims},
        "R": {
            "dtype": getattr(tensor.dtype, "name", str(tensor.dtype)),
            "device": str(getattr(tensor, "device", "") or ""),
        },
    }
    if hasattr(tensor, "numpy") and dims is not None:  # symbolic (graph) tensors have no values
        try:
            sample, sampled = _sample(tensor)
            facts["V"] = array_value_facts(sample.numpy())
            facts["sampled"] = sampled
        except Exception as exc:
            facts["V"] = {"values_error": f"{type(exc).__name__}: {exc}"}
    return facts


_SUMMARIZERS = {
    NDARRAY: summarize_ndarray,
    NUMPY_SCALAR: summarize_numpy_scalar,
    TORCH_TENSOR: summarize_torch_tensor,
    TF_TENSOR: summarize_tf_tensor,
}


def array_value_facts(values) -> dict:
    """NaN presence, range and (for small data) unique values of a numpy array."""
    numpy = sys.modules["numpy"]
    facts = {}
    kind = values.dtype.kind
    if kind in "fc":
        nan_mask = numpy.isnan(values)
        facts["has_nan"] = bool(nan_mask.any())
        if facts["has_nan"]:
            values = values[~nan_mask]
    if values.size and kind in "iuf":
        facts["range"] = [values.min().item(), values.max().item()]
    if 0 < values.size <= UNIQUE_SCAN and kind in "biufUS":  # numbers, booleans and strings
        unique = numpy.unique(values)
        facts["unique"] = int(unique.size)
        if unique.size <= UNIQUE_LISTED:
            facts["unique_values"] = unique.tolist()
    if 0 < values.size <= UNIQUE_SCAN and kind == "O":
        facts["examples"] = _text_examples(values)
    return facts


def _text_examples(values):
    """A few distinct strings of an object array whose elements are all builtin scalars (read
    by `type` and compared as exact strs: no user code runs); None when another type is there."""
    examples = []
    for value in values.ravel().tolist():
        if type(value) not in _PLAIN_ELEMENTS:
            return None
        text = cut(value, 40) if type(value) is str else None
        if text is not None and len(examples) < TEXT_EXAMPLES and text not in examples:
            examples.append(text)
    return examples or None


def _sample(data):
    """(data or a strided view along its first axis, sampled?) so at most SAMPLE_CELLS are read."""
    shape = tuple(data.shape)
    if not shape:
        return data, False
    rows = shape[0]
    per_row = 1
    for dim in shape[1:]:
        per_row *= int(dim)
    step = sample_step(rows, per_row)
    return (data[::step], True) if step > 1 else (data, False)


def _numpy_compatible(tensor) -> bool:
    return "bfloat16" not in str(tensor.dtype) and "float8" not in str(tensor.dtype)
