"""Which kind of array an object is (numpy array or scalar, torch or TensorFlow tensor) and its
shape: read by the array summarizers (`arrays`) and by those that describe arrays inside other
objects (dicts in `basic`, model inputs in `keras` and `torch`), so none imports another for it.

Tensors are recognised by class name and module; torch and TensorFlow are never imported. A user's
tensor subclass is no known kind (its `__torch_function__` would run on every operation).
"""

from .introspect import is_subclass, is_trusted_type, library_class, mro_has

NDARRAY, NUMPY_SCALAR, TORCH_TENSOR, TF_TENSOR = "ndarray", "numpy_scalar", "torch", "tensorflow"


def array_kind(obj):
    """NDARRAY, NUMPY_SCALAR, TORCH_TENSOR, TF_TENSOR, or None for anything else."""
    cls = type(obj)
    ndarray, generic = library_class("numpy", "ndarray"), library_class("numpy", "generic")
    if ndarray is not None and is_subclass(cls, ndarray):
        return NDARRAY
    if generic is not None and is_subclass(cls, generic):
        return NUMPY_SCALAR
    if not is_trusted_type(cls):
        return None
    if mro_has(obj, {"Tensor"}, ("torch",)):
        return TORCH_TENSOR
    if mro_has(obj, {"Tensor", "Variable"}, ("tensorflow",)):
        return TF_TENSOR
    return None


def shape_of(obj):
    """The shape of a numpy array or a torch or TensorFlow tensor; None for anything else (and for
    a TensorFlow tensor of unknown rank)."""
    kind = array_kind(obj)
    if kind == NDARRAY:
        return list(plain_array(obj).shape)
    if kind == TORCH_TENSOR:
        return [int(dim) for dim in obj.shape]
    if kind == TF_TENSOR and obj.shape.rank is not None:
        return obj.shape.as_list()
    return None


def plain_array(array):
    """The array itself when numpy's own class, else a base-class view of its memory."""
    ndarray = library_class("numpy", "ndarray")
    return array if is_trusted_type(type(array)) else ndarray.view(array, ndarray)
