"""Resolving names and dotted attribute paths (`model.classes_`, `pd.read_csv`) without side effects.

Each step looks the attribute up statically, in the instance's `__dict__` and the MRO namespaces.
Plain values, functions and slots are taken as they are (binding a function runs no user code).
Properties and dynamic attributes (`__getattr__`) are evaluated only on objects of trusted
libraries' own classes that hold library objects only (`df.Age`, `pipe.classes_`); on a user's
class (a library subclass included), or on a library Pipeline holding a user's estimator, they
would run user code, so the step fails instead. On a module only its namespace is read: a
module-level `__getattr__` may import a submodule lazily. On a class, the class's and then its
metaclass's namespaces are read, so a metaclass `__getattr__` never runs.
"""

import builtins
import types

from .introspect import (
    MISSING,
    class_dict,
    class_lookup,
    class_mro,
    class_name,
    defining_class,
    holds_library_objects_only,
    instance_dict,
    is_module,
    is_subclass,
    is_trusted_type,
    module_dict,
    module_name,
)

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
    types.ClassMethodDescriptorType,
)


class Undefined(LookupError):
    """The first name of a path is not in the namespace."""


class Unresolvable(LookupError):
    """An attribute on the path is missing (`no_attribute`), may come from a module `__getattr__`
    that is not called (`not_loaded`), or reading it would run user code (`not_evaluated`)."""

    def __init__(self, code: str, owner: str, attribute: str, **fields):
        super().__init__(code)
        self.fields = {"error": code, "owner": owner, "attribute": attribute, **fields}


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


def _removed_attribute(namespace, name: str):
    """What a module's own table of removed attributes says of `name` (numpy's `__former_attrs__`
    and `__expired_attributes__`, which its `__getattr__` raises AttributeError for), else None."""
    for table in ("__former_attrs__", "__expired_attributes__"):
        removed = namespace.get(table)
        if type(removed) is dict and type(removed.get(name)) is str:
            return " ".join(removed[name].split())
    return None


def get_attribute(obj, name: str):
    cls = type(obj)
    if is_module(obj):
        return _module_attribute(obj, name)
    if is_subclass(cls, type):
        return _class_attribute(obj, name)
    owner = f"'{class_name(cls)}' object"
    if is_trusted_type(cls) and holds_library_objects_only(obj):
        # A library's own class holding library objects only: its properties and `__getattr__`
        # run library code (a Pipeline's `classes_` reads its last step's).
        try:
            return getattr(obj, name)
        except AttributeError:
            raise Unresolvable("no_attribute", owner, name) from None
    found = class_lookup(cls, name)
    if found is not MISSING and _is_data_descriptor(found):
        return _bind(found, obj, cls, owner, name)
    stored = instance_dict(obj).get(name, MISSING)
    if stored is not MISSING:
        return stored
    if found is MISSING:
        raise Unresolvable("not_evaluated", owner, name, reason="dynamic")
    return _bind(found, obj, cls, owner, name)


def _module_attribute(module, name: str):
    namespace = module_dict(module)
    found = namespace.get(name, MISSING)
    if found is not MISSING:
        return found
    owner = f"module '{module_name(module)}'"
    if type(module) is types.ModuleType and "__getattr__" not in namespace:
        raise Unresolvable("no_attribute", owner, name)
    removed = _removed_attribute(namespace, name)
    if removed is not None:
        missing = f"{owner} has no attribute '{name}'"
        hint = removed[len(missing) :] if removed.startswith(missing) else removed
        raise Unresolvable("no_attribute", owner, name, hint=hint.lstrip(".: ")[:200])
    # A module `__getattr__` (or a lazy module class) may still provide it: not called, since it
    # may import.
    raise Unresolvable("not_loaded", owner, name)


def _class_attribute(cls, name: str):
    """What `cls.name` gives, read from the class's MRO and then its metaclass's."""
    owner = f"type object '{class_name(cls)}'"
    for klass in class_mro(cls):
        found = class_dict(klass).get(name, MISSING)
        if found is MISSING:
            continue
        if type(found) is staticmethod:
            return found.__func__
        if type(found) is classmethod:
            return types.MethodType(found.__func__, cls)
        if type(found) is property or not _has_get(found):
            return found  # a property read on its class is the property itself
        if type(found) in _SAFE_DESCRIPTORS:
            return type(found).__get__(found, None, cls)
        raise Unresolvable("not_evaluated", owner, name, reason=class_name(type(found)))
    metaclass = type(cls)
    found = class_lookup(metaclass, name)
    if found is not MISSING:
        return _bind(found, cls, metaclass, owner, name)
    if defining_class(metaclass, "__getattr__") is not None:
        raise Unresolvable("not_evaluated", owner, name, reason="dynamic")
    raise Unresolvable("no_attribute", owner, name)


def _has_get(value) -> bool:
    return class_lookup(type(value), "__get__", None) is not None


def _is_data_descriptor(value) -> bool:
    cls = type(value)
    return _has_get(value) and (
        class_lookup(cls, "__set__", None) is not None
        or class_lookup(cls, "__delete__", None) is not None
    )


def _bind(found, obj, cls, owner: str, name: str):
    """`found` (from `cls`'s MRO) as `obj.name` gives it, when that runs no user code."""
    if not _has_get(found):
        return found
    if type(found) in _SAFE_DESCRIPTORS:
        # Call the descriptor directly: `getattr` would go through a user's `__getattribute__`.
        return type(found).__get__(found, obj, cls)
    raise Unresolvable("not_evaluated", owner, name, reason=class_name(type(found)))
