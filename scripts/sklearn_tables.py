"""Prints the scikit-learn tables of crate/src/semantics/sklearn_tables.rs, read off the installed
scikit-learn by running its own estimators and registries (nothing is typed by hand but the
historical scorer names, which no installed release lists):

    .venv/bin/python scripts/sklearn_tables.py > crate/src/semantics/sklearn_tables.rs

- SCORER_NAMES: `sklearn.metrics.get_scorer_names()`, plus names earlier releases accepted.
- SAMPLE_CHECKED: every classifier and regressor of `all_estimators()` that, built with its
  default parameters, fits 10 rows of X with 10 targets, raises ValueError when `fit` gets
  10 rows and 8 targets, and raises TypeError or ValueError when `fit` gets X alone.
- NUMERIC_2D: every estimator of `all_estimators()` that builds with its default parameters,
  takes no other estimator (`estimator`, `regressor` parameters: what it wraps may take other
  data), fits 60 rows of 3 random floats, and raises ValueError both on a frame with a text
  column and on 1-D X; but SimpleImputer, whose strategy='most_frequent' or 'constant' takes
  text.
- ACCEPTS_NAN: those of NUMERIC_2D whose `allow_nan` input tag is set.
- TEXT_2D: the estimators that pass NUMERIC_2D's fit of floats and refuse 1-D X, but take
  text (the encoders, and SimpleImputer).
- OUTPUT_METHODS: for every estimator of `all_estimators()` that builds with its default
  parameters, which of `predict`, `predict_proba`, ... its class defines (`hasattr` of the
  class: a method that `available_if` guards counts as defined).
- METHOD_FLAGS: the methods the class defines that an instance with default parameters lacks,
  and the single boolean parameter, False (or 'deprecated') by default, that set to True makes the instance have
  them (`SVC.predict_proba` and `probability`). A method no such flag explains is left out.
- CONSISTENT_LENGTH_METRICS: every function of `sklearn.metrics.__all__` that raises ValueError
  "Found input variables with inconsistent numbers of samples" when given 5 labels and 4
  labels, or 5 and 4 scores, as its first two arguments.
- LEARNT_NAMES and LEARNT_BY_CLASS: the names of what `fit` learns (public, ending in one
  underscore) that three estimators or more may have, and for every estimator of
  `all_estimators()` that builds with its default parameters, fits one of a few datasets
  (binary, multiclass and frame data, float targets, X alone, texts) and defines no `__getattr__`,
  a bit mask of those it may have: its class has the name (a property, `available_if`), its
  docstring's Attributes section lists it, or an instance has it after one of those fits. Any
  other of LEARNT_NAMES raises AttributeError on it, fitted or not.
- UNFITTED_RAISE: every estimator of `all_estimators()` that builds with its default parameters
  and whose `predict`, `transform`, `predict_proba` and `decision_function` (those it has) all
  raise NotFittedError before `fit`.
"""

import inspect
import re
import warnings

import numpy as np
import pandas as pd
import sklearn
from sklearn.exceptions import NotFittedError
from sklearn.metrics import get_scorer_names
from sklearn.utils import all_estimators, get_tags

# Scorer names of releases before the installed one (0.20 to 1.5): a kernel may run them.
HISTORICAL_SCORERS = [
    "brier_score_loss",
    "log_loss",
    "max_error",
    "mean_absolute_error",
    "mean_squared_error",
    "median_absolute_error",
    "neg_mean_squared_log_error",
    "mean_squared_log_error",
    "neg_brier_score",
]


def fit_error(est, *data):
    """What `fit` of a fresh copy of `est` on `data` raises, or None."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            sklearn.clone(est).fit(*data)
        except Exception as e:
            return e
    return None


def built(type_filter=None):
    """Every estimator of `all_estimators()` that builds with its default parameters."""
    for name, cls in all_estimators(type_filter=type_filter):
        try:
            yield name, cls()
        except TypeError:  # needs an estimator or other required arguments
            continue


def sample_checked() -> list[str]:
    X = np.random.RandomState(0).rand(10, 3)
    y = np.array([0, 1] * 5)
    return sorted(
        {
            name
            for name, est in built(["classifier", "regressor"])
            # the rows-only check proves nothing for one that cannot fit these data
            if fit_error(est, X, y) is None
            and isinstance(fit_error(est, X, y[:8]), ValueError)
            and isinstance(fit_error(est, X), (TypeError, ValueError))
        }
    )


def numeric_and_text_2d() -> tuple[list[str], list[str], list[str]]:
    rng = np.random.RandomState(0)
    X = rng.rand(60, 3)
    y = 1 + np.arange(60) % 3
    text = pd.DataFrame({"a": X[:, 0], "b": ["x", "y", "zz"] * 20})
    numeric, nan_ok, text_2d = [], [], []
    for name, est in built():
        if {"estimator", "regressor"} & set(est.get_params(deep=False)):
            continue  # what it wraps may take other data
        if fit_error(est, X, y) is not None or not isinstance(
            fit_error(est, X[:, 0], y), ValueError
        ):
            continue
        # SimpleImputer's strategy='most_frequent' or 'constant' takes text.
        if name != "SimpleImputer" and isinstance(fit_error(est, text, y), ValueError):
            numeric.append(name)
            if get_tags(est).input_tags.allow_nan:
                nan_ok.append(name)
        else:
            text_2d.append(name)
    return sorted(numeric), sorted(nan_ok), sorted(text_2d)


def unfitted_raise() -> list[str]:
    X = np.random.RandomState(0).rand(6, 3)
    names = []
    for name, est in built():
        methods = [
            m
            for m in ("predict", "transform", "predict_proba", "decision_function")
            if hasattr(est, m)
        ]
        raised = 0
        for m in methods:
            try:
                getattr(est, m)(X)
            except NotFittedError:
                raised += 1
            except Exception:
                pass
        if methods and raised == len(methods):
            names.append(name)
    return sorted(names)


OUTPUT_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "transform",
    "inverse_transform",
    "score",
)


def output_methods() -> tuple[list[tuple[str, list[str]]], list[tuple[str, str, str]]]:
    defined, flags = [], []
    for name, est in built():
        cls = type(est)
        methods = [m for m in OUTPUT_METHODS if hasattr(cls, m)]
        defined.append((name, methods))
        params = est.get_params(deep=False)
        for m in methods:
            if hasattr(est, m):
                continue
            enabling = [
                p
                for p, v in params.items()
                # SVC's `probability` defaults to the string 'deprecated' since 1.8.
                if (v is False or v == "deprecated")
                and hasattr(sklearn.clone(est).set_params(**{p: True}), m)
            ]
            if len(enabling) == 1:
                flags.append((name, m, enabling[0]))
    return sorted(defined), sorted(flags)


def learnt_names(names) -> set[str]:
    """The public names among `names` that end in one underscore (what `fit` learns)."""
    return {n for n in names if n.endswith("_") and not n.startswith("_") and not n.endswith("__")}


def documented_attributes(cls) -> set[str]:
    """The names the Attributes section of the class's numpydoc docstring lists."""
    doc = inspect.getdoc(cls) or ""
    section = re.search(r"^Attributes\n-{3,}\n(.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", doc, re.M | re.S)
    if not section:
        return set()
    return {
        m.group(1) for line in section.group(1).splitlines() if (m := re.match(r"^(\w+)\s*:", line))
    }


def learnt_attributes() -> tuple[list[str], list[tuple[str, int]]]:
    rng = np.random.default_rng(0)
    X = rng.random((40, 3))
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    binary, multi, target = np.arange(40) % 2, np.arange(40) % 3, X @ [1.0, 2.0, 3.0]
    texts = ["red apple", "green pear", "red pear", "blue plum"] * 10
    datasets = [(X, binary), (X, multi), (frame, binary), (X, target), (X,), (frame,), (texts,)]
    may = {}
    for name, est in built():
        cls = type(est)
        if any("__getattr__" in vars(c) for c in cls.__mro__ if c is not object):
            continue
        names = learnt_names(dir(cls)) | learnt_names(documented_attributes(cls))
        fitted = False
        for data in datasets:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    names |= learnt_names(dir(sklearn.clone(est).fit(*data)))
                    fitted = True
                except Exception:  # data this estimator does not take
                    continue
        if fitted:
            may[name] = names
    counts = {}
    for names in may.values():
        for n in names:
            counts[n] = counts.get(n, 0) + 1
    vocabulary = sorted(n for n, c in counts.items() if c >= 3)
    masks = [
        (name, sum(1 << i for i, n in enumerate(vocabulary) if n in names))
        for name, names in sorted(may.items())
    ]
    return vocabulary, masks


def consistent_length_metrics() -> list[str]:
    import sklearn.metrics as metrics

    pairs = [
        (np.array([0, 1, 0, 1, 1]), np.array([0, 1, 1, 0])),
        (np.array([0.1, 0.5, 0.3, 0.9, 0.2]), np.array([0.2, 0.4, 0.3, 0.8])),
    ]
    found = []
    for name in sorted(metrics.__all__):
        function = getattr(metrics, name)
        if not callable(function) or isinstance(function, type):
            continue
        for a, b in pairs:
            try:
                function(a, b)
            except ValueError as error:
                if "inconsistent numbers of samples" in str(error):
                    found.append(name)
                    break
            except Exception:
                pass
    return found


def string_options() -> list[str]:
    """`Class param a,b,c` lines: the strings a parameter takes, where no other string would do
    (its constraints are string options, numbers, booleans, None or callables)."""
    from sklearn.utils import all_estimators
    from sklearn.utils._param_validation import Hidden, StrOptions

    lines = []
    for name, cls in sorted(all_estimators()):
        for param, constraints in sorted(getattr(cls, "_parameter_constraints", {}).items()):
            # Scorer names: SCORER_NAMES, with the names of earlier releases.
            if param == "scoring":
                continue
            options, open_ended = set(), False
            for constraint in constraints:
                c = constraint.constraint if isinstance(constraint, Hidden) else constraint
                if isinstance(c, StrOptions):
                    options |= set(c.options)
                # Any text, or an object a text may be taken for.
                open_ended = open_ended or c is str or c in ("array-like", "sparse matrix")
            if options and not open_ended and all(" " not in o and "," not in o for o in options):
                lines.append(f"{name} {param} {','.join(sorted(options))}")
    return lines


def rust_list(name: str, doc: str, items: list[str]) -> str:
    body = "".join(f'    "{i}",\n' for i in items)
    return f"{doc}\npub(crate) const {name}: &[&str] = &[\n{body}];\n"


def main() -> None:
    scorers = sorted(set(get_scorer_names()) | set(HISTORICAL_SCORERS))
    print(
        f"//! Tables read off scikit-learn {sklearn.__version__} by `scripts/sklearn_tables.py`"
        " (generated: edit the script, not this file).\n"
    )
    print(
        rust_list(
            "SCORER_NAMES",
            "/// The strings `scoring=` accepts: `get_scorer_names()` and names of earlier releases.",
            scorers,
        )
    )
    print(
        rust_list(
            "SAMPLE_CHECKED",
            "/// Classifiers and regressors whose `fit` (default parameters) raises ValueError when"
            " X and y\n/// have different numbers of samples (Found input variables with"
            " inconsistent numbers of samples),\n/// and raises when given X without y.",
            sample_checked(),
        )
    )
    numeric, nan_ok, text_2d = numeric_and_text_2d()
    print(
        rust_list(
            "NUMERIC_2D",
            "/// Estimators that validate X as a 2-D numeric array: ValueError on text and on 1-D"
            " X.",
            numeric,
        )
    )
    print(
        rust_list(
            "ACCEPTS_NAN",
            "/// Of NUMERIC_2D, those whose `allow_nan` tag says they take NaN in X.",
            nan_ok,
        )
    )
    print(
        rust_list(
            "TEXT_2D",
            "/// Estimators that take text but validate X as 2-D: ValueError on 1-D X (the"
            " encoders).",
            text_2d,
        )
    )
    defined, flags = output_methods()
    print(
        "/// Which of `predict`, `predict_proba`, `predict_log_proba`, `decision_function`,"
        " `transform`,\n/// `inverse_transform` and `score` each estimator's class defines"
        " (estimators that build with\n/// default parameters).\n"
        "pub(crate) const OUTPUT_METHODS: &[(&str, &[&str])] = &["
    )
    for name, methods in defined:
        listed = ", ".join(f'"{m}"' for m in methods)
        print(f'    ("{name}", &[{listed}]),')
    print("];\n")
    print(
        "/// (class, method, flag): the class defines the method, but an instance has it only"
        " when the\n/// boolean parameter `flag`, False by default ('deprecated' for SVC's probability since 1.8),\n/// is True.\n"
        "pub(crate) const METHOD_FLAGS: &[(&str, &str, &str)] = &["
    )
    for name, method, flag in flags:
        print(f'    ("{name}", "{method}", "{flag}"),')
    print("];\n")
    print(
        rust_list(
            "CONSISTENT_LENGTH_METRICS",
            "/// Functions of `sklearn.metrics` whose first two arguments must have as many"
            " samples:\n/// ValueError: Found input variables with inconsistent numbers of"
            " samples.",
            consistent_length_metrics(),
        )
    )
    print(
        "/// `Class parameter options` lines, sorted: the strings an estimator's parameter takes"
        "\n/// (`_parameter_constraints`); `fit` raises InvalidParameterError for any other."
    )
    print('pub(crate) const STRING_OPTIONS: &str = "\\')
    for line in string_options():
        print(line)
    print('";\n')
    vocabulary, masks = learnt_attributes()
    assert len(vocabulary) <= 128, "the masks are u128"
    print(
        rust_list(
            "LEARNT_NAMES",
            "/// What `fit` learns that three estimators or more may have (bit i of a\n/// LEARNT_BY_CLASS mask).",
            vocabulary,
        )
    )
    print(
        "/// The names of LEARNT_NAMES each estimator class may have (its class, its docstring or a"
        "\n/// fit gives them): any other raises AttributeError on an instance.\n"
        "pub(crate) const LEARNT_BY_CLASS: &[(&str, u128)] = &["
    )
    for name, mask in masks:
        print(f'    ("{name}", {mask:#x}),')
    print("];\n")
    print(
        rust_list(
            "UNFITTED_RAISE",
            "/// Estimators that build with default parameters and whose predict, transform,"
            " predict_proba\n/// and decision_function all raise NotFittedError before fit.",
            unfitted_raise(),
        ),
        end="",
    )


if __name__ == "__main__":
    main()
