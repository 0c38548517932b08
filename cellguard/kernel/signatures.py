"""Signatures of callables, read statically: what kind of callable it is, and its library.

A Python function's signature is built from its code object and defaults, a builtin's from its
`__text_signature__`, a class's from the `__init__` / `__new__` (or metaclass `__call__`) its MRO
holds. Nothing is looked up through `getattr` and `inspect.signature` only sees builtins, so a
user's `__getattr__`, `__signature__` or `__wrapped__` property, a lying `__class__` or a metaclass
`__getattr__` never runs. Where only user code could tell, `signature_error` says `user_code`.
"""

import functools
import inspect
import types

from .introspect import (
    class_dict,
    class_lookup,
    class_module,
    class_mro,
    defining_class,
    is_module,
    is_subclass,
    is_trusted_type,
    library_version,
    module_name,
)
from .jsonsafe import cut, short_repr

_BUILTIN_TYPES = (
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.MethodWrapperType,
    types.ClassMethodDescriptorType,
)
# None of these can be subclassed, so `type(obj) in ...` is exact; partial can, and is read
# through its own member descriptors.
_FUNCTION_TYPES = (types.FunctionType, types.MethodType, *_BUILTIN_TYPES)
_PARTIAL_MEMBERS = {name: vars(functools.partial)[name] for name in ("func", "args", "keywords")}
_P = inspect.Parameter
_WRAPPED_LIMIT = 20  # `__wrapped__` chains longer than this read as user code (a cycle)


def callable_kind(obj) -> str:
    cls = type(obj)
    if is_subclass(cls, type):
        return "class"
    if is_module(obj):
        return "module"
    if cls is types.MethodType:
        return "method"
    if cls is types.BuiltinFunctionType:
        # Builtin methods bound to an object (`[].append`) have a non-module `__self__`.
        owner = obj.__self__
        return "builtin" if owner is None or is_module(owner) else "method"
    if cls in _BUILTIN_TYPES:
        return "builtin"
    return "function"


def defining_module(obj) -> str:
    """The module that defines `obj` (a callable instance counts as its class's)."""
    cls = type(obj)
    if is_module(obj):
        return module_name(obj)
    if is_subclass(cls, type):
        return class_module(obj)
    if cls is types.MethodType:
        return defining_module(obj.__func__)
    if is_subclass(cls, functools.partial):
        return defining_module(_PARTIAL_MEMBERS["func"].__get__(obj))
    if cls is types.FunctionType or cls is types.BuiltinFunctionType:
        module = obj.__module__
        if type(module) is str:
            return module
    if cls in _BUILTIN_TYPES:
        # Method descriptors and slot wrappers: the module of the class they belong to.
        owner = (
            obj.__self__
            if cls in (types.BuiltinFunctionType, types.MethodWrapperType)
            else obj.__objclass__
        )
        return class_module(owner if is_subclass(type(owner), type) else type(owner))
    return class_module(cls)


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
    found = _Found()
    try:
        signature = _signature(obj, found)
    except (TypeError, ValueError):
        # Some builtins have no introspectable signature: say so rather than fail.
        facts["signature_error"] = "no_signature"
        return facts
    if signature is None:
        facts["signature_error"] = "user_code"
        return facts
    parameters = [_shown(p) for p in signature.parameters.values()]
    # Annotations are left out: long, and formatting them may call arbitrary `__repr__`s.
    plain = signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty)
    facts["signature"] = cut(str(plain), 400)
    facts["parameters"] = [_parameter(p) for p in parameters]
    # A decorator's wrapper shows the wrapped function's signature but may accept other calls.
    facts["wrapped"] = found.wrapped
    return facts


class _Found:
    """What reading a signature came across: a `__wrapped__` function on the way."""

    wrapped = False


def _signature(obj, found: _Found):
    """`obj`'s signature, None when only user code could give it."""
    cls = type(obj)
    if cls is types.FunctionType:
        return _function_signature(obj, found)
    if cls is types.MethodType:
        return _without_first(_signature(obj.__func__, found))
    if cls in _BUILTIN_TYPES:
        return _builtin_signature(obj)
    if is_subclass(cls, functools.partial):
        return _partial_signature(obj, found)
    if is_subclass(cls, type):
        found.wrapped = class_lookup(obj, "__wrapped__", None) is not None
        return _class_signature(obj, found)
    # A callable instance: its class's `__call__`, when that is a plain function.
    call = class_lookup(cls, "__call__", None)
    return (
        _without_first(_function_signature(call, found))
        if type(call) is types.FunctionType
        else None
    )


def _function_signature(func, found: _Found):
    """From the code object, following `__wrapped__` through the functions' own `__dict__`s."""
    for _ in range(_WRAPPED_LIMIT):
        attributes = func.__dict__  # may be a dict subclass: read through `dict.get`
        declared = dict.get(attributes, "__signature__")
        if declared is not None:
            return declared if type(declared) is inspect.Signature else None
        wrapped = dict.get(attributes, "__wrapped__")
        if wrapped is None:
            return _code_signature(func)
        found.wrapped = True
        if type(wrapped) is not types.FunctionType:
            return _signature(wrapped, found)
        func = wrapped
    return None


def _code_signature(func) -> inspect.Signature:
    code = func.__code__
    names = code.co_varnames
    positional, keyword_only = code.co_argcount, code.co_kwonlyargcount
    defaults = func.__defaults__ or ()
    keyword_defaults = func.__kwdefaults__  # a dict (subclass): read through `dict.get`
    if keyword_defaults is None:
        keyword_defaults = {}
    first_default = positional - len(defaults)
    parameters = []
    for index, name in enumerate(names[:positional]):
        kind = _P.POSITIONAL_ONLY if index < code.co_posonlyargcount else _P.POSITIONAL_OR_KEYWORD
        default = defaults[index - first_default] if index >= first_default else _P.empty
        parameters.append(_P(name, kind, default=default))
    rest = positional + keyword_only
    if code.co_flags & inspect.CO_VARARGS:
        parameters.append(_P(names[rest], _P.VAR_POSITIONAL))
        rest += 1
    for name in names[positional : positional + keyword_only]:
        parameters.append(
            _P(name, _P.KEYWORD_ONLY, default=dict.get(keyword_defaults, name, _P.empty))
        )
    if code.co_flags & inspect.CO_VARKEYWORDS:
        parameters.append(_P(names[rest], _P.VAR_KEYWORD))
    return inspect.Signature(parameters)


def _builtin_signature(builtin):
    owner = (
        builtin.__self__
        if type(builtin) in (types.BuiltinFunctionType, types.MethodWrapperType)
        else None
    )
    if owner is None or is_module(owner) or is_trusted_type(type(owner)):
        # inspect asks `isinstance(owner, ModuleType)`, which reads `owner.__class__`: library
        # and builtin objects only.
        return inspect.signature(builtin)
    # Bound to a user object: the unbound method of the same name in its class's MRO.
    unbound = class_lookup(type(owner), builtin.__name__, None)
    if type(unbound) not in (types.MethodDescriptorType, types.WrapperDescriptorType):
        return None
    return _without_first(inspect.signature(unbound))


class _PartialArguments:
    """A partial's arguments for inspect's partial logic, shown without their reprs."""

    def __init__(self, args, keywords):
        self.args, self.keywords = args, keywords

    def __repr__(self) -> str:
        return "partial"


def _partial_signature(partial, found: _Found):
    members = {name: member.__get__(partial) for name, member in _PARTIAL_MEMBERS.items()}
    signature = _signature(members["func"], found)
    if (
        signature is None
        or type(members["args"]) is not tuple
        or type(members["keywords"]) is not dict
    ):
        return None
    return inspect._signature_get_partial(
        signature, _PartialArguments(members["args"], members["keywords"])
    )


def _class_signature(cls, found: _Found):
    """The constructor's parameters, as `inspect.signature` finds them, statically."""
    declared = class_lookup(cls, "__signature__", None)
    if declared is not None:
        return declared if type(declared) is inspect.Signature else None
    metaclass = type(cls)
    call_owner = defining_class(metaclass, "__call__")
    if call_owner is not type:
        call = class_dict(call_owner)["__call__"] if call_owner is not None else None
        return (
            _without_first(_function_signature(call, found))
            if type(call) is types.FunctionType
            else None
        )
    for klass in class_mro(cls)[:-1]:  # `object` last: its __init__ takes nothing
        namespace = class_dict(klass)
        method = namespace.get("__new__", namespace.get("__init__"))
        if method is None:
            continue
        if type(method) is staticmethod:  # a Python `__new__`
            method = method.__func__
        if type(method) is types.FunctionType:
            return _without_first(_function_signature(method, found))
        if type(method) in _BUILTIN_TYPES and (metaclass is type or is_trusted_type(metaclass)):
            # A builtin constructor (C classes): inspect reads `__text_signature__`s only.
            return inspect.signature(cls)
        return None
    return inspect.Signature()


def _without_first(signature):
    """The signature without `self` (a bound method, a constructor)."""
    if signature is None:
        return None
    parameters = list(signature.parameters.values())
    if parameters and parameters[0].kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD):
        parameters = parameters[1:]
    return signature.replace(parameters=parameters)


class _Shown:
    """A default value's short repr, so that formatting a signature never calls a user's `__repr__`."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _shown(parameter: inspect.Parameter) -> inspect.Parameter:
    """The parameter without annotation, its default replaced by the default's short repr."""
    parameter = parameter.replace(annotation=_P.empty)
    if parameter.default is _P.empty:
        return parameter
    return parameter.replace(default=_Shown(short_repr(parameter.default, 80)))


def _parameter(parameter: inspect.Parameter) -> dict:
    described = {"name": parameter.name, "kind": parameter.kind.name}
    if parameter.default is not _P.empty:
        described["default"] = parameter.default.text
    return described


def is_callable_value(obj) -> bool:
    """Functions, methods, builtins and partials (classes and modules have their own kinds)."""
    return type(obj) in _FUNCTION_TYPES or is_subclass(type(obj), functools.partial)
