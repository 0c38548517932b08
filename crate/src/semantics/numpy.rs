//! numpy's contracts as data: arrays of known shape and dtype from literals, the shapes its
//! constructors, shape functions (reshape, transpose, tile, repeat, pad, diag, triu, kron, where,
//! broadcast_to, resize, append, the stacks, `linalg.inv`/`det`/`pinv`), ufuncs and ndarray
//! methods give, the `axis` its functions and methods accept, and the matrices `numpy.linalg`
//! needs (numpy 1.x and 2.x alike).

use crate::ir::keyword as kw;
use crate::ir::{Expr, Keyword, Literal, SeqKind, TextRange};
use crate::ir_scan::unpacks;

use super::abstract_value::{ArrayLib, ArrayVal, Val};
use super::eval::{int_of, int_tuple, Eval};
use super::shapes::reshape;

/// An array of `lib` of that shape (and dtype), of which nothing else is known.
pub fn numpy_array(lib: ArrayLib, shape: Vec<i64>, dtype: Option<&str>) -> Val {
    Val::Array(ArrayVal {
        lib,
        shape,
        dtype: dtype.map(str::to_string),
        has_nan: None,
        csv_object_column: None,
        origin: None,
        non_integer: None,
        int_bounds: None,
        maybe_not_ndarray: false,
    })
}

/// The shape and dtype of nested lists or tuples of numbers (`[[1, 2], [3, 4]]`), when
/// rectangular.
pub fn literal_shape(v: &Val) -> Option<(Vec<i64>, bool)> {
    match v {
        Val::Int(_) => Some((vec![], true)),
        Val::Float(_) => Some((vec![], false)),
        v if is_nan_constant(v) => Some((vec![], false)),
        Val::Items { items, .. } if !items.is_empty() => {
            let parts: Option<Vec<(Vec<i64>, bool)>> = items.iter().map(literal_shape).collect();
            let parts = parts?;
            let first = parts[0].0.clone();
            if parts.iter().any(|(s, _)| *s != first) {
                return None;
            }
            let mut shape = vec![items.len() as i64];
            shape.extend(first);
            Some((shape, parts.iter().all(|(_, int)| *int)))
        }
        _ => None,
    }
}

/// Nested lists of known numbers whose elements have different shapes (`[[1, 2], [3]]`), which
/// numpy (since 1.24) refuses to make an array of: the first element's shape, and the first
/// element of another shape with its position and shape.
pub fn ragged_rows(v: &Val) -> Option<(Vec<i64>, usize, Vec<i64>)> {
    let Val::Items { items, .. } = v else {
        return None;
    };
    let shapes: Vec<Vec<i64>> = items
        .iter()
        .map(|item| literal_shape(item).map(|(shape, _)| shape))
        .collect::<Option<_>>()?;
    let first = shapes.first()?;
    let (at, other) = shapes.iter().enumerate().find(|(_, s)| *s != first)?;
    Some((first.clone(), at, other.clone()))
}

/// The array `np.asarray` makes of nested lists of known numbers, with what its values show.
pub fn literal_array(v: &Val) -> Option<ArrayVal> {
    let (shape, int) = literal_shape(v)?;
    let mut numbers = Vec::new();
    flatten_numbers(v, &mut numbers);
    let int_bounds = match numbers.split_first() {
        Some((first, rest)) if int => Some(
            rest.iter()
                .fold((*first, *first), |(lo, hi), n| (lo.min(*n), hi.max(*n))),
        )
        .map(|(lo, hi)| (lo as i64, hi as i64)),
        _ => None,
    };
    Some(ArrayVal {
        int_bounds,
        has_nan: Some(numbers.iter().any(|n| n.is_nan())),
        non_integer: numbers
            .into_iter()
            .find(|n| n.is_finite() && n.fract() != 0.0),
        ..as_val_array(numpy_array(
            ArrayLib::Numpy,
            shape,
            Some(if int { "int64" } else { "float64" }),
        ))?
    })
}

/// The boolean mask a value is when used as an index: a numpy bool array, or a list of
/// `True`/`False` (numpy and pandas take one as a mask; a tuple is one index per axis to numpy
/// and a key to pandas).
pub fn bool_mask(v: &Val) -> Option<ArrayVal> {
    match v {
        Val::Array(a) if a.lib == ArrayLib::Numpy && a.dtype.as_deref() == Some("bool") => {
            (!a.shape.is_empty()).then(|| a.clone())
        }
        Val::Items { type_name, items }
            if type_name == "list"
                && !items.is_empty()
                && items.iter().all(|i| matches!(i, Val::Bool(_))) =>
        {
            Some(ArrayVal::new(
                ArrayLib::Numpy,
                vec![items.len() as i64],
                Some("bool".into()),
            ))
        }
        _ => None,
    }
}

pub fn as_val_array(v: Val) -> Option<ArrayVal> {
    match v {
        Val::Array(a) => Some(a),
        _ => None,
    }
}

pub fn flatten_numbers(v: &Val, out: &mut Vec<f64>) {
    match v {
        Val::Int(i) => out.push(*i as f64),
        Val::Float(f) => out.push(*f),
        v if is_nan_constant(v) => out.push(f64::NAN),
        Val::Items { items, .. } => items.iter().for_each(|i| flatten_numbers(i, out)),
        _ => {}
    }
}

/// `np.nan`, `math.nan`.
pub fn is_nan_constant(v: &Val) -> bool {
    matches!(v, Val::Lib(p) if p == "numpy.nan" || p == "math.nan")
}

/// numpy's math functions, which have no loop for text: TypeError of an array of text (`<U`)
/// and of a pandas Series of text alike.
pub const MATH_REFUSING_TEXT: &[&str] = &[
    "log", "log2", "log10", "log1p", "exp", "expm1", "sqrt", "square", "abs", "absolute", "sin",
    "cos", "tan", "tanh", "floor", "ceil", "isnan", "negative",
];

/// What a function does to the axis it is given.
#[derive(Clone, Copy, PartialEq)]
pub enum Effect {
    /// Removes it (`keepdims=True` keeps it with size 1).
    Reduce,
    /// Keeps the shape.
    Same,
    /// Inserts a new axis of size 1 there (`axis` may be `ndim`).
    Insert,
    /// Removes it, which must have size 1.
    Squeeze,
    /// Some other shape.
    Other,
}

/// One axis parameter of a numpy function or ndarray method: the function's name, the
/// parameter's keyword (`axis`; `axis1`, `source`, ...), its position among the positional
/// arguments of the function form (`np.sum(a, axis)`) and of the method form (`a.sum(axis)`,
/// `None` where ndarray has no such method), the position of the array in the function form,
/// and the function's effect on the shape.
pub struct AxisUse {
    pub name: &'static str,
    pub keyword: &'static str,
    pub function_at: usize,
    pub method_at: Option<usize>,
    pub array_at: usize,
    pub effect: Effect,
}

pub const fn axis_use(
    name: &'static str,
    function_at: usize,
    method_at: Option<usize>,
    effect: Effect,
) -> AxisUse {
    AxisUse {
        name,
        keyword: "axis",
        function_at,
        method_at,
        array_at: 0,
        effect,
    }
}

/// An axis parameter of another name than `axis` (`swapaxes(a, axis1, axis2)`), of a function
/// whose result shape is not followed.
const fn named_axis(
    name: &'static str,
    keyword: &'static str,
    function_at: usize,
    method_at: Option<usize>,
) -> AxisUse {
    AxisUse {
        keyword,
        ..axis_use(name, function_at, method_at, Effect::Other)
    }
}

/// The axis parameters of the function or method `name`.
pub fn axis_params(name: &str) -> impl Iterator<Item = &'static AxisUse> + '_ {
    AXES.iter().filter(move |r| r.name == name)
}

/// numpy's functions and ndarray methods that validate `axis` against the array's dimensions
/// (from the signatures of numpy's reference documentation).
pub const AXES: &[AxisUse] = &[
    axis_use("sum", 1, Some(0), Effect::Reduce),
    axis_use("mean", 1, Some(0), Effect::Reduce),
    axis_use("std", 1, Some(0), Effect::Reduce),
    axis_use("var", 1, Some(0), Effect::Reduce),
    axis_use("prod", 1, Some(0), Effect::Reduce),
    axis_use("max", 1, Some(0), Effect::Reduce),
    axis_use("min", 1, Some(0), Effect::Reduce),
    axis_use("amax", 1, None, Effect::Reduce),
    axis_use("amin", 1, None, Effect::Reduce),
    axis_use("any", 1, Some(0), Effect::Reduce),
    axis_use("all", 1, Some(0), Effect::Reduce),
    axis_use("argmax", 1, Some(0), Effect::Reduce),
    axis_use("argmin", 1, Some(0), Effect::Reduce),
    axis_use("median", 1, None, Effect::Reduce),
    axis_use("average", 1, None, Effect::Reduce),
    axis_use("ptp", 1, None, Effect::Reduce),
    axis_use("count_nonzero", 1, None, Effect::Reduce),
    axis_use("nansum", 1, None, Effect::Reduce),
    axis_use("nanmean", 1, None, Effect::Reduce),
    axis_use("nanstd", 1, None, Effect::Reduce),
    axis_use("nanvar", 1, None, Effect::Reduce),
    axis_use("nanmax", 1, None, Effect::Reduce),
    axis_use("nanmin", 1, None, Effect::Reduce),
    axis_use("nanmedian", 1, None, Effect::Reduce),
    axis_use("nanargmax", 1, None, Effect::Reduce),
    axis_use("nanargmin", 1, None, Effect::Reduce),
    axis_use("nanprod", 1, None, Effect::Reduce),
    axis_use("linalg.norm", 2, None, Effect::Reduce),
    axis_use("cumsum", 1, Some(0), Effect::Same),
    axis_use("nancumsum", 1, None, Effect::Same),
    axis_use("nancumprod", 1, None, Effect::Same),
    axis_use("partition", 2, None, Effect::Same),
    axis_use("argpartition", 2, Some(1), Effect::Same),
    axis_use("cumprod", 1, Some(0), Effect::Same),
    axis_use("sort", 1, Some(0), Effect::Same),
    axis_use("argsort", 1, Some(0), Effect::Same),
    axis_use("flip", 1, None, Effect::Same),
    axis_use("roll", 2, None, Effect::Same),
    axis_use("percentile", 2, None, Effect::Other),
    axis_use("quantile", 2, None, Effect::Other),
    axis_use("nanpercentile", 2, None, Effect::Other),
    axis_use("nanquantile", 2, None, Effect::Other),
    axis_use("diff", 2, None, Effect::Other),
    axis_use("repeat", 2, Some(1), Effect::Other),
    axis_use("take", 2, Some(1), Effect::Other),
    axis_use("delete", 2, None, Effect::Other),
    axis_use("insert", 3, None, Effect::Other),
    axis_use("unique", 4, None, Effect::Other),
    axis_use("split", 2, None, Effect::Other),
    axis_use("array_split", 2, None, Effect::Other),
    axis_use("take_along_axis", 2, None, Effect::Other),
    AxisUse {
        array_at: 2,
        ..axis_use("apply_along_axis", 1, None, Effect::Other)
    },
    named_axis("swapaxes", "axis1", 1, Some(0)),
    named_axis("swapaxes", "axis2", 2, Some(1)),
    named_axis("moveaxis", "source", 1, None),
    named_axis("moveaxis", "destination", 2, None),
    axis_use("expand_dims", 1, None, Effect::Insert),
    axis_use("squeeze", 1, Some(0), Effect::Squeeze),
];

/// What a `numpy.linalg` function needs of the array it factors or inverts (numpy's linear
/// algebra reference: "a : (..., M, M) array" or "(..., M, N)").
#[derive(Clone, Copy, PartialEq)]
pub enum MatrixNeed {
    /// A stack of square matrices.
    Square,
    /// A stack of matrices, of any shape.
    Matrix,
}

/// The `numpy.linalg` functions and what their first argument must be; LinAlgError otherwise.
pub const LINALG: &[(&str, MatrixNeed)] = &[
    ("inv", MatrixNeed::Square),
    ("det", MatrixNeed::Square),
    ("slogdet", MatrixNeed::Square),
    ("eig", MatrixNeed::Square),
    ("eigvals", MatrixNeed::Square),
    ("eigh", MatrixNeed::Square),
    ("eigvalsh", MatrixNeed::Square),
    ("cholesky", MatrixNeed::Square),
    ("matrix_power", MatrixNeed::Square),
    ("solve", MatrixNeed::Square),
    ("pinv", MatrixNeed::Matrix),
    ("svd", MatrixNeed::Matrix),
    ("qr", MatrixNeed::Matrix),
];

/// What `numpy.linalg.NAME` needs of its first argument.
pub fn linalg_need(path: &str) -> Option<MatrixNeed> {
    let name = path.strip_prefix("numpy.linalg.")?;
    LINALG
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, need)| need)
}

/// The class of `np.random.default_rng()`, as the kernel names it./// The class of `np.random.default_rng()`, as the kernel names it.
pub const GENERATOR: &str = "numpy.random._generator.Generator";

/// The names of lowercase letters only (two or more) that `np.dtype` accepts in numpy 1.26.4 or
/// 2.4.6: the lowercase alphabetic keys of `np.sctypeDict` that `np.dtype(name)` takes. Any
/// other such name is rejected (TypeError: data type 'flaot' not understood); names with
/// digits, byte-order marks, brackets or commas follow another grammar and are not judged.
pub const DTYPE_WORDS: &[&str] = &[
    "bool",
    "byte",
    "bytes",
    "cdouble",
    "cfloat",
    "clongdouble",
    "clongfloat",
    "complex",
    "csingle",
    "double",
    "float",
    "half",
    "int",
    "intc",
    "intp",
    "long",
    "longcomplex",
    "longdouble",
    "longfloat",
    "longlong",
    "object",
    "short",
    "single",
    "singlecomplex",
    "str",
    "ubyte",
    "uint",
    "uintc",
    "uintp",
    "ulong",
    "ulonglong",
    "unicode",
    "ushort",
    "void",
];

/// A dtype written as a word numpy does not know (`'flaot'`, `'integer'`, `'string'`).
pub fn unknown_dtype_word(name: &str) -> bool {
    name.len() >= 2 && name.bytes().all(|b| b.is_ascii_lowercase()) && !DTYPE_WORDS.contains(&name)
}

/// The numeric (and bool) dtype `e` names: a builtin type (`int` is int64, `float` float64), a
/// numpy scalar type (`np.uint8`, `np.float32`) or its name (`'uint8'`, `'float'`).
pub fn dtype_named(w: &dyn Eval, e: &Expr) -> Option<&'static str> {
    let path;
    let name = match e {
        Expr::Name { id, .. } if w.is_builtin(id) => id.as_str(),
        _ => match e.as_str_literal() {
            Some(text) => text,
            None => {
                path = w.lib_path(e)?;
                path.strip_prefix("numpy.")?
            }
        },
    };
    NUMBER_DTYPES
        .iter()
        .find(|(word, _)| *word == name)
        .map(|(_, dtype)| *dtype)
}

/// Names of numpy's number dtypes, and the dtype each makes (numpy 2: `int` is int64 on every
/// platform).
const NUMBER_DTYPES: &[(&str, &str)] = &[
    ("bool", "bool"),
    ("bool_", "bool"),
    ("int", "int64"),
    ("int_", "int64"),
    ("float", "float64"),
    ("double", "float64"),
    ("single", "float32"),
    ("complex", "complex128"),
    ("int8", "int8"),
    ("int16", "int16"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("uint8", "uint8"),
    ("uint16", "uint16"),
    ("uint32", "uint32"),
    ("uint64", "uint64"),
    ("float16", "float16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("complex64", "complex64"),
    ("complex128", "complex128"),
];

/// The kinds of numpy's numbers in the order casting with `casting='same_kind'` allows: a kind
/// casts to itself (whatever the sizes) and to every later one, never to an earlier one.
const KINDS: [&str; 5] = ["bool", "unsigned integer", "integer", "float", "complex"];
const BOOL_KIND: usize = 0;
const UNSIGNED_KIND: usize = 1;
const INTEGER_KIND: usize = 2;
const FLOAT_KIND: usize = 3;

fn kind_of(dtype: &str) -> Option<usize> {
    let prefix = ["bool", "uint", "int", "float", "complex"];
    prefix.iter().position(|p| dtype.starts_with(p))
}

/// What `target op= operand` computes that numpy cannot write back into the numpy array
/// `target`: its ufunc (`divide`) and the kind of its results (`float`). numpy's ufuncs cast
/// their output to the array written into with `casting='same_kind'`, so floats do not go into
/// an integer array (`pixels /= 255` of uint8 images), nor integers into a bool array. Python
/// numbers are "weak" (NEP 50): an int keeps an integer array's dtype, a float makes floats.
pub fn in_place_cast_refused(
    op: &str,
    target: &ArrayVal,
    operand: &Val,
) -> Option<(&'static str, &'static str)> {
    const UFUNCS: [(&str, &str); 7] = [
        ("+", "add"),
        ("-", "subtract"),
        ("*", "multiply"),
        ("/", "divide"),
        ("//", "floor_divide"),
        ("%", "remainder"),
        ("**", "power"),
    ];
    let (_, ufunc) = UFUNCS.iter().find(|(o, _)| *o == op)?;
    if target.lib != ArrayLib::Numpy || target.maybe_not_ndarray || target.shape.is_empty() {
        return None;
    }
    let into_dtype = target.dtype.as_deref()?;
    let into = kind_of(into_dtype)?;
    let other = match operand {
        Val::Bool(_) => BOOL_KIND,
        // An int makes integers of a bool array's values, and keeps any other dtype.
        Val::Int(_) if into == BOOL_KIND => INTEGER_KIND,
        Val::Int(_) => BOOL_KIND,
        Val::Float(_) => FLOAT_KIND,
        // numpy's own scalars (`a.mean()`) are not weak: their dtype counts, as an array's.
        Val::Array(b) if b.lib == ArrayLib::Numpy && !b.maybe_not_ndarray => {
            let Some(dtype) = b.dtype.as_deref() else {
                // Whatever numbers it holds, true division makes floats (or complex numbers).
                return (op == "/" && into < FLOAT_KIND).then_some((*ufunc, KINDS[FLOAT_KIND]));
            };
            match kind_of(dtype)? {
                // uint64 beside a signed integer has no integer type holding both: float64.
                k if k == UNSIGNED_KIND && dtype == "uint64" && into == INTEGER_KIND => FLOAT_KIND,
                k if k == INTEGER_KIND && into_dtype == "uint64" => FLOAT_KIND,
                k => k,
            }
        }
        _ => return None,
    };
    let mut result = into.max(other);
    if op == "/" {
        result = result.max(FLOAT_KIND);
    }
    // Floor division and remainder of complex numbers raise another TypeError.
    if result == KINDS.len() - 1 && matches!(op, "//" | "%") {
        return None;
    }
    (result > into).then_some((*ufunc, KINDS[result]))
}

/// The data attributes of `numpy.ndarray` (numpy's "Array attributes"): every other public
/// attribute of an array (`attr_tables::NDARRAY_ATTRIBUTES`) is a method.
pub const NDARRAY_DATA_ATTRIBUTES: &[&str] = &[
    "T", "base", "ctypes", "data", "device", "dtype", "flags", "flat", "imag", "itemsize", "mT",
    "nbytes", "ndim", "real", "shape", "size", "strides",
];

/// Does a numpy array have the method `attr` (numpy 2: not `itemset`, `newbyteorder`, `ptp`)?
pub fn is_ndarray_method(attr: &str) -> bool {
    super::attr_tables::NDARRAY_ATTRIBUTES.contains(&attr)
        && !NDARRAY_DATA_ATTRIBUTES.contains(&attr)
        && !matches!(attr, "itemset" | "newbyteorder" | "ptp")
}

/// A numpy release: (major, minor).
pub type Release = (u32, u32);

/// Names the `numpy` module no longer has: the first release without it, the release that
/// brought it back (if one did), and what replaces it. numpy 1.24 expired the aliases of
/// builtins deprecated in 1.20 (its `__former_attrs__`; 2.0 brought `np.bool` back as numpy's
/// own bool); 2.0 removed its `__expired_attributes__` (NEP 52); 1.18 `rank`, 1.20 the financial
/// functions (now `numpy_financial`), 1.23 `asscalar` and `alen`. The rest are absent from
/// numpy 2.4, the earliest release the cases were run under; an earlier one may lack them too.
pub const REMOVED_MODULE_ATTRIBUTES: &[(&str, Release, Option<Release>, &str)] = &[
    ("float", (1, 24), None, "float or np.float64"),
    ("int", (1, 24), None, "int or np.int64"),
    ("object", (1, 24), None, "object"),
    ("complex", (1, 24), None, "complex or np.complex128"),
    ("str", (1, 24), None, "str or np.str_"),
    ("bool", (1, 24), Some((2, 0)), "bool or np.bool_"),
    ("NaN", (2, 0), None, "np.nan"),
    ("Inf", (2, 0), None, "np.inf"),
    ("Infinity", (2, 0), None, "np.inf"),
    ("infty", (2, 0), None, "np.inf"),
    ("PINF", (2, 0), None, "np.inf"),
    ("NINF", (2, 0), None, "-np.inf"),
    ("PZERO", (2, 0), None, "0.0"),
    ("NZERO", (2, 0), None, "-0.0"),
    ("float_", (2, 0), None, "np.float64"),
    ("complex_", (2, 0), None, "np.complex128"),
    ("cfloat", (2, 0), None, "np.complex128"),
    ("singlecomplex", (2, 0), None, "np.complex64"),
    ("longfloat", (2, 0), None, "np.longdouble"),
    ("longcomplex", (2, 0), None, "np.clongdouble"),
    ("clongfloat", (2, 0), None, "np.clongdouble"),
    ("string_", (2, 0), None, "np.bytes_"),
    ("unicode_", (2, 0), None, "np.str_"),
    ("round_", (2, 0), None, "np.round"),
    ("alltrue", (2, 0), None, "np.all"),
    ("sometrue", (2, 0), None, "np.any"),
    ("asfarray", (2, 0), None, "np.asarray(a, dtype=float)"),
    ("mat", (2, 0), None, "np.asmatrix"),
    ("cast", (2, 0), None, "np.asarray(a, dtype=dtype)"),
    ("find_common_type", (2, 0), None, "np.result_type"),
    ("issubclass_", (2, 0), None, "issubclass"),
    ("safe_eval", (2, 0), None, "ast.literal_eval"),
    (
        "set_string_function",
        (2, 0),
        None,
        "np.set_printoptions(formatter=...)",
    ),
    ("who", (2, 0), None, "locals()"),
    ("source", (2, 0), None, "inspect.getsource"),
    ("lookfor", (2, 0), None, "numpy's documentation"),
    (
        "recfromcsv",
        (2, 0),
        None,
        "np.genfromtxt(..., delimiter=',')",
    ),
    ("recfromtxt", (2, 0), None, "np.genfromtxt"),
    (
        "deprecate",
        (2, 0),
        None,
        "warnings.warn(..., DeprecationWarning)",
    ),
    (
        "byte_bounds",
        (2, 0),
        None,
        "np.lib.array_utils.byte_bounds",
    ),
    ("sctypes", (2, 0), None, "the dtypes by name"),
    ("maximum_sctype", (2, 0), None, "a specific dtype"),
    ("issctype", (2, 0), None, "issubclass(rep, np.generic)"),
    ("obj2sctype", (2, 0), None, "np.dtype(obj).type"),
    ("geterrobj", (2, 0), None, "np.errstate"),
    ("seterrobj", (2, 0), None, "np.errstate"),
    ("DataSource", (2, 0), None, "np.lib.npyio.DataSource"),
    ("rank", (1, 18), None, "np.ndim"),
    ("fv", (1, 20), None, "numpy_financial.fv"),
    ("ipmt", (1, 20), None, "numpy_financial.ipmt"),
    ("irr", (1, 20), None, "numpy_financial.irr"),
    ("mirr", (1, 20), None, "numpy_financial.mirr"),
    ("nper", (1, 20), None, "numpy_financial.nper"),
    ("npv", (1, 20), None, "numpy_financial.npv"),
    ("pmt", (1, 20), None, "numpy_financial.pmt"),
    ("ppmt", (1, 20), None, "numpy_financial.ppmt"),
    ("pv", (1, 20), None, "numpy_financial.pv"),
    ("rate", (1, 20), None, "numpy_financial.rate"),
    ("asscalar", (1, 23), None, "arr.item()"),
    ("alen", (1, 23), None, "len(arr)"),
    ("add_docstring", (2, 0), None, "np.lib.add_docstring"),
    ("add_newdoc", (2, 0), None, "np.lib.add_newdoc"),
    (
        "add_newdoc_ufunc",
        (2, 0),
        None,
        "nothing (it was internal)",
    ),
    (
        "byte_bounds",
        (2, 0),
        None,
        "np.lib.array_utils.byte_bounds",
    ),
    (
        "compare_chararrays",
        (2, 0),
        None,
        "np.char.compare_chararrays",
    ),
    (
        "deprecate",
        (2, 0),
        None,
        "warnings.warn(..., DeprecationWarning)",
    ),
    (
        "deprecate_with_doc",
        (2, 0),
        None,
        "warnings.warn(..., DeprecationWarning)",
    ),
    ("fastCopyAndTranspose", (2, 0), None, "arr.T.copy()"),
    ("format_parser", (2, 0), None, "np.rec.format_parser"),
    ("get_array_wrap", (2, 0), None, "nothing (it was internal)"),
    ("issubsctype", (2, 0), None, "np.issubdtype"),
    ("nbytes", (2, 0), None, "np.dtype(dtype).itemsize"),
    (
        "recfromcsv",
        (2, 0),
        None,
        "np.genfromtxt(..., delimiter=',')",
    ),
    ("sctype2char", (2, 0), None, "np.dtype(obj).char"),
    (
        "set_numeric_ops",
        (2, 0),
        None,
        "ufunc overrides (__array_ufunc__)",
    ),
    (
        "set_string_function",
        (2, 0),
        None,
        "np.set_printoptions(formatter=...)",
    ),
    (
        "tracemalloc_domain",
        (2, 0),
        None,
        "np.lib.tracemalloc_domain",
    ),
    ("NAN", (2, 4), None, "np.nan"),
    ("unicode", (2, 4), None, "str or np.str_"),
    ("product", (2, 4), None, "np.prod"),
    ("cumproduct", (2, 4), None, "np.cumprod"),
    ("trapz", (2, 4), None, "np.trapezoid"),
    ("in1d", (2, 4), None, "np.isin"),
    ("msort", (2, 4), None, "np.sort(a, axis=0)"),
    ("int0", (2, 4), None, "np.intp"),
    ("uint0", (2, 4), None, "np.uintp"),
    ("bool8", (2, 4), None, "np.bool_"),
];

/// The samplers of `np.random` and of a `Generator` with the position of their `size`
/// parameter, which is the shape of the sample (numpy's "Random sampling" reference).
const SAMPLERS: &[(&str, usize)] = &[
    ("random", 0),
    ("random_sample", 0),
    ("standard_normal", 0),
    ("exponential", 1),
    ("poisson", 1),
    ("standard_t", 1),
    ("chisquare", 1),
    ("normal", 2),
    ("uniform", 2),
    ("randint", 2),
    ("integers", 2),
    ("binomial", 2),
    ("beta", 2),
    ("gamma", 2),
    ("lognormal", 2),
    ("laplace", 2),
    ("logistic", 2),
];

/// The sample `np.random.NAME(...)` or `rng.NAME(...)` draws, when its `size` is known.
fn sampled(w: &dyn Eval, name: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let &(_, at) = SAMPLERS.iter().find(|(n, _)| *n == name)?;
    if args.len() > at + 1 {
        return None;
    }
    let size = args.get(at).or_else(|| kw(keywords, "size"))?;
    let shape = int_tuple(w, size).filter(|s| s.iter().all(|&d| d >= 0))?;
    Some(numpy_array(ArrayLib::Numpy, shape, None))
}

/// What a method of the `Generator` `np.random.default_rng()` returns, when certain.
pub fn generator_method(
    w: &dyn Eval,
    class: &str,
    attr: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Val {
    if class != GENERATOR || unpacks(args, keywords) {
        return Val::Unknown;
    }
    sampled(w, attr, args, keywords).unwrap_or(Val::Unknown)
}

/// numpy's ufuncs of two operands, which broadcast them against each other.
pub const BINARY_UFUNCS: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "power",
    "float_power",
    "mod",
    "remainder",
    "fmod",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "hypot",
    "arctan2",
    "logaddexp",
    "logaddexp2",
    "copysign",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "equal",
    "not_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "left_shift",
    "right_shift",
];

/// numpy's ufuncs of one array that give an array of its shape (numpy's "Available ufuncs"
/// list, and `np.round`/`np.around`, which are no ufuncs but keep the shape).
pub const UNARY_UFUNCS: &[&str] = &[
    "negative",
    "positive",
    "absolute",
    "abs",
    "fabs",
    "rint",
    "sign",
    "exp",
    "exp2",
    "log",
    "log2",
    "log10",
    "expm1",
    "log1p",
    "sqrt",
    "square",
    "cbrt",
    "reciprocal",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "deg2rad",
    "rad2deg",
    "degrees",
    "radians",
    "floor",
    "ceil",
    "trunc",
    "isnan",
    "isinf",
    "isfinite",
    "signbit",
    "logical_not",
    "invert",
    "round",
    "around",
];

/// The result of numpy functions that build arrays or change their shape, when certain.
pub fn call_result(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if unpacks(args, keywords) {
        return None;
    }
    let name = path.strip_prefix("numpy.")?;
    let only = |allowed: &[&str]| crate::ir::keywords_within(keywords, allowed);
    let np = ArrayLib::Numpy;
    match name {
        "zeros" | "ones" | "empty" | "full" => {
            let n_args = if name == "full" { 2 } else { 1 };
            if args.len() > n_args {
                return None;
            }
            let shape = int_tuple(w, args.first().or_else(|| kw(keywords, "shape"))?)
                .filter(|s| s.iter().all(|&d| d >= 0))?;
            let dtype = match kw(keywords, "dtype") {
                Some(d) => dtype_named(w, d),
                None => (name != "full").then_some("float64"),
            };
            Some(Val::Array(ArrayVal {
                has_nan: matches!(name, "zeros" | "ones").then_some(false),
                ..as_val_array(numpy_array(np, shape, dtype))?
            }))
        }
        "zeros_like" | "ones_like" | "empty_like" | "full_like" => {
            let a = as_array(w, args.first()?)?;
            if kw(keywords, "shape").is_some() {
                return None;
            }
            Some(numpy_array(np, a.shape, None))
        }
        "arange" if only(&["dtype"]) => {
            let n: Vec<f64> = args
                .iter()
                .map(|a| number_of(w, a))
                .collect::<Option<_>>()?;
            let (start, stop, step) = match n[..] {
                [stop] => (0.0, stop, 1.0),
                [start, stop] => (start, stop, 1.0),
                [start, stop, step] if step != 0.0 => (start, stop, step),
                _ => return None,
            };
            let len = ((stop - start) / step).ceil().max(0.0) as i64;
            let ints = args.iter().all(|a| int_of(w, a).is_some());
            let dtype = match kw(keywords, "dtype") {
                Some(d) => dtype_named(w, d),
                None => ints.then_some("int64"),
            };
            // The first and the last element, when integers (`np.arange(6)`: 0 and 5).
            let first = start as i64;
            let last = (len - 1)
                .checked_mul(step as i64)
                .and_then(|span| span.checked_add(first));
            let int_bounds = match last {
                Some(last) if dtype.is_some() && len > 0 => {
                    Some((first.min(last), first.max(last)))
                }
                _ => None,
            };
            Some(Val::Array(ArrayVal {
                int_bounds,
                ..ArrayVal::new(np, vec![len], dtype.map(str::to_string))
            }))
        }
        "linspace" if only(&["num", "endpoint", "dtype"]) && args.len() <= 3 => {
            // Array-like bounds add their own axes: numbers only.
            number_of(w, args.first()?)?;
            number_of(w, args.get(1)?)?;
            let num = match args.get(2).or_else(|| kw(keywords, "num")) {
                Some(e) => int_of(w, e).filter(|n| *n >= 0)?,
                None => 50,
            };
            Some(numpy_array(np, vec![num], None))
        }
        "eye" | "identity" if only(&["M", "k", "dtype"]) => {
            let n = int_of(w, args.first()?).filter(|n| *n >= 0)?;
            let m = match args.get(1).or_else(|| kw(keywords, "M")) {
                Some(e) if name == "eye" => int_of(w, e).filter(|m| *m >= 0)?,
                Some(_) => return None,
                None => n,
            };
            Some(numpy_array(np, vec![n, m], None))
        }
        "random.rand" | "random.randn" if keywords.is_empty() => {
            let dims: Vec<i64> = args
                .iter()
                .map(|a| int_of(w, a).filter(|d| *d >= 0))
                .collect::<Option<_>>()?;
            Some(numpy_array(np, dims, Some("float64")))
        }
        "random.default_rng" => Some(Val::Typed(GENERATOR.into())),
        _ if name.starts_with("random.") => sampled(w, &name["random.".len()..], args, keywords),
        "array" | "asarray" if args.len() == 1 && only(&[]) => {
            // An array of known strings (dtype `<U`).
            if let Val::Strs { items, .. } = w.eval(&args[0]) {
                return Some(Val::Strs {
                    type_name: "ndarray".into(),
                    items,
                });
            }
            // An empty list: an empty float array.
            if let Val::Items { type_name, items } = w.eval(&args[0]) {
                if type_name == "list" && items.is_empty() {
                    return Some(numpy_array(np, vec![0], Some("float64")));
                }
            }
            // A list of bools: a bool array.
            if let Some(mask) = bool_mask(&w.eval(&args[0])) {
                return Some(Val::Array(mask));
            }
            // A frame's or Series' values, as an ndarray.
            if let Some(a) = super::pandas::values_array(&w.eval(&args[0])) {
                return Some(Val::Array(ArrayVal {
                    maybe_not_ndarray: false,
                    ..a
                }));
            }
            let a = as_array(w, &args[0])?;
            matches!(w.eval(&args[0]), Val::Items { .. }).then_some(Val::Array(a))
        }
        "transpose" => {
            let a = as_array(w, args.first()?)?;
            Some(transposed(
                w,
                &a,
                args.get(1).or_else(|| kw(keywords, "axes")),
            )?)
        }
        "reshape" if args.len() == 2 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            let to = int_tuple(w, &args[1])?;
            Some(numpy_array(np, reshape(&a.shape, &to)?.ok()?, None))
        }
        "ravel" if args.len() == 1 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            Some(numpy_array(np, vec![a.shape.iter().product()], None))
        }
        "concatenate" | "vstack" | "hstack" | "dstack" | "stack" => joined(w, name, args, keywords),
        "tile" if args.len() == 2 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            let reps = int_tuple(w, &args[1]).filter(|r| r.iter().all(|&d| d >= 0))?;
            let shape = axes_times(&a.shape, &reps);
            Some(numpy_array(np, shape, a.dtype.as_deref()))
        }
        // Without an axis, `repeat` flattens.
        "repeat" if args.len() == 2 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            let times = int_of(w, &args[1]).filter(|n| *n >= 0)?;
            let size: i64 = a.shape.iter().product();
            Some(numpy_array(np, vec![size * times], a.dtype.as_deref()))
        }
        // A vector makes a square matrix of it; a matrix gives its main diagonal.
        "diag" if args.len() == 1 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            let shape = match a.shape[..] {
                [n] => vec![n, n],
                [n, m] => vec![n.min(m)],
                _ => return None,
            };
            Some(numpy_array(np, shape, a.dtype.as_deref()))
        }
        // A 1-D array is taken as one row repeated: an (N, N) matrix.
        "triu" | "tril" if args.len() == 1 && only(&["k"]) => {
            let a = as_array(w, &args[0])?;
            let shape = match a.shape[..] {
                [] => return None,
                [n] => vec![n, n],
                _ => a.shape.clone(),
            };
            Some(numpy_array(np, shape, a.dtype.as_deref()))
        }
        "kron" if args.len() == 2 && only(&[]) => {
            let (a, b) = (as_array(w, &args[0])?, as_array(w, &args[1])?);
            let shape = axes_times(&a.shape, &b.shape);
            (!shape.is_empty()).then(|| numpy_array(np, shape, None))
        }
        // `np.where(cond, x, y)` broadcasts the three (numbers are of shape `()`).
        "where" if args.len() == 3 && only(&[]) => {
            let shape_of = |e: &Expr| match number_of(w, e) {
                Some(_) => Some(vec![]),
                None => as_array(w, e).map(|a| a.shape),
            };
            let (c, x, y) = (
                shape_of(&args[0])?,
                shape_of(&args[1])?,
                shape_of(&args[2])?,
            );
            let shape = super::shapes::broadcast(&super::shapes::broadcast(&c, &x)?, &y)?;
            (!shape.is_empty()).then(|| numpy_array(np, shape, None))
        }
        "broadcast_to" if args.len() == 2 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            let to = int_tuple(w, &args[1]).filter(|s| s.iter().all(|&d| d >= 0))?;
            (super::shapes::broadcast(&a.shape, &to)? == to)
                .then(|| numpy_array(np, to, a.dtype.as_deref()))
        }
        // `pad_width` as one int or one `(before, after)` pair for every axis.
        "pad" if args.len() == 2 && only(&["mode", "constant_values"]) => {
            let a = as_array(w, &args[0])?;
            let added = match int_tuple(w, &args[1])?[..] {
                [p] if p >= 0 => 2 * p,
                [before, after] if before >= 0 && after >= 0 => before + after,
                _ => return None,
            };
            let shape = a.shape.iter().map(|d| d + added).collect();
            Some(numpy_array(np, shape, a.dtype.as_deref()))
        }
        "resize" if args.len() == 2 && only(&[]) => {
            as_array(w, &args[0])?;
            let to = int_tuple(w, &args[1]).filter(|s| s.iter().all(|&d| d >= 0))?;
            Some(numpy_array(np, to, None))
        }
        // Without an axis, `append` flattens both.
        "append" if args.len() == 2 && only(&[]) => {
            let size = |e: &Expr| match number_of(w, e) {
                Some(_) => Some(1),
                None => as_array(w, e).map(|a| a.shape.iter().product::<i64>()),
            };
            Some(numpy_array(
                np,
                vec![size(&args[0])? + size(&args[1])?],
                None,
            ))
        }
        "atleast_2d" if args.len() == 1 && only(&[]) => {
            let a = as_array(w, &args[0])?;
            let shape = match a.shape[..] {
                [] => vec![1, 1],
                [n] => vec![1, n],
                _ => a.shape.clone(),
            };
            Some(numpy_array(np, shape, a.dtype.as_deref()))
        }
        // Square stacks keep their shape through `inv` and `matrix_power`;        // Square stacks keep their shape through `inv` and `matrix_power`; `det` drops the
        // matrix axes; `pinv` swaps them.
        "linalg.inv" | "linalg.matrix_power" | "linalg.det" | "linalg.pinv" => {
            let a = as_array(w, args.first()?)?;
            let n = a.shape.len();
            let (m, k) = (*a.shape.get(n.checked_sub(2)?)?, a.shape[n - 1]);
            let mut shape = a.shape.clone();
            match name {
                "linalg.pinv" => shape.swap(n - 2, n - 1),
                _ if m != k => return None,
                "linalg.det" => shape.truncate(n - 2),
                _ => {}
            }
            (!shape.is_empty()).then(|| numpy_array(np, shape, None))
        }
        "outer" if args.len() == 2 && keywords.is_empty() => {
            let (a, b) = (as_array(w, &args[0])?, as_array(w, &args[1])?);
            let size = |s: &[i64]| s.iter().product::<i64>();
            Some(numpy_array(np, vec![size(&a.shape), size(&b.shape)], None))
        }
        "dot" | "matmul" if args.len() == 2 && keywords.is_empty() => {
            let (a, b) = (as_array(w, &args[0])?, as_array(w, &args[1])?);
            let shape = super::shapes::matmul_shape(&a.shape, &b.shape)?;
            (!shape.is_empty()).then(|| numpy_array(np, shape, None))
        }
        _ if UNARY_UFUNCS.contains(&name) && args.len() == 1 && keywords.is_empty() => {
            let a = as_array(w, &args[0])?;
            Some(a.passes_type_on(numpy_array(np, a.shape.clone(), None)))
        }
        // `np.clip(a, 0, 1)`: bounds that are numbers or None keep the shape.
        "clip" if args.len() == 3 && keywords.is_empty() => {
            let bound = |e: &Expr| number_of(w, e).is_some() || matches!(w.eval(e), Val::None);
            (bound(&args[1]) && bound(&args[2]))
                .then(|| as_array(w, &args[0]))
                .flatten()
                .map(|a| a.passes_type_on(numpy_array(np, a.shape.clone(), None)))
        }
        _ if BINARY_UFUNCS.contains(&name) => {
            let (a, b) = ufunc_operands(w, name, args, keywords)?;
            let shape = super::shapes::broadcast(&a.shape, &b.shape)?;
            (!shape.is_empty())
                .then(|| a.passes_type_on(b.passes_type_on(numpy_array(np, shape, None))))
        }
        "split" if args.len() == 2 && only(&["axis"]) => {
            let a = as_array(w, &args[0])?;
            let parts = int_of(w, &args[1]).filter(|n| *n > 0)?;
            let axis = match kw(keywords, "axis") {
                Some(e) => normalize(int_of(w, e)?, a.shape.len() as i64)?,
                None => 0,
            };
            let size = *a.shape.get(axis)?;
            if size % parts != 0 {
                return None;
            }
            let mut shape = a.shape.clone();
            shape[axis] = size / parts;
            Some(Val::Items {
                type_name: "list".into(),
                items: vec![numpy_array(np, shape, a.dtype.as_deref()); parts as usize],
            })
        }
        _ => {
            let rule = AXES.iter().find(|r| r.name == name)?;
            let a = as_array(w, args.get(rule.array_at)?)?;
            let axis = args.get(rule.function_at).or_else(|| kw(keywords, "axis"));
            axis_result(w, rule, &a, axis, keywords)
        }
    }
}

/// The sizes of `a` and `b` multiplied axis by axis, the shorter one padded with leading ones
/// (`np.tile`'s repetitions, `np.kron`'s blocks).
fn axes_times(a: &[i64], b: &[i64]) -> Vec<i64> {
    let n = a.len().max(b.len());
    let padded = |s: &[i64]| {
        let mut out = vec![1; n - s.len()];
        out.extend_from_slice(s);
        out
    };
    padded(a)
        .iter()
        .zip(padded(b))
        .map(|(x, y)| x * y)
        .collect()
}

/// The result of an ndarray method, when certain.
pub fn method_result(
    w: &dyn Eval,
    a: &ArrayVal,
    attr: &str,
    args: &[Expr],
    kws: &[Keyword],
) -> Val {
    match attr {
        "copy" | "astype" => Val::Array(ArrayVal {
            dtype: match (attr, args.first()) {
                ("copy", _) => a.dtype.clone(),
                (_, Some(to)) => dtype_named(w, to).map(str::to_string),
                _ => None,
            },
            csv_object_column: None,
            origin: None,
            non_integer: a.non_integer.filter(|_| attr == "copy"),
            int_bounds: a.int_bounds.filter(|_| attr == "copy"),
            ..a.clone()
        }),
        "flatten" | "ravel" if args.is_empty() => Val::Array(ArrayVal {
            shape: vec![a.shape.iter().product()],
            origin: None,
            ..a.clone()
        }),
        _ if a.lib != ArrayLib::Numpy || unpacks(args, kws) => Val::Unknown,
        // They change the array in place and return None (`np.sort(a)` returns a copy).
        "sort" | "fill" | "partition" | "put" | "itemset" if !a.maybe_not_ndarray => Val::None,
        "resize" if !a.maybe_not_ndarray && !args.is_empty() => Val::None,
        "reshape" if !args.is_empty() && kws.is_empty() => {
            let to = if args.len() == 1 {
                int_tuple(w, &args[0])
            } else {
                args.iter().map(|x| int_of(w, x)).collect()
            };
            match to.and_then(|to| reshape(&a.shape, &to)) {
                // The same elements, in another arrangement.
                Some(Ok(shape)) => Val::Array(ArrayVal {
                    int_bounds: a.int_bounds,
                    ..ArrayVal::new(a.lib, shape, a.dtype.clone())
                }),
                _ => Val::Unknown,
            }
        }
        "dot" if args.len() == 1 && kws.is_empty() => as_array(w, &args[0])
            .and_then(|b| super::shapes::matmul_shape(&a.shape, &b.shape))
            .filter(|shape| !shape.is_empty())
            .map_or(Val::Unknown, |shape| numpy_array(a.lib, shape, None)),
        "transpose" if kws.is_empty() => {
            let axes = match args {
                [] => None,
                [one] => Some(one.clone()),
                _ => Some(Expr::Seq {
                    kind: SeqKind::Tuple,
                    elts: args.to_vec(),
                    range: TextRange::default(),
                }),
            };
            transposed(w, a, axes.as_ref()).unwrap_or(Val::Unknown)
        }
        "squeeze" if args.is_empty() && kws.is_empty() => {
            let shape: Vec<i64> = a.shape.iter().copied().filter(|&d| d != 1).collect();
            numpy_array(a.lib, shape, a.dtype.as_deref())
        }
        _ => {
            let Some(rule) = AXES.iter().find(|r| r.name == attr) else {
                return Val::Unknown;
            };
            let Some(at) = rule.method_at else {
                return Val::Unknown;
            };
            axis_result(w, rule, a, args.get(at).or_else(|| kw(kws, "axis")), kws)
                .unwrap_or(Val::Unknown)
        }
    }
}

/// `a.transpose()`, `np.transpose(a, axes)`: the axes reversed, or permuted as `axes` says.
pub fn transposed(w: &dyn Eval, a: &ArrayVal, axes: Option<&Expr>) -> Option<Val> {
    let shape = match axes {
        None => a.shape.iter().rev().copied().collect(),
        Some(axes) => {
            let perm = int_tuple(w, axes)?;
            let n = a.shape.len() as i64;
            let mut seen = vec![false; a.shape.len()];
            let mut shape = Vec::new();
            for p in perm {
                let at = normalize(p, n)?;
                if std::mem::replace(&mut seen[at], true) {
                    return None;
                }
                shape.push(a.shape[at]);
            }
            if shape.len() != a.shape.len() {
                return None;
            }
            shape
        }
    };
    Some(numpy_array(a.lib, shape, a.dtype.as_deref()))
}

/// The dtype of means, variances and standard deviations of `a` (numpy): float64 of bools and
/// integers, the dtype of floats.
fn averaged_dtype<'a>(rule: &AxisUse, a: &'a ArrayVal) -> Option<&'a str> {
    let averages = ["mean", "std", "var", "nanmean", "nanstd", "nanvar"];
    if a.lib != ArrayLib::Numpy || !averages.contains(&rule.name) {
        return None;
    }
    match a.dtype.as_deref()? {
        d if d.starts_with("float") => Some(d),
        d if kind_of(d).is_some_and(|k| k < FLOAT_KIND) => Some("float64"),
        _ => None,
    }
}

/// The position `axis` names among `n` axes, when in range.
pub fn normalize(axis: i64, n: i64) -> Option<usize> {
    let at = if axis < 0 { axis + n } else { axis };
    (0..n).contains(&at).then_some(at as usize)
}

/// The shape after `rule` along `axis` (an int or a tuple of ints), when it is in range.
pub fn axis_result(
    w: &dyn Eval,
    rule: &AxisUse,
    a: &ArrayVal,
    axis: Option<&Expr>,
    keywords: &[Keyword],
) -> Option<Val> {
    // Without `axis`, these work along the last axis (sort, argsort) or all of them, keeping
    // the shape; the others reduce or flatten everything.
    let Some(axis) = axis else {
        // A whole reduction is one number (a numpy scalar, a 0-d tensor).
        if rule.effect == Effect::Reduce
            && keywords.iter().all(|k| k.name.as_deref() == Some("dtype"))
        {
            let dtype = averaged_dtype(rule, a).filter(|_| keywords.is_empty());
            return Some(numpy_array(a.lib, vec![], dtype));
        }
        return matches!(rule.name, "sort" | "argsort" | "flip" | "roll")
            .then(|| numpy_array(a.lib, a.shape.clone(), a.dtype.as_deref()));
    };
    let axes = int_tuple(w, axis)?;
    let keepdims = match kw(keywords, "keepdims") {
        None => false,
        Some(Expr::Literal {
            value: Literal::Bool(b),
            ..
        }) => *b,
        Some(_) => return None,
    };
    let n = a.shape.len() as i64;
    let mut shape = a.shape.clone();
    match rule.effect {
        Effect::Same => {
            axes.iter().try_for_each(|&x| normalize(x, n).map(|_| ()))?;
        }
        Effect::Reduce | Effect::Squeeze => {
            let mut at: Vec<usize> = axes
                .iter()
                .map(|&x| normalize(x, n))
                .collect::<Option<_>>()?;
            at.sort_unstable();
            at.dedup();
            if rule.effect == Effect::Squeeze && at.iter().any(|&i| shape[i] != 1) {
                return None;
            }
            for i in at.into_iter().rev() {
                if keepdims {
                    shape[i] = 1;
                } else {
                    shape.remove(i);
                }
            }
            if shape.is_empty() {
                return None;
            }
        }
        Effect::Insert => {
            let [x] = axes[..] else { return None };
            let at = normalize(x, n + 1)?;
            shape.insert(at, 1);
        }
        Effect::Other => return None,
    }
    // Cumulative sums and products make bools and small integers int64; arg* give indices.
    let moves_elements = !(rule.name.contains("cum") || rule.name.starts_with("arg"));
    let dtype = match rule.effect {
        Effect::Same | Effect::Insert | Effect::Squeeze if moves_elements => a.dtype.as_deref(),
        Effect::Reduce if kw(keywords, "dtype").is_none() => averaged_dtype(rule, a),
        _ => None,
    };
    Some(numpy_array(a.lib, shape, dtype))
}

/// A numpy array `e` holds or `np.asarray(e)` would make of it (nested lists of numbers).
pub fn as_array(w: &dyn Eval, e: &Expr) -> Option<ArrayVal> {
    match w.eval(e) {
        Val::Array(a) if a.lib == ArrayLib::Numpy => Some(a),
        v => literal_array(&v),
    }
}

/// The operands of `np.add(a, b)` and the other binary ufuncs, as numpy arrays (a number is
/// one of shape `()`), when both are known.
pub fn ufunc_operands(
    w: &dyn Eval,
    name: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<(ArrayVal, ArrayVal)> {
    if !BINARY_UFUNCS.contains(&name) || args.len() != 2 || !keywords.is_empty() {
        return None;
    }
    let operand = |e: &Expr| match number_of(w, e) {
        Some(_) => as_val_array(numpy_array(ArrayLib::Numpy, vec![], None)),
        None => as_array(w, e),
    };
    Some((operand(&args[0])?, operand(&args[1])?))
}

/// A number written in the cell or held by a name (`3`, `-0.5`, `n`).
pub fn number_of(w: &dyn Eval, e: &Expr) -> Option<f64> {
    if let Some(i) = int_of(w, e) {
        return Some(i as f64);
    }
    match e {
        Expr::Literal {
            value: Literal::Float(f),
            ..
        } => Some(*f),
        Expr::Other { children, .. } if children.len() == 1 => {
            w.text(e.range()).trim().parse::<f64>().ok()
        }
        Expr::Name { .. } => match w.eval(e) {
            Val::Float(f) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// `np.concatenate`, `np.vstack`, `np.hstack`, `np.stack` of arrays of known shapes that join.
pub fn joined(w: &dyn Eval, name: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    } = args.first()?
    else {
        return None;
    };
    let shapes: Vec<Vec<i64>> = elts
        .iter()
        .map(|e| as_array(w, e).map(|a| a.shape))
        .collect::<Option<_>>()?;
    let first = shapes.first()?.clone();
    let axis = match args.get(1).or_else(|| kw(keywords, "axis")) {
        Some(e) => int_of(w, e)?,
        None => 0,
    };
    let at_least_2d = |s: &Vec<i64>| match s.len() {
        0 => vec![1, 1],
        1 => vec![1, s[0]],
        _ => s.clone(),
    };
    let at_least_3d = |s: &Vec<i64>| match s[..] {
        [] => vec![1, 1, 1],
        [n] => vec![1, n, 1],
        [m, n] => vec![m, n, 1],
        _ => s.clone(),
    };
    let (shapes, axis) = match name {
        "vstack" => (shapes.iter().map(at_least_2d).collect(), 0),
        "dstack" => (shapes.iter().map(at_least_3d).collect(), 2),
        "hstack" if first.len() == 1 => (shapes, 0),
        "hstack" => (shapes, 1),
        _ => (shapes, axis),
    };
    let n = shapes[0].len() as i64;
    if name == "stack" {
        let at = normalize(axis, n + 1)?;
        if shapes.iter().any(|s| *s != shapes[0]) {
            return None;
        }
        let mut shape = shapes[0].clone();
        shape.insert(at, shapes.len() as i64);
        return Some(numpy_array(ArrayLib::Numpy, shape, None));
    }
    let at = normalize(axis, n)?;
    let mut shape = shapes[0].clone();
    for s in &shapes[1..] {
        if s.len() != shape.len() || (0..s.len()).any(|i| i != at && s[i] != shape[i]) {
            return None;
        }
        shape[at] += s[at];
    }
    Some(numpy_array(ArrayLib::Numpy, shape, None))
}

/// Each element a loop over a numpy array of two or more dimensions visits: an array of the
/// remaining axes.
pub fn row_of(v: &Val) -> Option<Val> {
    match v {
        Val::Array(a) if a.lib == ArrayLib::Numpy && a.shape.len() >= 2 => Some(numpy_array(
            a.lib,
            a.shape[1..].to_vec(),
            a.dtype.as_deref(),
        )),
        _ => None,
    }
}

/// The indices of `a[index]`: the elements of a written tuple (`a[i, j]`), or the one index.
pub fn index_parts(index: &Expr) -> Vec<&Expr> {
    match index {
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } => elts.iter().collect(),
        one => vec![one],
    }
}

/// `None` or `np.newaxis` among an array's indices: a new axis of size one, taking none.
pub fn is_new_axis(w: &dyn Eval, e: &Expr) -> bool {
    match w.eval(e) {
        Val::None => true,
        Val::Lib(p) => p == "numpy.newaxis",
        _ => false,
    }
}

/// `...` among an array's indices: the axes no other index takes.
pub fn is_ellipsis(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Literal {
            value: Literal::Ellipsis,
            ..
        }
    )
}

/// The integers of an integer index array written as nested lists of ints (`[0, 5]`, a name
/// holding one) or `np.array(...)` / `np.asarray(...)` of them, each of which numpy checks
/// against the size of its axis; of an integer array of known elements (`np.arange(6)`), its
/// smallest and largest. A tuple is not one: as an index it names several axes.
pub fn integer_indices(w: &dyn Eval, e: &Expr) -> Option<Vec<i64>> {
    if let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = e
    {
        if let (Some("numpy.array" | "numpy.asarray"), [list]) =
            (w.lib_path(func).as_deref(), &args[..])
        {
            return integer_indices(w, list).filter(|_| keywords.is_empty());
        }
    }
    // An integer array whose elements were known when it was made: its extremes are what
    // numpy checks.
    if let Val::Array(a) = w.eval(e) {
        let (lo, hi) = a.int_bounds?;
        let indexable = a.lib == ArrayLib::Numpy && !a.shape.is_empty() && !a.shape.contains(&0);
        return indexable.then(|| vec![lo, hi]);
    }
    fn lists_only(v: &Val) -> bool {
        match v {
            Val::Items { type_name, items } => type_name == "list" && items.iter().all(lists_only),
            _ => true,
        }
    }
    let v = w.eval(e);
    let (shape, true) = literal_shape(&v)? else {
        return None;
    };
    if shape.is_empty() || shape.contains(&0) || !lists_only(&v) {
        return None;
    }
    let mut numbers = Vec::new();
    flatten_numbers(&v, &mut numbers);
    Some(numbers.into_iter().map(|n| n as i64).collect())
}

/// The shape `a[index]` selects from an array of `shape` with basic indexing: integers in range
/// (each drops its axis), slices of known bounds, `None`/`np.newaxis` (a new axis of size one)
/// and one `...`; or with one integer index array in range beside slices, `None` and `...` only
/// (its shape takes its axis's place: beside an integer, or another array, numpy may move the
/// axes first); `None` for anything else (masks, unknown indices, an index out of range).
pub fn indexed_shape(w: &dyn Eval, shape: &[i64], index: &Expr) -> Option<Vec<i64>> {
    let parts = index_parts(index);
    let is_new_axis = |e: &Expr| is_new_axis(w, e);
    let consumed = parts
        .iter()
        .filter(|p| !is_new_axis(p) && !is_ellipsis(p))
        .count();
    if consumed > shape.len() || parts.iter().filter(|p| is_ellipsis(p)).count() > 1 {
        return None;
    }
    let (mut integers, mut arrays) = (0, 0);
    for p in &parts {
        if is_new_axis(p) || is_ellipsis(p) || matches!(p, Expr::Slice { .. }) {
            continue;
        }
        match int_of(w, p) {
            Some(_) => integers += 1,
            None => arrays += 1,
        }
    }
    if arrays > 1 || (arrays == 1 && integers > 0) {
        return None;
    }
    let mut dims = shape.iter().copied();
    let mut out = Vec::new();
    for part in parts {
        if is_new_axis(part) {
            out.push(1);
        } else if is_ellipsis(part) {
            let skipped = shape.len() - consumed;
            out.extend(dims.by_ref().take(skipped));
        } else if let Expr::Slice {
            lower, upper, step, ..
        } = part
        {
            let size = dims.next()?;
            let bound = |e: &Option<Box<Expr>>| match e {
                None => Some(None),
                Some(e) => match w.eval(e) {
                    Val::None => Some(None),
                    _ => int_of(w, e).map(Some),
                },
            };
            out.push(slice_len(size, bound(lower)?, bound(upper)?, bound(step)?)?);
        } else if let Some(i) = int_of(w, part) {
            let size = dims.next()?;
            if i >= size || i < -size {
                return None;
            }
        } else {
            let size = dims.next()?;
            let indices = integer_indices(w, part)?;
            if indices.iter().any(|&i| i >= size || i < -size) {
                return None;
            }
            out.extend(match w.eval(part) {
                Val::Array(a) => a.shape,
                v => literal_shape(&v)?.0,
            });
        }
    }
    out.extend(dims);
    Some(out)
}

/// The length of `range(size)[lower:upper:step]`, as Python's `slice.indices` computes it.
fn slice_len(size: i64, lower: Option<i64>, upper: Option<i64>, step: Option<i64>) -> Option<i64> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return None;
    }
    let clamp = |i: i64, low: i64, high: i64| {
        let i = if i < 0 { i + size } else { i };
        i.clamp(low, high)
    };
    let (start, stop) = if step > 0 {
        (
            lower.map_or(0, |i| clamp(i, 0, size)),
            upper.map_or(size, |i| clamp(i, 0, size)),
        )
    } else {
        (
            lower.map_or(size - 1, |i| clamp(i, -1, size - 1)),
            upper.map_or(-1, |i| clamp(i, -1, size - 1)),
        )
    };
    let len = if step > 0 {
        (stop - start + step - 1) / step
    } else {
        (start - stop - step - 1) / -step
    };
    Some(len.max(0))
}
