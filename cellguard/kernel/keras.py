"""Keras (3, and tf.keras 2) models, image iterators, training History, and `tf.data.Dataset`.

Recognised by class name and module, never imported. Iterators and datasets are never iterated:
only attributes set at construction (`samples`, `class_indices`, `element_spec`) are read. A user's
model or layer subclass is read from its instance attributes only; shapes and weight counts, which
Keras computes by calling into the layers, only for models made of library layers.
"""

import types
from itertools import islice

from .array_kinds import shape_of
from .introspect import (
    class_name,
    instance_attr,
    instance_dict,
    is_trusted_type,
    library_attr,
    mro_has,
)
from .jsonsafe import cut, short_repr, whole_number

KERAS_PACKAGES = (
    "keras",
    "tf_keras",
    "tensorflow.python.keras",
    "tensorflow.keras",
    "keras_preprocessing",
)
ITERATORS = {"DirectoryIterator", "DataFrameIterator", "NumpyArrayIterator"}
MAX_LAYERS = 60
MAX_CLASS_INDICES = 50


def summarizer_for(obj):
    if mro_has(obj, {"Model"}, KERAS_PACKAGES):
        return summarize_model
    if mro_has(obj, ITERATORS, KERAS_PACKAGES):
        return summarize_iterator
    if mro_has(obj, {"History"}, KERAS_PACKAGES):
        return summarize_history
    if mro_has(obj, {"DatasetV2", "Dataset"}, ("tensorflow.python.data",)):
        return summarize_dataset
    return None


def summarize_model(model, ctx) -> dict:
    layers = library_attr(model, "layers")
    layers = layers if type(layers) is list else []
    described = [_layer(layer) for layer in layers[:MAX_LAYERS]]
    last = described[-1] if described else {}
    loss, metrics = _compile_config(model)
    # Shapes and weights are computed by calls into the layers: only when all are a library's.
    library_only = is_trusted_type(type(model)) and all(
        is_trusted_type(type(layer)) for layer in layers
    )
    return {
        "kind": "keras_model",
        "S": {
            "input_shape": _shape(library_attr(model, "input_shape")) if library_only else None,
            "output_shape": _shape(library_attr(model, "output_shape")) if library_only else None,
            "n_params": _count_params(model) if library_only else None,
            "n_layers": len(layers),
        },
        "R": {"layers": described, "loss": loss, "metrics": metrics},
        "V": {
            "output_units": last.get("units"),
            "output_activation": last.get("activation"),
            "compiled": _compiled(model),
        },
    }


def summarize_iterator(iterator, ctx) -> dict:
    attrs = instance_dict(iterator)
    samples = attrs.get("samples", attrs.get("n"))
    image_shape = attrs.get("image_shape")
    if image_shape is None and attrs.get("x") is not None:  # NumpyArrayIterator keeps the array
        array_shape = shape_of(attrs["x"])
        image_shape = None if array_shape is None else array_shape[1:]
    class_indices = attrs.get("class_indices")
    if type(class_indices) is not dict:
        class_indices = None
    num_classes = attrs.get("num_classes", None if class_indices is None else len(class_indices))
    if class_indices is not None:
        class_indices = dict(islice(dict.items(class_indices), MAX_CLASS_INDICES))
    return {
        "kind": "keras_iterator",
        "S": {
            "samples": samples,
            "batch_size": attrs.get("batch_size"),
            "image_shape": _shape(image_shape),
        },
        "R": {"class_mode": attrs.get("class_mode"), "color_mode": attrs.get("color_mode")},
        "V": {"num_classes": num_classes, "class_indices": class_indices},
    }


def summarize_history(history, ctx) -> dict:
    series = instance_attr(history, "history")
    series = {
        name: values
        for name, values in (dict.items(series) if type(series) is dict else ())
        if type(name) is str and type(values) is list
    }
    epochs = instance_attr(history, "epoch")
    return {
        "kind": "keras_history",
        "S": {
            "epochs": len(epochs)
            if type(epochs) is list
            else max(map(len, series.values()), default=0)
        },
        "R": {"metrics": list(series)},
        "V": {"final": {name: values[-1] for name, values in series.items() if values}},
    }


def summarize_dataset(dataset, ctx) -> dict:
    # The spec is built by tf.data from tensors' specs: its repr runs library code only.
    spec = library_attr(dataset, "element_spec") if is_trusted_type(type(dataset)) else None
    return {
        "kind": "tf_dataset",
        "R": {"element_spec": None if spec is None else cut(repr(spec), 600)},
    }


def _layer(layer) -> dict:
    output_shape = library_attr(layer, "output_shape")  # tf.keras 2; Keras 3 layers lack it
    if output_shape is None:
        output_shape = library_attr(library_attr(layer, "output"), "shape")
    name = library_attr(layer, "name")
    facts = {
        "name": name if type(name) is str else None,
        "class": class_name(type(layer)),
        "output_shape": _shape(output_shape),
        "units": instance_attr(layer, "units"),
        "activation": _name_of(instance_attr(layer, "activation")),
    }
    return {key: value for key, value in facts.items() if value is not None}


def _compile_config(model):
    """(loss, metrics) as given to `compile`; Keras 3 and tf.keras >= 2.13 keep them in
    `_compile_config.config`, older tf.keras only has `model.loss`."""
    config = library_attr(library_attr(model, "_compile_config"), "config")
    if type(config) is dict:
        loss, metrics = config.get("loss"), config.get("metrics")
    else:
        loss, metrics = library_attr(model, "loss"), None
    if type(metrics) in (list, tuple):
        metrics = [_name_of(metric) for metric in metrics]
    elif metrics is not None:
        metrics = short_repr(metrics, 120)
    return _name_of(loss), metrics


def _compiled(model):
    compiled = library_attr(model, "compiled")  # Keras 3
    if compiled is None:
        compiled = library_attr(model, "_is_compiled")  # tf.keras 2
    return compiled if type(compiled) is bool else None


def _count_params(model):
    try:
        return int(model.count_params())
    except Exception:  # an unbuilt model has no weights yet
        return None


def _name_of(value):
    """A loss, metric or activation as a name: strings stay, functions give `__name__`, objects
    their class name."""
    if value is None or type(value) is str:
        return value
    if type(value) in (types.FunctionType, types.BuiltinFunctionType):
        return value.__name__
    return class_name(type(value))


def _shape(shape, depth: int = 0):
    """Shapes as lists (None for unknown dimensions); a multi-output model gives a list of them."""
    if shape is None or depth > 2:
        return None
    if type(shape) not in (tuple, list):
        if not (is_trusted_type(type(shape)) and class_name(type(shape)) == "TensorShape"):
            return None
        if shape.rank is None:
            return None
        shape = shape.as_list()
    if shape and all(
        type(item) in (tuple, list) or class_name(type(item)) == "TensorShape" for item in shape
    ):
        return [_shape(item, depth + 1) for item in shape]
    dims = [None if item is None else whole_number(item) for item in shape]
    return None if any(dim is None and item is not None for dim, item in zip(dims, shape)) else dims
