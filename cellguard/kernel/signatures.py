"""Signatures of callables: `inspect.signature`, what kind of callable it is, and its library."""

import functools
import inspect
import types

from .introspect import library_version
from .jsonsafe import cut, short_repr

_FUNCTION_TYPES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.MethodWrapperType,
    types.ClassMethodDescriptorType,
    functools.partial,
)


def callable_kind(obj) -> str:
    cls = type(obj)
    if issubclass(cls, type):
        return "class"
    if issubclass(cls, types.ModuleType):
        return "module"
    if issubclass(cls, types.MethodType):
        return "method"
    if issubclass(cls, types.BuiltinFunctionType):
        # Builtin methods bound to an object (`[].append`) have a non-module `__self__`.
        owner = obj.__self__
        return "builtin" if owner is None or issubclass(type(owner), types.ModuleType) else "method"
    if issubclass(
        cls,
        (
            types.MethodDescriptorType,
            types.WrapperDescriptorType,
            types.MethodWrapperType,
            types.ClassMethodDescriptorType,
        ),
    ):
        return "builtin"
    return "function"


def defining_module(obj) -> str:
    """The module that defines `obj` (a callable instance counts as its class's)."""
    cls = type(obj)
    if issubclass(cls, types.ModuleType):
        return obj.__name__
    if issubclass(cls, types.MethodType):
        obj = obj.__func__
    elif issubclass(cls, functools.partial):
        obj = obj.func
    elif not issubclass(cls, type) and not issubclass(cls, _FUNCTION_TYPES):
        return cls.__module__ or ""
    module = getattr(obj, "__module__", None)
    if isinstance(module, str):
        return module
    # Builtin methods and slot wrappers: the module of the class they belong to.
    owner = getattr(obj, "__objclass__", None) or getattr(obj, "__self__", None)
    owner_cls = owner if isinstance(owner, type) else type(owner)
    return owner_cls.__module__ or ""


def describe(obj) -> dict:
    """`{kind, signature, parameters, wrapped, library, version}` for a callable, class or module."""
    library = defining_module(obj).split(".")[0]
    facts = {
        "kind": callable_kind(obj),
        "signature": None,
        "parameters": None,
        "library": library,
        "version": library_version(library),
    }
    if facts["kind"] == "module":
        return facts
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError) as exc:
        # Some builtins have no introspectable signature: say so rather than fail.
        facts["signature_error"] = f"{type(exc).__name__}: {exc}"
        return facts
    parameters = [_shown(p) for p in signature.parameters.values()]
    # Annotations are left out: long, and formatting them may call arbitrary `__repr__`s.
    plain = signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty)
    facts["signature"] = cut(str(plain), 400)
    facts["parameters"] = [_parameter(p) for p in parameters]
    # A decorator's wrapper shows the wrapped function's signature but may accept other calls.
    # (On a class, read statically: a metaclass `__getattr__` is user code.)
    lookup = inspect.getattr_static if facts["kind"] == "class" else getattr
    facts["wrapped"] = lookup(obj, "__wrapped__", None) is not None
    return facts


class _Shown:
    """A default value's short repr, so that formatting a signature never calls a user's `__repr__`."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _shown(parameter: inspect.Parameter) -> inspect.Parameter:
    """The parameter without annotation, its default replaced by the default's short repr."""
    parameter = parameter.replace(annotation=inspect.Parameter.empty)
    if parameter.default is inspect.Parameter.empty:
        return parameter
    return parameter.replace(default=_Shown(short_repr(parameter.default, 80)))


def _parameter(parameter: inspect.Parameter) -> dict:
    described = {"name": parameter.name, "kind": parameter.kind.name}
    if parameter.default is not inspect.Parameter.empty:
        described["default"] = parameter.default.text
    return described


def is_callable_value(obj) -> bool:
    """Functions, methods, builtins and partials (classes and modules have their own kinds)."""
    return issubclass(type(obj), _FUNCTION_TYPES)
