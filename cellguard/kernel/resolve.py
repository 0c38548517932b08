"""Resolving names and dotted attribute paths (`model.classes_`, `pd.read_csv`) without side effects.

Each step looks the attribute up with `inspect.getattr_static` first. Plain values, functions and
slots are taken as they are (binding a function runs no user code). Properties and dynamic
attributes (`__getattr__`) are evaluated only on objects of trusted libraries (`df.Age`,
`pipe.classes_`); on a user's class they would run arbitrary code, so the step fails instead. On a
module only its namespace is read: a module-level `__getattr__` may import a submodule lazily.
"""

import builtins
import inspect
import types

from .introspect import instance_dict, is_trusted_type

_MISSING = object()
# Descriptors whose `__get__` is known to run no user code.
_SAFE_DESCRIPTORS = (
    types.FunctionType,
    classmethod,
    staticmethod,
    types.MemberDescriptorType,
    types.GetSetDescriptorType,
    types.MethodDescriptorType,
    types.BuiltinFunctionType,
    types.WrapperDescriptorType,
)


class Undefined(LookupError):
    """The first name of a path is not in the namespace."""


class Unresolvable(LookupError):
    """An attribute on the path is missing, or reading it would run user code."""


def resolve(path: str, namespace: dict):
    head, *attributes = path.split(".")
    if head in namespace:
        obj = namespace[head]
    elif head in vars(builtins):  # `len`, `zip`: defined for the cell though not in the namespace
        obj = vars(builtins)[head]
    else:
        raise Undefined(path)
    for attribute in attributes:
        obj = get_attribute(obj, attribute)
    return obj


def _removed_attribute(module, name: str):
    """What a module's own table of removed attributes says of `name` (numpy's `__former_attrs__`
    and `__expired_attributes__`, which its `__getattr__` raises AttributeError for), else None."""
    for table in ("__former_attrs__", "__expired_attributes__"):
        removed = vars(module).get(table)
        if type(removed) is dict and type(removed.get(name)) is str:
            return " ".join(removed[name].split())
    return None


def get_attribute(obj, name: str):
    found = inspect.getattr_static(obj, name, _MISSING)
    cls = type(obj)
    if issubclass(cls, types.ModuleType):
        if found is _MISSING:
            missing = f"module {obj.__name__!r} has no attribute {name!r}"
            if cls is types.ModuleType and "__getattr__" not in vars(obj):
                raise Unresolvable(missing)
            removed = _removed_attribute(obj, name)
            if removed is not None:
                removed = removed.removeprefix(missing).lstrip(".: ")
                raise Unresolvable(f"{missing}: {removed}"[:240])
            # A module `__getattr__` (or a lazy module class) may still provide it: not called,
            # since it may import.
            raise Unresolvable(f"module {obj.__name__!r} has no loaded attribute {name!r}")
        return found
    if issubclass(cls, type) or is_trusted_type(cls):
        # Classes and library objects: a real getattr (on a class it only binds or returns).
        try:
            return getattr(obj, name)
        except AttributeError:
            raise Unresolvable(f"{cls.__name__!r} object has no attribute {name!r}") from None
    if found is _MISSING:
        raise Unresolvable(
            f"{cls.__name__!r} object has no attribute {name!r} (dynamic attributes are not evaluated)"
        )
    if instance_dict(obj).get(name, _MISSING) is found or not hasattr(type(found), "__get__"):
        return found
    if issubclass(type(found), _SAFE_DESCRIPTORS):
        # Call the descriptor directly: `getattr` would go through a user's `__getattribute__`.
        return type(found).__get__(found, obj, cls)
    raise Unresolvable(
        f"{cls.__name__}.{name} is a {type(found).__name__}; it is not evaluated on user classes"
    )
