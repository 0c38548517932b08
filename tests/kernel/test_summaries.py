"""Summaries of real pandas, numpy and scikit-learn objects, read over the comm from a kernel."""

import importlib.metadata

import pytest

pytestmark = pytest.mark.timeout(120)

TITANIC = """
import numpy as np, pandas as pd
rng = np.random.default_rng(0)
n = 891
train = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1), "Survived": rng.integers(0, 2, n), "Pclass": rng.integers(1, 4, n),
    "Name": [f"Passenger number {i} with a rather long name" for i in range(n)],
    "Sex": rng.choice(["male", "female"], n), "Age": np.where(rng.random(n) < 0.2, np.nan, rng.random(n) * 80),
    "Fare": rng.random(n) * 500, "Embarked": rng.choice(["S", "C", "Q"], n),
    "Boarded": pd.date_range("1912-04-10", periods=n, freq="min"),
    "Mixed": [1 if i % 2 else "one" for i in range(n)],
})
"""


@pytest.fixture(scope="module")
def titanic(embedded_kernel):
    assert embedded_kernel.execute(TITANIC)["status"] == "ok"
    return embedded_kernel


def test_dataframe_structure_dtypes_and_values(titanic):
    frame = titanic.summarize("train")["objects"]["train"]
    assert frame["type"] == "pandas.DataFrame" and frame["kind"] == "dataframe"
    assert frame["S"] == {"shape": [891, 10]}
    assert frame["R"]["columns"][:3] == ["PassengerId", "Survived", "Pclass"]
    assert frame["R"]["dtypes"]["Age"] == "float64" and frame["R"]["index"] == "RangeIndex"
    assert "columns_complete" not in frame["R"] and frame["sampled"] is False
    values = frame["V"]
    assert values["has_nan"] is True and values["nan_columns"] == ["Age"]
    columns = values["column_values"]
    assert columns["Survived"] == {"has_nan": False, "kind": "binary", "unique": 2, "range": [0, 1]}
    assert columns["Pclass"]["kind"] == "categorical" and columns["Pclass"]["range"] == [1, 3]
    assert columns["Age"]["kind"] == "continuous" and columns["Age"]["has_nan"] is True
    assert 0 <= columns["Age"]["range"][0] < columns["Age"]["range"][1] <= 80
    assert columns["Sex"]["kind"] == "binary" and set(columns["Sex"]["examples"]) == {
        "male",
        "female",
    }
    assert columns["Embarked"]["kind"] == "categorical" and columns["Embarked"]["unique"] == 3
    assert columns["Name"]["kind"] == "text"
    assert all(len(example) <= 40 for example in columns["Name"]["examples"])
    assert columns["Boarded"]["kind"] == "datetime" and columns["Boarded"]["range"][0].startswith(
        "1912-04-10"
    )
    assert columns["Mixed"]["types"] == ["int", "str"]


def test_a_few_distinct_numbers_are_not_categories(embedded_kernel):
    source = (
        "import pandas as pd\n"
        "small = pd.DataFrame({'w': [0.5, 1.25, 2.0, 3.75], 'k': [1, 2, 1, 2]})\n"
        "grades = pd.DataFrame({'g': [1.0, 2.0, 3.0, 1.0] * 5})"
    )
    assert embedded_kernel.execute(source)["status"] == "ok"
    small = embedded_kernel.summarize("small")["objects"]["small"]["V"]["column_values"]
    assert small["w"]["kind"] == "continuous" and small["w"]["unique"] == 4
    assert small["k"]["kind"] == "binary"
    grades = embedded_kernel.summarize("grades")["objects"]["grades"]["V"]["column_values"]
    assert grades["g"]["kind"] == "categorical" and grades["g"]["unique"] == 3


def test_index_level_names_only_when_each_is_a_str_or_none(embedded_kernel):
    source = (
        "import pandas as pd\n"
        "plain = pd.DataFrame({'a': [1, 2], 'b': [3, 4], 'c': [5, 6]})\n"
        "keyed = plain.set_index(['a', 'b'])\n"
        "odd = plain.set_index('a')\n"
        "odd.index.name = ('x', 1)"
    )
    assert embedded_kernel.execute(source)["status"] == "ok"
    objects = embedded_kernel.summarize("plain", "keyed", "odd")["objects"]
    assert objects["plain"]["R"]["index_names"] == [None]
    assert objects["keyed"]["R"]["index_names"] == ["a", "b"]
    assert objects["keyed"]["R"]["index"] == "MultiIndex"
    assert "index_names" not in objects["odd"]["R"]


def test_index_labels_of_a_small_index_of_text(embedded_kernel):
    source = (
        "import pandas as pd\n"
        "people = pd.DataFrame({'name': ['Ana', 'Bo'], 'age': [31, 25]}).set_index('name')\n"
        "numbered = people.reset_index()\n"
        "mixed = pd.DataFrame({'v': [1, 2]}, index=['a', 3])\n"
        "many = pd.DataFrame({'v': range(300)}, index=[f'r{i}' for i in range(300)])"
    )
    assert embedded_kernel.execute(source)["status"] == "ok"
    objects = embedded_kernel.summarize("people", "numbered", "mixed", "many")["objects"]
    assert objects["people"]["R"]["index_labels"] == ["Ana", "Bo"]
    for other in ("numbered", "mixed", "many"):
        assert "index_labels" not in objects[other]["R"]


def test_mentioned_columns_come_first_and_detail_is_capped(titanic):
    frame = titanic.summarize("train", max_columns=3, focus_columns=["Fare", "Nope", "Age"])[
        "objects"
    ]["train"]
    assert list(frame["V"]["column_values"]) == ["Fare", "Age", "PassengerId"]
    assert (
        len(frame["R"]["columns"]) == 10 and len(frame["R"]["dtypes"]) == 10
    )  # names stay complete


def test_very_wide_frame_cuts_the_column_list_and_says_so(titanic):
    titanic.execute(
        "wide = pd.DataFrame(np.zeros((2, 3000)), columns=[f'feature_{i}' for i in range(3000)])"
    )
    frame = titanic.summarize("wide")["objects"]["wide"]
    assert frame["S"]["shape"] == [2, 3000]
    assert frame["R"]["columns_complete"] is False and len(frame["R"]["columns"]) == 2000
    assert len(frame["V"]["column_values"]) == 20


def test_series_index_and_dotted_paths(titanic):
    objects = titanic.summarize("train.Age", "train.columns", "train.shape", "train.nope")[
        "objects"
    ]
    age = objects["train.Age"]
    assert age["kind"] == "series" and age["S"] == {"shape": [891]}
    assert age["R"] == {"dtype": "float64", "name": "Age", "index": "RangeIndex"}
    assert age["V"]["has_nan"] is True and age["V"]["kind"] == "continuous"
    assert objects["train.columns"]["kind"] == "index" and objects["train.columns"]["S"] == {
        "shape": [10]
    }
    assert (
        objects["train.shape"]["kind"] == "tuple"
        and objects["train.shape"]["V"]["preview"] == "(891, 10)"
    )
    assert objects["train.nope"] == {
        "error": "no_attribute",
        "owner": "'DataFrame' object",
        "attribute": "nope",
    }


def test_missing_module_attributes_are_certain_only_without_a_module_getattr(titanic):
    titanic.execute("import json")
    objects = titanic.summarize("json.nope", "np.float", "np.NaN", "np.nope", "np.linalg")[
        "objects"
    ]
    assert objects["json.nope"] == {
        "error": "no_attribute",
        "owner": "module 'json'",
        "attribute": "nope",
    }
    # numpy's __getattr__ raises for the names in its own tables of removed attributes...
    assert objects["np.float"]["error"] == "no_attribute"
    assert objects["np.float"]["hint"].startswith("`np.float` was")
    assert objects["np.NaN"] == {
        "error": "no_attribute",
        "owner": "module 'numpy'",
        "attribute": "NaN",
        "hint": "Use `np.nan` instead.",
    }
    # ... and may provide any other name: not called, since it may import.
    assert objects["np.nope"] == {
        "error": "not_loaded",
        "owner": "module 'numpy'",
        "attribute": "nope",
    }
    assert objects["np.linalg"]["kind"] == "module"


def test_ndarrays_with_nan_inf_and_labels(titanic):
    titanic.execute(
        "pixels = rng.random((100, 28, 28)); pixels[0, 0, 0] = np.nan; pixels[1, 0, 0] = np.inf\n"
        "labels = np.array([0, 1, 1, 2] * 10)\nnames = np.array(['cat', 'dog'])"
    )
    objects = titanic.summarize("pixels", "labels", "names")["objects"]
    pixels = objects["pixels"]
    assert pixels["S"] == {"shape": [100, 28, 28]} and pixels["R"] == {"dtype": "float64"}
    assert (
        pixels["V"]["has_nan"] is True and pixels["V"]["range"][1] == "inf"
    )  # JSON has no infinity
    assert objects["labels"]["V"]["unique_values"] == [0, 1, 2]
    assert objects["names"]["V"]["unique_values"] == ["cat", "dog"]


def test_estimators_pipelines_and_label_encoders(titanic):
    titanic.execute(
        "from sklearn.ensemble import RandomForestClassifier\n"
        "from sklearn.pipeline import make_pipeline\n"
        "from sklearn.preprocessing import StandardScaler, LabelEncoder\n"
        "features = train[['Pclass', 'Fare']]\n"
        "forest = RandomForestClassifier(n_estimators=5, max_depth=3).fit(features, train.Survived)\n"
        "unfitted = make_pipeline(StandardScaler(), RandomForestClassifier())\n"
        "fitted = make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=3)).fit(features.values, train.Survived)\n"
        "encoder = LabelEncoder().fit(train.Embarked)"
    )
    objects = titanic.summarize("forest", "unfitted", "fitted", "encoder", "forest.classes_")[
        "objects"
    ]
    forest = objects["forest"]
    assert forest["kind"] == "estimator"
    assert forest["S"] == {"n_features_in": 2, "n_outputs": 1, "n_classes": 2}
    assert forest["R"]["feature_names_in"] == ["Pclass", "Fare"]
    assert (
        forest["R"]["params"]["max_depth"] == "3" and forest["R"]["params"]["n_estimators"] == "5"
    )
    assert forest["V"] == {"fitted": True, "classes": [0, 1]}
    assert forest["R"]["library"] == "sklearn"
    assert forest["R"]["version"] == importlib.metadata.version("scikit-learn")
    unfitted = objects["unfitted"]
    assert unfitted["V"] == {"fitted": False}
    assert [step[1].rsplit(".", 1)[1] for step in unfitted["R"]["steps"]] == [
        "StandardScaler",
        "RandomForestClassifier",
    ]
    assert objects["fitted"]["V"]["fitted"] is True and objects["fitted"]["S"]["n_features_in"] == 2
    assert objects["encoder"]["kind"] == "label_encoder"
    assert objects["encoder"]["V"]["classes"] == ["C", "Q", "S"] and objects["encoder"]["S"] == {
        "n_classes": 3
    }
    assert objects["forest.classes_"]["kind"] == "ndarray"


def test_builtins_callables_modules_and_classes(titanic):
    titanic.execute(
        "numbers = list(range(100))\nconfig = {'lr': 0.1, 'layers': [64, 32]}\npath = 'data/train.csv'\n"
        "ratio = float('nan')\ndef load(path, sep=','):\n    return path\nfrom sklearn.svm import SVC"
    )
    objects = titanic.summarize("numbers", "config", "path", "ratio", "load", "pd", "SVC", "len")[
        "objects"
    ]
    assert objects["numbers"]["S"] == {"length": 100} and objects["numbers"]["R"][
        "element_types"
    ] == {"int": 100}
    assert objects["numbers"]["V"]["preview"] == "[0, 1, 2, 3, 4, …]"
    assert objects["config"]["R"]["keys"] == ["lr", "layers"]
    assert objects["path"] == {
        "type": "str",
        "kind": "str",
        "S": {"length": 14},
        "V": {"value": "data/train.csv"},
    }
    assert objects["ratio"] == {"type": "float", "kind": "float", "V": {"value": "nan"}}
    assert objects["load"]["R"] == {
        "signature": "(path, sep=',')",
        "callable_kind": "function",
        "library": "__main__",
        "wrapped": False,
        "parameters": [
            {"name": "path", "kind": "POSITIONAL_OR_KEYWORD"},
            {"name": "sep", "kind": "POSITIONAL_OR_KEYWORD", "default": "','"},
        ],
    }
    assert objects["pd"]["R"]["module"] == "pandas" and objects["pd"]["R"]["version"]
    assert objects["SVC"]["kind"] == "class" and objects["SVC"]["R"]["class"] == "SVC"
    # The constructor's parameters, without `self`.
    assert objects["SVC"]["R"]["wrapped"] is False
    assert objects["SVC"]["R"]["parameters"][:2] == [
        {"name": "C", "kind": "KEYWORD_ONLY", "default": "1.0"},
        {"name": "kernel", "kind": "KEYWORD_ONLY", "default": "'rbf'"},
    ]
    assert objects["len"]["kind"] == "callable"


def test_short_lists_of_plain_values_and_small_dicts_of_text_keys_are_sent_whole(titanic):
    titanic.execute(
        "columns = list(train.columns[:3])\nsizes = (1, None, 'x')\nflags = [True, 1]\n"
        "ratios = [0.5]\nlong = list(range(21))\nlong_text = ['x' * 61]\nhuge = [2**60]\n"
        "counts = {'male': 3, 'female': 2}\nby_number = {1: 'a'}\n"
        "wide = {str(i): i for i in range(21)}\nclass Labels(list):\n    pass\n"
        "labels = Labels(['a'])"
    )
    names = ["columns", "sizes", "flags", "ratios", "long", "long_text", "huge", "counts"]
    objects = titanic.summarize(*names, "by_number", "wide", "labels")["objects"]
    assert objects["columns"]["V"]["items"] == ["PassengerId", "Survived", "Pclass"]
    assert objects["sizes"]["V"]["items"] == [1, None, "x"]
    # A bool, a float (sent to 6 digits), a long list, a cut text or an int a double rounds:
    # the elements are not known exactly, so none are sent.
    for name in ("flags", "ratios", "long", "long_text", "huge"):
        assert "items" not in objects[name]["V"], name
    # A list subclass's elements are read through list's own methods.
    assert objects["labels"]["V"]["items"] == ["a"]
    assert objects["counts"]["R"]["keys"] == ["male", "female"]
    assert objects["counts"]["R"]["keys_complete"] is True
    # A key shown by its repr (1 and '1' look alike) or a cut key list: not the whole key set.
    assert "keys_complete" not in objects["by_number"]["R"]
    assert "keys_complete" not in objects["wide"]["R"] and len(objects["wide"]["R"]["keys"]) == 20


def test_object_arrays_of_builtin_scalars_list_their_strings(titanic):
    titanic.execute(
        "mixed = train[['Pclass', 'Sex']].to_numpy()\nwith_none = np.array(['a', None], dtype=object)\n"
        "class Tag:\n    pass\nwith_tag = np.array(['a', Tag()], dtype=object)"
    )
    objects = titanic.summarize("mixed", "with_none", "with_tag")["objects"]
    assert objects["mixed"]["R"]["dtype"] == "object"
    assert sorted(objects["mixed"]["V"]["examples"]) == ["female", "male"]
    # None (TypeError, not ValueError, on conversion) or a user object: no strings listed.
    assert "examples" not in objects["with_none"].get("V", {})
    assert "examples" not in objects["with_tag"].get("V", {})


def test_a_decorated_function_is_flagged_wrapped(titanic):
    titanic.execute(
        "import functools\ndef logged(f):\n    @functools.wraps(f)\n    def wrapper(*args, **kwargs):\n"
        "        return f(*args, **kwargs)\n    return wrapper\n@logged\ndef area(w, h):\n    return w * h"
    )
    area = titanic.summarize("area")["objects"]["area"]["R"]
    assert area["wrapped"] is True and area["signature"] == "(w, h)"


def test_a_spent_budget_gives_a_partial_reply(titanic):
    summary = titanic.summarize("train", "forest", budget_ms=0)
    assert summary["partial"] is True and summary["objects"] == {}
    assert titanic.summarize("train", budget_ms=200)["partial"] is False


def test_both_modes_give_the_same_summary(embedded_kernel, package_kernel):
    code = "import pandas as pd\nsame = pd.DataFrame({'a': [1.0, None], 'b': ['x', 'y']})"
    summaries = []
    for kernel in (embedded_kernel, package_kernel):
        kernel.execute(code)
        summaries.append(kernel.summarize("same")["objects"]["same"])
    assert summaries[0] == summaries[1]
