//! TensorFlow's tensor contracts as data (TF 2.x, eager): the shapes and dtypes its constructors
//! give (`tf.constant`, `tf.convert_to_tensor` of literals or numpy arrays, `tf.zeros`/`ones`/
//! `fill`/`eye`/`range`, `tf.random.*`), what its shape functions and elementwise ops make of
//! them, the `axis` its reductions accept, and `.numpy()`. Shape errors of eager ops are
//! `InvalidArgumentError`.

use crate::ir::keyword as kw;
use crate::ir::{Expr, Keyword, SeqKind};
use crate::ir_scan::unpacks;

use super::abstract_value::{ArrayLib, ArrayVal, Val};
use super::eval::{int_of, int_tuple, Eval};
use super::numpy::{
    as_val_array, axis_result, axis_use, literal_shape, normalize, number_of, numpy_array,
    transposed, AxisUse, Effect, UNARY_UFUNCS,
};
use super::shapes::{broadcast, joins, reshape};

const TF: ArrayLib = ArrayLib::Tensorflow;

/// The function's name inside `tensorflow` (`reduce_sum`, `random.normal`; `math.reduce_sum` and
/// `linalg.matmul` are the same functions under their module).
pub fn tf_name(path: &str) -> Option<&str> {
    let name = path.strip_prefix("tensorflow.")?;
    Some(
        name.strip_prefix("math.")
            .or_else(|| name.strip_prefix("linalg.").filter(|n| *n == "matmul"))
            .unwrap_or(name),
    )
}

/// A tensor of that shape and dtype.
fn tensor(shape: Vec<i64>, dtype: Option<&str>) -> Val {
    numpy_array(TF, shape, dtype)
}

/// The tensor `e` holds.
pub fn as_tensor(w: &dyn Eval, e: &Expr) -> Option<ArrayVal> {
    match w.eval(e) {
        Val::Array(a) if a.lib == TF => Some(a),
        _ => None,
    }
}

/// What `tf.constant(value)` / `tf.convert_to_tensor(value)` makes of a value: nested lists of
/// numbers (int32 or float32, TF's defaults for Python numbers) or a numpy array (its dtype).
fn converted(w: &dyn Eval, e: &Expr) -> Option<Val> {
    match w.eval(e) {
        Val::Array(a) if a.lib == ArrayLib::Numpy => Some(tensor(a.shape, a.dtype.as_deref())),
        Val::Array(a) if a.lib == TF => Some(Val::Array(a)),
        v => {
            let (shape, int) = literal_shape(&v)?;
            Some(tensor(shape, Some(if int { "int32" } else { "float32" })))
        }
    }
}

/// TensorFlow's reductions and the other functions that validate `axis` against a tensor's rank
/// (`tf.math` reference): an axis outside `[-rank, rank)` raises InvalidArgumentError.
pub const AXES: &[AxisUse] = &[
    axis_use("reduce_sum", 1, None, Effect::Reduce),
    axis_use("reduce_mean", 1, None, Effect::Reduce),
    axis_use("reduce_max", 1, None, Effect::Reduce),
    axis_use("reduce_min", 1, None, Effect::Reduce),
    axis_use("reduce_prod", 1, None, Effect::Reduce),
    axis_use("reduce_any", 1, None, Effect::Reduce),
    axis_use("reduce_all", 1, None, Effect::Reduce),
    axis_use("reduce_std", 1, None, Effect::Reduce),
    axis_use("reduce_variance", 1, None, Effect::Reduce),
    axis_use("reduce_logsumexp", 1, None, Effect::Reduce),
    axis_use("argmax", 1, None, Effect::Reduce),
    axis_use("argmin", 1, None, Effect::Reduce),
    axis_use("cumsum", 1, None, Effect::Same),
    axis_use("cumprod", 1, None, Effect::Same),
    axis_use("expand_dims", 1, None, Effect::Insert),
    axis_use("squeeze", 1, None, Effect::Squeeze),
];

/// The axis parameters of the TensorFlow function `name`.
pub fn axis_params(name: &str) -> impl Iterator<Item = &'static AxisUse> + '_ {
    AXES.iter().filter(move |r| r.name == name)
}

/// Elementwise functions of two tensors, which broadcast them against each other.
const BINARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "truediv",
    "floordiv",
    "pow",
    "maximum",
    "minimum",
    "squared_difference",
    "equal",
    "not_equal",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
];

/// Does the TensorFlow function `name` broadcast its two operands elementwise?
pub fn broadcasts_elementwise(name: &str) -> bool {
    BINARY.contains(&name)
}

/// Elementwise functions of one tensor beyond numpy's ufunc names (`tf.exp`, `tf.sqrt` are
/// in `UNARY_UFUNCS`).
const UNARY: &[&str] = &[
    "sigmoid",
    "nn.relu",
    "nn.sigmoid",
    "nn.tanh",
    "nn.softmax",
    "identity",
];

/// The samplers of `tf.random` (their `shape` comes first).
const SAMPLERS: &[&str] = &[
    "random.normal",
    "random.uniform",
    "random.truncated_normal",
    "random.stateless_normal",
    "random.stateless_uniform",
];

/// The result of a TensorFlow function on tensors of known shapes, when certain.
pub fn call_result(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if unpacks(args, keywords) {
        return None;
    }
    let name = tf_name(path)?;
    let only = |allowed: &[&str]| crate::ir::keywords_within(keywords, allowed);
    let shape_arg = |e: &Expr| int_tuple(w, e).filter(|s| s.iter().all(|&d| d >= 0));
    // The default dtype, or the one `dtype=` names (`tf.int32`, 'int32'); unknown otherwise.
    let given = kw(keywords, "dtype").map(|e| dtype_named(w, e));
    let dtype = |default: &'static str| match &given {
        None => Some(default.to_string()),
        Some(named) => named.clone(),
    };
    match name {
        "constant" | "convert_to_tensor" | "Variable"
            if args.len() == 1 && only(&["name", "dtype"]) =>
        {
            let Val::Array(t) = converted(w, &args[0])? else {
                return None;
            };
            let dtype = match given {
                None => t.dtype.clone(),
                Some(named) => named,
            };
            Some(tensor(t.shape, dtype.as_deref()))
        }
        "zeros" | "ones" if args.len() <= 1 && only(&["shape", "dtype", "name"]) => {
            let shape = shape_arg(args.first().or_else(|| kw(keywords, "shape"))?)?;
            Some(tensor(shape, dtype("float32").as_deref()))
        }
        "fill" if args.len() == 2 && only(&["name"]) => {
            let shape = shape_arg(&args[0])?;
            Some(tensor(shape, None))
        }
        _ if SAMPLERS.contains(&name) => {
            let shape = shape_arg(args.first().or_else(|| kw(keywords, "shape"))?)?;
            Some(tensor(shape, dtype("float32").as_deref()))
        }
        "zeros_like" | "ones_like" | "identity" | "stop_gradient" if args.len() == 1 => {
            let t = as_tensor(w, &args[0])?;
            Some(tensor(t.shape, t.dtype.as_deref()))
        }
        "eye" if args.len() <= 2 && only(&["num_columns", "dtype"]) => {
            let n = int_of(w, args.first()?).filter(|n| *n >= 0)?;
            let m = match args.get(1).or_else(|| kw(keywords, "num_columns")) {
                Some(e) => int_of(w, e).filter(|m| *m >= 0)?,
                None => n,
            };
            Some(tensor(vec![n, m], dtype("float32").as_deref()))
        }
        "range" if only(&[]) && !args.is_empty() && args.len() <= 3 => {
            let n: Vec<i64> = args.iter().map(|a| int_of(w, a)).collect::<Option<_>>()?;
            let (start, limit, delta) = match n[..] {
                [limit] => (0, limit, 1),
                [start, limit] => (start, limit, 1),
                [start, limit, delta] if delta != 0 => (start, limit, delta),
                _ => return None,
            };
            let len = ((limit - start) as f64 / delta as f64).ceil().max(0.0) as i64;
            Some(tensor(vec![len], Some("int32")))
        }
        // One axis of `depth` after the indices' axes (the default `axis=-1`); float32 unless
        // `dtype=` or the on/off values say otherwise.
        "one_hot"
            if args.len() <= 2 && only(&["depth", "dtype", "on_value", "off_value", "name"]) =>
        {
            let Val::Array(indices) = converted(w, &args[0])? else {
                return None;
            };
            let depth = int_of(w, args.get(1).or_else(|| kw(keywords, "depth"))?)?;
            let mut shape = indices.shape;
            shape.push(depth.max(0));
            let valued = kw(keywords, "on_value").or_else(|| kw(keywords, "off_value"));
            let dtype = match (&given, valued) {
                (None, Some(_)) => None,
                _ => dtype("float32"),
            };
            Some(tensor(shape, dtype.as_deref()))
        }
        "reshape" if args.len() == 2 && only(&["name"]) => {
            let t = as_tensor(w, &args[0])?;
            let to = int_tuple(w, &args[1])?;
            Some(tensor(reshape(&t.shape, &to)?.ok()?, t.dtype.as_deref()))
        }
        "transpose" if only(&["perm"]) => {
            let t = as_tensor(w, args.first()?)?;
            transposed(w, &t, args.get(1).or_else(|| kw(keywords, "perm")))
        }
        "cast" if args.len() == 2 && only(&[]) => {
            let t = as_tensor(w, &args[0])?;
            Some(tensor(t.shape, dtype_named(w, &args[1]).as_deref()))
        }
        "matmul" if args.len() == 2 && only(&[]) => {
            let (a, b) = (as_tensor(w, &args[0])?, as_tensor(w, &args[1])?);
            matmul_shape(&a.shape, &b.shape).map(|s| tensor(s, a.dtype.as_deref()))
        }
        "concat" | "stack" => joined(w, name, args, keywords),
        _ if broadcasts_elementwise(name) && args.len() == 2 && only(&["name"]) => {
            let (a, b) = operands(w, &args[0], &args[1])?;
            Some(tensor(broadcast(&a.shape, &b.shape)?, same_dtype(&a, &b)))
        }
        _ if (UNARY_UFUNCS.contains(&name) || UNARY.contains(&name)) && args.len() == 1 => {
            let t = as_tensor(w, &args[0])?;
            Some(tensor(t.shape, None))
        }
        _ => {
            let rule = axis_params(name).next()?;
            let t = as_tensor(w, args.first()?)?;
            let axis = args.get(rule.function_at).or_else(|| kw(keywords, "axis"));
            // `tf.argmax` without an axis reduces axis 0.
            let zero = Expr::Literal {
                value: crate::ir::Literal::Int(0),
                range: Default::default(),
            };
            let axis = match (axis, name) {
                (None, "argmax" | "argmin") => Some(&zero),
                (axis, _) => axis,
            };
            if axis.is_none() && rule.effect == Effect::Reduce {
                return None;
            }
            match axis_result(w, rule, &t, axis, keywords)? {
                Val::Array(a) => Some(tensor(a.shape, None)),
                _ => None,
            }
        }
    }
}

/// The dtype `e` names: `tf.float32`, `tf.dtypes.int32`, or a string such as `'int32'`.
pub fn dtype_named(w: &dyn Eval, e: &Expr) -> Option<String> {
    let name = match e.as_str_literal() {
        Some(text) => text.to_string(),
        None => {
            let path = w.lib_path(e)?;
            let name = path.strip_prefix("tensorflow.")?;
            name.strip_prefix("dtypes.").unwrap_or(name).to_string()
        }
    };
    DTYPES.contains(&name.as_str()).then_some(name)
}

/// TensorFlow's numeric and boolean dtypes.
const DTYPES: &[&str] = &[
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "bool",
    "complex64",
    "complex128",
];

/// The dtype of both operands, when they share it (a number operand has none).
fn same_dtype<'a>(a: &'a ArrayVal, b: &ArrayVal) -> Option<&'a str> {
    a.dtype
        .as_deref()
        .filter(|d| b.dtype.as_deref() == Some(*d))
}

/// Is `dtype` one of TensorFlow's integer dtypes?
pub fn is_integer_dtype(dtype: &str) -> bool {
    dtype.starts_with("int") || dtype.starts_with("uint")
}

/// The operands of an elementwise TensorFlow function: tensors, or numbers (shape `()`).
pub fn operands(w: &dyn Eval, a: &Expr, b: &Expr) -> Option<(ArrayVal, ArrayVal)> {
    let operand = |e: &Expr| match number_of(w, e) {
        Some(_) => as_val_array(tensor(vec![], None)),
        None => as_tensor(w, e),
    };
    Some((operand(a)?, operand(b)?))
}

/// `tf.matmul` multiplies matrices (with equal batch axes in front): both operands of rank
/// two or more, the inner dimensions equal. Followed for rank 2 only.
pub fn matmul_shape(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    match (a, b) {
        ([n, k1], [k2, m]) if k1 == k2 => Some(vec![*n, *m]),
        _ => None,
    }
}

/// The tensors of `tf.concat(values, axis)` / `tf.stack(values, axis=0)` written as a list.
pub fn listed_tensors(w: &dyn Eval, list: &Expr) -> Option<Vec<ArrayVal>> {
    let Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    } = list
    else {
        return None;
    };
    elts.iter().map(|e| as_tensor(w, e)).collect()
}

/// The axis of `tf.concat` (required) or `tf.stack` (0 by default), as written.
pub fn join_axis<'e>(name: &str, args: &'e [Expr], keywords: &'e [Keyword]) -> Option<&'e Expr> {
    match name {
        "concat" | "stack" => args.get(1).or_else(|| kw(keywords, "axis")),
        _ => None,
    }
}

fn joined(w: &dyn Eval, name: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let tensors = listed_tensors(w, args.first()?)?;
    let first = tensors.first()?;
    let axis = match join_axis(name, args, keywords) {
        Some(e) => int_of(w, e)?,
        None if name == "stack" => 0,
        None => return None,
    };
    let n = first.shape.len() as i64;
    if name == "stack" {
        let at = normalize(axis, n + 1)?;
        if tensors.iter().any(|t| t.shape != first.shape) {
            return None;
        }
        let mut shape = first.shape.clone();
        shape.insert(at, tensors.len() as i64);
        return Some(tensor(shape, first.dtype.as_deref()));
    }
    let at = normalize(axis, n)?;
    let mut shape = first.shape.clone();
    for t in &tensors[1..] {
        if !joins(&first.shape, &t.shape, at) {
            return None;
        }
        shape[at] += t.shape[at];
    }
    Some(tensor(shape, first.dtype.as_deref()))
}

/// The result of a tensor's method, when certain: `.numpy()` is the numpy array of its shape
/// and dtype.
pub fn method_result(t: &ArrayVal, attr: &str, args: &[Expr], keywords: &[Keyword]) -> Val {
    match attr {
        "numpy" if args.is_empty() && keywords.is_empty() => {
            numpy_array(ArrayLib::Numpy, t.shape.clone(), t.dtype.as_deref())
        }
        _ => Val::Unknown,
    }
}
