"""Keras (3, and tf.keras 2) models, image iterators, training History, and `tf.data.Dataset`.

Recognised by class name and module, never imported. Iterators and datasets are never iterated:
only attributes set at construction (`samples`, `class_indices`, `element_spec`) are read.
"""

from .introspect import instance_attr, instance_dict, library_attr, mro_has
from .jsonsafe import cut, short_repr

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
    layers = library_attr(model, "layers") or []
    described = [_layer(layer) for layer in layers[:MAX_LAYERS]]
    last = described[-1] if described else {}
    loss, metrics = _compile_config(model)
    return {
        "kind": "keras_model",
        "S": {
            "input_shape": _shape(library_attr(model, "input_shape")),
            "output_shape": _shape(library_attr(model, "output_shape")),
            "n_params": _count_params(model),
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
        image_shape = tuple(attrs["x"].shape[1:])
    class_indices = attrs.get("class_indices")
    num_classes = attrs.get(
        "num_classes", len(class_indices) if class_indices is not None else None
    )
    if class_indices is not None:
        class_indices = dict(list(class_indices.items())[:MAX_CLASS_INDICES])
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
    series = instance_attr(history, "history") or {}
    epochs = instance_attr(history, "epoch")
    final = {name: values[-1] for name, values in series.items() if values}
    return {
        "kind": "keras_history",
        "S": {
            "epochs": len(epochs)
            if epochs is not None
            else max(map(len, series.values()), default=0)
        },
        "R": {"metrics": list(series)},
        "V": {"final": final},
    }


def summarize_dataset(dataset, ctx) -> dict:
    return {
        "kind": "tf_dataset",
        "R": {"element_spec": cut(repr(library_attr(dataset, "element_spec")), 600)},
    }


def _layer(layer) -> dict:
    output_shape = library_attr(layer, "output_shape")  # tf.keras 2; Keras 3 layers lack it
    if output_shape is None:
        output_shape = library_attr(library_attr(layer, "output"), "shape")
    facts = {
        "name": library_attr(layer, "name"),
        "class": type(layer).__name__,
        "output_shape": _shape(output_shape),
        "units": instance_attr(layer, "units"),
        "activation": _name_of(instance_attr(layer, "activation")),
    }
    return {key: value for key, value in facts.items() if value is not None}


def _compile_config(model):
    """(loss, metrics) as given to `compile`; Keras 3 and tf.keras >= 2.13 keep them in
    `_compile_config.config`, older tf.keras only has `model.loss`."""
    config = library_attr(library_attr(model, "_compile_config"), "config")
    if isinstance(config, dict):
        loss, metrics = config.get("loss"), config.get("metrics")
    else:
        loss, metrics = library_attr(model, "loss"), None
    if isinstance(metrics, (list, tuple)):
        metrics = [_name_of(metric) for metric in metrics]
    elif metrics is not None:
        metrics = short_repr(metrics, 120)
    return _name_of(loss), metrics


def _compiled(model):
    compiled = library_attr(model, "compiled")  # Keras 3
    if compiled is None:
        compiled = library_attr(model, "_is_compiled")  # tf.keras 2
    return None if compiled is None else bool(compiled)


def _count_params(model):
    try:
        return int(model.count_params())
    except Exception:  # an unbuilt model has no weights yet
        return None


def _name_of(value):
    """A loss, metric or activation as a name: strings stay, functions give `__name__`, objects
    their class name."""
    if value is None or isinstance(value, str):
        return value
    return getattr(value, "__name__", None) or type(value).__name__


def _shape(shape):
    """Shapes as lists (None for unknown dimensions); a multi-output model gives a list of them."""
    if shape is None:
        return None
    if hasattr(shape, "as_list"):  # tf.TensorShape
        return shape.as_list() if shape.rank is not None else None
    items = list(shape)
    if items and all(isinstance(item, (tuple, list)) or hasattr(item, "as_list") for item in items):
        return [_shape(item) for item in items]
    return [None if item is None else int(item) for item in items]
