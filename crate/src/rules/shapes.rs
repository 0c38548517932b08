//! Shape rules on arrays and tensors of known shape.
//!
//! - `shape-broadcast`: elementwise arithmetic on shapes that do not broadcast (numpy, torch and
//!   TensorFlow tensors, `tf.add` and the other elementwise functions), `np.broadcast_to` of a
//!   shape that does not broadcast to the target, `a += b` where
//!   `b` does not broadcast to `a`'s shape, and `a[i] = b` where `b` does not broadcast to the
//!   shape `a[i]` selects.
//! - `shape-matmul`: `a @ b`, `np.dot`, `np.matmul`, `a.dot(b)` with inner dimensions that differ.
//! - `shape-concatenate`: `np.concatenate` of arrays whose other dimensions differ.
//! - `shape-stack`: `np.array`/`np.asarray`/`np.stack` of arrays of different shapes, and
//!   `np.vstack`/`np.hstack`/`np.column_stack` of arrays whose rows (columns) do not line up.
//! - `shape-reshape`: `reshape` to a shape with another number of elements, or (numpy) with more
//!   than one unknown (`-1`) dimension.
//! - `shape-image`: `plt.imshow`, or `imshow` of an Axes (`plt.subplots`, `plt.subplot`, an element
//!   of an array of Axes, a summarised Axes), of an array that is not (M, N), (M, N, 3) or (M, N, 4).
//! - `shape-savetxt`: `np.savetxt` of an array with more than 2 dimensions.
//! - `shape-linalg`: `numpy.linalg` functions of an array that is not a stack of square matrices
//!   (`inv`, `det`, `eig`, `cholesky`, `matrix_power`, `solve`, ...) or is 1-D: LinAlgError.
//! - TensorFlow (`tf.matmul`, `tf.reshape`, `tf.concat`, `tf.stack`, elementwise functions):
//!   the codes above, with eager TensorFlow's InvalidArgumentError.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Keyword, SeqKind};
use crate::semantics::eval::{int_of, int_tuple};
use crate::semantics::matplotlib::is_axes;
use crate::semantics::numpy::{as_array, linalg_need, ragged_rows, MatrixNeed};
use crate::semantics::shapes::ELEMENTWISE;
use crate::semantics::shapes::{broadcast, joins, reshape};
use crate::semantics::tensorflow::{self, as_tensor};
use crate::summary::tuple_text;

use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, ArrayVal, Val};
use crate::walker::state::Walker;

fn arrays<'v>(l: &'v Val, r: &'v Val) -> Option<(&'v ArrayVal, &'v ArrayVal)> {
    match (l, r) {
        (Val::Array(a), Val::Array(b)) if a.lib == b.lib => Some((a, b)),
        _ => None,
    }
}

/// `v.assign(x)` (`assign_add`, `assign_sub`) of a TensorFlow tensor: a variable takes values
/// of its own shape only (ValueError; InvalidArgumentError to add or subtract), and a constant
/// has no such method (AttributeError).
fn assigned_shape(
    w: &Walker,
    variable: &Expr,
    method: &str,
    args: &[Expr],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    let error = match method {
        "assign" => "ValueError",
        "assign_add" | "assign_sub" => "InvalidArgumentError",
        _ => return None,
    };
    let [x] = args else { return None };
    let Val::Array(v) = w.eval(variable) else {
        return None;
    };
    // A number is a tensor of shape ().
    let x_shape = match as_tensor(w, x) {
        Some(t) => t.shape,
        None => crate::semantics::numpy::number_of(w, x).map(|_| vec![])?,
    };
    (v.lib == ArrayLib::Tensorflow && v.shape != x_shape).then(|| {
        Diagnostic::error(
            Rule::ShapeBroadcast,
            format!(
                "{} has shape {} and {method} takes values of that shape only, but {} has shape {}: {error} (shape mismatch; a constant tensor has no {method}: AttributeError)",
                w.shown(variable, "the variable"),
                tuple_text(&v.shape),
                w.shown(x, "the value"),
                tuple_text(&x_shape)
            ),
            range,
        )
    })
}

/// A list or tuple of known numbers operated on with a numpy array: numpy makes an array of it.
fn as_numpy_beside(v: Val, other: &Val) -> Val {
    match (&v, other) {
        (Val::Items { .. }, Val::Array(a)) if a.lib == ArrayLib::Numpy => {
            crate::semantics::numpy::literal_array(&v).map_or(v, Val::Array)
        }
        _ => v,
    }
}

/// `shape-broadcast` when the operands of `operation` (`'+'`, `np.add`) do not broadcast.
pub(crate) fn not_broadcast(
    w: &Walker,
    (left, a): (&Expr, &ArrayVal),
    (right, b): (&Expr, &ArrayVal),
    operation: &str,
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    broadcast(&a.shape, &b.shape).is_none().then(|| {
        Diagnostic::error(
            Rule::ShapeBroadcast,
            format!(
                "{} has shape {} and {} has shape {}: they cannot be broadcast together for {operation}: {}",
                w.shown(left, "an operand"),
                tuple_text(&a.shape),
                w.shown(right, "an operand"),
                tuple_text(&b.shape),
                a.lib.shape_error()
            ),
            range,
        )
    })
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        // Ordering comparisons broadcast like arithmetic (`==` and `!=` of arrays that do not
        // broadcast gave False before numpy 1.25, with a warning).
        Expr::Other { range, .. } => {
            let Some((left, op @ ("<" | ">" | "<=" | ">="), right)) = w.comparison(expr) else {
                return;
            };
            let (l, r) = (w.eval(left), w.eval(right));
            let Some((a, b)) = arrays(&l, &r) else { return };
            if matches!(a.lib, ArrayLib::Numpy | ArrayLib::Tensorflow) {
                out.extend(not_broadcast(
                    w,
                    (left, a),
                    (right, b),
                    &format!("'{op}'"),
                    *range,
                ));
            }
        }
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } => {
            let (l, r) = (
                super::torch::known_array(w.eval(left)),
                super::torch::known_array(w.eval(right)),
            );
            let l = as_numpy_beside(l, &r);
            let r = as_numpy_beside(r, &l);
            let Some((a, b)) = arrays(&l, &r) else { return };
            if ELEMENTWISE.contains(op) {
                out.extend(not_broadcast(
                    w,
                    (left, a),
                    (right, b),
                    &format!("'{op}'"),
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
            if let Some(name) = path.as_deref().and_then(tensorflow::tf_name) {
                out.extend(tensorflow_problem(w, name, args, keywords, *range));
                return;
            }
            if let Some(d) = path.as_deref().and_then(|p| linalg_problem(w, p, args)) {
                out.push(d);
                return;
            }
            match path.as_deref() {
                // numpy makes arrays of lists of numbers.
                Some("numpy.dot" | "numpy.matmul") if args.len() == 2 => {
                    if let (Some(a), Some(b)) = (as_array(w, &args[0]), as_array(w, &args[1])) {
                        matmul(w, &args[0], &args[1], &a, &b, *range, out);
                    }
                }
                Some(p @ ("numpy.inner" | "numpy.linalg.solve")) if args.len() == 2 => {
                    if let (Some(a), Some(b)) = (as_array(w, &args[0]), as_array(w, &args[1])) {
                        out.extend(contraction_problem(
                            w, p, &args[0], &args[1], &a, &b, *range,
                        ));
                    }
                }
                Some("numpy.broadcast_to") if args.len() == 2 => {
                    let (Val::Array(a), Some(to)) = (w.eval(&args[0]), int_tuple(w, &args[1]))
                    else {
                        return;
                    };
                    if a.lib == ArrayLib::Numpy
                        && to.iter().all(|&d| d >= 0)
                        && broadcast(&a.shape, &to).as_ref() != Some(&to)
                    {
                        out.push(Diagnostic::error(
                            Rule::ShapeBroadcast,
                            format!(
                                "{} has shape {} and cannot be broadcast to {}: each axis must match or be 1, counted from the last: ValueError",
                                w.shown(&args[0], "the array"),
                                tuple_text(&a.shape),
                                tuple_text(&to)
                            ),
                            *range,
                        ));
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
                        if a.lib == crate::semantics::abstract_value::ArrayLib::Numpy
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
                    if let Some(d) = zero_dimensional(w, args, keywords, *range) {
                        out.push(d);
                        return;
                    }
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
                    // An axis past the first array's dimensions is index-out-of-range's.
                    if axis >= first.shape.len() {
                        return;
                    }
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
                // `np.append(a, b, axis=k)` concatenates the two along `k` (without `axis`, it
                // flattens both).
                Some("numpy.append") => {
                    let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
                        return;
                    };
                    let Some(axis) = keywords
                        .iter()
                        .find(|k| k.name.as_deref() == Some("axis"))
                        .map(|k| &k.value)
                        .or(args.get(2))
                        .and_then(|e| int_of(w, e))
                    else {
                        return;
                    };
                    let (Some(x), Some(y)) = (as_array(w, a), as_array(w, b)) else {
                        return;
                    };
                    let n = x.shape.len() as i64;
                    let (rule, problem) = if !(-n..n).contains(&axis) {
                        (Rule::IndexOutOfRange, format!("axis {axis} is out of bounds for {} of {n} dimension(s): AxisError", w.shown(a, "the array")))
                    } else if x.shape.len() != y.shape.len() {
                        (Rule::ShapeConcatenate, format!("np.append along axis {axis} needs arrays of one number of dimensions, but {} has shape {} and {} has shape {}: ValueError", w.shown(a, "the array"), tuple_text(&x.shape), w.shown(b, "the values"), tuple_text(&y.shape)))
                    } else if !joins(&x.shape, &y.shape, axis.rem_euclid(n) as usize) {
                        (Rule::ShapeConcatenate, format!("np.append along axis {axis}: {} has shape {} but {} has shape {}: ValueError", w.shown(a, "the array"), tuple_text(&x.shape), w.shown(b, "the values"), tuple_text(&y.shape)))
                    } else {
                        return;
                    };
                    out.push(Diagnostic::error(rule, problem, *range));
                }
                Some(
                    p @ ("numpy.array" | "numpy.asarray" | "numpy.stack" | "numpy.vstack"
                    | "numpy.hstack" | "numpy.column_stack"),
                ) => stacked(w, p, func, args, keywords, *range, out),
                Some("numpy.reshape") if args.len() == 2 => {
                    if let (Some(a), Some(to)) = (as_array(w, &args[0]), int_tuple(w, &args[1])) {
                        out.extend(reshape_problem(w, &args[0], &a, &to, *range));
                    }
                }
                _ => {
                    if let Expr::Attribute { value, attr, .. } = &**func {
                        if let Some(d) = assigned_shape(w, value, attr, args, *range) {
                            out.push(d);
                            return;
                        }
                        if let ("dot", [other], true) =
                            (attr.as_str(), &args[..], keywords.is_empty())
                        {
                            let (l, r) = (w.eval(value), w.eval(other));
                            if let Some((a, b)) = arrays(&l, &r) {
                                if a.lib == ArrayLib::Numpy {
                                    matmul(w, value, other, a, b, *range, out);
                                }
                            }
                            return;
                        }
                        if attr == "imshow" && is_axes(&w.eval(value)) {
                            if let Some(d) = args.first().and_then(|x| image_problem(w, x)) {
                                out.push(d);
                            }
                            return;
                        }
                        if matches!(attr.as_str(), "reshape" | "view") && !args.is_empty() {
                            if let Val::Array(a) = super::torch::known_array(w.eval(value)) {
                                if attr == "view"
                                    && a.lib != crate::semantics::abstract_value::ArrayLib::Torch
                                {
                                    return;
                                }
                                let to = if args.len() == 1 {
                                    int_tuple(w, &args[0])
                                } else {
                                    args.iter().map(|x| int_of(w, x)).collect()
                                };
                                if let Some(to) = to {
                                    out.extend(reshape_problem(w, value, &a, &to, *range));
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

/// `a += b` and the other augmented assignments of a numpy array write the result into `a`:
/// `b` must broadcast to `a`'s shape (numpy: "non-broadcastable output operand"): ValueError.
pub fn check_stmt(w: &Walker, stmt: &crate::ir::Stmt, out: &mut Vec<Diagnostic>) {
    let crate::ir::Stmt::Assign {
        targets,
        op,
        value: Some(value),
        range,
    } = stmt
    else {
        return;
    };
    let op = match op {
        crate::ir::AssignOp::Augmented(op) => *op,
        crate::ir::AssignOp::Plain => {
            if let [crate::ir::Target::Store { expr, .. }] = targets.as_slice() {
                if let Some(d) = setitem_problem(w, expr, value) {
                    out.push(d);
                }
            }
            return;
        }
        crate::ir::AssignOp::Annotated => return,
    };
    let [crate::ir::Target::Name { id, .. }] = targets.as_slice() else {
        return;
    };
    let (Val::Array(a), Val::Array(b)) = (w.get(id), w.eval(value)) else {
        return;
    };
    let op = op.trim_end_matches('=');
    if a.lib != ArrayLib::Numpy || b.lib != ArrayLib::Numpy || !ELEMENTWISE.contains(&op) {
        return;
    }
    // numpy casts before it broadcasts: a refused cast is the error (`in_place_casts`).
    if crate::semantics::numpy::in_place_cast_refused(op, &a, &Val::Array(b.clone())).is_some() {
        return;
    }
    if broadcast(&a.shape, &b.shape).as_deref() == Some(&a.shape[..]) {
        return;
    }
    out.push(Diagnostic::error(
        Rule::ShapeBroadcast,
        format!(
            "{id} has shape {} and {} has shape {}: '{op}=' writes the result into {id}, so the right side must broadcast to {id}'s shape: ValueError",
            tuple_text(&a.shape),
            w.shown(value, "the right side"),
            tuple_text(&b.shape),
        ),
        *range,
    ));
}

/// `a[i] = b`, `a[:, j] = b`: numpy broadcasts `b` to the shape selected (leading axes of size
/// one aside); when it cannot: ValueError: could not broadcast input array.
fn setitem_problem(w: &Walker, target: &Expr, value: &Expr) -> Option<Diagnostic> {
    let Expr::Subscript {
        value: array,
        index,
        ..
    } = target
    else {
        return None;
    };
    // A list of numbers is made an array.
    let (Val::Array(a), Some(b)) = (w.eval(array), as_array(w, value)) else {
        return None;
    };
    if a.lib != ArrayLib::Numpy {
        return None;
    }
    let into = crate::semantics::numpy::indexed_shape(w, &a.shape, index)?;
    let lead = b.shape.iter().take_while(|&&d| d == 1).count();
    let from = &b.shape[lead.min(b.shape.len().saturating_sub(into.len()))..];
    if broadcast(&into, from).as_deref() == Some(&into[..]) {
        return None;
    }
    let error = if into.is_empty() {
        "setting an array element with a sequence".to_string()
    } else {
        format!(
            "could not broadcast input array from shape {} into shape {}",
            tuple_text(&b.shape),
            tuple_text(&into)
        )
    };
    Some(Diagnostic::error(
        Rule::ShapeBroadcast,
        format!(
            "{} has shape {}, so {} selects {}, but {} has shape {}: ValueError: {error}",
            w.shown(array, "the array"),
            tuple_text(&a.shape),
            w.shown(target, "the target"),
            if into.is_empty() {
                "one element".to_string()
            } else {
                format!("shape {}", tuple_text(&into))
            },
            w.shown(value, "the value"),
            tuple_text(&b.shape),
        ),
        value.range(),
    ))
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

/// The numpy arrays a list argument holds (`[a, b]`, or a list the walker followed), with what
/// to call each in messages; `None` unless every element is a numpy array of known shape.
pub(crate) fn listed_arrays(w: &Walker, list: &Expr) -> Option<Vec<(String, ArrayVal)>> {
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

/// `np.concatenate` of a list holding a number or text (a zero-dimensional array to numpy), or of
/// a 1-D array (whose elements are): ValueError, unless `axis=None` flattens them first.
fn zero_dimensional(
    w: &Walker,
    args: &[Expr],
    keywords: &[crate::ir::Keyword],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    let axis = keywords
        .iter()
        .find(|k| k.name.as_deref() == Some("axis"))
        .map(|k| &k.value)
        .or(args.get(1));
    if axis.is_some_and(|a| !matches!(w.eval(a), Val::Int(_)))
        || keywords.iter().any(|k| k.name.is_none())
    {
        return None;
    }
    let arrays = args.first()?;
    // What numpy makes a zero-dimensional array of.
    let scalar = |v: &Val| match v {
        Val::Int(_) => Some("an int"),
        Val::Float(_) => Some("a float"),
        Val::Bool(_) => Some("a bool"),
        Val::Str(_) => Some("a str"),
        Val::None => Some("None"),
        _ => None,
    };
    let what = match w.eval(arrays) {
        Val::Array(a) if a.lib == ArrayLib::Numpy && a.shape.len() == 1 && !a.maybe_not_ndarray => {
            format!(
                "{} is a 1-D array, whose elements are numbers",
                w.shown(arrays, "the argument")
            )
        }
        Val::Items { items, .. } => {
            let (k, kind) = items
                .iter()
                .enumerate()
                .find_map(|(k, v)| Some((k, scalar(v)?)))?;
            format!(
                "element {k} of {} is {kind}, not an array",
                w.shown(arrays, "the list")
            )
        }
        _ => return None,
    };
    Some(Diagnostic::error(
        Rule::ShapeConcatenate,
        format!("np.concatenate joins arrays of one or more dimensions, but {what}: ValueError (zero-dimensional arrays cannot be concatenated); use np.array(...) or np.hstack, or axis=None"),
        range,
    ))
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
        if let Some((first, at, other)) = args
            .first()
            .filter(|_| building)
            .and_then(|e| ragged_rows(&w.eval(e)))
        {
            out.push(Diagnostic::error(
                Rule::ShapeStack,
                format!(
                    "{} needs nested lists of one shape at each level, but element 0 has shape {} and element {at} has shape {} (numpy >= 1.24; dtype=object keeps them as objects): ValueError: setting an array element with a sequence (inhomogeneous shape)",
                    w.text(func.range()),
                    tuple_text(&first),
                    tuple_text(&other)
                ),
                range,
            ));
        }
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
        "numpy.hstack" if first.shape.len() == 1 => "1-D arrays (the first one is)",
        "numpy.hstack" => "arrays of one number of dimensions and of rows",
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
        "numpy.hstack" if a.is_empty() || b.is_empty() => true,
        // Joins along the columns, or along the only axis of 1-D arrays.
        "numpy.hstack" if a.len() == 1 => joins(a, b, 0),
        "numpy.hstack" => joins(a, b, 1),
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

/// A reshape of `a` into `to` that raises: a numpy array given more than one unknown (`-1`)
/// dimension ("can only specify one unknown dimension"), or a size that does not hold its
/// elements.
fn reshape_problem(
    w: &Walker,
    x: &Expr,
    a: &ArrayVal,
    to: &[i64],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    if a.lib == ArrayLib::Numpy && to.iter().filter(|&&d| d == -1).count() > 1 {
        return Some(Diagnostic::error(
            Rule::ShapeReshape,
            format!(
                "cannot reshape {} into shape {}: ValueError: can only specify one unknown dimension",
                w.shown(x, "an operand"),
                tuple_text(to)
            ),
            range,
        ));
    }
    matches!(reshape(&a.shape, to), Some(Err(()))).then(|| reshape_diag(w, x, a, to, range))
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
            a.lib.shape_error()
        ),
        range,
    )
}

/// `np.inner(a, b)` contracts the last axes of both; `np.linalg.solve(a, b)` needs `b`'s
/// first axis (of a vector or a matrix) as long as the square `a`: ValueError otherwise.
fn contraction_problem(
    w: &Walker,
    path: &str,
    le: &Expr,
    re: &Expr,
    a: &ArrayVal,
    b: &ArrayVal,
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    if a.lib != ArrayLib::Numpy || b.lib != ArrayLib::Numpy {
        return None;
    }
    let (left, right) = (w.shown(le, "an operand"), w.shown(re, "an operand"));
    let (sa, sb) = (tuple_text(&a.shape), tuple_text(&b.shape));
    let message = match (path, &a.shape[..], &b.shape[..]) {
        ("numpy.inner", [.., k1], [.., k2]) if k1 != k2 => format!(
            "np.inner contracts the last axes: {left} has shape {sa} and {right} has shape {sb}, and {k1} differs from {k2}: ValueError"
        ),
        ("numpy.linalg.solve", [m, n], [k] | [k, _]) if m == n && k != m => format!(
            "np.linalg.solve needs a right side of {m} rows for {left} of shape {sa}, but {right} has shape {sb}: ValueError"
        ),
        _ => return None,
    };
    Some(Diagnostic::error(Rule::ShapeMatmul, message, range))
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
    // numpy's dot, matmul and @ contract the last axis of the first operand with the
    // second-to-last of the second (its only one when 1-D) whatever their dimensions; torch's
    // operators are followed for 1-D and 2-D operands only.
    if (a.lib == ArrayLib::Numpy || (a.shape.len() <= 2 && b.shape.len() <= 2)) && k1 != k2 {
        out.push(Diagnostic::error(
            Rule::ShapeMatmul,
            format!(
                "matrix product of {} with shape {} and {} with shape {}: inner dimensions {k1} and {k2} differ: {}",
                w.shown(le, "an operand"),
                tuple_text(&a.shape),
                w.shown(re, "an operand"),
                tuple_text(&b.shape),
                a.lib.shape_error()
            ),
            range,
        ));
    }
}

/// TensorFlow's ops on tensors of known shapes; eager TensorFlow raises InvalidArgumentError:
/// `tf.matmul` of matrices whose inner dimensions differ (shape-matmul), elementwise functions
/// of shapes that do not broadcast (shape-broadcast), `tf.reshape` to another number of
/// elements (shape-reshape), `tf.concat` of tensors whose other axes differ
/// (shape-concatenate), `tf.stack` of tensors of different shapes (shape-stack).
fn tensorflow_problem(
    w: &Walker,
    name: &str,
    args: &[Expr],
    keywords: &[Keyword],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    match name {
        "matmul" if args.len() == 2 => {
            let (a, b) = (as_tensor(w, &args[0])?, as_tensor(w, &args[1])?);
            let mut found = Vec::new();
            if a.shape.len() == 2 && b.shape.len() == 2 {
                matmul(w, &args[0], &args[1], &a, &b, range, &mut found);
            }
            found.pop()
        }
        "reshape" if args.len() == 2 => {
            let (a, to) = (as_tensor(w, &args[0])?, int_tuple(w, &args[1])?);
            matches!(reshape(&a.shape, &to), Some(Err(())))
                .then(|| reshape_diag(w, &args[0], &a, &to, range))
        }
        "concat" | "stack" => {
            let Expr::Seq { elts, .. } = args.first()? else {
                return None;
            };
            let tensors = tensorflow::listed_tensors(w, args.first()?)?;
            let first = tensors.first()?;
            let at = |k: usize| w.shown(&elts[k], "a tensor");
            let (rule, k, lead, joiner) = if name == "stack" {
                let k = tensors.iter().position(|t| t.shape != first.shape)?;
                let lead = "tf.stack needs tensors of one shape, but".to_string();
                (Rule::ShapeStack, k, lead, "and")
            } else {
                let axis = int_of(w, tensorflow::join_axis(name, args, keywords)?)?;
                let axis = crate::semantics::numpy::normalize(axis, first.shape.len() as i64)?;
                let k = tensors
                    .iter()
                    .position(|t| !joins(&first.shape, &t.shape, axis))?;
                let lead = format!("tf.concat along axis {axis}:");
                (Rule::ShapeConcatenate, k, lead, "but")
            };
            Some(Diagnostic::error(
                rule,
                format!(
                    "{lead} {} has shape {} {joiner} {} has shape {}: InvalidArgumentError",
                    at(0),
                    tuple_text(&first.shape),
                    at(k),
                    tuple_text(&tensors[k].shape)
                ),
                range,
            ))
        }
        _ => {
            if !tensorflow::broadcasts_elementwise(name)
                || args.len() != 2
                || !keywords.iter().all(|k| k.name.as_deref() == Some("name"))
            {
                return None;
            }
            let (a, b) = tensorflow::operands(w, &args[0], &args[1])?;
            not_broadcast(
                w,
                (&args[0], &a),
                (&args[1], &b),
                &format!("tf.{name}"),
                range,
            )
        }
    }
}

/// `numpy.linalg` functions of an array that is not a stack of square matrices (`inv`, `det`,
/// `eig`, ...) or not even of matrices (1-D, for `pinv`, `svd`, `qr`): LinAlgError.
fn linalg_problem(w: &Walker, path: &str, args: &[Expr]) -> Option<Diagnostic> {
    let need = linalg_need(path)?;
    let x = args.first()?;
    let a = crate::semantics::numpy::as_array(w, x)?;
    let name = path.trim_start_matches("numpy.");
    let shown = w.shown(x, "the array");
    let shape = tuple_text(&a.shape);
    let message = match a.shape[..] {
        [] | [_] => format!(
            "np.{name} needs matrices, but {shown} has shape {shape}: LinAlgError: {}-dimensional array given. Array must be at least two-dimensional",
            a.shape.len()
        ),
        [.., m, n] if need == MatrixNeed::Square && m != n => format!(
            "np.{name} needs square matrices, but {shown} has shape {shape} ({m} rows, {n} columns): LinAlgError: Last 2 dimensions of the array must be square"
        ),
        _ => return None,
    };
    Some(Diagnostic::error(Rule::ShapeLinalg, message, x.range()))
}
