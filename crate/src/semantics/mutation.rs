//! Calls known to leave their arguments as they were: the builtins and library functions after
//! which the walker keeps what it knows of the objects passed to them.

/// Builtins that change none of their arguments.
pub const PURE_BUILTINS: [&str; 24] = [
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
