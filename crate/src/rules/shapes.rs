//! Shape rules on arrays and tensors of known shape.
//!
//! - `shape-broadcast`: elementwise arithmetic on shapes that do not broadcast.
//! - `shape-matmul`: `a @ b`, `np.dot`, `np.matmul` with inner dimensions that differ.
//! - `shape-concatenate`: `np.concatenate` of arrays whose other dimensions differ.
//! - `shape-stack`: `np.array`/`np.asarray`/`np.stack` of arrays of different shapes, and
//!   `np.vstack`/`np.column_stack` of arrays whose rows (columns) do not line up.
//! - `shape-reshape`: `reshape` to a shape with another number of elements.
//! - `shape-image`: `plt.imshow`, or `imshow` of an Axes (`plt.subplots`, `plt.subplot`, an element
//!   of an array of Axes, a summarised Axes), of an array that is not (M, N), (M, N, 3) or (M, N, 4).
//! - `shape-savetxt`: `np.savetxt` of an array with more than 2 dimensions.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Keyword, Literal, SeqKind};
use crate::summary::tuple_text;

use super::abstract_value::{ArrayLib, ArrayVal, Val};
use super::flow::{unpacks, Walker};

/// Numpy broadcasting of two shapes; `None` when they do not broadcast.
pub fn broadcast(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i < n - a.len() {
            1
        } else {
            a[i - (n - a.len())]
        };
        let y = if i < n - b.len() {
            1
        } else {
            b[i - (n - b.len())]
        };
        out[i] = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return None;
        };
    }
    Some(out)
}

const ELEMENTWISE: [&str; 7] = ["+", "-", "*", "/", "//", "%", "**"];

pub fn binop_value(op: &str, l: &Val, r: &Val) -> Val {
    let scalar = |v: &Val| matches!(v, Val::Int(_) | Val::Float(_));
    match (l, r) {
        (Val::Array(a), Val::Array(b)) if a.lib == b.lib && ELEMENTWISE.contains(&op) => {
            match broadcast(&a.shape, &b.shape) {
                Some(shape) => Val::Array(ArrayVal {
                    lib: a.lib,
                    shape,
                    dtype: None,
                    has_nan: None,
                    csv_object_column: None,
                    origin: None,
                    non_integer: None,
                }),
                None => Val::Unknown,
            }
        }
        (Val::Array(a), s) | (s, Val::Array(a)) if scalar(s) && ELEMENTWISE.contains(&op) => {
            Val::Array(ArrayVal {
                dtype: None,
                has_nan: None,
                csv_object_column: None,
                origin: None,
                non_integer: None,
                ..a.clone()
            })
        }
        _ => Val::Unknown,
    }
}

pub(super) fn int_tuple(w: &Walker, e: &Expr) -> Option<Vec<i64>> {
    match e {
        Expr::Seq {
            kind: SeqKind::Tuple | SeqKind::List,
            elts,
            ..
        } => elts.iter().map(|x| int_of(w, x)).collect(),
        _ => int_of(w, e).map(|i| vec![i]),
    }
}

pub(super) fn int_of(w: &Walker, e: &Expr) -> Option<i64> {
    match e {
        Expr::Literal {
            value: Literal::Int(i),
            ..
        } => Some(*i),
        Expr::Other { children, .. } if children.len() == 1 => {
            // `-1`
            let t = w.text(e.range()).trim().to_string();
            t.parse::<i64>().ok()
        }
        Expr::Name { .. } => match w.eval(e) {
            Val::Int(i) => Some(i),
            _ => None,
        },
        _ => None,
    }
}

/// The result of a reshape, or `Err(())` when the element counts differ.
pub(super) fn reshape(from: &[i64], to: &[i64]) -> Option<Result<Vec<i64>, ()>> {
    let size: i64 = from.iter().product();
    let unknown = to.iter().filter(|&&d| d == -1).count();
    if unknown > 1 || to.iter().any(|&d| d < -1) {
        return None;
    }
    let known: i64 = to.iter().filter(|&&d| d != -1).product();
    if unknown == 0 {
        return Some(if known == size {
            Ok(to.to_vec())
        } else {
            Err(())
        });
    }
    if known == 0 || size % known != 0 {
        return Some(Err(()));
    }
    Some(Ok(to
        .iter()
        .map(|&d| if d == -1 { size / known } else { d })
        .collect()))
}

fn arrays<'v>(l: &'v Val, r: &'v Val) -> Option<(&'v ArrayVal, &'v ArrayVal)> {
    match (l, r) {
        (Val::Array(a), Val::Array(b)) if a.lib == b.lib => Some((a, b)),
        _ => None,
    }
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } => {
            let (l, r) = (w.eval(left), w.eval(right));
            let Some((a, b)) = arrays(&l, &r) else { return };
            if ELEMENTWISE.contains(op) && broadcast(&a.shape, &b.shape).is_none() {
                out.push(Diagnostic::error(
                    Rule::ShapeBroadcast,
                    format!(
                        "{} has shape {} and {} has shape {}: they cannot be broadcast together for '{op}': {}",
                        w.shown(left, "an operand"),
                        tuple_text(&a.shape),
                        w.shown(right, "an operand"),
                        tuple_text(&b.shape),
                        if a.lib == super::abstract_value::ArrayLib::Torch { "RuntimeError" } else { "ValueError" }
                    ),
                    *range,
                ));
            }
            if *op == "@" {
                matmul(w, left, right, a, b, *range, out);
            }
        }
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } => {
            if unpacks(args, keywords) {
                return;
            }
            let path = w.lib_path(func);
            match path.as_deref() {
                Some("numpy.dot" | "numpy.matmul") if args.len() == 2 => {
                    let (l, r) = (w.eval(&args[0]), w.eval(&args[1]));
                    if let Some((a, b)) = arrays(&l, &r) {
                        matmul(w, &args[0], &args[1], a, b, *range, out);
                    }
                }
                Some("matplotlib.pyplot.imshow") => {
                    if let Some(d) = args.first().and_then(|x| image_problem(w, x)) {
                        out.push(d);
                    }
                }
                Some("numpy.savetxt") => {
                    let x = args.get(1).or_else(|| {
                        keywords
                            .iter()
                            .find(|k| k.name.as_deref() == Some("X"))
                            .map(|k| &k.value)
                    });
                    let Some(x) = x else { return };
                    if let Val::Array(a) = w.eval(x) {
                        if a.lib == super::abstract_value::ArrayLib::Numpy
                            && (a.shape.len() > 2 || a.shape.is_empty())
                        {
                            out.push(Diagnostic::error(
                                Rule::ShapeSavetxt,
                                format!("np.savetxt writes 1-D or 2-D arrays only, but {} has shape {}; use np.save or reshape it: ValueError", w.shown(x, "an operand"), tuple_text(&a.shape)),
                                x.range(),
                            ));
                        }
                    }
                }
                Some("numpy.concatenate") => {
                    let Some(arrays) = args.first().and_then(|e| listed_arrays(w, e)) else {
                        return;
                    };
                    let axis = match keywords
                        .iter()
                        .find(|k| k.name.as_deref() == Some("axis"))
                        .map(|k| &k.value)
                        .or(args.get(1))
                    {
                        None => 0,
                        Some(e) => match int_of(w, e) {
                            Some(a) if a >= 0 => a as usize,
                            _ => return,
                        },
                    };
                    let Some((first_name, first)) = arrays.first() else {
                        return;
                    };
                    if let Some((name, a)) = arrays[1..]
                        .iter()
                        .find(|(_, a)| !joins(&first.shape, &a.shape, axis))
                    {
                        out.push(Diagnostic::error(
                            Rule::ShapeConcatenate,
                            format!("np.concatenate along axis {axis}: {first_name} has shape {} but {name} has shape {}: ValueError",
                                tuple_text(&first.shape), tuple_text(&a.shape)),
                            *range,
                        ));
                    }
                }
                Some(
                    p @ ("numpy.array" | "numpy.asarray" | "numpy.stack" | "numpy.vstack"
                    | "numpy.column_stack"),
                ) => stacked(w, p, func, args, keywords, *range, out),
                Some("numpy.reshape") if args.len() == 2 => {
                    if let (Val::Array(a), Some(to)) = (w.eval(&args[0]), int_tuple(w, &args[1])) {
                        if let Some(Err(())) = reshape(&a.shape, &to) {
                            out.push(reshape_diag(w, &args[0], &a, &to, *range));
                        }
                    }
                }
                _ => {
                    if let Expr::Attribute { value, attr, .. } = &**func {
                        if attr == "imshow" && is_axes(&w.eval(value)) {
                            if let Some(d) = args.first().and_then(|x| image_problem(w, x)) {
                                out.push(d);
                            }
                            return;
                        }
                        if matches!(attr.as_str(), "reshape" | "view") && !args.is_empty() {
                            if let Val::Array(a) = w.eval(value) {
                                if attr == "view" && a.lib != super::abstract_value::ArrayLib::Torch
                                {
                                    return;
                                }
                                let to = if args.len() == 1 {
                                    int_tuple(w, &args[0])
                                } else {
                                    args.iter().map(|x| int_of(w, x)).collect()
                                };
                                if let Some(to) = to {
                                    if let Some(Err(())) = reshape(&a.shape, &to) {
                                        out.push(reshape_diag(w, value, &a, &to, *range));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// The qualified class of matplotlib's Axes.
const AXES_CLASS: &str = "matplotlib.axes._axes.Axes";

/// A matplotlib Axes (of any projection: every one takes `imshow`'s images as `Axes` does).
fn is_axes(v: &Val) -> bool {
    matches!(v, Val::Typed(t) if t.starts_with("matplotlib.axes."))
}

/// `plt.subplot(...)`, `plt.axes()`: an Axes (without a projection, which may be a toolkit's).
pub fn pyplot_result(path: &str, keywords: &[Keyword]) -> Option<Val> {
    let plain = !keywords
        .iter()
        .any(|k| matches!(k.name.as_deref(), None | Some("projection" | "polar")));
    (matches!(path, "matplotlib.pyplot.subplot" | "matplotlib.pyplot.axes") && plain)
        .then(|| Val::Typed(AXES_CLASS.into()))
}

/// `fig, ax = plt.subplots(nrows, ncols)`: the figure, and an Axes, or (squeezed) a 1-D or 2-D
/// array of them, here a sequence of Axes one may index.
pub fn subplots_parts(w: &Walker, value: &Expr, n_targets: usize) -> Option<Vec<Val>> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = value
    else {
        return None;
    };
    if w.lib_path(func)? != "matplotlib.pyplot.subplots"
        || n_targets != 2
        || unpacks(args, keywords)
    {
        return None;
    }
    if keywords
        .iter()
        .any(|k| matches!(k.name.as_deref(), Some("squeeze" | "subplot_kw")))
    {
        return None;
    }
    let count =
        |at: usize, name: &str| match args.get(at).or_else(|| crate::ir::keyword(keywords, name)) {
            None => Some(1),
            Some(e) => int_of(w, e).filter(|n| *n >= 1),
        };
    let (rows, cols) = (count(0, "nrows")?, count(1, "ncols")?);
    let axes = |n: i64| Val::Items {
        type_name: "ndarray".into(),
        items: vec![Val::Typed(AXES_CLASS.into()); n as usize],
    };
    let ax = match (rows, cols) {
        (1, 1) => Val::Typed(AXES_CLASS.into()),
        (1, n) | (n, 1) => axes(n),
        (r, c) => Val::Items {
            type_name: "ndarray".into(),
            items: vec![axes(c); r as usize],
        },
    };
    Some(vec![Val::Typed("matplotlib.figure.Figure".into()), ax])
}

/// `imshow` takes images of shape (M, N), (M, N, 3) or (M, N, 4) (and (M, N, 1) is squeezed).
fn image_problem(w: &Walker, x: &Expr) -> Option<Diagnostic> {
    let Val::Array(a) = w.eval(x) else {
        return None;
    };
    let s = &a.shape;
    let bad = match s.len() {
        2 => false,
        3 => !matches!(s[2], 1 | 3 | 4),
        _ => true,
    };
    if !bad {
        return None;
    }
    let hint = if s.len() == 3 && matches!(s[0], 1 | 3 | 4) {
        "; it looks channels-first: use x.transpose(1, 2, 0)"
    } else {
        ""
    };
    Some(Diagnostic::error(
        Rule::ShapeImage,
        format!("imshow needs an image of shape (M, N), (M, N, 3) or (M, N, 4), but {} has shape {}{hint}: TypeError", w.shown(x, "an operand"), tuple_text(s)),
        x.range(),
    ))
}

/// Can arrays of shapes `a` and `b` be concatenated along `axis` (same number of dimensions, the
/// same sizes but along `axis`)?
fn joins(a: &[i64], b: &[i64], axis: usize) -> bool {
    a.len() == b.len()
        && axis < a.len()
        && a.iter()
            .zip(b)
            .enumerate()
            .all(|(i, (x, y))| i == axis || x == y)
}

/// The numpy arrays a list argument holds (`[a, b]`, or a list the walker followed), with what
/// to call each in messages; `None` unless every element is a numpy array of known shape.
fn listed_arrays(w: &Walker, list: &Expr) -> Option<Vec<(String, ArrayVal)>> {
    let numpy = |v: Val| match v {
        Val::Array(a) if a.lib == ArrayLib::Numpy => Some(a),
        _ => None,
    };
    match list {
        Expr::Seq {
            kind: SeqKind::List | SeqKind::Tuple,
            elts,
            ..
        } => elts
            .iter()
            .map(|e| Some((w.shown(e, "an operand").to_string(), numpy(w.eval(e))?)))
            .collect(),
        _ => match w.eval(list) {
            Val::Items { items, .. } => items
                .into_iter()
                .enumerate()
                .map(|(k, v)| {
                    let a = numpy(v)?;
                    let name = a
                        .origin
                        .clone()
                        .unwrap_or_else(|| format!("element {k} of {}", w.shown(list, "the list")));
                    Some((name, a))
                })
                .collect(),
            _ => None,
        },
    }
}

/// `np.array(arrays)` and the stacking functions need the arrays' shapes to line up; the first
/// array that does not line up with the first one makes them raise ValueError.
fn stacked(
    w: &Walker,
    path: &str,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: crate::ir::TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let building = matches!(path, "numpy.array" | "numpy.asarray");
    // A dtype (`dtype=object` makes an array of the arrays), or numpy before 1.24, which made
    // an object array of ragged input with only a warning.
    if building
        && (args.len() != 1
            || keywords.iter().any(|k| k.name.as_deref() == Some("dtype"))
            || numpy_before_1_24(w, func))
    {
        return;
    }
    let Some(arrays) = args.first().and_then(|e| listed_arrays(w, e)) else {
        return;
    };
    if building
        && arrays
            .iter()
            .any(|(_, a)| a.dtype.as_deref() == Some("object"))
    {
        return;
    }
    let Some((first_name, first)) = arrays.first() else {
        return;
    };
    let Some((name, a)) = arrays[1..]
        .iter()
        .find(|(_, a)| !lined_up(path, &first.shape, &a.shape))
    else {
        return;
    };
    let need = match path {
        "numpy.vstack" => "arrays whose rows have one length (a 1-D array is one row)",
        "numpy.column_stack" => "arrays with one number of rows (a 1-D array is one column)",
        _ => "arrays of one shape",
    };
    let error = if building {
        "ValueError: setting an array element with a sequence (inhomogeneous shape)"
    } else {
        "ValueError"
    };
    let call = match &args[0] {
        Expr::Name { id, .. } => format!("{}({id})", w.text(func.range())),
        _ => w.text(func.range()).to_string(),
    };
    out.push(Diagnostic::error(
        Rule::ShapeStack,
        format!(
            "{call} needs {need}, but {first_name} has shape {} and {name} has shape {}: {error}",
            tuple_text(&first.shape),
            tuple_text(&a.shape)
        ),
        range,
    ));
}

/// Do arrays of shapes `a` and `b` line up for the numpy function `path`? `vstack` joins rows
/// (a 1-D array is one row), `column_stack` columns (a 1-D array is one column), the others
/// need one shape.
fn lined_up(path: &str, a: &[i64], b: &[i64]) -> bool {
    let rows = |s: &[i64]| match s {
        [] => vec![1, 1],
        [n] => vec![1, *n],
        _ => s.to_vec(),
    };
    let columns = |s: &[i64]| match s {
        [] => vec![1, 1],
        [n] => vec![*n, 1],
        _ => s.to_vec(),
    };
    match path {
        "numpy.vstack" => joins(&rows(a), &rows(b), 0),
        "numpy.column_stack" => joins(&columns(a), &columns(b), 1),
        _ => a == b,
    }
}

/// Did the kernel report a numpy older than 1.24 for the module `func` is read from?
fn numpy_before_1_24(w: &Walker, func: &Expr) -> bool {
    let Expr::Attribute { value, .. } = func else {
        return false;
    };
    let Expr::Name { id, .. } = &**value else {
        return false;
    };
    let version = w
        .ctx
        .summaries
        .and_then(|d| d.objects.get(id))
        .and_then(|o| o.str_fact(crate::summary::Category::R, "version"));
    let Some(version) = version else {
        return false;
    };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) < (1, 24),
        // A version we cannot read: stay silent.
        _ => true,
    }
}

fn reshape_diag(
    w: &Walker,
    x: &Expr,
    a: &ArrayVal,
    to: &[i64],
    range: crate::ir::TextRange,
) -> Diagnostic {
    let size: i64 = a.shape.iter().product();
    Diagnostic::error(
        Rule::ShapeReshape,
        format!(
            "cannot reshape {} of shape {} ({size} elements) into shape {}: {}",
            w.shown(x, "an operand"),
            tuple_text(&a.shape),
            tuple_text(to),
            if a.lib == super::abstract_value::ArrayLib::Torch {
                "RuntimeError"
            } else {
                "ValueError"
            }
        ),
        range,
    )
}

fn matmul(
    w: &Walker,
    le: &Expr,
    re: &Expr,
    a: &ArrayVal,
    b: &ArrayVal,
    range: crate::ir::TextRange,
    out: &mut Vec<Diagnostic>,
) {
    if a.shape.is_empty() || b.shape.is_empty() {
        return;
    }
    let k1 = *a.shape.last().unwrap();
    let k2 = if b.shape.len() == 1 {
        b.shape[0]
    } else {
        b.shape[b.shape.len() - 2]
    };
    // np.dot and @ agree on the contracted dimensions for 1-D and 2-D operands.
    if a.shape.len() <= 2 && b.shape.len() <= 2 && k1 != k2 {
        out.push(Diagnostic::error(
            Rule::ShapeMatmul,
            format!(
                "matrix product of {} with shape {} and {} with shape {}: inner dimensions {k1} and {k2} differ: {}",
                w.shown(le, "an operand"),
                tuple_text(&a.shape),
                w.shown(re, "an operand"),
                tuple_text(&b.shape),
                if a.lib == super::abstract_value::ArrayLib::Torch { "RuntimeError" } else { "ValueError" }
            ),
            range,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasting_follows_numpy() {
        assert_eq!(broadcast(&[68], &[272]), None);
        assert_eq!(broadcast(&[68, 1], &[272]), Some(vec![68, 272]));
        assert_eq!(broadcast(&[3, 1, 5], &[4, 5]), Some(vec![3, 4, 5]));
        assert_eq!(reshape(&[2, 6], &[3, -1]), Some(Ok(vec![3, 4])));
        assert_eq!(reshape(&[2, 6], &[5, -1]), Some(Err(())));
        assert_eq!(reshape(&[2, 6], &[12]), Some(Ok(vec![12])));
    }
}
