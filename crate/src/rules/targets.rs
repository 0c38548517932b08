//! Classification on continuous targets (`sklearn-continuous-target`); also targets of one
//! known class into a classifier that needs two (`ONE_CLASS_REFUSED`), and a metric given
//! string labels beside numeric ones ("Mix of label input types"). `sklearn-bad-params`:
//! `confusion_matrix(labels=...)` of labels none of which is among `y_true`'s known values.
//!
//! scikit-learn's classifiers (`fit`, also in `cross_val_predict`, and `score`, which is
//! `accuracy_score`) and its classification metrics (`METRICS`, and `y_true` of those that take
//! scores, `LABELS_AND_SCORES`) check their targets with `type_of_target`:
//! a float array holding one value that is not an integer is `continuous`, and they raise
//! ValueError ("Unknown label type: continuous", "Classification metrics can't handle a mix of
//! binary and continuous targets").
//! Floats that are all integers (`0.0`, `1.0`) are classes and fine; regressors and regression
//! metrics take anything.
//!
//! The proof is a value the data certainly holds: a bound of its range or one of its unique values
//! in the kernel summary (`abstract_value::non_integer`), followed through the cell while the data is kept
//! whole (a column of a frame, a copy); a part of it (`train_test_split`, rows selected) may leave
//! the value out, and rounding or `astype` changes it, so those are silent. Predictions are no
//! proof of a non-integer value: a regressor's `predict` or a classifier's probabilities may all
//! be integers (a tree fitted on integer targets, probabilities of exactly 0 and 1). But the whole
//! `predict_proba` output of a classifier with two classes or more is 2-D, which classification
//! metrics reject next to 1-D labels whatever its values.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{keyword, Expr, Keyword};

use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, Estimator, Val};
use crate::walker::state::Walker;

/// scikit-learn classifiers whose `fit` rejects continuous targets with ValueError (checked
/// with scikit-learn 1.9; `DummyClassifier` takes them). The ensembles and multiclass wrappers
/// check the targets themselves, whatever they wrap (AdaBoost aside, see `is_classifier`).
const CLASSIFIERS: &[&str] = &[
    "AdaBoostClassifier",
    "BaggingClassifier",
    "BernoulliNB",
    "CalibratedClassifierCV",
    "CategoricalNB",
    "ComplementNB",
    "DecisionTreeClassifier",
    "ExtraTreeClassifier",
    "ExtraTreesClassifier",
    "GaussianNB",
    "GaussianProcessClassifier",
    "GradientBoostingClassifier",
    "HistGradientBoostingClassifier",
    "KNeighborsClassifier",
    "LabelPropagation",
    "LabelSpreading",
    "LinearDiscriminantAnalysis",
    "LinearSVC",
    "LogisticRegression",
    "LogisticRegressionCV",
    "MLPClassifier",
    "MultinomialNB",
    "NearestCentroid",
    "NuSVC",
    "OneVsOneClassifier",
    "OneVsRestClassifier",
    "PassiveAggressiveClassifier",
    "Perceptron",
    "QuadraticDiscriminantAnalysis",
    "RadiusNeighborsClassifier",
    "RandomForestClassifier",
    "RidgeClassifier",
    "RidgeClassifierCV",
    "SGDClassifier",
    "SVC",
    "StackingClassifier",
    "VotingClassifier",
];

/// Functions of `sklearn.metrics` that check both targets with `_check_targets`, and the names
/// of their two target parameters.
const METRICS: &[(&str, [&str; 2])] = &[
    ("accuracy_score", ["y_true", "y_pred"]),
    ("balanced_accuracy_score", ["y_true", "y_pred"]),
    ("class_likelihood_ratios", ["y_true", "y_pred"]),
    ("classification_report", ["y_true", "y_pred"]),
    ("cohen_kappa_score", ["y1", "y2"]),
    ("confusion_matrix", ["y_true", "y_pred"]),
    ("f1_score", ["y_true", "y_pred"]),
    ("fbeta_score", ["y_true", "y_pred"]),
    ("hamming_loss", ["y_true", "y_pred"]),
    ("jaccard_score", ["y_true", "y_pred"]),
    ("matthews_corrcoef", ["y_true", "y_pred"]),
    ("multilabel_confusion_matrix", ["y_true", "y_pred"]),
    ("precision_recall_fscore_support", ["y_true", "y_pred"]),
    ("precision_score", ["y_true", "y_pred"]),
    ("recall_score", ["y_true", "y_pred"]),
    ("zero_one_loss", ["y_true", "y_pred"]),
];

/// Functions of `sklearn.metrics` that take class labels in `y_true` and scores or
/// probabilities in their second argument: only `y_true` is checked ("continuous format is not
/// supported", "Unknown label type").
const LABELS_AND_SCORES: &[&str] = &[
    "average_precision_score",
    "brier_score_loss",
    "d2_log_loss_score",
    "det_curve",
    "log_loss",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    "top_k_accuracy_score",
];

fn is_classifier(e: &Estimator) -> bool {
    // AdaBoost given a regressor fails otherwise (TypeError): only its default trees are known
    // (`base_estimator` before scikit-learn 1.4, `'deprecated'` while both existed).
    let default_trees = || {
        ["estimator", "base_estimator"].iter().all(|p| {
            if e.params.contains_key(*p) {
                return false;
            }
            e.constructed_at.is_some()
                || matches!(e.param(p).as_deref(), Some("None" | "'deprecated'"))
                || (*p == "base_estimator" && e.param(p).is_none())
        })
    };
    e.is_sklearn()
        && CLASSIFIERS.contains(&e.class.as_str())
        && (e.class != "AdaBoostClassifier" || default_trees())
}

/// The classifier that `est.fit(X, y)` (or `est.score(X, y)`) fits or scores on `y`: `est`
/// itself, the last step of a pipeline built in this cell, or (`fit` with the default `refit`)
/// the estimator of a search built in this cell, whose refit on all the data raises when the
/// folds' fits do.
fn classifier_fitted_by<'e>(est: &'e Estimator, attr: &str) -> Option<&'e Estimator> {
    if is_classifier(est) {
        return Some(est);
    }
    if !est.is_sklearn() || est.constructed_at.is_none() {
        return None;
    }
    match est.class.as_str() {
        "Pipeline" => classifier_fitted_by(est.inner.last()?, attr),
        // `score` of a search without `scoring` is the refitted estimator's own score.
        "GridSearchCV" | "RandomizedSearchCV"
            if !est.params.contains_key("refit")
                && (attr == "fit" || !est.params.contains_key("scoring")) =>
        {
            classifier_fitted_by(est.inner.first()?, attr)
        }
        _ => None,
    }
}

/// Classifiers whose `predict_proba` exists whatever their parameters (an `SVC` has it only with
/// `probability=True`, an `SGDClassifier` only with some losses).
const PROBABILISTIC: &[&str] = &[
    "DecisionTreeClassifier",
    "ExtraTreeClassifier",
    "ExtraTreesClassifier",
    "RandomForestClassifier",
    "GradientBoostingClassifier",
    "HistGradientBoostingClassifier",
    "GaussianNB",
    "BernoulliNB",
    "MultinomialNB",
    "ComplementNB",
    "CategoricalNB",
    "KNeighborsClassifier",
    "MLPClassifier",
    "LogisticRegression",
    "LogisticRegressionCV",
    "LinearDiscriminantAnalysis",
    "QuadraticDiscriminantAnalysis",
];

/// Of those, the ones whose `fit` refuses a single class: once fitted, their probabilities have
/// a column per class, two at least (the others need the kernel's count of classes).
const TWO_CLASSES_AT_LEAST: &[&str] = &[
    "LogisticRegression",
    "LogisticRegressionCV",
    "GradientBoostingClassifier",
    "QuadraticDiscriminantAnalysis",
];

/// Classifiers whose `fit` refuses targets of one class (ValueError: "needs samples of at least 2
/// classes", "The number of classes has to be greater than one"; checked with scikit-learn 1.9:
/// trees, forests, naive Bayes and neighbours take one class).
const ONE_CLASS_REFUSED: &[&str] = &[
    "LogisticRegression",
    "LinearSVC",
    "SVC",
    "NuSVC",
    "SGDClassifier",
    "Perceptron",
    "GradientBoostingClassifier",
];

/// The one class flat targets of known values all hold (`[1, 1, 1]`, `np.array(['a', 'a'])`,
/// an integer array whose smallest and largest elements are equal), as written in a message.
fn single_class(w: &Walker, y: &Expr) -> Option<String> {
    match w.eval(y) {
        Val::Strs { items, .. } => {
            let first = items.first()?;
            items
                .iter()
                .all(|s| s == first)
                .then(|| format!("'{first}'"))
        }
        Val::Items { type_name, items } if type_name == "list" => {
            let Some(Val::Int(first)) = items.first() else {
                return None;
            };
            items
                .iter()
                .all(|v| *v == Val::Int(*first))
                .then(|| first.to_string())
        }
        Val::Array(a) if a.lib == ArrayLib::Numpy && a.shape.len() == 1 && a.shape[0] > 0 => {
            let (lo, hi) = a.int_bounds?;
            (lo == hi).then(|| lo.to_string())
        }
        _ => None,
    }
}

/// What a metric's labels are, when known: "string" (known texts) or "number" (known numbers, or
/// a numpy array of a numeric dtype). scikit-learn refuses the two mixed.
fn label_kind(w: &Walker, y: &Expr) -> Option<&'static str> {
    match w.eval(y) {
        Val::Strs { items, .. } if !items.is_empty() => Some("string"),
        Val::Items { items, .. }
            if !items.is_empty()
                && items
                    .iter()
                    .all(|v| matches!(v, Val::Int(_) | Val::Float(_))) =>
        {
            Some("number")
        }
        Val::Array(a)
            if a.lib == ArrayLib::Numpy
                && !a.maybe_not_ndarray
                && a.dtype
                    .as_deref()
                    .is_some_and(|d| d.starts_with("int") || d.starts_with("float")) =>
        {
            Some("number")
        }
        _ => None,
    }
}

/// `confusion_matrix(y_true, y_pred, labels=[...])` where no label is among the known values of
/// `y_true`, or `labels` is empty: ValueError.
fn absent_labels(w: &Walker, y_true: &Expr, labels: &Expr) -> Option<Diagnostic> {
    // The labels asked for, when none is certainly among y_true's values.
    let wanted: Vec<String> = match (w.eval(labels), w.eval(y_true)) {
        (Val::Items { items, .. }, _) if items.is_empty() => {
            return Some(Diagnostic::error(
                Rule::SklearnBadParams,
                "confusion_matrix is given no labels: ValueError: 'labels' should contain at least one label.".to_string(),
                labels.range(),
            ));
        }
        (Val::Strs { items: wanted, .. }, Val::Strs { items: values, .. }) => {
            (!wanted.iter().any(|l| values.contains(l)))
                .then(|| wanted.iter().map(|l| format!("'{l}'")).collect())?
        }
        (Val::Items { items: wanted, .. }, truth) => {
            let wanted: Vec<i64> = wanted
                .iter()
                .map(|v| match v {
                    Val::Int(i) => Some(*i),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let truth = match truth {
                Val::Array(a) => a,
                v => crate::semantics::numpy::literal_array(&v)?,
            };
            let (lo, hi) = truth.int_bounds?;
            // Outside the range of y_true's values, a label is certainly absent.
            (!wanted.iter().any(|i| (lo..=hi).contains(i))).then_some(())?;
            wanted.iter().map(i64::to_string).collect()
        }
        _ => return None,
    };
    Some(Diagnostic::error(
        Rule::SklearnBadParams,
        format!(
            "none of the labels {} is in {}: confusion_matrix raises ValueError: At least one label specified must be in y_true",
            wanted.join(", "),
            w.shown(y_true, "y_true")
        ),
        labels.range(),
    ))
}

/// `model.predict_proba(...)` of a fitted classifier with two classes at least: a 2-D array
/// (`continuous-multioutput` or, all 0 and 1, `multilabel-indicator` to `type_of_target`), which
/// a classification metric rejects next to 1-D targets. The name of the model, for messages.
fn probabilities<'w>(w: &'w Walker, e: &Expr) -> Option<&'w str> {
    let Expr::Call { func, .. } = e else {
        return None;
    };
    let Expr::Attribute { value, attr, .. } = &**func else {
        return None;
    };
    let Val::Estimator(est) = w.eval(value) else {
        return None;
    };
    let class = est.class.as_str();
    let classes = est.n_classes.is_some_and(|n| n >= 2) || TWO_CLASSES_AT_LEAST.contains(&class);
    let known = est.is_sklearn() && PROBABILISTIC.contains(&class) && est.fitted == Some(true);
    (attr == "predict_proba" && known && classes).then(|| w.shown(value, "the model"))
}

/// Certainly one label per sample: a Series or a 1-D numpy array.
fn one_dimensional(w: &Walker, e: &Expr) -> bool {
    match w.eval(e) {
        Val::Series(_) => true,
        Val::Array(a) => a.lib == ArrayLib::Numpy && a.shape.len() == 1,
        _ => false,
    }
}

/// A value `e` certainly holds that is not an integer, and whether it may hold NaN too (which
/// scikit-learn reports first, also with ValueError).
fn non_integer(w: &Walker, e: &Expr) -> Option<(f64, bool)> {
    match w.eval(e) {
        Val::Series(s) => s.non_integer.map(|v| (v, s.has_nan != Some(false))),
        // A torch tensor on a GPU does not convert to numpy (TypeError): numpy arrays only.
        Val::Array(a) if a.lib == ArrayLib::Numpy => {
            a.non_integer.map(|v| (v, a.has_nan != Some(false)))
        }
        // A list of numbers written in the cell (`[0.5, 1.0]`), one label each.
        v @ Val::Items { .. } => {
            let a = crate::semantics::numpy::literal_array(&v).filter(|a| a.shape.len() == 1)?;
            a.non_integer.map(|v| (v, a.has_nan != Some(false)))
        }
        _ => None,
    }
}

/// `y_train holds non-integer values such as 3.7`, for messages.
fn holds(w: &Walker, e: &Expr, value: f64, nan: bool) -> String {
    let nan = if nan {
        " (NaN, if it holds any, is reported first, also with ValueError)"
    } else {
        ""
    };
    format!(
        "{} holds non-integer values such as {value}{nan}",
        w.shown(e, "the targets")
    )
}

/// `cross_val_predict(clf, X, y)`, and `cross_val_score` / `cross_validate` with
/// `error_score='raise'`, of a classifier on targets holding a non-integer value. With `cv` left
/// out or a number of folds, the folds are a `KFold` (`check_cv` stratifies only classes), whose
/// training sets together hold every sample: some fit sees the value and raises. (Without
/// `error_score='raise'`, the fits that fail only give NaN scores as long as one succeeds: a
/// training set may lack every non-integer value.)
fn cross_validation(
    w: &Walker,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let function = super::sklearn::raising_cross_validation(path, keywords)?;
    let folds = match keyword(keywords, "cv") {
        None => true,
        Some(cv) => matches!(w.eval(cv), Val::Int(k) if k >= 2),
    };
    if !folds || args.len() > 3 {
        return None;
    }
    let Val::Estimator(est) = w.eval(args.first().or_else(|| keyword(keywords, "estimator"))?)
    else {
        return None;
    };
    let y = args.get(2).or_else(|| keyword(keywords, "y"))?;
    let (v, nan) = non_integer(w, y)?;
    let clf = classifier_fitted_by(&est, "fit")?;
    Some(Diagnostic::error(
        Rule::SklearnContinuousTarget,
        format!(
            "{}: {function} fits the classifier {} on folds that hold them, which raises ValueError: Unknown label type; use a regressor for continuous targets, or bin them into classes first",
            holds(w, y, v, nan),
            clf.class
        ),
        y.range(),
    ))
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        range,
    } = expr
    else {
        return;
    };
    // Another finding inside the call already explains its crash (scikit-learn validates `X`
    // before the targets).
    let inside = |d: &Diagnostic| d.range.start >= range.start && d.range.end <= range.end;
    if unpacks(args, keywords) || out.iter().chain(&w.out).any(inside) {
        return;
    }
    if let Some(path) = w.lib_path(func) {
        if let Some(d) = cross_validation(w, &path, args, keywords) {
            out.push(d);
            return;
        }
        let function = path
            .strip_prefix("sklearn.metrics.")
            .map(|p| p.rsplit('.').next().unwrap_or(p));
        if let Some(metric) = function.filter(|f| LABELS_AND_SCORES.contains(f)) {
            let Some(y) = args.first().or_else(|| keyword(keywords, "y_true")) else {
                return;
            };
            if let Some((value, nan)) = non_integer(w, y) {
                out.push(Diagnostic::error(
                    Rule::SklearnContinuousTarget,
                    format!(
                        "{}: {metric} takes class labels as y_true (scores or probabilities go second) and raises ValueError on continuous targets; pass the true classes, or use a regression metric",
                        holds(w, y, value, nan)
                    ),
                    y.range(),
                ));
            }
            return;
        }
        let Some((metric, params)) =
            function.and_then(|last| METRICS.iter().find(|(m, _)| *m == last))
        else {
            return;
        };
        let targets: Vec<Option<&Expr>> = params
            .iter()
            .enumerate()
            .map(|(at, param)| args.get(at).or_else(|| keyword(keywords, param)))
            .collect();
        if let [Some(a), Some(b)] = targets[..] {
            if let (Some(x), Some(y)) = (label_kind(w, a), label_kind(w, b)) {
                if x != y {
                    out.push(Diagnostic::error(
                        Rule::SklearnContinuousTarget,
                        format!(
                            "{} holds {x} labels and {} {y} labels: {metric} raises ValueError: Mix of label input types (string and number)",
                            w.shown(a, "the first argument"),
                            w.shown(b, "the second"),
                        ),
                        *range,
                    ));
                    return;
                }
            }
            if let Some(labels) =
                keyword(keywords, "labels").filter(|_| *metric == "confusion_matrix")
            {
                if let Some(d) = absent_labels(w, a, labels) {
                    out.push(d);
                    return;
                }
            }
            for (proba, labels) in [(a, b), (b, a)] {
                let Some(model) = probabilities(w, proba) else {
                    continue;
                };
                if one_dimensional(w, labels) {
                    out.push(Diagnostic::error(
                        Rule::SklearnContinuousTarget,
                        format!(
                            "{} gives a 2-D array of probabilities, one column per class, while {} holds one label per sample: {metric} raises ValueError: Classification metrics can't handle a mix of ... and continuous-multioutput targets; pass {model}.predict(...) instead",
                            w.shown(proba, "predict_proba"),
                            w.shown(labels, "the other argument"),
                        ),
                        proba.range(),
                    ));
                    return;
                }
            }
        }
        for y in targets.into_iter().flatten() {
            if let Some((value, nan)) = non_integer(w, y) {
                out.push(Diagnostic::error(
                    Rule::SklearnContinuousTarget,
                    format!(
                        "{}: {metric} is a classification metric and raises ValueError: Classification metrics can't handle a mix of ... and continuous targets; pass predicted classes (predict, or threshold the scores), or use a regression metric such as mean_squared_error",
                        holds(w, y, value, nan)
                    ),
                    y.range(),
                ));
                return;
            }
        }
        return;
    }
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    let Val::Estimator(est) = w.eval(value) else {
        return;
    };
    if !matches!(attr.as_str(), "fit" | "score") {
        return;
    }
    let Some(clf) = classifier_fitted_by(&est, attr) else {
        return;
    };
    let Some(y) = args.get(1).or_else(|| keyword(keywords, "y")) else {
        return;
    };
    if attr == "fit" && ONE_CLASS_REFUSED.contains(&clf.class.as_str()) {
        if let Some(class) = single_class(w, y) {
            out.push(Diagnostic::error(
                Rule::SklearnContinuousTarget,
                format!(
                    "{} holds the one class {class}: {} needs two classes at least, and {}.fit() raises ValueError",
                    w.shown(y, "y"),
                    clf.class,
                    w.shown(value, "the classifier"),
                ),
                y.range(),
            ));
            return;
        }
    }
    let Some((v, nan)) = non_integer(w, y) else {
        return;
    };
    let name = w.shown(value, "the classifier");
    let class = if clf.class == est.class {
        est.class.clone()
    } else {
        format!("{} (in {})", clf.class, est.class)
    };
    let msg = if attr == "fit" {
        format!(
            "{}: {class} is a classifier, and {name}.fit() raises ValueError: Unknown label type; use a regressor for continuous targets, or bin them into classes first",
            holds(w, y, v, nan)
        )
    } else {
        format!(
            "{}: {name}.score() of a classifier is its accuracy_score, which raises ValueError: Classification metrics can't handle a mix of ... and continuous targets; score it against class labels",
            holds(w, y, v, nan)
        )
    };
    out.push(Diagnostic::error(
        Rule::SklearnContinuousTarget,
        msg,
        y.range(),
    ));
}
