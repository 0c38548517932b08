//! scikit-learn's values: estimators as their constructors make them, and their fitted attributes.

use std::collections::BTreeMap;

use crate::ir::{Expr, Keyword, Literal, TextRange};

use super::abstract_value::{ArrayLib, ArrayVal, Estimator, Val};
use super::sklearn_tables::{NUMERIC_2D, UNFITTED_RAISE};

pub fn construct(path: &str, keywords: &[Keyword], range: TextRange) -> Option<Estimator> {
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
    let mut params = BTreeMap::new();
    for k in keywords {
        let name = k.name.as_ref()?;
        if let Expr::Literal { value, .. } = &k.value {
            params.insert(name.clone(), value.clone());
        } else {
            params.insert(name.clone(), Literal::Ellipsis);
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
