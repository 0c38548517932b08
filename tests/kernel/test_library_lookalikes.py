"""Keras, TensorFlow and PyTorch summarizers on small look-alike classes (the libraries are too big for
CI), called in-process. They mimic the attributes the summarizers read, under the real module names."""

import numpy as np
import pytest

from cellguard.kernel.context import Budget, Context
from cellguard.kernel.jsonsafe import clean
from cellguard.kernel.summarize import summarize_object

pytestmark = pytest.mark.timeout(30)


def lookalike(module: str, name: str, bases=(object,), **body):
    cls = type(name, bases, body)
    cls.__module__ = module
    return cls


def summarize(obj) -> dict:
    return clean(summarize_object(obj, Context(budget=Budget(200), summarize=summarize_object)))


def softmax(x):
    return x


# Keras 3 -------------------------------------------------------------------------------------

Layer = lookalike("keras.src.layers.layer", "Layer")
Dense = lookalike("keras.src.layers.core.dense", "Dense", (Layer,))
Flatten = lookalike("keras.src.layers.reshaping.flatten", "Flatten", (Layer,))
Model = lookalike("keras.src.models.model", "Model", (Layer,))
Sequential = lookalike(
    "keras.src.models.sequential", "Sequential", (Model,), count_params=lambda self: 1290
)
KerasTensor = lookalike("keras.src.backend.common.keras_tensor", "KerasTensor")


def keras_layer(cls, name, shape, **attrs):
    layer = cls()
    output = KerasTensor()
    output.shape = shape
    layer.name, layer.output = name, output
    vars(layer).update(attrs)
    return layer


def test_keras_model_layers_output_units_and_compile_config():
    model = Sequential()
    model.layers = [
        keras_layer(Flatten, "flatten", (None, 128)),
        keras_layer(Dense, "dense", (None, 10), units=10, activation=softmax),
    ]
    model.input_shape, model.output_shape, model.compiled = (None, 8, 16), (None, 10), True
    config = lookalike("keras.src.saving.serialization_lib", "SerializableDict")()
    config.config = {"loss": "categorical_crossentropy", "metrics": ["accuracy"]}
    model._compile_config = config
    summary = summarize(model)
    assert (
        summary["kind"] == "keras_model"
        and summary["type"] == "keras.src.models.sequential.Sequential"
    )
    assert summary["S"] == {
        "input_shape": [None, 8, 16],
        "output_shape": [None, 10],
        "n_params": 1290,
        "n_layers": 2,
    }
    assert summary["R"]["layers"][1] == {
        "name": "dense",
        "class": "Dense",
        "output_shape": [None, 10],
        "units": 10,
        "activation": "softmax",
    }
    assert summary["R"]["loss"] == "categorical_crossentropy" and summary["R"]["metrics"] == [
        "accuracy"
    ]
    assert summary["V"] == {"output_units": 10, "output_activation": "softmax", "compiled": True}


def test_keras_image_iterators_are_read_from_their_attributes():
    Iterator = lookalike("keras.src.legacy.preprocessing.image", "Iterator")
    DataFrameIterator = lookalike(
        "keras.src.legacy.preprocessing.image",
        "DataFrameIterator",
        (Iterator,),
        __next__=lambda self: pytest.fail("iterated"),
    )
    iterator = DataFrameIterator()
    vars(iterator).update(
        samples=2000,
        num_classes=2,
        batch_size=32,
        image_shape=(150, 150, 3),
        class_mode="categorical",
        color_mode="rgb",
        class_indices={"cat": 0, "dog": 1},
    )
    summary = summarize(iterator)
    assert summary["kind"] == "keras_iterator"
    assert summary["S"] == {"samples": 2000, "batch_size": 32, "image_shape": [150, 150, 3]}
    assert summary["R"] == {"class_mode": "categorical", "color_mode": "rgb"}
    assert summary["V"] == {"num_classes": 2, "class_indices": {"cat": 0, "dog": 1}}


def test_numpy_array_iterator_takes_its_image_shape_from_the_array():
    NumpyArrayIterator = lookalike("keras.preprocessing.image", "NumpyArrayIterator")
    iterator = NumpyArrayIterator()
    vars(iterator).update(n=60, batch_size=8, x=np.zeros((60, 28, 28, 1)))
    assert summarize(iterator)["S"] == {"samples": 60, "batch_size": 8, "image_shape": [28, 28, 1]}


def test_keras_history_and_tf_dataset():
    History = lookalike("keras.src.callbacks.history", "History")
    history = History()
    history.history, history.epoch = {"loss": [0.9, 0.5], "val_accuracy": [0.6, 0.8]}, [0, 1]
    assert summarize(history) == {
        "type": "keras.src.callbacks.history.History",
        "kind": "keras_history",
        "S": {"epochs": 2},
        "R": {"metrics": ["loss", "val_accuracy"]},
        "V": {"final": {"loss": 0.5, "val_accuracy": 0.8}},
    }
    DatasetV2 = lookalike(
        "tensorflow.python.data.ops.dataset_ops",
        "DatasetV2",
        element_spec="TensorSpec(shape=(None, 4), dtype=tf.float32, name=None)",
        __iter__=lambda self: pytest.fail("iterated"),
    )
    BatchDataset = lookalike("tensorflow.python.data.ops.batch_op", "_BatchDataset", (DatasetV2,))
    dataset = summarize(BatchDataset())
    assert dataset["kind"] == "tf_dataset" and dataset["R"]["element_spec"].startswith(
        "'TensorSpec(shape=(None, 4)"
    )


# TensorFlow tensors ---------------------------------------------------------------------------


class _Shape(tuple):
    rank = property(len)

    def as_list(self):
        return list(self)


TFTensor = lookalike("tensorflow.python.framework.tensor", "Tensor")
EagerTensor = lookalike("tensorflow.python.framework.ops", "EagerTensor", (TFTensor,))


def tf_tensor(values: np.ndarray):
    tensor = EagerTensor()
    tensor.values, tensor.shape, tensor.device = (
        values,
        _Shape(values.shape),
        "/job:localhost/device:CPU:0",
    )
    tensor.dtype = type("DType", (), {"name": str(values.dtype)})()
    tensor.numpy = lambda: values
    type(tensor).__getitem__ = lambda self, key: tf_tensor(self.values[key])
    return tensor


def test_dicts_of_tensors_give_their_shapes():
    inputs = {
        "input_ids": tf_tensor(np.zeros((8, 172), dtype=np.int32)),
        "mask": np.ones((8, 172)),
        "n": 3,
        7: np.zeros(2),
    }
    summary = summarize(inputs)
    assert summary["kind"] == "dict" and summary["S"]["length"] == 4
    assert summary["S"]["value_shapes"] == {"input_ids": [8, 172], "mask": [8, 172]}
    assert "value_shapes" not in summarize({"lr": 0.1})["S"]


def test_tf_tensor_shape_dtype_device_and_values():
    summary = summarize(tf_tensor(np.array([[1.0, np.nan], [3.0, 4.0]], dtype=np.float32)))
    assert summary["kind"] == "tf_tensor"
    assert summary["S"] == {"shape": [2, 2]}
    assert summary["R"] == {"dtype": "float32", "device": "/job:localhost/device:CPU:0"}
    assert summary["V"]["has_nan"] is True and summary["V"]["range"] == [1.0, 4.0]


# PyTorch ------------------------------------------------------------------------------------


class _TorchTensor:
    """Wraps a numpy array behind the attributes torch.Tensor has."""

    def __init__(self, values, device="cuda:0"):
        self.values, self.device, self.requires_grad = values, device, False

    shape = property(lambda self: self.values.shape)
    dtype = property(lambda self: f"torch.{self.values.dtype}")

    def detach(self):
        return self

    def cpu(self):
        return _TorchTensor(self.values, "cpu")

    def numpy(self):
        assert self.device == "cpu", "numpy() on a device tensor"
        return self.values

    def __getitem__(self, key):
        return _TorchTensor(self.values[key], self.device)


TorchTensor = lookalike("torch", "Tensor", (_TorchTensor,))
Module = lookalike("torch.nn.modules.module", "Module")
Linear = lookalike("torch.nn.modules.linear", "Linear", (Module,))
Conv2d = lookalike("torch.nn.modules.conv", "Conv2d", (Module,))
Net = lookalike("__main__", "Net", (Module,))


Parameter = lookalike("torch.nn.parameter", "Parameter", numel=lambda self: self.size)
Parameter.__init__ = lambda self, size: setattr(self, "size", size)


def torch_module(cls, **attrs):
    module = cls()
    vars(module).update({"training": True, "_modules": {}, **attrs})
    return module


def test_torch_tensor_is_copied_to_host_and_sampled_when_big():
    small = summarize(TorchTensor(np.arange(6, dtype=np.int64).reshape(2, 3)))
    assert small["kind"] == "tensor" and small["S"] == {"shape": [2, 3]}
    assert small["R"] == {"dtype": "torch.int64", "device": "cuda:0", "requires_grad": False}
    assert small["V"]["range"] == [0, 5] and small["sampled"] is False
    big = summarize(TorchTensor(np.zeros((2_000_000, 8), dtype=np.float32)))
    assert big["sampled"] is True and big["V"]["has_nan"] is False


def test_torch_module_parameters_and_first_and_last_layers():
    conv_weight, conv_bias = Parameter(432), Parameter(16)
    net = torch_module(Net)
    net._modules = {
        "features": torch_module(
            Module,
            _modules={
                "conv": torch_module(
                    Conv2d,
                    in_channels=3,
                    out_channels=16,
                    kernel_size=(3, 3),
                    _parameters={"weight": conv_weight, "bias": conv_bias},
                )
            },
        ),
        # A shared parameter counts once, an absent bias not at all.
        "tied": torch_module(Linear, _parameters={"weight": conv_weight, "bias": None}),
        "head": torch_module(
            Linear,
            in_features=64,
            out_features=10,
            _parameters={"weight": Parameter(640), "bias": Parameter(10)},
        ),
    }
    # The user's override is never called: the count comes from the `_parameters` dicts.
    net.parameters = lambda: pytest.fail("parameters() called")
    summary = summarize(net)
    assert summary["kind"] == "torch_module" and summary["S"] == {"n_params": 1098, "n_layers": 3}
    assert summary["R"]["first_layer"] == {
        "class": "Conv2d",
        "in_channels": 3,
        "out_channels": 16,
        "kernel_size": [3, 3],
    }
    assert summary["R"]["last_layer"] == {"class": "Linear", "in_features": 64, "out_features": 10}
    assert summary["V"] == {"training": True}


# The real libraries, where installed ----------------------------------------------------------


def test_real_torch_objects():
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, IterableDataset, TensorDataset

    class Stream(IterableDataset):
        def __iter__(self):
            raise AssertionError("iterated")

    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    dataset = TensorDataset(torch.randn(10, 4), torch.arange(10))
    assert summarize(torch.tensor([[1.0, float("nan")]]))["V"]["has_nan"] is True
    assert summarize(net)["S"]["n_params"] == 4 * 8 + 8 + 8 * 3 + 3
    assert summarize(net)["R"]["last_layer"] == {
        "class": "Linear",
        "in_features": 8,
        "out_features": 3,
    }
    loaded = summarize(DataLoader(dataset, batch_size=4))
    assert loaded["S"]["batch_size"] == 4 and loaded["R"]["dataset"]["S"] == {"length": 10}
    assert (
        summarize(DataLoader(Stream(), batch_size=2))["R"]["dataset"]["kind"]
        == "torch_iterable_dataset"
    )


# The first of these pays TensorFlow's import (tens of seconds on a loaded 2-core machine).
@pytest.mark.timeout(180)
def test_real_tensorflow_objects():
    tf = pytest.importorskip("tensorflow")
    assert summarize(tf.constant([[1.0, 2.0]]))["S"] == {"shape": [1, 2]}
    assert summarize(tf.Variable([1, 2, 3]))["V"]["range"] == [1, 3]
    dataset = tf.data.Dataset.from_tensor_slices(np.zeros((4, 2)))
    assert summarize(dataset)["kind"] == "tf_dataset"
    model = tf.keras.Sequential(
        [tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="softmax")]
    )
    model.compile(loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    summary = summarize(model)
    assert summary["V"]["output_units"] == 3 and summary["V"]["output_activation"] == "softmax"
    assert summary["R"]["loss"] == "sparse_categorical_crossentropy"


@pytest.mark.timeout(180)
def test_real_keras_iterator_and_history():
    tf = pytest.importorskip("tensorflow")
    generator = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255)
    iterator = generator.flow(np.zeros((10, 8, 8, 3)), np.arange(10) % 2, batch_size=4)
    summary = summarize(iterator)
    assert summary["kind"] == "keras_iterator"
    assert summary["S"] == {"samples": 10, "batch_size": 4, "image_shape": [8, 8, 3]}
    assert iterator.batch_index == 0  # not advanced
    model = tf.keras.Sequential(
        [tf.keras.Input((8, 8, 3)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)]
    )
    model.compile(loss="mse", optimizer="sgd")
    history = model.fit(np.zeros((4, 8, 8, 3)), np.zeros((4, 2)), epochs=2, verbose=0)
    summary = summarize(history)
    assert summary["kind"] == "keras_history" and summary["S"] == {"epochs": 2}
    assert summary["R"]["metrics"] == ["loss"]
