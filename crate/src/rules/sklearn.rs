//! scikit-learn rules.
//!
//! - `sklearn-not-fitted`: `predict`/`transform`/`score`/... on an estimator that is not fitted,
//!   and the attributes `fit` learns (`coef_`, `best_params_`: a trailing underscore, by
//!   scikit-learn's convention, which no unfitted estimator of its own has).
//! - `sklearn-feature-mismatch`: data whose column count or names differ from what the estimator
//!   was fitted on (`n_features_in_`, `feature_names_in_`); texts a LabelEncoder, OneHotEncoder
//!   or OrdinalEncoder did not see in `fit` (`transform` raises).
//! - `sklearn-1d-input`: a Series, 1-D array or flat list as `X` of an estimator that needs 2-D
//!   data (`NUMERIC_2D`, and the encoders of `TEXT_2D`); several columns into `LabelEncoder`,
//!   which takes one.
//! - `bad-arguments`: `fit(X)` without `y` of a classifier or regressor (`SAMPLE_CHECKED`).
//! - `missing-key`: `pipe['clf']`, `pipe.named_steps['clf']` naming no step of the pipeline.
//! - `missing-attribute`: a prediction method the estimator's class lacks (`OUTPUT_METHODS`), or
//!   has only with a flag left off (`METHOD_FLAGS`: `SVC(probability=True)`); of a pipeline
//!   built in the cell, its last step's (every step's for `inverse_transform`).
//! - `missing-column`: `fit` of a ColumnTransformer built in this cell (or a pipeline starting with
//!   one) on a frame that lacks a column it selects by name.
//! - `sklearn-string-input`: a frame with a column of non-numeric strings into an estimator that
//!   only takes numbers (encoders and vectorizers are not in the table).
//! - `sklearn-nan-input`: data with NaN into an estimator that rejects NaN (scalers, tree models,
//!   histogram gradient boosting and imputers accept it and are never flagged).
//! - `sklearn-empty-input`: zero samples into `fit`/`train_test_split`.
//! - `sklearn-sample-mismatch`: X and y of different lengths into `fit`/`score` of an estimator
//!   that checks them, or arrays of different lengths into `train_test_split`.
//! - `sklearn-bad-params`: `LogisticRegression` solver and penalty that do not go together; a
//!   `scoring` name no scorer has; `test_size`/`train_size` out of range (or summing past 1);
//!   more k-means clusters or PCA components than the data allows; more neighbours than fitted
//!   samples; a first `partial_fit` without `classes`; a search grid or `set_params` naming a
//!   step its pipeline lacks; more `cv` folds than samples in cross-validation or a search; more
//!   TruncatedSVD components than features; a numeric parameter below its bound when `fit` runs
//!   (`PARAMETER_BOUNDS`: a negative degree, no trees, no neighbours, C of 0); a k-fold splitter
//!   of fewer than two folds (its constructor raises).
//!
//! The tables of estimators and scorer names are read off scikit-learn by
//! `scripts/sklearn_tables.py` (`sklearn_tables.rs`).

use crate::semantics::sklearn::{data_shape, is_confusion_display, matrix_classes};
use crate::semantics::sklearn::{lacking_parameter, KNOWN, PARTIAL_FIT_NEEDS_CLASSES, STATELESS};

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{keyword, Expr, Keyword, Literal, TextRange};

use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{not_a_float, ArrayLib, Estimator, Val};
use crate::semantics::signature_tables::SKLEARN_VERSION;
use crate::semantics::sklearn_tables::{
    ACCEPTS_NAN, CONSISTENT_LENGTH_METRICS, METHOD_FLAGS, NUMERIC_2D, OUTPUT_METHODS,
    SAMPLE_CHECKED, SCORER_NAMES, STRING_OPTIONS, TEXT_2D,
};
use crate::summary::Category;
use crate::walker::state::Walker;

impl Estimator {
    /// A scikit-learn class (the tables below are about scikit-learn's own validation).
    pub(crate) fn is_sklearn(&self) -> bool {
        self.type_path.starts_with("sklearn.")
    }

    /// Does "not fitted" certainly mean that `predict` raises? scikit-learn's `check_is_fitted`
    /// (and the XGBoost and LightGBM models that implement it) answer for their own classes; a
    /// user's subclass may keep its state in attributes it does not recognise.
    fn unfitted_raises(&self) -> bool {
        let trusted = ["sklearn.", "xgboost.", "lightgbm."]
            .iter()
            .any(|p| self.type_path.starts_with(p));
        let stateless = |c: &str| STATELESS.contains(&c) || c == "passthrough";
        trusted && !stateless(&self.class) && !self.steps.iter().any(|c| stateless(c))
    }

    /// A constructor parameter as written in this cell or reported by the kernel (a short repr).
    pub(crate) fn param(&self, name: &str) -> Option<String> {
        match self.params.get(name) {
            Some(Literal::Str(s)) => Some(format!("'{s}'")),
            Some(_) => None,
            None => self.kernel_params.get(name).cloned(),
        }
    }

    /// Is the boolean parameter `flag` certainly false: left at its default by the constructor
    /// this cell ran, or reported false by the kernel (`'deprecated'`: the default of
    /// `SVC(probability=...)` since scikit-learn 1.8)?
    fn flag_off(&self, flag: &str) -> bool {
        match self.params.get(flag) {
            Some(Literal::Bool(false) | Literal::None | Literal::Int(0)) => true,
            Some(_) => false,
            None if self.constructed_at.is_some() => true,
            None => matches!(
                self.kernel_params.get(flag).map(String::as_str),
                Some("False" | "None" | "0" | "'deprecated'")
            ),
        }
    }

    /// Why `self.<method>` raises AttributeError, for one of the methods `OUTPUT_METHODS`
    /// lists: the class defines no such method, or defines it only for a flag left off.
    fn lacked_method(&self, method: &str) -> Option<String> {
        // A pipeline has a method when its last step has it; `inverse_transform` when every
        // step has it.
        if self.class == "Pipeline" && self.is_sklearn() {
            let steps: &[std::rc::Rc<Estimator>] = match method {
                "inverse_transform" => &self.inner,
                _ => self.inner.last().map(std::slice::from_ref)?,
            };
            let (step, why) = steps
                .iter()
                .find_map(|s| Some((s, s.lacked_method(method)?)))?;
            return Some(format!(
                "its step {} lacks it, so the pipeline does too: {why}",
                step.class
            ));
        }
        let (_, defined) = OUTPUT_METHODS.iter().find(|(c, _)| *c == self.class)?;
        if !self.is_sklearn() || !OUTPUT_METHODS.iter().any(|(_, ms)| ms.contains(&method)) {
            return None;
        }
        if !defined.contains(&method) {
            return Some(format!(
                "{} has no method {method} (of the prediction methods it has {})",
                self.class,
                if defined.is_empty() {
                    "none".to_string()
                } else {
                    defined.join(", ")
                }
            ));
        }
        let (_, _, flag) = METHOD_FLAGS
            .iter()
            .find(|(c, m, _)| *c == self.class && *m == method)?;
        self.flag_off(flag).then(|| {
            format!(
                "{} has {method} only when built with {flag}=True, and this one has {flag} off",
                self.class
            )
        })
    }

    /// Does `fit`/`predict` certainly reject NaN in `X`?
    fn rejects_nan(&self) -> bool {
        let class = self.class.as_str();
        if !self.is_sklearn() || !NUMERIC_2D.contains(&class) || ACCEPTS_NAN.contains(&class) {
            return false;
        }
        // KNeighbors* accept NaN with metric='nan_euclidean'; the default is 'minkowski'.
        if self.class.starts_with("KNeighbors") {
            let constructed_without =
                self.constructed_at.is_some() && !self.params.contains_key("metric");
            return constructed_without
                || self
                    .param("metric")
                    .is_some_and(|m| !m.contains("nan_euclidean"));
        }
        true
    }
}

/// Scalers that keep NaN in what they give the next step of a pipeline.
const KEEPS_NAN: &[&str] = &[
    "MaxAbsScaler",
    "MinMaxScaler",
    "PowerTransformer",
    "QuantileTransformer",
    "RobustScaler",
    "StandardScaler",
];

/// The estimator that validates `X` first: a pipeline's first step, a search's estimator.
fn first_validator(est: &Estimator) -> &Estimator {
    match est.inner.first() {
        Some(first) => first_validator(first),
        None => est,
    }
}

/// Does fitting `est` certainly reject NaN in `X`: the first step that does not pass NaN on
/// rejects it.
fn chain_rejects_nan(est: &Estimator) -> bool {
    if est.inner.is_empty() {
        return est.rejects_nan();
    }
    for step in &est.inner {
        if chain_rejects_nan(step) {
            return true;
        }
        if !KEEPS_NAN.contains(&step.class.as_str()) {
            return false;
        }
    }
    false
}

/// What certainly makes `X` unfit for `est` (a 1-D input, text, NaN), as a diagnostic about
/// `x`; `call` names the call for messages (`pipe.fit()`).
fn x_problem(w: &Walker, est: &Estimator, x: &Expr, call: &str) -> Option<Diagnostic> {
    let xv = w.eval(x);
    let xname = w.shown(x, "X");
    let first = first_validator(est);
    let class = if first.class == est.class {
        est.class.clone()
    } else {
        format!("{} (the first step of {})", first.class, est.class)
    };
    let class_of_first = first.class.as_str();
    // LabelEncoder encodes one target column (`column_or_1d`): a single column is flattened,
    // several raise.
    if est.is_sklearn() && est.class == "LabelEncoder" {
        let width = match &xv {
            Val::Frame(f) => f.n_columns(),
            Val::Array(a) if a.shape.len() == 2 => Some(a.shape[1]),
            _ => None,
        };
        if let Some(width) = width.filter(|w| *w >= 2) {
            return Some(Diagnostic::error(
                Rule::Sklearn1dInput,
                format!(
                    "{call} encodes one column of labels, but {xname} has {width} columns: ValueError: y should be a 1d array; encode each column on its own (df[col]), or use OrdinalEncoder for several"
                ),
                x.range(),
            ));
        }
    }
    if first.is_sklearn()
        && (NUMERIC_2D.contains(&class_of_first) || TEXT_2D.contains(&class_of_first))
    {
        let one_d = match &xv {
            Val::Series(_) => Some("Series"),
            Val::Array(a) if a.shape.len() == 1 => Some("1-D array"),
            Val::Strs { type_name, .. } if type_name == "list" => Some("list"),
            v @ Val::Items { type_name, .. } if type_name == "list" => {
                crate::semantics::numpy::literal_array(v)
                    .filter(|a| a.shape.len() == 1)
                    .map(|_| "list")
            }
            _ => None,
        };
        // Images (n, h, w) and other arrays of more axes: scikit-learn takes rows of features.
        if let Val::Array(a) = &xv {
            if a.lib == crate::semantics::abstract_value::ArrayLib::Numpy && a.shape.len() > 2 {
                let rows = a.shape[0];
                return Some(Diagnostic::error(
                    Rule::Sklearn1dInput,
                    format!(
                        "{call} needs 2-D X but {xname} has shape {} ({} dimensions): ValueError: Found array with dim {}; flatten each sample first: {xname}.reshape({rows}, -1)",
                        crate::summary::tuple_text(&a.shape),
                        a.shape.len(),
                        a.shape.len(),
                    ),
                    x.range(),
                ));
            }
        }
        if let Some(kind) = one_d {
            return Some(Diagnostic::error(
                Rule::Sklearn1dInput,
                format!(
                    "{call} needs 2-D X but {xname} is 1-D (a {kind}); {}: ValueError",
                    if kind == "list" {
                        "write one list per sample, such as [[3.0]] or [[x] for x in values]"
                    } else {
                        "reshape it with .reshape(-1, 1) or pass a DataFrame"
                    }
                ),
                x.range(),
            ));
        }
    }
    if first.is_sklearn() && NUMERIC_2D.contains(&first.class.as_str()) {
        let kernel_text = || {
            let texts = w.kernel_array_texts(x)?;
            let text = texts.iter().find(|t| not_a_float(t))?;
            Some(format!("{xname} holds strings such as '{text}'"))
        };
        let text = match &xv {
            Val::Array(_) if !first.class.starts_with("HistGradientBoosting") => kernel_text(),
            _ => None,
        };
        if let Some(what) = text.or_else(|| non_numeric(first, &xv, xname)) {
            return Some(Diagnostic::error(
                Rule::SklearnStringInput,
                format!("{class} takes numbers only, but {what}; encode it first (OneHotEncoder, OrdinalEncoder, pd.get_dummies): ValueError"),
                x.range(),
            ));
        }
    }
    let nan = match &xv {
        Val::Frame(f) => f.has_nan,
        Val::Array(a) => a.has_nan,
        _ => None,
    };
    if nan == Some(true) && chain_rejects_nan(est) {
        return Some(Diagnostic::error(
            Rule::SklearnNanInput,
            format!("{xname} contains NaN and {class} does not accept missing values; impute or drop them first: ValueError"),
            x.range(),
        ));
    }
    None
}

/// The name of a cross-validation function whose failing fits raise: `cross_val_predict`, and
/// `cross_val_score` / `cross_validate` with `error_score='raise'` (otherwise a failing fit
/// scores NaN).
pub(crate) fn raising_cross_validation<'p>(path: &'p str, keywords: &[Keyword]) -> Option<&'p str> {
    let function = path
        .strip_prefix("sklearn.model_selection.")?
        .rsplit('.')
        .next()?;
    let raises = match function {
        "cross_val_predict" => true,
        "cross_val_score" | "cross_validate" => matches!(
            keyword(keywords, "error_score"),
            Some(e) if e.as_str_literal() == Some("raise")
        ),
        _ => false,
    };
    raises.then_some(function)
}

/// A cross-validation function whose fits raise (`raising_cross_validation`), of data every
/// fold's fit rejects.
fn cross_validation_x(
    w: &Walker,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let function = raising_cross_validation(path, keywords)?;
    let Val::Estimator(est) = w.eval(args.first().or_else(|| keyword(keywords, "estimator"))?)
    else {
        return None;
    };
    let x = args.get(1).or_else(|| keyword(keywords, "X"))?;
    x_problem(w, &est, x, &format!("{function}() fitting {}", est.class))
}

fn labels_mismatch(classes: i64, exact: bool, labels: Option<i64>) -> Option<String> {
    let n = labels?;
    if n < classes || (exact && n != classes) {
        Some(format!(
            "{n} display_labels for a confusion matrix of {}{classes} classes: one label per class is needed: ValueError (the number of tick labels does not match the number of ticks)",
            if exact { "" } else { "at least " }
        ))
    } else {
        None
    }
}

/// The number of samples of data passed as `X` or `y`: rows of a frame or numpy array, length of
/// a Series or of a list or tuple.
fn n_samples(v: &Val) -> Option<i64> {
    match v {
        Val::Array(a) if a.lib != ArrayLib::Numpy => None,
        Val::Sized { type_name, .. }
        | Val::Items { type_name, .. }
        | Val::Strs { type_name, .. }
            if type_name == "list" || type_name == "tuple" =>
        {
            v.sized().map(|(_, n)| n)
        }
        _ => data_shape(v).0,
    }
}

/// Two of `data` whose known numbers of samples differ, as a diagnostic about the second.
fn inconsistent_samples(w: &Walker, data: &[&Expr], call: &str) -> Option<Diagnostic> {
    let known: Vec<(&Expr, i64)> = data
        .iter()
        .filter_map(|e| Some((*e, n_samples(&w.eval(e))?)))
        .collect();
    let (first, n) = *known.first()?;
    let (other, m) = *known.iter().find(|(_, m)| *m != n)?;
    Some(Diagnostic::error(
        Rule::SklearnSampleMismatch,
        format!(
            "{} has {n} samples but {} has {m}: {call} raises ValueError: Found input variables with inconsistent numbers of samples; split or select both the same way",
            w.shown(first, "the first argument"),
            w.shown(other, "the other argument"),
        ),
        other.range(),
    ))
}

/// The string `e` certainly is: a literal, or a name bound to one.
pub(crate) fn str_value(w: &Walker, e: &Expr) -> Option<String> {
    match w.eval(e) {
        Val::Str(s) => Some(s),
        _ => e.as_str_literal().map(str::to_string),
    }
}

/// When no scorer has the name `name`: a message with the names that come closest.
fn unknown_scoring(name: &str) -> Option<String> {
    if SCORER_NAMES.contains(&name) {
        return None;
    }
    // Abbreviations people write, then names that start alike.
    let abbreviation = match name.trim_start_matches("neg_") {
        "mse" => Some("neg_mean_squared_error"),
        "rmse" => Some("neg_root_mean_squared_error"),
        "mae" => Some("neg_mean_absolute_error"),
        "auc" | "roc" => Some("roc_auc"),
        _ => None,
    };
    let stem = name.trim_end_matches("_score").trim_start_matches("neg_");
    let alike = |s: &&&str| {
        let s = s.trim_start_matches("neg_");
        !stem.is_empty() && (s.starts_with(stem) || stem.starts_with(s))
    };
    let close: Vec<String> = abbreviation
        .into_iter()
        .chain(SCORER_NAMES.iter().filter(alike).copied())
        .take(4)
        .map(|s| format!("'{s}'"))
        .collect();
    let hint = if close.is_empty() {
        "sklearn.metrics.get_scorer_names() lists the valid names".to_string()
    } else {
        format!("did you mean {}?", close.join(", "))
    };
    Some(format!(
        "scoring='{name}' is not a scorer name of scikit-learn; {hint}: ValueError: '{name}' is not a valid scoring value"
    ))
}

/// Functions of `sklearn.model_selection` that look `scoring` up before fitting anything, and
/// `sklearn.metrics.get_scorer` / `check_scoring`.
fn scoring_argument<'e>(path: &str, args: &'e [Expr], keywords: &'e [Keyword]) -> Option<&'e Expr> {
    let function = path.rsplit('.').next()?;
    if path.starts_with("sklearn.model_selection")
        && matches!(
            function,
            "cross_val_score"
                | "cross_validate"
                | "learning_curve"
                | "validation_curve"
                | "permutation_test_score"
        )
    {
        return keyword(keywords, "scoring");
    }
    if path.starts_with("sklearn.metrics") && function == "get_scorer" {
        return args.first().or_else(|| keyword(keywords, "scoring"));
    }
    if path.starts_with("sklearn.metrics") && function == "check_scoring" {
        return args.get(1).or_else(|| keyword(keywords, "scoring"));
    }
    None
}

/// `test_size` / `train_size` of `train_test_split` outside what it takes: a float in (0, 1) or
/// an int from 1 to the number of samples less one.
fn split_size(keywords: &[Keyword], n: Option<i64>) -> Option<Diagnostic> {
    let fraction = |param: &str| match keyword(keywords, param) {
        Some(Expr::Literal {
            value: Literal::Float(f),
            ..
        }) => Some(*f),
        _ => None,
    };
    if let (Some(test), Some(train)) = (fraction("test_size"), fraction("train_size")) {
        let sum = test + train;
        if sum > 1.0 && test < 1.0 && train < 1.0 {
            return Some(Diagnostic::error(
                Rule::SklearnBadParams,
                format!("test_size={test} and train_size={train} add up to {}, more than all the samples: train_test_split raises ValueError; make them sum to 1 or less", (sum * 1000.0).round() / 1000.0),
                keyword(keywords, "train_size")?.range(),
            ));
        }
    }
    for param in ["test_size", "train_size"] {
        let Some(e @ Expr::Literal { value, .. }) = keyword(keywords, param) else {
            continue;
        };
        let problem = match value {
            Literal::Float(f) if *f <= 0.0 || *f >= 1.0 => {
                format!("{param}={f} is a float, a fraction of the samples, and must lie strictly between 0 and 1 (an int counts samples)")
            }
            Literal::Int(k) if *k <= 0 => {
                format!("{param}={k} must be at least 1 (or a fraction between 0 and 1)")
            }
            Literal::Int(k) if n.is_some_and(|n| *k >= n) => format!(
                "{param}={k} counts samples but there are only {}: it must be smaller",
                n.unwrap_or_default()
            ),
            _ => continue,
        };
        return Some(Diagnostic::error(
            Rule::SklearnBadParams,
            format!("{problem}: train_test_split raises ValueError"),
            e.range(),
        ));
    }
    None
}

/// An integer parameter: written in this cell, reported by the kernel, or, for an estimator
/// built in this cell without it, its default.
fn int_param(est: &Estimator, name: &str, default: i64) -> Option<i64> {
    match est.params.get(name) {
        Some(Literal::Int(i)) => Some(*i),
        Some(_) => None,
        None if est.constructed_at.is_some() => Some(default),
        None => est.kernel_params.get(name)?.parse().ok(),
    }
}

/// A size parameter that `fit` on `rows` samples of `cols` features rejects: the clusters of
/// k-means (8 by default), the components of a PCA given as an int or of a TruncatedSVD (2 by
/// default).
fn size_problem(est: &Estimator, rows: Option<i64>, cols: Option<i64>) -> Option<String> {
    let class = est.class.as_str();
    match class {
        "KMeans" | "MiniBatchKMeans" | "BisectingKMeans" => {
            let (k, n) = (int_param(est, "n_clusters", 8)?, rows?);
            (k > n).then(|| format!("{class} with n_clusters={k} needs at least {k} samples and fit gets {n}; ask for at most {n} clusters: ValueError: n_samples={n} should be >= n_clusters={k}"))
        }
        "PCA" => {
            let Some(Literal::Int(k)) = est.params.get("n_components") else {
                return None;
            };
            let most = rows?.min(cols?);
            (*k > most).then(|| format!("PCA with n_components={k} but fit gets {} samples of {} features, at most {most} components: ValueError", rows.unwrap_or_default(), cols.unwrap_or_default()))
        }
        "TruncatedSVD" => {
            let (k, n) = (int_param(est, "n_components", 2)?, cols?);
            (k > n).then(|| format!("TruncatedSVD with n_components={k} but fit gets {n} features, at most {n} components: ValueError: n_components({k}) must be <= n_features({n})"))
        }
        _ => None,
    }
}

/// Lower bounds of numeric parameters, as scikit-learn's `_parameter_constraints` state them
/// and `fit` checks before anything else (InvalidParameterError, a ValueError): the classes,
/// the parameter, the bound, and whether the bound itself is refused.
const PARAMETER_BOUNDS: &[(&[&str], &str, f64, bool)] = &[
    (&["PolynomialFeatures"], "degree", 0.0, false),
    (
        &[
            "RandomForestClassifier",
            "RandomForestRegressor",
            "ExtraTreesClassifier",
            "ExtraTreesRegressor",
            "GradientBoostingClassifier",
            "GradientBoostingRegressor",
            "AdaBoostClassifier",
            "AdaBoostRegressor",
            "BaggingClassifier",
            "BaggingRegressor",
        ],
        "n_estimators",
        1.0,
        false,
    ),
    (
        &[
            "DecisionTreeClassifier",
            "DecisionTreeRegressor",
            "RandomForestClassifier",
            "RandomForestRegressor",
            "ExtraTreesClassifier",
            "ExtraTreesRegressor",
            "GradientBoostingClassifier",
            "GradientBoostingRegressor",
        ],
        "max_depth",
        1.0,
        false,
    ),
    (
        &["KNeighborsClassifier", "KNeighborsRegressor"],
        "n_neighbors",
        1.0,
        false,
    ),
    (&["KMeans", "MiniBatchKMeans"], "n_clusters", 1.0, false),
    (&["LogisticRegression"], "max_iter", 0.0, false),
    (
        &["LogisticRegression", "SVC", "SVR", "LinearSVC"],
        "C",
        0.0,
        true,
    ),
];

/// A numeric parameter of the estimator below its bound (`PARAMETER_BOUNDS`), which `call`
/// rejects.
fn out_of_range_param(est: &Estimator, call: &str) -> Option<String> {
    let class = est.class.as_str();
    PARAMETER_BOUNDS.iter().find_map(|(classes, param, bound, open)| {
        if !classes.contains(&class) {
            return None;
        }
        let value = match est.params.get(*param)? {
            Literal::Int(i) => *i as f64,
            Literal::Float(f) => *f,
            _ => return None,
        };
        let below = value < *bound || (*open && value == *bound);
        let least = if *open { "more than" } else { "at least" };
        below.then(|| {
            format!("{class}'s {param} must be {least} {bound} and is {value}: {call} raises InvalidParameterError (a ValueError) on the '{param}' parameter")
        })
    })
}

/// A text parameter of the estimator that is none of the strings it takes (`STRING_OPTIONS`,
/// read off scikit-learn's parameter constraints), which `call` rejects: InvalidParameterError
/// (a ValueError). Options change across releases (`criterion='mse'`, `max_features='auto'`):
/// certain for a misspelling of an option, or when the kernel runs the release the table was
/// read off; silent with another release, likely when the release is not known.
fn unknown_option(w: &Walker, est: &Estimator, call: &str, range: TextRange) -> Option<Diagnostic> {
    if !est.params.values().any(|v| matches!(v, Literal::Str(_))) {
        return None;
    }
    let class = est.class.as_str();
    let (param, given, options) = STRING_OPTIONS.lines().find_map(|line| {
        let param_and_options = line.strip_prefix(class)?.strip_prefix(' ')?;
        let mut parts = param_and_options.split(' ');
        let param = parts.next()?;
        let Some(Literal::Str(given)) = est.params.get(param) else {
            return None;
        };
        let options = parts.next()?;
        (!options.split(',').any(|o| o == given)).then_some((param, given, options))
    })?;
    let close = crate::semantics::signatures::misspelled(given, options.split(','));
    let kernel = super::api::kernel_version(w, "sklearn");
    let same_release = kernel.map(|v| super::api::same_minor_release(v, SKLEARN_VERSION));
    if close.is_none() && same_release == Some(false) {
        return None;
    }
    let hint = close
        .map(|c| format!("; did you mean '{c}'?"))
        .unwrap_or_default();
    let mut d = Diagnostic::error(
        Rule::SklearnBadParams,
        format!(
            "{class}'s {param} takes {}, not '{given}'{hint}: {call} raises InvalidParameterError (a ValueError) on the '{param}' parameter",
            options
                .split(',')
                .map(|o| format!("'{o}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        range,
    );
    if close.is_none() && same_release.is_none() {
        d.make_likely(&format!(
            "the options of scikit-learn {SKLEARN_VERSION}; the installed version is not known, and earlier releases took other strings"
        ));
    }
    Some(d)
}

/// Parameters a splitter of `sklearn.model_selection` refuses when it is built.
fn splitter_params(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let class = path.strip_prefix("sklearn.model_selection.")?;
    too_few_splits(w, class, args, keywords)
        .or_else(|| random_state_without_shuffle(w, class, args, keywords))
}

/// `KFold(n_splits=1)` and the other k-fold splitters of fewer than two folds: their
/// constructor raises ValueError.
fn too_few_splits(
    w: &Walker,
    class: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    if !matches!(
        class,
        "KFold" | "StratifiedKFold" | "GroupKFold" | "StratifiedGroupKFold"
    ) {
        return None;
    }
    let splits = args.first().or_else(|| keyword(keywords, "n_splits"))?;
    let n = crate::semantics::eval::int_of(w, splits).filter(|n| *n < 2)?;
    Some(Diagnostic::error(
        Rule::SklearnBadParams,
        format!("{class}(n_splits={n}) makes fewer than two folds: ValueError: k-fold cross-validation requires at least one train/test split by setting n_splits=2 or more, got n_splits={n}."),
        splits.range(),
    ))
}

/// A k-fold splitter given a `random_state` while `shuffle` is False (its default): the
/// constructor raises ValueError, as the seed would have no effect. KFold and StratifiedKFold
/// raise since scikit-learn 0.24 (earlier releases warn); StratifiedGroupKFold always did;
/// GroupKFold since 1.6, before which it took no `random_state` (TypeError).
fn random_state_without_shuffle(
    w: &Walker,
    class: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let raises_since = match class {
        "KFold" | "StratifiedKFold" => Some((0, 24)),
        "GroupKFold" | "StratifiedGroupKFold" => None,
        _ => return None,
    };
    if keywords.iter().any(|k| k.name.is_none()) {
        return None;
    }
    // Only StratifiedGroupKFold takes them by position.
    let positional = |i: usize| args.get(i).filter(|_| class == "StratifiedGroupKFold");
    let seed = positional(2).or_else(|| keyword(keywords, "random_state"))?;
    let Val::Int(seed_value) = w.eval(seed) else {
        return None;
    };
    let shuffled = positional(1)
        .or_else(|| keyword(keywords, "shuffle"))
        .map(|s| w.eval(s));
    if !matches!(shuffled, None | Some(Val::Bool(false)) | Some(Val::Int(0))) {
        return None;
    }
    let message = format!(
        "{class}(random_state={seed_value}) without shuffle=True: a seed has no effect on folds taken in order"
    );
    let exception = "ValueError: Setting a random_state has no effect since shuffle is False. You should leave random_state to its default (None), or set shuffle=True.";
    let diagnostic = |text: String| Diagnostic::error(Rule::SklearnBadParams, text, seed.range());
    let mut d = match raises_since.map(|since| {
        (
            since,
            super::kernel_release_within(w, "sklearn", since, None),
        )
    }) {
        None if class == "GroupKFold" => diagnostic(format!(
            "{message}: {exception} (releases before 1.6 take no random_state: TypeError)"
        )),
        None => diagnostic(format!("{message}: {exception}")),
        Some((_, super::KernelRelease::Within(kernel))) => {
            diagnostic(format!("{message}; {kernel}: {exception}"))
        }
        Some((_, super::KernelRelease::Outside)) => return None,
        Some(((major, minor), super::KernelRelease::Unknown)) => {
            let mut d = diagnostic(format!("{message}: {exception}"));
            d.make_likely(&format!(
                "the kernel's scikit-learn version is not known; releases before {major}.{minor} only warn"
            ));
            d
        }
    };
    // `shuffle=False` written out becomes `shuffle=True`; else the keyword goes before the seed.
    let fix = "shuffle the folds (shuffle=True), so the seed takes effect";
    d.fix = Some(
        match keywords
            .iter()
            .find(|k| k.name.as_deref() == Some("shuffle"))
        {
            Some(k) => Fix::replace(fix, k.range, "shuffle=True"),
            None => match keywords
                .iter()
                .find(|k| k.name.as_deref() == Some("random_state"))
            {
                Some(k) => Fix::replace(
                    fix,
                    TextRange::new(k.range.start, k.range.start),
                    "shuffle=True, ",
                ),
                None => return Some(d),
            },
        },
    );
    Some(d)
}

/// `transform` of an encoder given a text it was not fitted on (`labels_seen`), or a
/// LabelEncoder's `inverse_transform` given a code outside `0..` its number of labels:
/// ValueError.
fn unseen_labels(
    w: &Walker,
    est: &Estimator,
    attr: &str,
    args: &[Expr],
    name: &str,
) -> Option<Diagnostic> {
    let seen = est.labels_seen.as_ref()?;
    let y = args.first()?;
    let (unseen, error) = match (attr, w.eval(y), seen.as_slice()) {
        ("transform", Val::Strs { items, .. }, [labels]) if est.class == "LabelEncoder" => (
            format!("'{}'", items.iter().find(|s| !labels.contains(s))?),
            "y contains previously unseen labels".to_string(),
        ),
        ("transform", Val::Items { items: rows, .. }, columns) if est.class != "LabelEncoder" => {
            let (column, text) = rows.iter().find_map(|row| {
                let Val::Strs { items, .. } = row else {
                    return None;
                };
                (items.len() == columns.len())
                    .then(|| items.iter().zip(columns).position(|(t, c)| !c.contains(t)))
                    .flatten()
                    .map(|j| (j, items[j].clone()))
            })?;
            (
                format!("'{text}' in column {column}"),
                format!("Found unknown categories ['{text}'] in column {column} during transform"),
            )
        }
        ("inverse_transform", v, [labels]) if est.class == "LabelEncoder" => {
            let (lo, hi) = crate::semantics::numpy::literal_array(&v)
                .or(match v {
                    Val::Array(a) if a.lib == ArrayLib::Numpy => Some(a),
                    _ => None,
                })?
                .int_bounds?;
            let classes = crate::ordered::set_of(labels).len() as i64;
            let code = if lo < 0 {
                lo
            } else if hi >= classes {
                hi
            } else {
                return None;
            };
            (
                code.to_string(),
                "y contains previously unseen labels".to_string(),
            )
        }
        _ => return None,
    };
    let learnt: Vec<String> = seen.iter().flatten().cloned().collect();
    Some(Diagnostic::error(
        Rule::SklearnFeatureMismatch,
        format!(
            "{name} was fitted on {} and {} holds {unseen}: {name}.{attr}() raises ValueError: {error}",
            super::list_preview(&learnt, 8),
            w.shown(y, "y")
        ),
        y.range(),
    ))
}

/// `search.fit(...)` of a search whose grid names a parameter its estimator (or a step of its
/// pipeline) lacks, and `pipe.set_params(step__param=...)` of the same: ValueError.
fn invalid_parameter(
    est: &Estimator,
    attr: &str,
    keywords: &[Keyword],
    name: &str,
) -> Option<String> {
    let (key, owner) = match attr {
        "fit" => est.invalid_grid_key.clone()?,
        "set_params" => keywords
            .iter()
            .filter_map(|k| k.name.as_deref())
            .find_map(|k| {
                (est.class == "Pipeline")
                    .then(|| lacking_parameter(est, k))
                    .flatten()
                    .map(|owner| (k.to_string(), owner))
            })?,
        _ => return None,
    };
    let steps = &est.step_names;
    let (prefix, param) = key.split_once("__").unwrap_or((key.as_str(), key.as_str()));
    if owner != "Pipeline" {
        let step = if key.contains("__") {
            format!("step '{prefix}' ({owner})")
        } else {
            owner.clone()
        };
        return Some(format!(
            "'{key}' names no parameter of {step}: {name}.{attr}() sets it on a clone of the estimator and raises ValueError: Invalid parameter '{param}' for estimator {owner}()"
        ));
    }
    let known = if steps.is_empty() {
        String::new()
    } else {
        format!(" (its steps: {})", super::list_preview(steps, 8))
    };
    Some(format!(
        "'{key}' names no parameter of the pipeline{known}: a pipeline's parameters are 'step__param' with the name of one of its steps; {name}.{attr}() raises ValueError: Invalid parameter '{prefix}' for estimator Pipeline"
    ))
}

/// The classifier or regressor that `est.fit(X)` fits on no targets: `est` (of scikit-learn's
/// own class, whose `fit` the kernel reads only through its wrapper), or the last step of a
/// pipeline built in this cell.
fn fitted_on_targets(est: &Estimator) -> Option<&Estimator> {
    if est.class == "Pipeline" {
        est.constructed_at?;
        return fitted_on_targets(est.inner.last()?);
    }
    (est.is_sklearn() && SAMPLE_CHECKED.contains(&est.class.as_str())).then_some(est)
}

/// `fit` called on an estimator's class rather than on an estimator (`model = LinearRegression`
/// without parentheses, then `model.fit(X, y)`): the first argument, data, binds to `self`, and
/// `fit` reads what only an estimator has (`_validate_params`, its parameters).
fn fit_of_the_class(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    range: TextRange,
) -> Option<Diagnostic> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    if attr != "fit" {
        return None;
    }
    let Val::Lib(class_path) = w.eval(value) else {
        return None;
    };
    let class_path = crate::semantics::signatures::public_path(&class_path);
    // An estimator of the installed scikit-learn: the signature table lists its `fit`.
    crate::semantics::signatures::library_params(&format!("{class_path}#fit"))?;
    let first = args.first()?;
    let data = match w.eval(first) {
        Val::Array(a) if a.lib == ArrayLib::Numpy && !a.maybe_not_ndarray => "numpy.ndarray",
        Val::Frame(_) => "DataFrame",
        Val::Series(_) => "Series",
        v => crate::semantics::python::builtin_of(&v)?.name(),
    };
    let class = class_path.rsplit('.').next().unwrap_or(&class_path);
    let holder = match &**value {
        // Bound by an assignment, not by the import of the class.
        Expr::Name { id, .. } if id != class && !w.ctx.history.imports.contains_key(id) => format!(
            "{id} holds the class {class} itself (the parentheses that create an estimator are missing)"
        ),
        _ => format!(
            "{} is the class {class}, not an estimator",
            w.shown(value, class)
        ),
    };
    Some(Diagnostic::error(
        Rule::MissingAttribute,
        format!(
            "{holder}: its fit takes {} as self; create the estimator first, {class}().fit(...): AttributeError: '{data}' object has no attribute '_validate_params'",
            w.shown(first, "the first argument")
        ),
        range,
    ))
}

/// The kernel read the live estimator's own `fit` signature (no wrapper in front of it):
/// `rules::api` checks the call against that.
fn kernel_read_fit(w: &Walker, estimator: &Expr) -> bool {
    let Expr::Name { id, .. } = estimator else {
        return false;
    };
    !w.bound_here.contains(id)
        && w.ctx
            .summaries
            .and_then(|doc| doc.objects.get(&format!("{id}.fit")))
            .is_some_and(|fit| {
                fit.is_kind("callable")
                    && fit.facts(Category::R).get("wrapped")
                        == Some(&serde_json::Value::Bool(false))
            })
}

fn is_search(class: &str) -> bool {
    matches!(
        class,
        "GridSearchCV" | "RandomizedSearchCV" | "HalvingGridSearchCV" | "HalvingRandomSearchCV"
    )
}

/// The functions of `sklearn.model_selection` that split X into `cv` folds (keyword-only).
const CROSS_VALIDATING: &[&str] = &[
    "cross_val_score",
    "cross_validate",
    "cross_val_predict",
    "learning_curve",
    "validation_curve",
];

/// `cv` left out: 5 folds since scikit-learn 0.22 (3 before): only fewer than 3 samples are
/// certainly too few whatever the release.
const DEFAULT_FOLDS: i64 = 3;

/// `cv=k` folds of `rows` samples: KFold (and StratifiedKFold) cannot make more folds than samples.
fn too_many_folds(folds: Option<i64>, rows: Option<i64>, call: &str) -> Option<String> {
    let (k, n) = (folds?, rows?);
    (k > n).then(|| format!("{call} splits X into {k} folds but it has {n} samples: ValueError: Cannot have number of splits n_splits={k} greater than the number of samples: n_samples={n}; pass cv={n} or fewer"))
}

/// `partial_fit(X, y)` without `classes` on a classifier that was never fitted: its first call
/// must name every class.
fn first_partial_fit_without_classes(est: &Estimator) -> Option<String> {
    let class = est.class.as_str();
    // An `MLPClassifier` with `solver='lbfgs'` has no `partial_fit` at all.
    let known = PARTIAL_FIT_NEEDS_CLASSES.contains(&class)
        && !(class == "MLPClassifier" && est.params.contains_key("solver"));
    (est.is_sklearn() && known && est.fitted == Some(false)).then(|| {
        format!("the first partial_fit of {class} must be given every class the data will hold (classes=[...]): ValueError: classes must be passed on the first call to partial_fit")
    })
}

/// `predict`, `kneighbors`, ... of a k-neighbors model fitted in this cell on fewer samples than
/// its `n_neighbors` (5 by default).
fn too_few_neighbors(est: &Estimator) -> Option<String> {
    if !matches!(
        est.class.as_str(),
        "KNeighborsClassifier" | "KNeighborsRegressor"
    ) {
        return None;
    }
    let (k, n) = (int_param(est, "n_neighbors", 5)?, est.n_samples?);
    (k > n).then(|| format!("{} was fitted on {n} samples but looks for n_neighbors={k} of them: ValueError: Expected n_neighbors <= n_samples_fit; pass n_neighbors={n} or less", est.class))
}

/// The estimator that `est.fit(X, y)` hands `y` with `X`'s rows: `est`, or a pipeline's last
/// step, when it checks their lengths.
fn sample_checker(est: &Estimator) -> Option<&Estimator> {
    if est.class == "Pipeline" && est.constructed_at.is_some() {
        return sample_checker(est.inner.last()?);
    }
    (est.is_sklearn() && SAMPLE_CHECKED.contains(&est.class.as_str())).then_some(est)
}

fn x_arg<'e>(args: &'e [Expr], keywords: &'e [Keyword]) -> Option<&'e Expr> {
    args.first().or_else(|| {
        keywords
            .iter()
            .find(|k| k.name.as_deref() == Some("X"))
            .map(|k| &k.value)
    })
}

/// `model.coef_` of a scikit-learn estimator that is not fitted: AttributeError (NotFittedError,
/// an AttributeError, from the properties).
fn learnt_attribute(w: &Walker, value: &Expr, attr: &str, range: TextRange) -> Option<Diagnostic> {
    if !attr.ends_with('_') || attr.starts_with('_') {
        return None;
    }
    let Val::Estimator(est) = w.eval(value) else {
        return None;
    };
    if est.fitted != Some(false) || !est.is_sklearn() || !est.unfitted_raises() {
        return None;
    }
    let name = w.shown(value, "the estimator");
    Some(Diagnostic::error(
        Rule::SklearnNotFitted,
        format!(
            "{name}.{attr} is learnt by fit, and this {} is not fitted yet; call {name}.fit(...) first: AttributeError",
            est.class
        ),
        range,
    ))
}

/// `model.feature_importances_` of a LinearRegression, `forest.coef_`: what `fit` learns on
/// other estimators, which this one's class never has, fitted or not: AttributeError. What a
/// class learns changes across releases (`n_features_`, `base_estimator_`): certain when the
/// kernel runs the release the table was read off, silent with another, likely when it did not
/// say.
fn lacked_learnt_attribute(
    w: &Walker,
    value: &Expr,
    attr: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    if !attr.ends_with('_') || attr.starts_with('_') {
        return None;
    }
    let Val::Estimator(est) = w.eval(value) else {
        return None;
    };
    if !est.is_sklearn() || w.attribute_rewired(attr) {
        return None;
    }
    let learns = crate::semantics::sklearn::lacked_learnt_attribute(&est.class, attr)?;
    let kernel = super::api::kernel_version(w, "sklearn");
    if kernel.is_some_and(|v| !super::api::same_minor_release(v, SKLEARN_VERSION)) {
        return None;
    }
    let learns: Vec<String> = learns.iter().map(|n| n.to_string()).collect();
    let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
    let release = kernel
        .map(|v| format!(" (the kernel runs scikit-learn {v})"))
        .unwrap_or_default();
    let mut d = Diagnostic::error(
        Rule::MissingAttribute,
        format!(
            "'{}' object has no attribute '{attr}', fitted or not{release} (of what estimators learn, a fitted {} has {}): AttributeError",
            est.class,
            est.class,
            super::list_preview(&learns, 8),
        ),
        attr_range,
    );
    if kernel.is_none() {
        d.make_likely(&format!(
            "what scikit-learn {SKLEARN_VERSION} learns; the installed version is not known, and earlier releases learnt other names"
        ));
    }
    Some(d)
}

/// `vectorizer.get_feature_names()`, `grid.grid_scores_`: what estimators of earlier releases
/// had. Certain when the kernel runs a release without it, likely when it did not say which.
fn removed_attribute(w: &Walker, value: &Expr, attr: &str, range: TextRange) -> Option<Diagnostic> {
    let Val::Estimator(est) = w.eval(value) else {
        return None;
    };
    if !est.is_sklearn() {
        return None;
    }
    let (gone, instead) = crate::semantics::sklearn::removed_attribute(&est.class, attr)?;
    let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
    let message = format!(
        "'{}' object has no attribute '{attr}': scikit-learn {}.{} and later lack it; use {instead}",
        est.class, gone.0, gone.1
    );
    super::removed_in_release(
        w,
        "sklearn",
        (gone, None),
        &message,
        "AttributeError",
        |message| Diagnostic::error(Rule::MissingAttribute, message, attr_range),
    )
}

/// What a fitted search learns (scikit-learn's `BaseSearchCV`, the classes `GridSearchCV`,
/// `RandomizedSearchCV` and the halving searches): `best_params_`, ...
const SEARCH_LEARNS: &[&str] = &[
    "best_estimator_",
    "best_index_",
    "best_params_",
    "best_score_",
    "cv_results_",
    "multimetric_",
    "n_splits_",
    "refit_time_",
    "scorer_",
];

/// `grid.best_params`, `model.coef`: what `fit` learns without its trailing underscore. The
/// estimator has no such attribute (its parameters are known, and none has the name), fitted
/// or not: AttributeError.
fn forgotten_underscore(
    w: &Walker,
    value: &Expr,
    attr: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    if attr.starts_with('_') || attr.ends_with('_') {
        return None;
    }
    let Val::Estimator(est) = w.eval(value) else {
        return None;
    };
    if !est.is_sklearn() {
        return None;
    }
    let learnt = format!("{attr}_");
    let search = est.class.contains("SearchCV");
    let known = if search {
        SEARCH_LEARNS.contains(&learnt.as_str())
    } else {
        crate::semantics::property_tables::FITTED_ATTRIBUTES
            .iter()
            .any(|(class, name, ..)| *class == est.class && *name == learnt)
            || crate::semantics::sklearn::may_learn(&est.class, &learnt)
    };
    if !known {
        return None;
    }
    let params = crate::semantics::signatures::library_params(
        &crate::semantics::signatures::public_path(&est.type_path),
    )?;
    if crate::semantics::signatures::keyword_names(&params).any(|n| n == attr) {
        return None;
    }
    let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
    Some(
        Diagnostic::error(
            Rule::MissingAttribute,
            format!(
                "'{}' object has no attribute '{attr}'; what fit learns ends with an underscore: did you mean '{learnt}'?: AttributeError",
                est.class
            ),
            attr_range,
        )
        .with_fix(Fix::replace(
            format!("Use {learnt}"),
            attr_range,
            learnt.clone(),
        )),
    )
}

/// `model.predict_proba` (and the other methods of `OUTPUT_METHODS`) of an estimator that lacks
/// the method.
fn lacked_method(w: &Walker, value: &Expr, attr: &str, range: TextRange) -> Option<Diagnostic> {
    let Val::Estimator(est) = w.eval(value) else {
        return None;
    };
    let why = est.lacked_method(attr)?;
    let name = w.shown(value, "the estimator");
    let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
    Some(Diagnostic::error(
        Rule::MissingAttribute,
        format!("{name}.{attr}: {why}: AttributeError"),
        attr_range,
    ))
}

/// `pipe['clf']` and `pipe.named_steps['clf']` of a pipeline with no step of that name.
fn missing_step(w: &Walker, value: &Expr, index: &Expr) -> Option<Diagnostic> {
    let step = index.as_str_literal()?;
    let pipe = match value {
        Expr::Attribute { value, attr, .. } if attr == "named_steps" => value,
        _ => value,
    };
    let Val::Estimator(est) = w.eval(pipe) else {
        return None;
    };
    if est.class != "Pipeline" || !est.is_sklearn() || est.step_names.is_empty() {
        return None;
    }
    if est.step_names.iter().any(|s| s == step) {
        return None;
    }
    let mut message = format!(
        "{} has no step '{step}' (its steps: {})",
        w.shown(pipe, "the pipeline"),
        super::list_preview(&est.step_names, 8)
    );
    if let Some(s) = super::suggest(step, est.step_names.iter().map(String::as_str)) {
        message.push_str(&format!("; did you mean '{s}'?"));
    }
    message.push_str(": KeyError");
    Some(Diagnostic::error(Rule::MissingKey, message, index.range()))
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let Expr::Subscript { value, index, .. } = expr {
        if let Some(d) = missing_step(w, value, index) {
            out.push(d);
        }
        return;
    }
    if let Expr::Attribute { value, attr, range } = expr {
        if let Some(d) = lacked_learnt_attribute(w, value, attr, *range)
            .or_else(|| learnt_attribute(w, value, attr, *range))
            .or_else(|| removed_attribute(w, value, attr, *range))
            .or_else(|| lacked_method(w, value, attr, *range))
            .or_else(|| forgotten_underscore(w, value, attr, *range))
        {
            out.push(d);
        }
        return;
    }
    let Expr::Call {
        func,
        args,
        keywords,
        range,
    } = expr
    else {
        return;
    };
    if let Some(d) = fit_of_the_class(w, func, args, *range) {
        out.push(d);
        return;
    }
    if let Some(d) = splitter_params(w, func, args, keywords) {
        out.push(d);
        return;
    }
    // train_test_split on zero samples.
    if let Some(path) = w.lib_path(func) {
        if let Some(class) = path.strip_suffix(".from_predictions") {
            if is_confusion_display(class) && !keywords.iter().any(|k| k.name.is_none()) {
                let (Some(y_true), Some(y_pred)) = (
                    args.first().or_else(|| keyword(keywords, "y_true")),
                    args.get(1).or_else(|| keyword(keywords, "y_pred")),
                ) else {
                    return;
                };
                let labels = keyword(keywords, "display_labels")
                    .and_then(|e| w.eval(e).sized().map(|(_, n)| n));
                if let Some((classes, exact)) =
                    matrix_classes(w, y_true, y_pred, keyword(keywords, "labels"))
                {
                    if let Some(msg) = labels_mismatch(classes, exact, labels) {
                        out.push(Diagnostic::error(Rule::SklearnDisplayLabels, msg, *range));
                    }
                }
            }
            return;
        }
        if let Some(scoring) = scoring_argument(&path, args, keywords) {
            if let Some(msg) = str_value(w, scoring).and_then(|n| unknown_scoring(&n)) {
                out.push(Diagnostic::error(
                    Rule::SklearnBadParams,
                    msg,
                    scoring.range(),
                ));
                return;
            }
        }
        if let Some(d) = cross_validation_x(w, &path, args, keywords) {
            out.push(d);
            return;
        }
        if let Some(function) = path
            .strip_prefix("sklearn.model_selection.")
            .and_then(|p| p.rsplit('.').next())
            .filter(|f| CROSS_VALIDATING.contains(f))
        {
            let folds = match keyword(keywords, "cv") {
                Some(Expr::Literal {
                    value: Literal::Int(k),
                    ..
                }) => Some(*k),
                Some(_) => None,
                None => Some(DEFAULT_FOLDS),
            };
            let rows = args
                .get(1)
                .or_else(|| keyword(keywords, "X"))
                .and_then(|x| n_samples(&w.eval(x)));
            if let Some(msg) = too_many_folds(folds, rows, function) {
                out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
                return;
            }
        }
        // Targets and predictions (or scores) of other lengths: often from another split
        // (`accuracy_score(y_test, model.predict(X_train))`).
        if let Some(metric) = path
            .strip_prefix("sklearn.metrics.")
            .map(|p| p.rsplit('.').next().unwrap_or(p))
            .filter(|f| CONSISTENT_LENGTH_METRICS.contains(f))
        {
            if let ([first, second, ..], false) = (args.as_slice(), unpacks(args, keywords)) {
                if let Some(d) = inconsistent_samples(w, &[first, second], metric) {
                    out.push(d);
                    return;
                }
            }
        }
        if path == "sklearn.model_selection.train_test_split" {
            if unpacks(args, keywords) {
                return;
            }
            // Every positional argument is an array to split; the sizes and the seed are
            // keywords only (`train_test_split(X, y, 0.2)`: TypeError).
            if let Some((number, value)) = args.iter().find_map(|a| match w.eval(a) {
                v @ (Val::Int(_) | Val::Float(_)) => Some((a, v)),
                _ => None,
            }) {
                let shown = w.shown(number, "the number");
                let instead = match value {
                    Val::Float(_) => format!("write test_size={shown}"),
                    _ => format!("name it: test_size={shown} (samples) or random_state={shown}"),
                };
                out.push(Diagnostic::error(
                    Rule::BadArguments,
                    format!(
                        "{shown} is a number, but train_test_split takes only arrays by position (test_size, train_size and random_state are keywords only), so it splits {shown} as data: TypeError; {instead}"
                    ),
                    number.range(),
                ));
                return;
            }
            let data: Vec<&Expr> = args.iter().collect();
            if let Some(d) = inconsistent_samples(w, &data, "train_test_split") {
                out.push(d);
                return;
            }
            let n = args.iter().find_map(|a| n_samples(&w.eval(a)));
            if n != Some(0) {
                if let Some(d) = split_size(keywords, n) {
                    out.push(d);
                    return;
                }
            }
            for a in args {
                if let (Some(0), _, _) = data_shape(&w.eval(a)) {
                    out.push(Diagnostic::error(
                        Rule::SklearnEmptyInput,
                        format!(
                            "{} has 0 samples: train_test_split cannot make a train set: ValueError",
                            w.shown(a, "the data")
                        ),
                        a.range(),
                    ));
                    return;
                }
            }
        }
        return;
    }
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    let est = match w.eval(value) {
        Val::Estimator(est) => est,
        Val::ConfusionDisplay {
            classes,
            exact,
            labels,
        } if attr == "plot" => {
            if let Some(msg) = labels_mismatch(classes, exact, labels) {
                out.push(Diagnostic::error(Rule::SklearnDisplayLabels, msg, *range));
            }
            return;
        }
        _ => return,
    };
    let name = w.shown(value, "the estimator");
    let class = est.class.as_str();
    let uses_fitted = matches!(
        attr.as_str(),
        "predict"
            | "predict_proba"
            | "predict_log_proba"
            | "transform"
            | "score"
            | "decision_function"
            | "inverse_transform"
    );
    let fits = matches!(attr.as_str(), "fit" | "fit_transform" | "fit_predict");
    // (Reading a method the estimator lacks raises first: `lacked_method`.)
    if uses_fitted && est.lacked_method(attr).is_some() {
        return;
    }
    if uses_fitted && est.fitted == Some(false) && est.unfitted_raises() {
        let where_ = if est.constructed_at.is_some() {
            "the code created it and did not fit it since"
        } else if est.name.is_some() {
            "the kernel reports it unfitted"
        } else {
            "it is a clone, which keeps the parameters but nothing fit learnt"
        };
        out.push(Diagnostic::error(
            Rule::SklearnNotFitted,
            format!("{name}.{attr}() on an unfitted {class}: {where_}; call {name}.fit(...) first: NotFittedError"),
            *range,
        ));
        return;
    }
    if let Some(d) = unseen_labels(w, &est, attr, args, name) {
        out.push(d);
        return;
    }
    if attr == "fit" && is_search(class) && est.constructed_at.is_some() {
        let folds = match est.params.get("cv") {
            Some(Literal::Int(k)) => Some(*k),
            Some(_) => None,
            None => Some(DEFAULT_FOLDS),
        };
        let rows = x_arg(args, keywords).and_then(|x| n_samples(&w.eval(x)));
        if let Some(msg) = too_many_folds(folds, rows, &format!("{name}.fit()")) {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
    }
    if let Some(msg) = invalid_parameter(&est, attr, keywords, name) {
        out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
        return;
    }
    if attr == "fit" && args.len() == 1 && keywords.is_empty() && !kernel_read_fit(w, value) {
        if let Some(learner) = fitted_on_targets(&est) {
            out.push(Diagnostic::error(
                Rule::BadArguments,
                format!("{} learns from targets, and {name}.fit() is given X alone; pass y as well ({name}.fit(X, y)): TypeError: missing argument 'y' (ValueError: requires y, where y defaults to None)", learner.class),
                *range,
            ));
            return;
        }
    }
    if attr == "partial_fit" && args.len() < 3 && keyword(keywords, "classes").is_none() {
        if let Some(msg) = first_partial_fit_without_classes(&est) {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
    }
    if uses_fitted || attr == "kneighbors" {
        if let Some(msg) = too_few_neighbors(&est).filter(|_| est.is_sklearn()) {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
    }
    if (!uses_fitted && !fits) || !est.is_sklearn() {
        return;
    }
    if fits {
        if let Some(d) = unselectable_columns(w, &est, args, keywords) {
            out.push(d);
            return;
        }
    }
    if fits && class.starts_with("LogisticRegression") {
        if let Some(msg) = logistic_params(&est) {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
    }
    if fits {
        if let Some(msg) = out_of_range_param(&est, &format!("{name}.{attr}()")) {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
        if let Some(d) = unknown_option(w, &est, &format!("{name}.{attr}()"), *range) {
            out.push(d);
            return;
        }
    }
    let Some(x) = x_arg(args, keywords) else {
        return;
    };
    let xv = w.eval(x);
    let xname = w.shown(x, "X");
    let (rows, cols, names) = data_shape(&xv);
    if let Some(d) = x_problem(w, &est, x, &format!("{name}.{attr}()")) {
        out.push(d);
        return;
    }
    if rows == Some(0) && (fits || uses_fitted) {
        out.push(Diagnostic::error(
            Rule::SklearnEmptyInput,
            format!("{xname} has 0 samples: {name}.{attr}() needs at least one: ValueError"),
            x.range(),
        ));
        return;
    }
    if fits {
        if let Some(msg) = size_problem(&est, rows, cols) {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
    }
    if fits || attr == "score" {
        let search = is_search(class);
        // The search looks its scorer up when `fit` starts; a string parameter is `'name'`.
        let scoring = est.param("scoring").filter(|_| search && attr == "fit");
        let scorer = scoring
            .as_deref()
            .and_then(|s| s.strip_prefix('\'')?.strip_suffix('\''));
        if let Some(msg) = scorer
            .filter(|n| !n.contains('\''))
            .and_then(unknown_scoring)
        {
            out.push(Diagnostic::error(Rule::SklearnBadParams, msg, *range));
            return;
        }
        let y = args.get(1).or_else(|| keyword(keywords, "y"));
        if let (Some(y), Some(_)) = (y, sample_checker(&est)) {
            let call = format!("{name}.{attr}()");
            if let Some(d) = inconsistent_samples(w, &[x, y], &call) {
                out.push(d);
                return;
            }
        }
    }
    // Column transformers select columns by name (extra ones are fine), and `inverse_transform`
    // takes the output's width: only the estimators of the tables validate `X` against what
    // `fit` saw, and a pipeline whose first step is one of them.
    let validating = |class: &str| NUMERIC_2D.contains(&class) || KNOWN.contains(&class);
    let validates = validating(class)
        || (class == "Pipeline" && est.steps.first().is_some_and(|first| validating(first)));
    if uses_fitted && est.fitted != Some(false) && validates && attr != "inverse_transform" {
        if let (Some(n), Some(c)) = (est.n_features, cols) {
            if n != c {
                out.push(Diagnostic::error(
                    Rule::SklearnFeatureMismatch,
                    format!("{name} was fitted on {n} features; {xname} has {c}: ValueError"),
                    x.range(),
                ));
                return;
            }
        }
        if let (Some(fitted), Some(now)) = (&est.feature_names, &names) {
            if fitted != now {
                let missing: Vec<&String> =
                    fitted.iter().filter(|c| !now.contains(c)).take(3).collect();
                let extra: Vec<&String> =
                    now.iter().filter(|c| !fitted.contains(c)).take(3).collect();
                let detail = if missing.is_empty() && extra.is_empty() {
                    "the same names in another order".to_string()
                } else {
                    format!("unseen {:?}, missing {:?}", extra, missing)
                };
                out.push(Diagnostic::error(
                    Rule::SklearnFeatureMismatch,
                    format!("the feature names of {xname} differ from those {name} was fitted on ({detail}): ValueError"),
                    x.range(),
                ));
            }
        }
    }
}

/// `fit(X)` of a ColumnTransformer built in this cell (or of a pipeline that starts with one)
/// that selects by name a column the frame `X` lacks: ValueError.
fn unselectable_columns(
    w: &Walker,
    est: &Estimator,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let ct = first_validator(est);
    if ct.class != "ColumnTransformer" || ct.constructed_at.is_none() {
        return None;
    }
    let x = x_arg(args, keywords)?;
    let Val::Frame(f) = w.eval(x) else {
        return None;
    };
    let columns = f.columns.as_ref()?;
    let missing: Vec<String> = ct
        .selected_columns
        .iter()
        .filter(|c| !columns.contains(c))
        .cloned()
        .collect();
    let first = missing.first()?;
    let mut message = format!(
        "the ColumnTransformer selects {} that {} lacks ({} columns: {})",
        super::list_preview(&missing, 3),
        w.shown(x, "X"),
        columns.len(),
        super::list_preview(columns, 6)
    );
    if let Some(s) = super::suggest(first, columns.iter().map(String::as_str)) {
        message.push_str(&format!("; did you mean '{s}'?"));
    }
    message.push_str(": ValueError (a selected column is not a column of the dataframe)");
    Some(Diagnostic::error(Rule::MissingColumn, message, x.range()))
}

/// What certainly makes `X` (shown as `xname`) unfit for an estimator that takes numbers only,
/// for messages.
fn non_numeric(est: &Estimator, x: &Val, xname: &str) -> Option<String> {
    match x {
        // Histogram gradient boosting takes category columns (categorical_features='from_dtype').
        Val::Frame(f) if !est.class.starts_with("HistGradientBoosting") => {
            let (col, example) = f.non_numeric_column()?;
            Some(format!(
                "column '{col}' of {xname} holds strings such as '{example}'"
            ))
        }
        // Text does not convert to float; booleans with missing values become NaN, which only
        // estimators that reject NaN are sure to refuse.
        Val::Array(a) if est.rejects_nan() => {
            let (frame, col) = a.csv_object_column.as_ref()?;
            Some(format!(
                "{xname} holds column '{col}' of {frame} as read_csv read it, with dtype object: read_csv keeps a column as object only for text (or for booleans with missing values, whose NaN {} rejects too)",
                est.class
            ))
        }
        _ => None,
    }
}

/// Solver and penalty combinations `LogisticRegression.fit` rejects.
fn logistic_params(est: &Estimator) -> Option<String> {
    let s = |k: &str| match est.params.get(k) {
        None => Some(None),
        Some(Literal::Str(s)) => Some(Some(s.clone())),
        Some(Literal::None) => Some(Some("None".into())),
        Some(_) => None,
    };
    let solver = s("solver")?.unwrap_or_else(|| "lbfgs".into());
    let penalty = s("penalty")?.unwrap_or_else(|| "l2".into());
    let allowed: &[&str] = match solver.as_str() {
        "lbfgs" | "newton-cg" | "newton-cholesky" | "sag" => &["l2", "None", "none"],
        "liblinear" => &["l1", "l2"],
        "saga" => return None,
        _ => return None,
    };
    if allowed.contains(&penalty.as_str()) {
        return None;
    }
    Some(format!(
        "LogisticRegression with solver='{solver}' does not support penalty='{penalty}' (it supports {}); use solver='saga' or another penalty: ValueError",
        allowed.iter().filter(|p| **p != "none").map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", ")
    ))
}
