"""Type-level introspection that runs no user code.

Objects are classified by `type(obj)` and its MRO only, read through `type`'s own descriptors:
`isinstance`, `hasattr`, `getattr` and even `cls.__mro__` may run a user's `__class__` property,
`__getattr__` or a metaclass's `__getattribute__`. Libraries are recognised by class module names
and looked up in `sys.modules`, never imported.
"""

import sys
import types
import weakref

# Top-level modules whose own classes run only library code when their attributes are read, so
# paths through objects of these exact classes (not of user subclasses) may use a plain `getattr`.
TRUSTED_LIBRARIES = frozenset(
    {
        "builtins",
        "collections",
        "datetime",
        "decimal",
        "pathlib",
        "numpy",
        "pandas",
        "scipy",
        "sklearn",
        "xgboost",
        "lightgbm",
        "catboost",
        "torch",
        "torchvision",
        "tensorflow",
        "keras",
        "tf_keras",
        "matplotlib",
        "seaborn",
        "statsmodels",
    }
)
MISSING = object()
LIBRARY_CHECK_OBJECTS = 10_000  # objects looked at to tell that an object holds library ones only
LIBRARY_CHECK_DEPTH = 8
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), bytes, complex})
_INERT_TYPES = frozenset(
    {types.BuiltinFunctionType, types.MethodDescriptorType, types.WrapperDescriptorType,
     weakref.ReferenceType}  # a back reference (pandas' Flags) is not followed by library code
)  # fmt: skip

# `type`'s descriptors, called directly so that no metaclass can intercept the lookup.
_TYPE_MRO = vars(type)["__mro__"]
_TYPE_DICT = vars(type)["__dict__"]
_TYPE_NAME = vars(type)["__name__"]
_TYPE_QUALNAME = vars(type)["__qualname__"]
_TYPE_MODULE = vars(type)["__module__"]
_MODULE_DICT = vars(types.ModuleType)["__dict__"]


def class_mro(cls) -> tuple:
    return _TYPE_MRO.__get__(cls)


def class_dict(cls):
    """The class's own namespace (a mappingproxy), without going through its metaclass."""
    return _TYPE_DICT.__get__(cls)


def class_name(cls) -> str:
    return _TYPE_NAME.__get__(cls)


def class_module(cls) -> str:
    module = _TYPE_MODULE.__get__(cls)
    return module if type(module) is str else ""


def is_module(obj) -> bool:
    return is_subclass(type(obj), types.ModuleType)


def module_dict(module) -> dict:
    """A module's namespace, without a module subclass's `__getattribute__`."""
    return _MODULE_DICT.__get__(module)


def module_name(module) -> str:
    name = module_dict(module).get("__name__")
    return name if type(name) is str else ""


def is_subclass(cls, base) -> bool:
    """`issubclass` by MRO membership: no `__subclasscheck__` (an ABC's walks user subclasses)."""
    return base in class_mro(cls)


def class_lookup(cls, name: str, default=MISSING):
    """What the class's MRO holds under `name` (a descriptor is returned, not called)."""
    for klass in class_mro(cls):
        found = class_dict(klass).get(name, MISSING)
        if found is not MISSING:
            return found
    return default


def defining_class(cls, name: str):
    """The class of `cls`'s MRO whose namespace defines `name`, else None."""
    return next((klass for klass in class_mro(cls) if name in class_dict(klass)), None)


def class_qualname(cls) -> str:
    return _TYPE_QUALNAME.__get__(cls)


def qualified_name(cls) -> str:
    module = class_module(cls)
    qualname = class_qualname(cls)
    return qualname if module == "builtins" else f"{module}.{qualname}"


def type_name(obj) -> str:
    return qualified_name(type(obj))


def is_trusted_module(module: str) -> bool:
    return module.split(".")[0] in TRUSTED_LIBRARIES


def is_trusted_type(cls) -> bool:
    return is_trusted_module(class_module(cls))


def _in_package(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def mro_has(obj, names, prefixes) -> bool:
    """Whether a class of `obj`'s MRO is called one of `names` and lives under one of `prefixes`.

    Duck typing by name keeps torch, TensorFlow and Keras out of our imports (and lets tests use
    small look-alike classes).
    """
    return any(
        class_name(cls) in names and _in_package(class_module(cls), prefixes)
        for cls in class_mro(type(obj))
    )


def library_class(module: str, name: str):
    """The class `module.name` when that module is already loaded, else None."""
    loaded = sys.modules.get(module)
    found = module_dict(loaded).get(name) if is_module(loaded) else None
    return found if is_subclass(type(found), type) else None


def instance_dict(obj) -> dict:
    """The instance's `__dict__`, read through the C descriptor `type` gives every class with one
    (a user's `__dict__` property or `__getattribute__` never runs)."""
    cls = type(obj)
    if is_subclass(cls, type):
        return {}
    descriptor = class_lookup(cls, "__dict__", None)
    if type(descriptor) is not types.GetSetDescriptorType:
        return {}
    try:
        found = descriptor.__get__(obj, cls)
    except Exception:
        return {}
    return found if type(found) is dict else {}


def instance_attr(obj, name: str, default=None):
    """An attribute stored on the instance itself (no property, no `__getattr__`)."""
    return instance_dict(obj).get(name, default)


def holds_library_objects_only(obj, budget=None) -> bool:
    """Whether `obj`'s class and everything reachable from its attributes (through containers,
    instance dicts, bound methods) is a trusted library's or plain data, so that library code
    working on it (a property, `len`, `ds[i]`) calls no user code: no user transform, wrapped user
    dataset or user estimator in a library Pipeline. Unknown (too much to look at) counts as no."""
    pending, seen = [(obj, 0)], set()
    while pending:
        current, depth = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if len(seen) > LIBRARY_CHECK_OBJECTS or depth > LIBRARY_CHECK_DEPTH:
            return False
        if budget is not None and len(seen) % 1_000 == 0:
            budget.check()
        cls = type(current)
        if cls in _PLAIN_TYPES or cls in _INERT_TYPES:
            continue
        if cls is types.FunctionType:
            if type(current.__module__) is not str or not is_trusted_module(current.__module__):
                return False
            continue
        if cls in (list, tuple, set, frozenset, dict):
            items = [*dict.keys(current), *dict.values(current)] if cls is dict else list(current)
            if not set(map(type, items)) <= _PLAIN_TYPES:  # plain lists (targets, paths) at C speed
                pending.extend((item, depth + 1) for item in items)
            continue
        if cls is types.MethodType:
            pending.extend(((current.__func__, depth + 1), (current.__self__, depth + 1)))
            continue
        if not is_trusted_type(cls):
            return False
        pending.extend((value, depth + 1) for value in instance_dict(current).values())
    return True


def library_attr(obj, name: str, default=None):
    """`getattr` on an object of a trusted library's own class, whose properties run library
    code; on any other object only what the instance itself stores.

    Any exception (an unfitted estimator's missing attribute, an unbuilt model) reads as absent.
    """
    if not is_trusted_type(type(obj)):
        return instance_attr(obj, name, default)
    try:
        return getattr(obj, name)
    except Exception:
        return default


def library_version(name: str):
    module = sys.modules.get(name)
    version = module_dict(module).get("__version__") if is_module(module) else None
    # torch's is a str subclass; `str.__str__` gives the plain string without calling its methods.
    return str.__str__(version) if is_subclass(type(version), str) else None
