//! What calls change: the builtins and library functions that leave their arguments as they
//! were, and the methods of frames, arrays and containers that change their object in place.

use crate::ir::{Expr, Keyword, Literal};

/// Builtins that change none of their arguments.
pub const PURE_BUILTINS: [&str; 25] = [
    "print",
    "len",
    "display",
    "type",
    "isinstance",
    "str",
    "repr",
    "int",
    "float",
    "list",
    "tuple",
    "sorted",
    "sum",
    "min",
    "max",
    "range",
    "enumerate",
    "zip",
    "reversed",
    "round",
    "abs",
    "set",
    "dict",
    "bool",
    "id",
];

/// Does the library function at `path` change none of its arguments?
pub fn is_pure_lib(path: &str) -> bool {
    let mutating_numpy = [
        "numpy.random.shuffle",
        "numpy.copyto",
        "numpy.put",
        "numpy.place",
        "numpy.fill_diagonal",
        "numpy.putmask",
    ];
    (path.starts_with("numpy.") && !mutating_numpy.contains(&path))
        || path.starts_with("matplotlib.")
        || path.starts_with("seaborn.")
        || path.starts_with("pandas.")
        || path.starts_with("sklearn.metrics.")
        || path == "sklearn.model_selection.train_test_split"
        || path.starts_with("scipy.stats.")
        // Progress bars iterate what they wrap (`tqdm.pandas()` is seen by `extends_pandas`).
        || path.starts_with("tqdm.")
}

/// An `inplace=` keyword that is not literally `False`.
pub fn has_inplace(keywords: &[Keyword]) -> bool {
    keywords.iter().any(|k| {
        k.name.as_deref() == Some("inplace")
            && !matches!(
                k.value,
                Expr::Literal {
                    value: Literal::Bool(false),
                    ..
                }
            )
    })
}

/// DataFrame methods that change the frame without `inplace=`.
pub const FRAME_MUTATORS: &[&str] = &["pop", "insert", "update", "eval", "__setitem__"];

/// DataFrame methods whose result with `inplace=True` is still followed (what the frame becomes).
pub const INPLACE_FOLLOWED: &[&str] = &["drop", "rename", "rename_axis", "set_index"];

/// Methods of Series and arrays that change their object in place (besides `inplace=` and
/// torch's methods ending in `_`).
pub const DATA_MUTATORS: &[&str] = &[
    "resize", "sort", "fill", "put", "itemset", "setflags", "update",
];

/// Methods of lists and dicts that change nothing.
pub const CONTAINER_READERS: &[&str] =
    &["keys", "values", "items", "get", "copy", "index", "count"];

/// Do the methods of an object of this type leave what they are given as it was? scikit-learn
/// objects do.
pub fn keeps_arguments(type_name: &str) -> bool {
    type_name.starts_with("sklearn.")
}
