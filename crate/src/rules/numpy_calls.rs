//! numpy's contracts as data: the shapes its constructors and shape functions give, and the
//! `axis` its functions and ndarray methods accept (numpy 1.x and 2.x alike).
//!
//! - `index-out-of-range`: an `axis` outside `[-ndim, ndim)` of an array of known shape
//!   (`[-ndim - 1, ndim]` where an axis is inserted) for the functions and methods of `AXES`:
//!   numpy raises `AxisError` (an IndexError and a ValueError); and an integer index past the size
//!   of its axis, or more indices than dimensions, in `a[i, j]`: IndexError.
//! - `shape-reshape`: `np.squeeze(a, axis=k)` / `a.squeeze(k)` of an axis whose size is not 1,
//!   and `np.split(a, n)` of an axis whose size `n` does not divide: ValueError.
//! - `shape-broadcast`: `np.add(a, b)` and the other binary ufuncs of operands that do not
//!   broadcast: ValueError.
//! - `bad-arguments`: a size or shape written as a float (`np.zeros(n / 2)`,
//!   `a.reshape(n / 2, 2)`, `np.linspace(0, 1, 5.0)`): TypeError.
//!
//! Shapes flow through the constructors, the shape functions, the ufuncs (one operand: the same
//! shape; two: the broadcast one), `np.dot`/`np.matmul`/`a.dot`, and `np.split`.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Keyword, Literal, SeqKind, TextRange};
use crate::semantics::numpy::{as_val_array, literal_array, numpy_array};

use super::shapes::{int_of, int_tuple};
use crate::ir::keyword as kw;
use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, ArrayVal, Val};
use crate::semantics::shapes::reshape;
use crate::summary::tuple_text;
use crate::walker::state::Walker;

/// What a function does to the axis it is given.
#[derive(Clone, Copy, PartialEq)]
enum Effect {
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

/// One numpy function or ndarray method that takes `axis`: its name, the position of `axis`
/// among the positional arguments of the function form (`np.sum(a, axis)`) and of the method
/// form (`a.sum(axis)`, `None` where ndarray has no such method), and its effect on the shape.
struct AxisUse {
    name: &'static str,
    function_at: usize,
    method_at: Option<usize>,
    effect: Effect,
}

const fn axis_use(
    name: &'static str,
    function_at: usize,
    method_at: Option<usize>,
    effect: Effect,
) -> AxisUse {
    AxisUse {
        name,
        function_at,
        method_at,
        effect,
    }
}

/// numpy's functions and ndarray methods that validate `axis` against the array's dimensions
/// (from the signatures of numpy's reference documentation).
const AXES: &[AxisUse] = &[
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
    axis_use("expand_dims", 1, None, Effect::Insert),
    axis_use("squeeze", 1, Some(0), Effect::Squeeze),
];

/// numpy's ufuncs of one array that give an array of its shape (numpy's "Available ufuncs"
/// list, and `np.round`/`np.around`, which are no ufuncs but keep the shape).
const UNARY_UFUNCS: &[&str] = &[
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

/// numpy's ufuncs of two operands, which broadcast them against each other.
pub(crate) const BINARY_UFUNCS: &[&str] = &[
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

/// The operands of `np.add(a, b)` and the other binary ufuncs, as numpy arrays (a number is
/// one of shape `()`), when both are known.
pub(crate) fn ufunc_operands(
    w: &Walker,
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
fn number_of(w: &Walker, e: &Expr) -> Option<f64> {
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

/// A numpy array `e` holds or `np.asarray(e)` would make of it (nested lists of numbers).
pub(crate) fn as_array(w: &Walker, e: &Expr) -> Option<ArrayVal> {
    match w.eval(e) {
        Val::Array(a) if a.lib == ArrayLib::Numpy => Some(a),
        v => literal_array(&v),
    }
}

/// The result of numpy functions that build arrays or change their shape, when certain.
pub fn call_result(w: &Walker, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if unpacks(args, keywords) {
        return None;
    }
    let name = path.strip_prefix("numpy.")?;
    let only = |allowed: &[&str]| {
        keywords
            .iter()
            .all(|k| k.name.as_deref().is_some_and(|n| allowed.contains(&n)))
    };
    let np = ArrayLib::Numpy;
    match name {
        "zeros" | "ones" | "empty" | "full" => {
            let n_args = if name == "full" { 2 } else { 1 };
            if args.len() > n_args {
                return None;
            }
            let shape = int_tuple(w, args.first().or_else(|| kw(keywords, "shape"))?)
                .filter(|s| s.iter().all(|&d| d >= 0))?;
            let typed = kw(keywords, "dtype").is_some() || name == "full";
            Some(Val::Array(ArrayVal {
                has_nan: matches!(name, "zeros" | "ones").then_some(false),
                ..as_val_array(numpy_array(np, shape, (!typed).then_some("float64")))?
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
            let dtype = (kw(keywords, "dtype").is_none() && ints).then_some("int64");
            Some(numpy_array(np, vec![len], dtype))
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
        "random.random"
        | "random.random_sample"
        | "random.uniform"
        | "random.normal"
        | "random.randint" => {
            // `size` follows the two parameters of the distribution (`randint(low, high, size)`).
            let size = match name {
                "random.random" | "random.random_sample" if args.len() == 1 => &args[0],
                _ => args.get(2).or_else(|| kw(keywords, "size"))?,
            };
            let shape = int_tuple(w, size).filter(|s| s.iter().all(|&d| d >= 0))?;
            Some(numpy_array(np, shape, None))
        }
        "array" | "asarray" if args.len() == 1 && only(&[]) => {
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
        "concatenate" | "vstack" | "hstack" | "stack" => joined(w, name, args, keywords),
        "dot" | "matmul" if args.len() == 2 && keywords.is_empty() => {
            let (a, b) = (as_array(w, &args[0])?, as_array(w, &args[1])?);
            let shape = crate::semantics::shapes::matmul_shape(&a.shape, &b.shape)?;
            (!shape.is_empty()).then(|| numpy_array(np, shape, None))
        }
        _ if UNARY_UFUNCS.contains(&name) && args.len() == 1 && keywords.is_empty() => {
            Some(numpy_array(np, as_array(w, &args[0])?.shape, None))
        }
        // `np.clip(a, 0, 1)`: bounds that are numbers or None keep the shape.
        "clip" if args.len() == 3 && keywords.is_empty() => {
            let bound = |e: &Expr| number_of(w, e).is_some() || matches!(w.eval(e), Val::None);
            (bound(&args[1]) && bound(&args[2]))
                .then(|| as_array(w, &args[0]))
                .flatten()
                .map(|a| numpy_array(np, a.shape, None))
        }
        _ if BINARY_UFUNCS.contains(&name) => {
            let (a, b) = ufunc_operands(w, name, args, keywords)?;
            let shape = crate::semantics::shapes::broadcast(&a.shape, &b.shape)?;
            (!shape.is_empty()).then(|| numpy_array(np, shape, None))
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
            let a = as_array(w, args.first()?)?;
            let axis = args.get(rule.function_at).or_else(|| kw(keywords, "axis"));
            axis_result(w, rule, &a, axis, keywords)
        }
    }
}

/// `a.transpose()`, `np.transpose(a, axes)`: the axes reversed, or permuted as `axes` says.
fn transposed(w: &Walker, a: &ArrayVal, axes: Option<&Expr>) -> Option<Val> {
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

/// The position `axis` names among `n` axes, when in range.
fn normalize(axis: i64, n: i64) -> Option<usize> {
    let at = if axis < 0 { axis + n } else { axis };
    (0..n).contains(&at).then_some(at as usize)
}

/// The shape after `rule` along `axis` (an int or a tuple of ints), when it is in range.
fn axis_result(
    w: &Walker,
    rule: &AxisUse,
    a: &ArrayVal,
    axis: Option<&Expr>,
    keywords: &[Keyword],
) -> Option<Val> {
    let axes = int_tuple(w, axis?)?;
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
    let dtype = match rule.effect {
        Effect::Same | Effect::Insert | Effect::Squeeze => a.dtype.as_deref(),
        _ => None,
    };
    Some(numpy_array(a.lib, shape, dtype))
}

/// `np.concatenate`, `np.vstack`, `np.hstack`, `np.stack` of arrays of known shapes that join.
fn joined(w: &Walker, name: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
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
    let (shapes, axis) = match name {
        "vstack" => (shapes.iter().map(at_least_2d).collect(), 0),
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

/// The result of an ndarray method, when certain.
pub fn method_result(w: &Walker, a: &ArrayVal, attr: &str, args: &[Expr], kws: &[Keyword]) -> Val {
    match attr {
        "copy" | "astype" => Val::Array(ArrayVal {
            dtype: None,
            csv_object_column: None,
            origin: None,
            non_integer: a.non_integer.filter(|_| attr == "copy"),
            ..a.clone()
        }),
        "flatten" | "ravel" if args.is_empty() => Val::Array(ArrayVal {
            shape: vec![a.shape.iter().product()],
            origin: None,
            ..a.clone()
        }),
        _ if a.lib != ArrayLib::Numpy || unpacks(args, kws) => Val::Unknown,
        "reshape" if !args.is_empty() && kws.is_empty() => {
            let to = if args.len() == 1 {
                int_tuple(w, &args[0])
            } else {
                args.iter().map(|x| int_of(w, x)).collect()
            };
            match to.and_then(|to| reshape(&a.shape, &to)) {
                Some(Ok(shape)) => numpy_array(a.lib, shape, a.dtype.as_deref()),
                _ => Val::Unknown,
            }
        }
        "dot" if args.len() == 1 && kws.is_empty() => as_array(w, &args[0])
            .and_then(|b| crate::semantics::shapes::matmul_shape(&a.shape, &b.shape))
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

/// `np.add(a, b)` and the other binary ufuncs of operands that do not broadcast: ValueError.
fn ufunc_problem(
    w: &Walker,
    name: &str,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let (a, b) = ufunc_operands(w, name, args, keywords)?;
    super::shapes::not_broadcast(
        w,
        (&args[0], &a),
        (&args[1], &b),
        &format!("np.{name}"),
        range,
    )
}

/// A size written as a float (`3.0`, `n / 2`): the element of a shape tuple that is one, or the
/// size itself.
fn float_size<'e>(w: &Walker, e: &'e Expr) -> Option<&'e Expr> {
    let is_float = |x: &Expr| match w.eval(x) {
        Val::Float(_) => true,
        Val::Typed(t) => t == "float",
        _ => false,
    };
    match e {
        Expr::Seq {
            kind: SeqKind::Tuple | SeqKind::List,
            elts,
            ..
        } => elts.iter().find(|x| is_float(x)),
        _ => is_float(e).then_some(e),
    }
}

/// The sizes of numpy's constructors and shape functions must be integers: `np.zeros(n / 2)`,
/// `np.random.rand(2.0)`, `np.linspace(0, 1, 5.0)`, `a.reshape(n / 2, 2)`: TypeError.
fn float_size_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func);
    let sizes: Vec<&Expr> = match path.as_deref().and_then(|p| p.strip_prefix("numpy.")) {
        Some("zeros" | "ones" | "empty" | "full") => args
            .first()
            .or_else(|| kw(keywords, "shape"))
            .into_iter()
            .collect(),
        Some("random.rand" | "random.randn") => args.iter().collect(),
        Some("eye" | "identity") => args.first().into_iter().collect(),
        Some("linspace") => args
            .get(2)
            .or_else(|| kw(keywords, "num"))
            .into_iter()
            .collect(),
        Some("reshape") => args.get(1).into_iter().collect(),
        Some("random.randint" | "random.normal" | "random.uniform") => args
            .get(2)
            .or_else(|| kw(keywords, "size"))
            .into_iter()
            .collect(),
        Some(_) => return None,
        None if path.is_some() => return None,
        None => match func {
            Expr::Attribute { value, attr, .. } if attr == "reshape" => match w.eval(value) {
                Val::Array(a) if a.lib == ArrayLib::Numpy => args.iter().collect(),
                _ => return None,
            },
            _ => return None,
        },
    };
    let bad = sizes.into_iter().find_map(|e| float_size(w, e))?;
    Some(Diagnostic::error(
        Rule::BadArguments,
        format!(
            "{} is a float, but numpy takes sizes and shapes of integers (use int(...) or //): TypeError: 'float' object cannot be interpreted as an integer",
            w.shown(bad, "a size")
        ),
        bad.range(),
    ))
}

/// `np.split(a, n)` of an axis whose size `n` does not divide: ValueError.
fn split_problem(
    w: &Walker,
    name: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    if name != "split"
        || args.len() != 2
        || keywords.iter().any(|k| k.name.as_deref() != Some("axis"))
    {
        return None;
    }
    let a = as_array(w, &args[0])?;
    let parts = int_of(w, &args[1]).filter(|n| *n > 0)?;
    let axis = match kw(keywords, "axis") {
        Some(e) => int_of(w, e)?,
        None => 0,
    };
    let size = a.shape[normalize(axis, a.shape.len() as i64)?];
    (size % parts != 0).then(|| {
        Diagnostic::error(
            Rule::ShapeReshape,
            format!(
                "{} has shape {}: axis {axis} of size {size} does not split into {parts} equal parts (np.array_split allows unequal ones): ValueError: array split does not result in an equal division",
                w.shown(&args[0], "the array"),
                tuple_text(&a.shape)
            ),
            args[1].range(),
        )
    })
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } => {
            if unpacks(args, keywords) {
                return;
            }
            if let Some(d) = float_size_problem(w, func, args, keywords) {
                out.push(d);
                return;
            }
            if let Some(name) = w
                .lib_path(func)
                .as_deref()
                .and_then(|p| p.strip_prefix("numpy."))
            {
                if let Some(d) = ufunc_problem(w, name, args, keywords, *range)
                    .or_else(|| split_problem(w, name, args, keywords))
                {
                    out.push(d);
                    return;
                }
            }
            let (rule, array_expr, axis) = if let Some(path) = w.lib_path(func) {
                let Some(rule) = path
                    .strip_prefix("numpy.")
                    .and_then(|n| AXES.iter().find(|r| r.name == n))
                else {
                    return;
                };
                let Some(a) = args.first() else { return };
                (
                    rule,
                    a,
                    args.get(rule.function_at).or_else(|| kw(keywords, "axis")),
                )
            } else {
                let Expr::Attribute { value, attr, .. } = &**func else {
                    return;
                };
                let Some((rule, at)) = AXES
                    .iter()
                    .find(|r| r.name == attr)
                    .and_then(|r| Some((r, r.method_at?)))
                else {
                    return;
                };
                (
                    rule,
                    &**value,
                    args.get(at).or_else(|| kw(keywords, "axis")),
                )
            };
            let Some(axis) = axis else { return };
            let Some(a) = as_array(w, array_expr) else {
                return;
            };
            let Some(axes) = int_tuple(w, axis) else {
                return;
            };
            let n = a.shape.len() as i64;
            let bound = if rule.effect == Effect::Insert {
                n + 1
            } else {
                n
            };
            let shown = w.shown(array_expr, "the array");
            if let Some(bad) = axes.iter().find(|&&x| normalize(x, bound).is_none()) {
                out.push(Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "{} has shape {} ({n} dimension{}): axis {bad} is out of bounds for {}: AxisError",
                        shown,
                        tuple_text(&a.shape),
                        if n == 1 { "" } else { "s" },
                        rule.name
                    ),
                    axis.range(),
                ));
                return;
            }
            if rule.effect == Effect::Squeeze {
                if let Some(&bad) = axes
                    .iter()
                    .find(|&&x| normalize(x, n).is_some_and(|i| a.shape[i] != 1))
                {
                    out.push(Diagnostic::error(
                        Rule::ShapeReshape,
                        format!(
                            "{shown} has shape {}: axis {bad} has size {}, and squeeze removes only axes of size one: ValueError",
                            tuple_text(&a.shape),
                            a.shape[normalize(bad, n).unwrap_or(0)]
                        ),
                        axis.range(),
                    ));
                }
            }
        }
        Expr::Subscript {
            value,
            index,
            range,
        } => {
            let Expr::Seq {
                kind: SeqKind::Tuple,
                elts,
                ..
            } = &**index
            else {
                return;
            };
            let Val::Array(a) = w.eval(value) else {
                return;
            };
            if a.lib != ArrayLib::Numpy {
                return;
            }
            // Integers and plain slices only: `None`, `...`, arrays and masks change the count.
            let mut ints = Vec::new();
            for e in elts {
                match e {
                    Expr::Slice { .. } => ints.push(None),
                    _ => match int_of(w, e) {
                        Some(i) => ints.push(Some((i, e.range()))),
                        None => return,
                    },
                }
            }
            let n = a.shape.len();
            let shown = w.shown(value, "the array");
            if ints.len() > n {
                out.push(Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "too many indices for array: {shown} has shape {} ({n} dimension{}), but {} were indexed: IndexError",
                        tuple_text(&a.shape),
                        if n == 1 { "" } else { "s" },
                        ints.len()
                    ),
                    *range,
                ));
                return;
            }
            for (axis, index) in ints.iter().enumerate() {
                let Some((i, at)) = index else { continue };
                let size = a.shape[axis];
                if *i >= size || *i < -size {
                    out.push(Diagnostic::error(
                        Rule::IndexOutOfRange,
                        format!(
                            "index {i} is out of bounds for axis {axis} with size {size}: {shown} has shape {}: IndexError",
                            tuple_text(&a.shape)
                        ),
                        *at,
                    ));
                    return;
                }
            }
        }
        _ => {}
    }
}
