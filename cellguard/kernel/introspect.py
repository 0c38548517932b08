"""Type-level introspection that runs no user code.

Objects are classified by `type(obj)` and its MRO only: `isinstance` and `hasattr` may consult a
user's `__class__` property or `__getattr__`, so they are avoided on objects of unknown classes.
Libraries are recognised by class module names and looked up in `sys.modules`, never imported.
"""

import sys

# Top-level modules whose attribute access (properties, `__getattr__`) is known to be free of side
# effects, so paths through their objects may be resolved with a plain `getattr`.
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


def qualified_name(cls) -> str:
    module = cls.__module__
    return cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"


def type_name(obj) -> str:
    return qualified_name(type(obj))


def top_module(cls) -> str:
    return (cls.__module__ or "").split(".")[0]


def is_trusted_type(cls) -> bool:
    return top_module(cls) in TRUSTED_LIBRARIES


def _in_package(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def mro_has(obj, names, prefixes) -> bool:
    """Whether a class of `obj`'s MRO is called one of `names` and lives under one of `prefixes`.

    Duck typing by name keeps torch, TensorFlow and Keras out of our imports (and lets tests use
    small look-alike classes).
    """
    return any(
        cls.__name__ in names and _in_package(cls.__module__ or "", prefixes)
        for cls in type(obj).__mro__
    )


def subclass_of(obj, module: str, name: str) -> bool:
    """`issubclass(type(obj), module.name)` when `module` is already loaded, else False."""
    loaded = sys.modules.get(module)
    cls = vars(loaded).get(name) if loaded is not None else None
    return isinstance(cls, type) and issubclass(type(obj), cls)


def instance_dict(obj) -> dict:
    try:
        found = object.__getattribute__(obj, "__dict__")
    except Exception:
        return {}
    return found if type(found) is dict else {}


def instance_attr(obj, name: str, default=None):
    """An attribute stored on the instance itself (no property, no `__getattr__`)."""
    return instance_dict(obj).get(name, default)


def library_attr(obj, name: str, default=None):
    """`getattr` for objects of trusted libraries, whose properties are side-effect free.

    Any exception (an unfitted estimator's missing attribute, an unbuilt model) reads as absent.
    """
    try:
        return getattr(obj, name)
    except Exception:
        return default


def library_version(name: str):
    module = sys.modules.get(name)
    if module is None:
        return None
    version = vars(module).get("__version__")
    return str(version) if version is not None else None
