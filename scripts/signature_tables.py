"""Prints crate/src/semantics/signature_tables.rs, the signatures of library callables read off
the installed scikit-learn, pandas, numpy and Keras with `inspect.signature`:

    .venv/bin/python scripts/signature_tables.py > crate/src/semantics/signature_tables.rs

- SIGNATURES: `path parameters` lines, sorted by path. A path is the public dotted name a call
  resolves to (`sklearn.ensemble.RandomForestClassifier`, `pandas.read_csv`); `Class#method` is a
  method called on an instance (`pandas.DataFrame#drop`, `sklearn.svm.SVC#fit`), `self` left out,
  written `#method parameters` under its class's line.
  Parameters are written in order, separated by commas: `name` (required), `name=` (has a
  default), `/` (the ones before are positional-only), `*` (the ones after are keyword-only),
  `+` (*args: extra positional arguments, the ones after are keyword-only), `**` (**kwargs),
  `!` (**kwargs that refuse any keyword not written before with ValueError, as Keras' do).
  Covered: every estimator of `all_estimators()` (`__init__`, and ESTIMATOR_METHODS),
  the public functions of sklearn.metrics and sklearn.model_selection, pandas' top-level
  functions, DataFrame and Series (constructors, PANDAS_METHODS),
  numpy's constructors (NUMPY_FUNCTIONS), and Keras: the layers notebooks build models of
  (KERAS_LAYERS), every optimizer, and a model's KERAS_MODEL_METHODS (as `keras.Model#fit`).
  A Keras layer or optimizer takes its own parameters and, through `**kwargs`, those its base
  classes name or pop from `kwargs` (`input_shape`, `name`, ...), and refuses any other keyword
  with ValueError: it is written with all of them and `!` for `**`, once the script has seen it
  refuse an unknown keyword (else with `**`).
- FORMER_KEYWORDS: `library keyword` lines of parameters earlier releases had and the installed
  one lacks, from the libraries' release notes (typed by hand, by callable): a keyword that may
  be right for the kernel's older release, of any callable of the library (the list of one
  callable's may be incomplete).
"""

import builtins
import importlib
import inspect
import os
import re
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
import pandas as pd
import sklearn
from sklearn.experimental import enable_halving_search_cv, enable_iterative_imputer  # noqa: F401
from sklearn.utils import all_estimators

# The methods of estimators that take more than the data (sample_weight): those a keyword is
# given to. The others are left out for the WebAssembly bundle's size.
ESTIMATOR_METHODS = ["fit"]

# C functions of numpy whose text signature is what they take (checked by calling them).
NUMPY_BUILTINS = {"array", "asarray", "asanyarray", "zeros", "empty"}

# The numpy functions in the table, for the bundle's size: the constructors.
NUMPY_FUNCTIONS = NUMPY_BUILTINS | {"ones"}

SKLEARN_FUNCTION_MODULES = ["sklearn.metrics", "sklearn.model_selection"]

# The DataFrame and Series methods in the table, for the bundle's size: those most often given
# keywords.
PANDAS_METHODS = {
    "agg",
    "aggregate",
    "apply",
    "astype",
    "bfill",
    "clip",
    "copy",
    "corr",
    "count",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "describe",
    "diff",
    "drop",
    "drop_duplicates",
    "dropna",
    "duplicated",
    "explode",
    "ffill",
    "fillna",
    "filter",
    "groupby",
    "head",
    "hist",
    "idxmax",
    "idxmin",
    "info",
    "interpolate",
    "isin",
    "join",
    "map",
    "mask",
    "max",
    "mean",
    "median",
    "melt",
    "merge",
    "min",
    "mode",
    "nlargest",
    "nsmallest",
    "nunique",
    "pct_change",
    "pivot",
    "pivot_table",
    "quantile",
    "query",
    "rank",
    "reindex",
    "rename",
    "replace",
    "resample",
    "reset_index",
    "rolling",
    "round",
    "sample",
    "set_index",
    "shift",
    "sort_index",
    "sort_values",
    "std",
    "sum",
    "tail",
    "to_csv",
    "to_dict",
    "to_excel",
    "to_json",
    "to_numpy",
    "to_parquet",
    "to_sql",
    "transform",
    "unique",
    "value_counts",
    "var",
    "where",
}

# The Keras layers in the table, for the bundle's size: those notebooks build models of.
KERAS_LAYERS = [
    "Activation", "ActivityRegularization", "Add", "AveragePooling1D", "AveragePooling2D",
    "BatchNormalization", "Bidirectional", "Concatenate", "Conv1D", "Conv2D", "Conv2DTranspose",
    "Conv3D", "Dense", "DepthwiseConv2D", "Dropout", "ELU", "Embedding", "Flatten", "GRU",
    "GaussianNoise", "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
    "GlobalMaxPooling2D", "LSTM", "LayerNormalization", "LeakyReLU", "MaxPooling1D",
    "MaxPooling2D", "MaxPooling3D", "MultiHeadAttention", "PReLU", "ReLU", "RepeatVector",
    "Rescaling", "Reshape", "SeparableConv2D", "SimpleRNN", "Softmax", "SpatialDropout1D",
    "SpatialDropout2D", "TimeDistributed", "UpSampling2D", "ZeroPadding2D",
]  # fmt: skip

# The methods of a Keras model in the table: those given keywords that Keras 3 dropped.
KERAS_MODEL_METHODS = ["compile", "fit", "predict"]

# Parameters of earlier releases the installed ones lack (release notes of scikit-learn 0.20 to
# 1.8, pandas 0.25 to 3.0, numpy 1.20 to 2.3). Those the installed signature of the path has
# are left out of the output, the others are written by library.
FORMER_KEYWORDS = [
    ("pandas.read_csv", "error_bad_lines"),
    ("pandas.read_csv", "warn_bad_lines"),
    ("pandas.read_csv", "squeeze"),
    ("pandas.read_csv", "mangle_dupe_cols"),
    ("pandas.read_csv", "prefix"),
    ("pandas.read_csv", "infer_datetime_format"),
    ("pandas.read_csv", "date_parser"),
    ("pandas.read_csv", "delim_whitespace"),
    ("pandas.read_csv", "keep_date_col"),
    ("pandas.read_csv", "verbose"),
    ("pandas.read_csv", "skip_footer"),
    ("pandas.read_csv", "tupleize_cols"),
    ("pandas.read_csv", "as_recarray"),
    ("pandas.read_csv", "compact_ints"),
    ("pandas.read_csv", "use_unsigned"),
    ("pandas.read_csv", "low_memory"),
    ("pandas.read_table", "error_bad_lines"),
    ("pandas.read_table", "warn_bad_lines"),
    ("pandas.read_table", "squeeze"),
    ("pandas.read_table", "mangle_dupe_cols"),
    ("pandas.read_table", "prefix"),
    ("pandas.read_table", "infer_datetime_format"),
    ("pandas.read_table", "date_parser"),
    ("pandas.read_table", "delim_whitespace"),
    ("pandas.read_table", "keep_date_col"),
    ("pandas.read_table", "verbose"),
    ("pandas.read_excel", "squeeze"),
    ("pandas.read_excel", "mangle_dupe_cols"),
    ("pandas.read_excel", "convert_float"),
    ("pandas.read_excel", "sheetname"),
    ("pandas.read_excel", "parse_cols"),
    ("pandas.read_excel", "date_parser"),
    ("pandas.read_excel", "verbose"),
    ("pandas.read_json", "numpy"),
    ("pandas.read_json", "precise_float"),
    ("pandas.read_html", "infer_types"),
    ("pandas.to_datetime", "infer_datetime_format"),
    ("pandas.to_datetime", "box"),
    ("pandas.concat", "join_axes"),
    ("pandas.concat", "verify_integrity"),
    ("pandas.get_dummies", "sparse"),
    ("pandas.pivot_table", "rows"),
    ("pandas.pivot_table", "cols"),
    ("pandas.DataFrame#to_csv", "line_terminator"),
    ("pandas.DataFrame#to_csv", "tupleize_cols"),
    ("pandas.Series#to_csv", "line_terminator"),
    ("pandas.DataFrame#to_excel", "encoding"),
    ("pandas.DataFrame#to_excel", "verbose"),
    ("pandas.DataFrame#to_excel", "engine_kwargs"),
    ("pandas.DataFrame#fillna", "method"),
    ("pandas.Series#fillna", "method"),
    ("pandas.DataFrame#fillna", "downcast"),
    ("pandas.Series#fillna", "downcast"),
    ("pandas.DataFrame#groupby", "squeeze"),
    ("pandas.DataFrame#groupby", "axis"),
    ("pandas.Series#groupby", "squeeze"),
    ("pandas.Series#groupby", "axis"),
    ("pandas.DataFrame#sort_values", "kind"),
    ("pandas.DataFrame#drop_duplicates", "take_last"),
    ("pandas.DataFrame#duplicated", "take_last"),
    ("pandas.DataFrame#rename", "mapper"),
    ("pandas.DataFrame#set_axis", "inplace"),
    ("pandas.Series#set_axis", "inplace"),
    ("pandas.DataFrame#set_axis", "copy"),
    ("pandas.DataFrame#astype", "raise_on_error"),
    ("pandas.DataFrame#replace", "method"),
    ("pandas.Series#replace", "method"),
    ("pandas.DataFrame#interpolate", "downcast"),
    ("pandas.DataFrame#resample", "how"),
    ("pandas.DataFrame#resample", "fill_method"),
    ("pandas.DataFrame#resample", "loffset"),
    ("pandas.DataFrame#resample", "base"),
    ("pandas.DataFrame#resample", "kind"),
    ("pandas.DataFrame#resample", "convention"),
    ("pandas.DataFrame#resample", "axis"),
    ("pandas.DataFrame#rolling", "axis"),
    ("pandas.DataFrame#rolling", "win_type"),
    ("pandas.DataFrame#ewm", "axis"),
    ("pandas.DataFrame#expanding", "axis"),
    ("pandas.DataFrame#expanding", "center"),
    ("pandas.DataFrame#shift", "freq"),
    ("pandas.DataFrame#pct_change", "fill_method"),
    ("pandas.DataFrame#pct_change", "limit"),
    ("pandas.Series#pct_change", "fill_method"),
    ("pandas.Series#pct_change", "limit"),
    ("pandas.DataFrame#where", "errors"),
    ("pandas.DataFrame#where", "try_cast"),
    ("pandas.DataFrame#mask", "errors"),
    ("pandas.DataFrame#mask", "try_cast"),
    ("pandas.DataFrame#reset_index", "allow_duplicates"),
    ("pandas.DataFrame#to_dict", "into"),
    ("pandas.DataFrame#between_time", "include_start"),
    ("pandas.DataFrame#between_time", "include_end"),
    ("pandas.DataFrame#describe", "datetime_is_numeric"),
    ("pandas.DataFrame#mad", "skipna"),
    ("pandas.DataFrame#copy", "deep"),
    ("pandas.Series#copy", "deep"),
    ("pandas.DataFrame#swapaxes", "copy"),
    ("pandas.DataFrame#astype", "copy"),
    ("pandas.Series#astype", "copy"),
    ("pandas.DataFrame#infer_objects", "copy"),
    ("pandas.DataFrame#reindex", "copy"),
    ("pandas.DataFrame#rename", "copy"),
    ("pandas.DataFrame#merge", "copy"),
    ("pandas.merge", "copy"),
    ("pandas.concat", "copy"),
    ("pandas.DataFrame#align", "copy"),
    ("pandas.DataFrame#to_json", "default_handler"),
    ("pandas.Series#value_counts", "bins"),
    ("pandas.Series#apply", "convert_dtype"),
    ("pandas.Series#to_frame", "name"),
    ("pandas.Series#reset_index", "allow_duplicates"),
    ("pandas.DataFrame#sum", "level"),
    ("pandas.DataFrame#mean", "level"),
    ("pandas.DataFrame#count", "level"),
    ("pandas.Series#sum", "level"),
    ("pandas.Series#mean", "level"),
    ("pandas.Series#count", "level"),
    ("pandas.DataFrame#any", "level"),
    ("pandas.DataFrame#all", "level"),
    ("pandas.DataFrame#median", "level"),
    ("pandas.DataFrame#std", "level"),
    ("pandas.DataFrame#max", "level"),
    ("pandas.DataFrame#min", "level"),
    ("pandas.DataFrame#apply", "reduce"),
    ("pandas.DataFrame#apply", "broadcast"),
    ("pandas.DataFrame#to_string", "line_width"),
    ("pandas.DataFrame#hist", "legend"),
    ("pandas.DataFrame#first", "offset"),
    ("pandas.DataFrame#last", "offset"),
    ("sklearn.preprocessing.OneHotEncoder", "sparse"),
    ("sklearn.preprocessing.OneHotEncoder", "n_values"),
    ("sklearn.preprocessing.OneHotEncoder", "categorical_features"),
    ("sklearn.preprocessing.Imputer", "axis"),
    ("sklearn.preprocessing.KBinsDiscretizer", "subsample"),
    ("sklearn.preprocessing.PolynomialFeatures", "interaction_only"),
    ("sklearn.cluster.KMeans", "n_jobs"),
    ("sklearn.cluster.KMeans", "precompute_distances"),
    ("sklearn.cluster.KMeans", "algorithm"),
    ("sklearn.cluster.MiniBatchKMeans", "max_no_improvement"),
    ("sklearn.cluster.AgglomerativeClustering", "affinity"),
    ("sklearn.cluster.AgglomerativeClustering", "n_components"),
    ("sklearn.cluster.AgglomerativeClustering", "pooling_func"),
    ("sklearn.linear_model.LogisticRegression", "multi_class"),
    ("sklearn.linear_model.LogisticRegression", "penalty"),
    ("sklearn.linear_model.LogisticRegression", "n_jobs"),
    ("sklearn.linear_model.LogisticRegressionCV", "multi_class"),
    ("sklearn.linear_model.LogisticRegressionCV", "penalty"),
    ("sklearn.linear_model.LinearRegression", "normalize"),
    ("sklearn.linear_model.Ridge", "normalize"),
    ("sklearn.linear_model.Lasso", "normalize"),
    ("sklearn.linear_model.ElasticNet", "normalize"),
    ("sklearn.linear_model.RidgeCV", "normalize"),
    ("sklearn.linear_model.LassoCV", "normalize"),
    ("sklearn.linear_model.ElasticNetCV", "normalize"),
    ("sklearn.linear_model.RidgeClassifier", "normalize"),
    ("sklearn.linear_model.Lars", "normalize"),
    ("sklearn.linear_model.LassoLars", "normalize"),
    ("sklearn.linear_model.BayesianRidge", "n_iter"),
    ("sklearn.linear_model.ARDRegression", "n_iter"),
    ("sklearn.linear_model.SGDClassifier", "n_iter"),
    ("sklearn.linear_model.SGDRegressor", "n_iter"),
    ("sklearn.linear_model.Perceptron", "n_iter"),
    ("sklearn.linear_model.PassiveAggressiveClassifier", "n_iter"),
    ("sklearn.linear_model.RidgeCV", "store_cv_values"),
    ("sklearn.linear_model.RidgeClassifierCV", "store_cv_values"),
    ("sklearn.manifold.TSNE", "n_iter"),
    ("sklearn.manifold.TSNE", "square_distances"),
    ("sklearn.decomposition.PCA", "iterated_power"),
    ("sklearn.decomposition.NMF", "alpha"),
    ("sklearn.decomposition.NMF", "regularization"),
    ("sklearn.decomposition.LatentDirichletAllocation", "n_topics"),
    ("sklearn.decomposition.DictionaryLearning", "n_iter"),
    ("sklearn.decomposition.MiniBatchDictionaryLearning", "n_iter"),
    ("sklearn.ensemble.AdaBoostClassifier", "base_estimator"),
    ("sklearn.ensemble.AdaBoostClassifier", "algorithm"),
    ("sklearn.ensemble.AdaBoostRegressor", "base_estimator"),
    ("sklearn.ensemble.BaggingClassifier", "base_estimator"),
    ("sklearn.ensemble.BaggingRegressor", "base_estimator"),
    ("sklearn.ensemble.RandomForestClassifier", "min_impurity_split"),
    ("sklearn.ensemble.RandomForestRegressor", "min_impurity_split"),
    ("sklearn.ensemble.ExtraTreesClassifier", "min_impurity_split"),
    ("sklearn.ensemble.ExtraTreesRegressor", "min_impurity_split"),
    ("sklearn.ensemble.GradientBoostingClassifier", "min_impurity_split"),
    ("sklearn.ensemble.GradientBoostingClassifier", "presort"),
    ("sklearn.ensemble.GradientBoostingRegressor", "min_impurity_split"),
    ("sklearn.ensemble.GradientBoostingRegressor", "presort"),
    ("sklearn.ensemble.GradientBoostingClassifier", "criterion"),
    ("sklearn.ensemble.HistGradientBoostingClassifier", "n_iter_no_change"),
    ("sklearn.ensemble.IsolationForest", "behaviour"),
    ("sklearn.tree.DecisionTreeClassifier", "min_impurity_split"),
    ("sklearn.tree.DecisionTreeClassifier", "presort"),
    ("sklearn.tree.DecisionTreeRegressor", "min_impurity_split"),
    ("sklearn.tree.DecisionTreeRegressor", "presort"),
    ("sklearn.svm.LinearSVC", "dual"),
    ("sklearn.svm.SVC", "cache_size"),
    ("sklearn.neighbors.KNeighborsClassifier", "n_jobs"),
    ("sklearn.neural_network.MLPClassifier", "n_iter_no_change"),
    ("sklearn.naive_bayes.MultinomialNB", "force_alpha"),
    ("sklearn.naive_bayes.BernoulliNB", "force_alpha"),
    ("sklearn.naive_bayes.ComplementNB", "force_alpha"),
    ("sklearn.naive_bayes.CategoricalNB", "force_alpha"),
    ("sklearn.model_selection.GridSearchCV", "iid"),
    ("sklearn.model_selection.GridSearchCV", "fit_params"),
    ("sklearn.model_selection.RandomizedSearchCV", "iid"),
    ("sklearn.model_selection.RandomizedSearchCV", "fit_params"),
    ("sklearn.model_selection.cross_val_score", "fit_params"),
    ("sklearn.model_selection.cross_validate", "fit_params"),
    ("sklearn.model_selection.cross_val_predict", "fit_params"),
    ("sklearn.model_selection.learning_curve", "fit_params"),
    ("sklearn.model_selection.validation_curve", "fit_params"),
    ("sklearn.model_selection.permutation_test_score", "fit_params"),
    ("sklearn.model_selection.KFold", "n_folds"),
    ("sklearn.model_selection.StratifiedKFold", "n_folds"),
    ("sklearn.model_selection.ShuffleSplit", "n_iter"),
    ("sklearn.model_selection.StratifiedShuffleSplit", "n_iter"),
    ("sklearn.metrics.mean_squared_error", "squared"),
    ("sklearn.metrics.mean_squared_log_error", "squared"),
    ("sklearn.metrics.plot_confusion_matrix", "normalize"),
    ("sklearn.metrics.precision_recall_curve", "probas_pred"),
    ("sklearn.metrics.roc_auc_score", "reorder"),
    ("sklearn.metrics.auc", "reorder"),
    ("sklearn.metrics.jaccard_score", "normalize"),
    ("sklearn.metrics.get_scorer", "greater_is_better"),
    ("sklearn.metrics.make_scorer", "needs_proba"),
    ("sklearn.metrics.make_scorer", "needs_threshold"),
    ("sklearn.metrics.ConfusionMatrixDisplay#plot", "ax"),
    ("sklearn.preprocessing.StandardScaler", "with_std"),
    ("sklearn.preprocessing.LabelBinarizer", "sparse_output"),
    ("sklearn.feature_extraction.text.CountVectorizer", "tokenizer"),
    ("sklearn.feature_extraction.text.TfidfVectorizer", "tokenizer"),
    ("sklearn.impute.SimpleImputer", "verbose"),
    ("sklearn.impute.SimpleImputer", "axis"),
    ("sklearn.impute.IterativeImputer", "verbose"),
    ("numpy.reshape", "newshape"),
    ("numpy.histogram", "normed"),
    ("numpy.histogram2d", "normed"),
    ("numpy.histogramdd", "normed"),
    ("numpy.unique", "equal_nan"),
    ("numpy.percentile", "interpolation"),
    ("numpy.quantile", "interpolation"),
    ("numpy.nanpercentile", "interpolation"),
    ("numpy.nanquantile", "interpolation"),
    ("numpy.linspace", "device"),
    ("numpy.trapz", "dx"),
    ("numpy.sort", "stable"),
    ("numpy.clip", "a_min"),
    ("numpy.clip", "a_max"),
    ("numpy.in1d", "invert"),
    ("numpy.cumproduct", "axis"),
    ("numpy.round_", "decimals"),
    ("numpy.asfarray", "dtype"),
    ("numpy.loadtxt", "ndmin"),
    ("numpy.genfromtxt", "skiprows"),
    ("numpy.genfromtxt", "missing"),
    ("numpy.genfromtxt", "update"),
    ("numpy.fromstring", "sep"),
    # Keras 1 and 2 (keras-team/keras release notes; Keras 3's migration guide).
    ("keras.Model#fit", "nb_epoch"),
    ("keras.Model#fit", "workers"),
    ("keras.Model#fit", "use_multiprocessing"),
    ("keras.Model#fit", "max_queue_size"),
    ("keras.Model#predict", "workers"),
    ("keras.Model#predict", "use_multiprocessing"),
    ("keras.Model#predict", "max_queue_size"),
    ("keras.Model#compile", "sample_weight_mode"),
    ("keras.Model#compile", "target_tensors"),
    ("keras.layers.Dense", "init"),
    ("keras.layers.Dense", "output_dim"),
    ("keras.layers.Dense", "W_regularizer"),
    ("keras.layers.Dense", "b_regularizer"),
    ("keras.layers.Dense", "batch_input_shape"),
    ("keras.layers.Dropout", "p"),
    ("keras.layers.Conv2D", "nb_filter"),
    ("keras.layers.Conv2D", "nb_row"),
    ("keras.layers.Conv2D", "nb_col"),
    ("keras.layers.Conv2D", "border_mode"),
    ("keras.layers.Conv2D", "subsample"),
    ("keras.layers.Conv2D", "dim_ordering"),
    ("keras.layers.MaxPooling2D", "border_mode"),
    ("keras.layers.LSTM", "dropout_W"),
    ("keras.layers.LSTM", "dropout_U"),
    ("keras.layers.LSTM", "consume_less"),
    ("keras.layers.LSTM", "inner_init"),
    ("keras.layers.LSTM", "time_major"),
    ("keras.layers.BatchNormalization", "mode"),
    ("keras.layers.BatchNormalization", "fused"),
    ("keras.layers.BatchNormalization", "renorm"),
    ("keras.layers.BatchNormalization", "virtual_batch_size"),
    ("keras.optimizers.Adam", "lr"),
    ("keras.optimizers.SGD", "lr"),
]


def param_text(sig: inspect.Signature) -> str:
    parts = []
    kinds = [p.kind for p in sig.parameters.values()]
    for i, p in enumerate(sig.parameters.values()):
        if p.kind is p.VAR_POSITIONAL:
            parts.append("+")
            continue
        if p.kind is p.VAR_KEYWORD:
            parts.append("**")
            continue
        if p.kind is p.KEYWORD_ONLY and (
            i == 0 or kinds[i - 1] not in (p.KEYWORD_ONLY, p.VAR_POSITIONAL)
        ):
            parts.append("*")
        parts.append(p.name + ("" if p.default is p.empty else "="))
        if p.kind is p.POSITIONAL_ONLY and (
            i + 1 == len(kinds) or kinds[i + 1] is not p.POSITIONAL_ONLY
        ):
            parts.append("/")
    return ",".join(parts)


def signature_of(obj, drop_self: bool):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    if drop_self:
        params = list(sig.parameters.values())
        if not params or params[0].kind not in (
            params[0].POSITIONAL_ONLY,
            params[0].POSITIONAL_OR_KEYWORD,
        ):
            return None
        sig = sig.replace(parameters=params[1:])
    return param_text(sig)


def public_path(cls) -> str | None:
    """The dotted path a user imports `cls` by: its module up to the first private part."""
    parts = []
    for part in cls.__module__.split("."):
        if part.startswith("_"):
            break
        parts.append(part)
    module = importlib.import_module(".".join(parts))
    if getattr(module, cls.__name__, None) is not cls:
        return None
    return f"{'.'.join(parts)}.{cls.__name__}"


def methods(table: dict, path: str, cls, names) -> None:
    """The methods `names` of `cls`: an instance's under `path#name`, static and class methods
    (called on the class) under `path.name`."""
    for name in names:
        static = inspect.getattr_static(cls, name, None)
        if isinstance(static, (staticmethod, classmethod)):
            sig = signature_of(getattr(cls, name), drop_self=False)
            key = f"{path}.{name}"
        elif inspect.isfunction(getattr(cls, name, None)):
            sig = signature_of(getattr(cls, name), drop_self=True)
            key = f"{path}#{name}"
        else:
            continue
        if sig is not None:
            table[key] = sig


def sklearn_table(table: dict) -> None:
    for _, cls in all_estimators():
        path = public_path(cls)
        if path is None:
            continue
        sig = signature_of(cls.__init__, drop_self=True)
        if sig is not None:
            table[path] = sig
        methods(table, path, cls, ESTIMATOR_METHODS)
    for module_name in SKLEARN_FUNCTION_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                sig = signature_of(obj, drop_self=False)
                if sig is not None:
                    table[f"{module_name}.{name}"] = sig


def pandas_table(table: dict) -> None:
    for name in dir(pd):
        obj = getattr(pd, name)
        if name.startswith("_") or not inspect.isfunction(obj):
            continue
        sig = signature_of(obj, drop_self=False)
        if sig is not None:
            table[f"pandas.{name}"] = sig
    for cls in (pd.DataFrame, pd.Series):
        path = f"pandas.{cls.__name__}"
        table[path] = signature_of(cls.__init__, drop_self=True)
        methods(table, path, cls, sorted(PANDAS_METHODS))


def numpy_table(table: dict) -> None:
    for name in dir(np):
        if name.startswith("_"):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obj = getattr(np, name, None)
        # Python functions, and those dispatched through `__array_function__` (np.sum). The
        # text signatures of C functions may be narrower than what they take (np.arange takes
        # start= by keyword): only the constructors checked by hand.
        python = inspect.isfunction(obj) or type(obj).__name__ == "_ArrayFunctionDispatcher"
        if name not in NUMPY_FUNCTIONS or not (python or name in NUMPY_BUILTINS):
            continue
        sig = signature_of(obj, drop_self=False)
        if sig is not None:
            table[f"numpy.{name}"] = sig


# Builtins whose keywords notebooks misspell (`sorted(reversed=True)`, `print(sepp=',')`); their
# positional arguments are checked by the core's own table of builtin arities.
BUILTIN_FUNCTIONS = ["sorted", "print", "open", "round", "enumerate", "sum", "pow"]


def builtins_table(table: dict) -> None:
    for name in BUILTIN_FUNCTIONS:
        sig = signature_of(getattr(builtins, name), drop_self=False)
        if sig is not None:
            table[f"builtins.{name}"] = sig


def keras_keywords(cls) -> str | None:
    """The parameters of a Keras layer or optimizer class: its own, in order, then those its
    base classes name or pop from `kwargs`, keyword-only, then `!`; `**` kept unless an unknown
    keyword is refused with ValueError when built (with small values for the required
    parameters)."""
    own = signature_of(cls.__init__, drop_self=True)
    if own is None:
        return None
    named = set(own.replace("=", "").split(","))
    inherited = set()
    for base in cls.__mro__:
        init = base.__dict__.get("__init__")
        if init is None or base is object:
            continue
        sig = inspect.signature(init)
        inherited |= {
            p.name
            for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"
        }
        source = inspect.getsource(init)
        inherited |= set(re.findall(r"kwargs\.(?:pop|get)\(\s*[\"'](\w+)[\"']", source))
        inherited |= set(re.findall(r"[\"'](\w+)[\"'] in kwargs", source))
    required = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name != "self" and p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD:
            required[p.name] = KERAS_REQUIRED.get(p.name)
    try:
        cls(**required, not_a_keras_keyword=1)
    except ValueError as e:
        if "not_a_keras_keyword" in str(e):
            extra = sorted(inherited - named)
            kept = [part for part in own.split(",") if part != "**"]
            if extra:
                kept += (["*"] if "*" not in kept and "+" not in kept else []) + [
                    f"{name}=" for name in extra
                ]
            return ",".join([*kept, "!"])
    except Exception:
        pass
    return own


# Values for the required parameters of the Keras classes in the table, to build them.
KERAS_REQUIRED = {
    "units": 2, "filters": 2, "kernel_size": 2, "rate": 0.5, "input_dim": 3, "output_dim": 2,
    "target_shape": (2,), "n": 2, "stddev": 0.1, "num_heads": 2, "key_dim": 2, "scale": 1.0,
    "activation": "relu", "l1": 0.0, "learning_rate": 0.01,
}  # fmt: skip


def keras_table(table: dict) -> None:
    for name in KERAS_LAYERS:
        sig = keras_keywords(getattr(keras.layers, name))
        if sig is not None:
            table[f"keras.layers.{name}"] = sig
    for name in dir(keras.optimizers):
        cls = getattr(keras.optimizers, name)
        if inspect.isclass(cls) and issubclass(cls, keras.optimizers.Optimizer):
            if cls is not keras.optimizers.Optimizer and "Loss" not in name:
                sig = keras_keywords(cls)
                if sig is not None:
                    table[f"keras.optimizers.{name}"] = sig
    table["keras.Model"] = signature_of(keras.Model.__init__, drop_self=True)
    methods(table, "keras.Model", keras.Model, KERAS_MODEL_METHODS)


def main() -> None:
    table: dict[str, str] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sklearn_table(table)
        pandas_table(table)
        numpy_table(table)
        keras_table(table)
        builtins_table(table)
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    versions = (
        f"scikit-learn {sklearn.__version__}, pandas {pd.__version__}, numpy {np.__version__},\n"
        f"//! Keras {keras.__version__}, Python {python}"
    )
    print(
        f"//! Signatures read off {versions} by `scripts/signature_tables.py`\n"
        "//! (generated: edit the script, not this file). The script's docstring says how a\n"
        "//! signature is written.\n"
    )
    print(f'pub(crate) const SKLEARN_VERSION: &str = "{sklearn.__version__}";')
    print(f'pub(crate) const PANDAS_VERSION: &str = "{pd.__version__}";')
    print(f'pub(crate) const NUMPY_VERSION: &str = "{np.__version__}";')
    print(f'pub(crate) const KERAS_VERSION: &str = "{keras.__version__}";')
    print(f'pub(crate) const PYTHON_VERSION: &str = "{python}";\n')
    # One string each, a line per entry: a table of (&str, &str) costs the WebAssembly bundle
    # twice as much (a pointer and a length per string).
    print(
        "/// `path parameters` lines, sorted by path; a method of an instance (`Class#method`) is"
    )
    print("/// written `#method parameters` under the line of its class.")
    print('pub(crate) const SIGNATURES: &str = "\\')
    classes = set()
    for path in sorted(table):
        cls, _, method = path.partition("#")
        if method:
            assert cls in classes, path  # its class's line came before
            print(f"#{method} {table[path]}")
        else:
            classes.add(path)
            print(f"{path} {table[path]}")
    print('";\n')
    print("/// `library keyword` lines of parameters earlier releases had, sorted.")
    print('pub(crate) const FORMER_KEYWORDS: &str = "\\')
    former = set()
    for path, keyword in FORMER_KEYWORDS:
        if keyword not in table.get(path, "").replace("=", "").split(","):
            former.add((path.split(".")[0], keyword))
    for library, keyword in sorted(former):
        print(f"{library} {keyword}")
    print('";')


if __name__ == "__main__":
    main()
