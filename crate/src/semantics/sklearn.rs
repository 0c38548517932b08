//! scikit-learn's values: estimators as their constructors make them, what fitting and their
//! methods return, their fitted attributes, and the parts `train_test_split` returns.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::ir::{keyword, Expr, Keyword, Literal, SeqKind, TextRange};

use crate::ir_scan::unpacks;

use super::abstract_value::{ArrayLib, ArrayVal, Estimator, Val};
use super::eval::Eval;
use super::numpy::Release;
use super::sklearn_tables::{
    LEARNT_BY_CLASS, LEARNT_NAMES, NUMERIC_2D, OUTPUT_METHODS, UNFITTED_RAISE,
};

pub fn construct(
    w: &dyn Eval,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Estimator> {
    if !path.starts_with("sklearn.") {
        return None;
    }
    let class = path.rsplit('.').next()?;
    if ![NUMERIC_2D, KNOWN, UNFITTED_RAISE]
        .iter()
        .any(|table| table.contains(&class))
    {
        return None;
    }
    // A number held by a name or written with a sign (`degree=-1`) is as good as a literal.
    let literal = |e: &Expr| match (e, w.eval(e)) {
        (Expr::Literal { value, .. }, _) => value.clone(),
        (_, Val::Int(i)) => Literal::Int(i),
        (_, Val::Float(f)) => Literal::Float(f),
        (_, Val::Str(s)) => Literal::Str(s),
        _ => Literal::Ellipsis,
    };
    let mut params = BTreeMap::new();
    for k in keywords {
        params.insert(k.name.clone()?, literal(&k.value));
    }
    // The leading parameters some classes take by position (`KMeans(3)`, `PCA(2)`), named by
    // the class's signature; without it, what the call sets is not known.
    if !args.is_empty() {
        let signature = super::signatures::library_params(&super::signatures::public_path(path))?;
        for (i, arg) in args.iter().enumerate() {
            if matches!(arg, Expr::Starred { .. }) || i >= signature.positional {
                return None;
            }
            params.insert(signature.names[i].clone(), literal(arg));
        }
    }
    Some(Estimator {
        class: class.to_string(),
        type_path: path.to_string(),
        fitted: if STATELESS.contains(&class) {
            None
        } else {
            Some(false)
        },
        params,
        constructed_at: Some(range),
        ..Default::default()
    })
}

/// The `LEARNT_BY_CLASS` mask of scikit-learn's `class`, and the bit of `attr` in it.
fn learnt_mask(class: &str, attr: &str) -> Option<(u128, usize)> {
    let bit = LEARNT_NAMES.iter().position(|n| *n == attr)?;
    let at = LEARNT_BY_CLASS
        .binary_search_by(|(c, _)| (*c).cmp(class))
        .ok()?;
    Some((LEARNT_BY_CLASS[at].1, bit))
}

/// May `fit` give an instance of scikit-learn's `class` the attribute `attr` (of `LEARNT_NAMES`)?
pub fn may_learn(class: &str, attr: &str) -> bool {
    learnt_mask(class, attr).is_some_and(|(mask, bit)| (mask >> bit) & 1 == 1)
}

/// The toy datasets scikit-learn ships (no download): samples, features and, for the
/// classification ones, classes (labels 0 to classes - 1, int64); diabetes' targets are floats.
const TOY_DATASETS: &[(&str, i64, i64, Option<i64>)] = &[
    ("load_breast_cancer", 569, 30, Some(2)),
    ("load_diabetes", 442, 10, None),
    ("load_digits", 1797, 64, Some(10)),
    ("load_iris", 150, 4, Some(3)),
    ("load_wine", 178, 13, Some(3)),
];

/// `load_iris()` and the other toy datasets: a Bunch whose `data` (X, float64 without NaN) and
/// `target` (y) are known, its `frame` None (a frame only with `as_frame=True`), the digits'
/// `images` 8 x 8; or `(X, y)` with `return_X_y=True`. (Other keywords change what they
/// give: `as_frame=True` frames, `n_class=` fewer digits.)
fn toy_dataset(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let name = path.strip_prefix("sklearn.datasets.")?;
    let name = name.rsplit('.').next()?;
    let &(_, n, features, classes) = TOY_DATASETS.iter().find(|(d, ..)| *d == name)?;
    let x_and_y = match keywords {
        [] => false,
        [k] if k.name.as_deref() == Some("return_X_y") => match w.eval(&k.value) {
            Val::Bool(b) => b,
            _ => return None,
        },
        _ => return None,
    };
    if !args.is_empty() {
        return None;
    }
    let x = ArrayVal {
        has_nan: Some(false),
        ..ArrayVal::new(ArrayLib::Numpy, vec![n, features], Some("float64".into()))
    };
    let y = match classes {
        Some(k) => ArrayVal {
            int_bounds: Some((0, k - 1)),
            ..ArrayVal::new(ArrayLib::Numpy, vec![n], Some("int64".into()))
        },
        None => ArrayVal::new(ArrayLib::Numpy, vec![n], Some("float64".into())),
    };
    let (x, y) = (Val::Array(x), Val::Array(y));
    Some(if x_and_y {
        Val::Items {
            type_name: "tuple".into(),
            items: vec![x, y],
        }
    } else {
        let mut fields = vec![("data", x), ("target", y), ("frame", Val::None)];
        if name == "load_digits" {
            let images = ArrayVal::new(ArrayLib::Numpy, vec![n, 8, 8], Some("float64".into()));
            fields.push(("images", Val::Array(images)));
        }
        Val::Bunch(Rc::new(fields))
    })
}

/// What `fit` gives an instance of scikit-learn's `class` (of `LEARNT_NAMES`), when it certainly
/// lacks `attr`, another of them.
pub fn lacked_learnt_attribute(class: &str, attr: &str) -> Option<Vec<&'static str>> {
    let (mask, bit) = learnt_mask(class, attr)?;
    let has = |i: usize| (mask >> i) & 1 == 1;
    (!has(bit)).then(|| {
        (0..LEARNT_NAMES.len())
            .filter(|&i| has(i))
            .map(|i| LEARNT_NAMES[i])
            .collect()
    })
}

/// The value of a fitted attribute whose shape the number of features fixes. `coef_` is not
/// followed: its shape also depends on the targets (one row per class or output, or none).
pub fn attribute_value(e: &Estimator, attr: &str) -> Val {
    match (attr, e.fitted, e.n_features) {
        ("feature_importances_", Some(true), Some(n))
            if e.is_sklearn() && TREE_IMPORTANCES.contains(&e.class.as_str()) =>
        {
            let of = match &e.name {
                Some(name) => name.clone(),
                None => format!("a {}", e.class),
            };
            Val::Array(ArrayVal {
                lib: ArrayLib::Numpy,
                shape: vec![n],
                dtype: Some("float64".into()),
                has_nan: None,
                csv_object_column: None,
                origin: Some(format!(
                    "the feature_importances_ of {of} (fitted on {n} features)"
                )),
                non_integer: None,
                int_bounds: None,
                maybe_not_ndarray: false,
            })
        }
        _ => Val::Unknown,
    }
}

/// Known estimators and transformers (constructing one gives an unfitted estimator).
pub const KNOWN: &[&str] = &[
    "OneHotEncoder",
    "OrdinalEncoder",
    "LabelEncoder",
    "SimpleImputer",
    "CountVectorizer",
    "TfidfVectorizer",
    "IsolationForest",
    "AdaBoostClassifier",
    "AdaBoostRegressor",
    "NearestNeighbors",
];

/// Stateless transformers: `transform` works without `fit` (the kernel may still report them
/// unfitted).
pub const STATELESS: &[&str] = &[
    "AdditiveChi2Sampler",
    "GaussianProcessRegressor",
    "Normalizer",
    "Binarizer",
    "FunctionTransformer",
    "HashingVectorizer",
    "FeatureHasher",
    "PatchExtractor",
];

/// Tree models whose `feature_importances_` is a fresh float array of shape `(n_features_in_,)`
/// (a property computed from the fitted trees, whatever the targets).
pub const TREE_IMPORTANCES: &[&str] = &[
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
];

/// `a_train, a_test, b_train, b_test = train_test_split(a, b, test_size=...)`: the parts of each
/// array, with their numbers of rows when `test_size` (or the default 0.25) fixes them.
pub fn split_result(w: &dyn Eval, value: &Expr, n_targets: usize) -> Option<Vec<Val>> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = value
    else {
        return None;
    };
    if w.lib_path(func)?.rsplit('.').next() != Some("train_test_split")
        || !w.lib_path(func)?.starts_with("sklearn.")
        || args.is_empty()
        || n_targets != 2 * args.len()
        || unpacks(args, keywords)
    {
        return None;
    }
    let vals: Vec<Val> = args.iter().map(|a| w.eval(a)).collect();
    let n = vals.iter().find_map(|v| data_shape(v).0);
    let test = match (
        keyword(keywords, "test_size"),
        keyword(keywords, "train_size"),
        n,
    ) {
        (None, None, Some(n)) => Some((n as f64 * 0.25).ceil() as i64),
        (
            Some(Expr::Literal {
                value: Literal::Float(f),
                ..
            }),
            None,
            Some(n),
        ) if *f > 0.0 && *f < 1.0 => Some((n as f64 * f).ceil() as i64),
        (
            Some(Expr::Literal {
                value: Literal::Int(k),
                ..
            }),
            None,
            Some(n),
        ) if *k > 0 && *k < n => Some(*k),
        _ => None,
    };
    let sizes = match (n, test) {
        (Some(n), Some(t)) if t < n => [Some(n - t), Some(t)],
        _ => [None, None],
    };
    let mut out = Vec::new();
    for v in &vals {
        for rows in sizes {
            out.push(match v {
                // Each part has one row at least (or the split raises).
                Val::Frame(f) => Val::Frame(super::abstract_value::Frame {
                    n_rows: rows,
                    column_info: crate::ordered::map_of(
                        f.column_info
                            .iter()
                            .filter_map(|(name, c)| Some((name.clone(), c.in_some_rows()?))),
                    ),
                    ..super::pandas::rows_of(f)
                }),
                Val::Series(s) => Val::Series(super::abstract_value::SeriesVal {
                    len: rows,
                    str_examples: Vec::new(),
                    has_nan: if s.has_nan == Some(false) {
                        Some(false)
                    } else {
                        None
                    },
                    non_integer: None,
                    ..s.clone()
                }),
                Val::Array(a) if !a.shape.is_empty() => match rows {
                    Some(r) => {
                        let mut shape = a.shape.clone();
                        shape[0] = r;
                        Val::Array(ArrayVal {
                            shape,
                            has_nan: if a.has_nan == Some(false) {
                                Some(false)
                            } else {
                                None
                            },
                            origin: None,
                            non_integer: None,
                            int_bounds: None,
                            ..a.clone()
                        })
                    }
                    None => Val::Unknown,
                },
                _ => Val::Unknown,
            });
        }
    }
    Some(out)
}

/// Values of sklearn calls the rules follow.
pub fn lib_call_result(
    w: &dyn Eval,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Val> {
    if unpacks(args, keywords) {
        return None;
    }
    if path.starts_with("sklearn.metrics") && path.ends_with(".confusion_matrix") {
        let y_true = args.first().or_else(|| keyword(keywords, "y_true"))?;
        let y_pred = args.get(1).or_else(|| keyword(keywords, "y_pred"))?;
        let labels = args.get(2).or_else(|| keyword(keywords, "labels"));
        let (classes, exact) = matrix_classes(w, y_true, y_pred, labels)?;
        return Some(Val::ConfusionMatrix { classes, exact });
    }
    if matches!(path, "sklearn.base.clone" | "sklearn.clone") {
        if let Val::Estimator(e) = w.eval(args.first().or_else(|| keyword(keywords, "estimator"))?)
        {
            return Some(Val::Estimator(Rc::new(unfitted_copy(&e))));
        }
        return None;
    }
    if let Some(composite) = composite(w, path, args, keywords) {
        return Some(Val::Estimator(Rc::new(composite)));
    }
    if let Some(data) = toy_dataset(w, path, args, keywords) {
        return Some(data);
    }
    if let Some(ct) = column_transformer(w, path, args, keywords) {
        return Some(Val::Estimator(Rc::new(ct)));
    }
    if is_confusion_display(path) {
        let cm = args
            .first()
            .or_else(|| keyword(keywords, "confusion_matrix"))?;
        let Val::ConfusionMatrix { classes, exact } = w.eval(cm) else {
            return Some(Val::Unknown);
        };
        let labels = match keyword(keywords, "display_labels") {
            None => None,
            Some(e) => Some(w.eval(e).sized()?.1),
        };
        return Some(Val::ConfusionDisplay {
            classes,
            exact,
            labels,
        });
    }
    None
}

pub fn method_result(w: &dyn Eval, e: &Estimator, attr: &str, args: &[Expr]) -> Val {
    // `fit` returns the estimator itself (`model = LinearRegression().fit(X, y)`).
    if attr == "fit" && e.is_sklearn() {
        return after_method(w, e, attr, args);
    }
    // One prediction per sample of X, for an estimator this cell fitted on one column of
    // targets (on several, or a frame of one, `predict` may give a 2-D array).
    if attr == "predict"
        && e.is_sklearn()
        && e.fitted == Some(true)
        && e.one_target_column
        && e.inner.is_empty()
        && OUTPUT_METHODS
            .iter()
            .any(|(class, methods)| *class == e.class && methods.contains(&"predict"))
    {
        let Some((Some(rows), _, _)) = args.first().map(|x| data_shape(&w.eval(x))) else {
            return Val::Unknown;
        };
        return Val::Array(ArrayVal::new(ArrayLib::Numpy, vec![rows], None));
    }
    if !matches!(attr, "fit_transform" | "transform")
        || !SHAPE_PRESERVING.contains(&e.class.as_str())
    {
        return Val::Unknown;
    }
    let Some(x) = args.first() else {
        return Val::Unknown;
    };
    match data_shape(&w.eval(x)) {
        (Some(r), Some(c), _) => Val::Array(ArrayVal {
            lib: ArrayLib::Numpy,
            shape: vec![r, c],
            dtype: Some("float64".into()),
            has_nan: None,
            csv_object_column: None,
            origin: None,
            non_integer: None,
            int_bounds: None,
            maybe_not_ndarray: true,
        }),
        _ => Val::Unknown,
    }
}

/// The estimator after a method call on it.
pub fn after_method(w: &dyn Eval, e: &Estimator, attr: &str, args: &[Expr]) -> Val {
    match attr {
        "fit" | "fit_transform" | "fit_predict" | "partial_fit" => {
            let Some(x) = args.first() else {
                return Val::Unknown;
            };
            let (rows, cols, names) = data_shape(&w.eval(x));
            let one_target_column = args.get(1).is_some_and(|y| match w.eval(y) {
                Val::Series(_) => true,
                Val::Array(a) => a.shape.len() == 1,
                Val::Strs { .. } => true,
                v => super::numpy::literal_shape(&v).is_some_and(|(shape, _)| shape.len() == 1),
            });
            let labels_seen = if attr == "partial_fit" {
                None
            } else {
                texts_learnt(e, &w.eval(x))
            };
            Val::Estimator(Rc::new(Estimator {
                fitted: Some(true),
                n_samples: rows,
                n_features: cols,
                feature_names: names,
                n_classes: None,
                one_target_column,
                labels_seen,
                ..e.clone()
            }))
        }
        "set_params" => Val::Unknown,
        _ => Val::Estimator(Rc::new(e.clone())),
    }
}

/// The texts an encoder fitted on `x` learns, column by column: a LabelEncoder's labels (a list
/// of strings), or the categories of a OneHotEncoder or OrdinalEncoder that finds them in the
/// data and raises on unknown ones (rows of strings, all of one length).
fn texts_learnt(e: &Estimator, x: &Val) -> Option<Vec<Vec<String>>> {
    match (e.class.as_str(), x) {
        ("LabelEncoder", Val::Strs { items, .. }) => Some(vec![items.clone()]),
        ("OneHotEncoder" | "OrdinalEncoder", Val::Items { items: rows, .. })
            if !["handle_unknown", "categories"]
                .iter()
                .any(|p| e.params.contains_key(*p)) =>
        {
            let rows: Vec<&Vec<String>> = rows
                .iter()
                .map(|r| match r {
                    Val::Strs { items, .. } => Some(items),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let width = rows.first()?.len();
            if rows.iter().any(|r| r.len() != width) {
                return None;
            }
            Some(
                (0..width)
                    .map(|j| rows.iter().map(|r| r[j].clone()).collect())
                    .collect(),
            )
        }
        _ => None,
    }
}

/// `clone(e)`: the same parameters, and nothing `fit` learnt (also in a pipeline's steps); the
/// kernel's name is the original's, not the copy's.
fn unfitted_copy(e: &Estimator) -> Estimator {
    Estimator {
        fitted: Some(false),
        name: None,
        n_samples: None,
        n_features: None,
        feature_names: None,
        n_classes: None,
        one_target_column: false,
        labels_seen: None,
        inner: e.inner.iter().map(|s| Rc::new(unfitted_copy(s))).collect(),
        ..e.clone()
    }
}

/// Classifiers whose first `partial_fit` needs `classes=` (all the labels the stream will hold):
/// without it, ValueError: classes must be passed on the first call to partial_fit.
pub const PARTIAL_FIT_NEEDS_CLASSES: &[&str] = &[
    "BernoulliNB",
    "CategoricalNB",
    "ComplementNB",
    "GaussianNB",
    "MLPClassifier",
    "MultinomialNB",
    "PassiveAggressiveClassifier",
    "Perceptron",
    "SGDClassifier",
];

/// Number of samples, number of features, and feature names of data passed as `X`.
pub fn data_shape(v: &Val) -> (Option<i64>, Option<i64>, Option<Vec<String>>) {
    match v {
        Val::Frame(f) => (f.n_rows, f.n_columns(), f.columns.clone()),
        Val::Array(a) if a.shape.len() == 2 => (Some(a.shape[0]), Some(a.shape[1]), None),
        Val::Array(a) if !a.shape.is_empty() => (Some(a.shape[0]), None, None),
        Val::Series(s) => (s.len, None, None),
        // Nested lists of numbers, as scikit-learn's `check_array` converts them.
        v => match super::numpy::literal_shape(v)
            .map(|(shape, _)| shape)
            .as_deref()
        {
            Some(&[rows, columns]) => (Some(rows), Some(columns), None),
            Some(&[rows]) => (Some(rows), None, None),
            _ => (None, None, None),
        },
    }
}

/// `Pipeline([(name, est), ...])`, `make_pipeline(est, ...)`, and `GridSearchCV(est, grid)` /
/// `RandomizedSearchCV(est, distributions)` whose grid changes only parameters (lists of
/// literals, no step replaced, no `metric`): an unfitted estimator whose `inner` estimators
/// validate `X` in order. Every part must be a scikit-learn estimator built in this cell.
pub fn composite(
    w: &dyn Eval,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Estimator> {
    let rest = path.strip_prefix("sklearn.")?;
    let class = rest.rsplit('.').next()?;
    let mut step_names = Vec::new();
    let mut invalid_grid_key = None;
    let inner = match class {
        "Pipeline" => {
            let steps = args.first().or_else(|| keyword(keywords, "steps"))?;
            let Expr::Seq { elts, .. } = steps else {
                return None;
            };
            step_names = elts
                .iter()
                .map(|step| match step {
                    Expr::Seq { elts, .. } if elts.len() == 2 => {
                        elts[0].as_str_literal().map(str::to_string)
                    }
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .unwrap_or_default();
            elts.iter()
                .map(|step| match step {
                    Expr::Seq { elts, .. } if elts.len() == 2 => built_estimator(w, &elts[1]),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?
        }
        "make_pipeline" => {
            let inner = args
                .iter()
                .map(|a| built_estimator(w, a))
                .collect::<Option<Vec<_>>>()?;
            step_names = made_step_names(&inner);
            inner
        }
        "GridSearchCV" | "RandomizedSearchCV" => {
            let searched = args.first().or_else(|| keyword(keywords, "estimator"))?;
            let grid = args
                .get(1)
                .or_else(|| keyword(keywords, "param_grid"))
                .or_else(|| keyword(keywords, "param_distributions"))?;
            let grid_keys = grid_keys(w, grid)?;
            if let Val::Estimator(searched) = w.eval(searched) {
                invalid_grid_key = grid_keys.iter().find_map(|k| {
                    lacking_parameter(&searched, k).map(|class| (k.to_string(), class))
                });
                step_names.clone_from(&searched.step_names);
            }
            match built_estimator(w, searched) {
                Some(est) if invalid_grid_key.is_none() => {
                    let Expr::Dict { values, .. } = grid else {
                        return None;
                    };
                    let pipeline = est.class == "Pipeline";
                    for (k, v) in grid_keys.iter().zip(values) {
                        let literals = matches!(v, Expr::Seq { elts, .. }
                            if elts.iter().all(|e| matches!(e, Expr::Literal { value, .. } if *value != Literal::Str("passthrough".into()))));
                        if k.contains("metric") || (pipeline && !k.contains("__")) || !literals {
                            return None;
                        }
                    }
                    vec![est]
                }
                _ if invalid_grid_key.is_some() => Vec::new(),
                _ => return None,
            }
        }
        _ => return None,
    };
    if inner.is_empty() && invalid_grid_key.is_none() {
        return None;
    }
    let class = if class == "make_pipeline" {
        "Pipeline"
    } else {
        class
    };
    let params = crate::ordered::map_of(keywords.iter().filter_map(|k| {
        let value = match &k.value {
            Expr::Literal { value, .. } => value.clone(),
            _ => Literal::Ellipsis,
        };
        Some((k.name.clone()?, value))
    }));
    Some(Estimator {
        class: class.to_string(),
        type_path: path.to_string(),
        steps: inner.iter().map(|e| e.class.clone()).collect(),
        fitted: Some(false),
        params,
        constructed_at: args.first().map(Expr::range),
        inner,
        step_names,
        invalid_grid_key,
        ..Default::default()
    })
}

/// `ColumnTransformer([(name, transformer, columns), ...])` or
/// `make_column_transformer((transformer, columns), ...)`: an unfitted column transformer and the
/// column names its selections write out.
fn column_transformer(
    w: &dyn Eval,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Estimator> {
    // The entries, where each holds its columns, and where the transformer is built.
    let (entries, columns_at, at): (Vec<&Expr>, usize, TextRange) =
        match path.strip_prefix("sklearn.")? {
            p if p.ends_with(".ColumnTransformer") => {
                let list = args.first().or_else(|| keyword(keywords, "transformers"))?;
                let Expr::Seq { elts, .. } = list else {
                    return None;
                };
                (elts.iter().collect(), 2, list.range())
            }
            p if p.ends_with(".make_column_transformer") => {
                (args.iter().collect(), 1, args.first()?.range())
            }
            _ => return None,
        };
    if unpacks(args, keywords) {
        return None;
    }
    let mut selected_columns = Vec::new();
    for entry in entries {
        let Expr::Seq { elts, .. } = entry else {
            return None;
        };
        match elts.get(columns_at).map(|c| w.eval(c)) {
            Some(Val::Str(c)) => selected_columns.push(c),
            Some(Val::Strs { type_name, items }) if type_name == "list" => {
                selected_columns.extend(items)
            }
            _ => {}
        }
    }
    Some(Estimator {
        class: "ColumnTransformer".into(),
        type_path: path.to_string(),
        fitted: Some(false),
        constructed_at: Some(at),
        selected_columns,
        ..Default::default()
    })
}

/// The step names `make_pipeline` gives: each class in lower case, numbered (`-1`, `-2`) where
/// classes repeat.
fn made_step_names(steps: &[Rc<Estimator>]) -> Vec<String> {
    let lower: Vec<String> = steps.iter().map(|e| e.class.to_lowercase()).collect();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    lower
        .iter()
        .map(|name| {
            if lower.iter().filter(|n| *n == name).count() == 1 {
                return name.clone();
            }
            let n = seen.entry(name).or_default();
            *n += 1;
            format!("{name}-{n}")
        })
        .collect()
}

/// Can `set_params` set `key` on `pipe`? Unknown (true) unless `pipe` is a pipeline whose step
/// names are known: `step__param` needs a step of that name, a plain name one of the
/// pipeline's own parameters.
/// The class of the estimator that certainly has no parameter `key`, as `set_params` and a
/// search's grid name them: a pipeline's own (`step__param` of a step it lacks), or of the step
/// `step__param` names, when known; a scikit-learn estimator's, by its class's signature read
/// off the installed release (a name an earlier release took may be the notebook's release's:
/// not claimed).
/// The keys of a search's grid: a dict written out or held by a name, or a list of them.
fn grid_keys(w: &dyn Eval, grid: &Expr) -> Option<Vec<String>> {
    match grid {
        Expr::Dict { keys, .. } => keys
            .iter()
            .map(|k| k.as_ref()?.as_str_literal().map(str::to_string))
            .collect(),
        Expr::Seq {
            kind: SeqKind::List,
            elts,
            ..
        } => Some(
            elts.iter()
                .map(|g| grid_keys(w, g))
                .collect::<Option<Vec<_>>>()?
                .concat(),
        ),
        _ => held_grid_keys(&w.eval(grid)),
    }
}

/// The keys of a grid a name holds: a dict of str keys, or a list of them.
fn held_grid_keys(grid: &Val) -> Option<Vec<String>> {
    match grid {
        Val::Dict { keys, .. } => keys
            .iter()
            .map(|k| match k {
                super::abstract_value::DictKey::Str(s) => Some(s.clone()),
                super::abstract_value::DictKey::Int(_) => None,
            })
            .collect(),
        Val::Items { type_name, items } if type_name == "list" => Some(
            items
                .iter()
                .map(held_grid_keys)
                .collect::<Option<Vec<_>>>()?
                .concat(),
        ),
        _ => None,
    }
}

pub fn lacking_parameter(est: &Estimator, key: &str) -> Option<String> {
    if !est.type_path.starts_with("sklearn.") {
        return None;
    }
    if est.class == "Pipeline" {
        if est.step_names.is_empty() {
            return None;
        }
        return match key.split_once("__") {
            Some((step, param)) => {
                let Some(at) = est.step_names.iter().position(|s| s == step) else {
                    return Some(est.class.clone());
                };
                // (The steps' estimators, when this cell built each of them, in order.)
                (est.inner.len() == est.step_names.len())
                    .then(|| lacking_parameter(&est.inner[at], param))
                    .flatten()
            }
            None => (!matches!(key, "steps" | "memory" | "verbose" | "transform_input")
                && !est.step_names.iter().any(|s| s == key))
            .then(|| est.class.clone()),
        };
    }
    if key.contains("__") {
        return None;
    }
    let path = super::signatures::public_path(&est.type_path);
    let params = super::signatures::library_params(&path)?;
    let lacks = !params.kwarg
        && !params.names.iter().any(|n| n == key)
        && !super::signatures::former_keyword(&path, key);
    lacks.then(|| est.class.clone())
}

pub fn is_confusion_display(path: &str) -> bool {
    path.starts_with("sklearn.metrics") && path.ends_with(".ConfusionMatrixDisplay")
}

/// The classes a confusion matrix of `y_true` and `y_pred` has: `labels` when given, else at
/// least as many as either holds distinct values.
pub fn matrix_classes(
    w: &dyn Eval,
    y_true: &Expr,
    y_pred: &Expr,
    labels: Option<&Expr>,
) -> Option<(i64, bool)> {
    if let Some(labels) = labels {
        return w.eval(labels).sized().map(|(_, n)| (n, true));
    }
    let a = w.distinct_values(y_true);
    let b = w.distinct_values(y_pred);
    a.max(b).map(|n| (n, false))
}

/// Estimators whose output has the same shape as their input.
pub const SHAPE_PRESERVING: &[&str] = &[
    "StandardScaler",
    "MinMaxScaler",
    "MaxAbsScaler",
    "RobustScaler",
    "PowerTransformer",
    "QuantileTransformer",
    "Normalizer",
];

/// A scikit-learn estimator built in this cell (`e` evaluates to it).
pub fn built_estimator(w: &dyn Eval, e: &Expr) -> Option<Rc<Estimator>> {
    match w.eval(e) {
        Val::Estimator(est) if est.is_sklearn() && est.constructed_at.is_some() => Some(est),
        _ => None,
    }
}

/// What scikit-learn removed: the first release without it (each absent from the installed
/// release, and read off the sources of the releases before and at its removal), and what
/// replaces it. Modules, and names of a module (`from sklearn.datasets import load_boston`).
pub const REMOVED_NAMES: &[(&str, &str, Release, &str)] = &[
    (
        "sklearn",
        "cross_validation",
        (0, 20),
        "sklearn.model_selection",
    ),
    ("sklearn", "grid_search", (0, 20), "sklearn.model_selection"),
    (
        "sklearn",
        "learning_curve",
        (0, 20),
        "sklearn.model_selection",
    ),
    (
        "sklearn.externals",
        "joblib",
        (0, 23),
        "joblib itself (import joblib)",
    ),
    (
        "sklearn.externals",
        "six",
        (0, 23),
        "six itself (import six)",
    ),
    (
        "sklearn.datasets",
        "load_boston",
        (1, 2),
        "fetch_california_housing(), or fetch_openml(name='boston')",
    ),
    ("sklearn.datasets", "fetch_mldata", (0, 22), "fetch_openml"),
    (
        "sklearn.metrics",
        "plot_confusion_matrix",
        (1, 2),
        "ConfusionMatrixDisplay.from_estimator",
    ),
    (
        "sklearn.metrics",
        "plot_roc_curve",
        (1, 2),
        "RocCurveDisplay.from_estimator",
    ),
    (
        "sklearn.metrics",
        "plot_precision_recall_curve",
        (1, 2),
        "PrecisionRecallDisplay.from_estimator",
    ),
    (
        "sklearn.metrics",
        "jaccard_similarity_score",
        (0, 23),
        "jaccard_score",
    ),
    (
        "sklearn.preprocessing",
        "Imputer",
        (0, 22),
        "sklearn.impute.SimpleImputer",
    ),
    ("sklearn.mixture", "GMM", (0, 20), "GaussianMixture"),
    (
        "sklearn.decomposition",
        "RandomizedPCA",
        (0, 20),
        "PCA(svd_solver='randomized')",
    ),
    (
        "sklearn.neighbors",
        "DistanceMetric",
        (1, 3),
        "sklearn.metrics.DistanceMetric",
    ),
];

/// Keyword parameters scikit-learn removed, by the callable's path as the signature tables name
/// it (see `REMOVED_NAMES`).
pub const REMOVED_PARAMETERS: &[(&str, &str, Release, &str)] = &[
    (
        "preprocessing.OneHotEncoder",
        "sparse",
        (1, 4),
        "sparse_output=",
    ),
    (
        "cluster.KMeans",
        "n_jobs",
        (1, 0),
        "the OMP_NUM_THREADS environment variable",
    ),
    (
        "cluster.KMeans",
        "precompute_distances",
        (1, 0),
        "nothing: drop it",
    ),
    ("manifold.TSNE", "n_iter", (1, 7), "max_iter="),
    (
        "metrics.mean_squared_error",
        "squared",
        (1, 6),
        "root_mean_squared_error for squared=False",
    ),
    (
        "ensemble.AdaBoostClassifier",
        "base_estimator",
        (1, 4),
        "estimator=",
    ),
    (
        "ensemble.AdaBoostRegressor",
        "base_estimator",
        (1, 4),
        "estimator=",
    ),
    (
        "ensemble.BaggingClassifier",
        "base_estimator",
        (1, 4),
        "estimator=",
    ),
    (
        "ensemble.BaggingRegressor",
        "base_estimator",
        (1, 4),
        "estimator=",
    ),
    (
        "model_selection.GridSearchCV",
        "iid",
        (1, 0),
        "nothing: drop it",
    ),
    (
        "model_selection.RandomizedSearchCV",
        "iid",
        (1, 0),
        "nothing: drop it",
    ),
    (
        "linear_model.LogisticRegression",
        "multi_class",
        (1, 8),
        "nothing: multinomial is the default",
    ),
    (
        "linear_model.LinearRegression",
        "normalize",
        (1, 2),
        NORMALIZE,
    ),
    ("linear_model.Ridge", "normalize", (1, 2), NORMALIZE),
    (
        "linear_model.RidgeClassifier",
        "normalize",
        (1, 2),
        NORMALIZE,
    ),
    (
        "linear_model.RidgeClassifierCV",
        "normalize",
        (1, 2),
        NORMALIZE,
    ),
    ("linear_model.Lasso", "normalize", (1, 2), NORMALIZE),
    ("linear_model.LassoCV", "normalize", (1, 2), NORMALIZE),
    ("linear_model.ElasticNet", "normalize", (1, 2), NORMALIZE),
    ("linear_model.ElasticNetCV", "normalize", (1, 2), NORMALIZE),
    (
        "linear_model.MultiTaskLasso",
        "normalize",
        (1, 2),
        NORMALIZE,
    ),
    ("linear_model.BayesianRidge", "normalize", (1, 2), NORMALIZE),
    ("linear_model.ARDRegression", "normalize", (1, 2), NORMALIZE),
    ("linear_model.Lars", "normalize", (1, 4), NORMALIZE),
    ("linear_model.LarsCV", "normalize", (1, 4), NORMALIZE),
    ("linear_model.LassoLars", "normalize", (1, 4), NORMALIZE),
    ("linear_model.LassoLarsCV", "normalize", (1, 4), NORMALIZE),
    ("linear_model.LassoLarsIC", "normalize", (1, 4), NORMALIZE),
    (
        "linear_model.OrthogonalMatchingPursuit",
        "normalize",
        (1, 4),
        NORMALIZE,
    ),
];

const NORMALIZE: &str = "a StandardScaler before the model in a Pipeline";

/// Attributes scikit-learn removed from estimators, by class (`""`: from every class; see
/// `REMOVED_NAMES`).
pub const REMOVED_ATTRIBUTES: &[(&str, &str, Release, &str)] = &[
    ("", "get_feature_names", (1, 2), "get_feature_names_out()"),
    ("GridSearchCV", "grid_scores_", (0, 20), "cv_results_"),
    ("RandomizedSearchCV", "grid_scores_", (0, 20), "cv_results_"),
    ("RFECV", "grid_scores_", (1, 2), "cv_results_"),
];

/// The keyword `keyword` of the callable `key` (`sklearn.preprocessing.OneHotEncoder`) as an
/// earlier release had it: the first release without it, and what replaces it.
pub fn removed_parameter(key: &str, keyword: &str) -> Option<(Release, &'static str)> {
    let path = key.strip_prefix("sklearn.")?;
    removal(REMOVED_PARAMETERS, |owner| owner == path, keyword)
}

/// The attribute `attr` of an estimator of class `class` as an earlier release had it.
pub fn removed_attribute(class: &str, attr: &str) -> Option<(Release, &'static str)> {
    removal(
        REMOVED_ATTRIBUTES,
        |owner| owner.is_empty() || owner == class,
        attr,
    )
}

/// The row of a table of removals for `name` of an owner `owns` accepts.
fn removal(
    table: &'static [(&str, &str, Release, &'static str)],
    owns: impl Fn(&str) -> bool,
    name: &str,
) -> Option<(Release, &'static str)> {
    table
        .iter()
        .find(|(owner, n, ..)| *n == name && owns(owner))
        .map(|(_, _, gone, instead)| (*gone, *instead))
}
