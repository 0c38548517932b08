//! Rules on numpy calls, over the contracts in `semantics::numpy` (the shapes its constructors
//! and shape functions give, the `axis` its functions and ndarray methods accept).
//!
//! - `index-out-of-range`: an axis outside `[-ndim, ndim)` of an array of known shape
//!   (`[-ndim - 1, ndim]` where an axis is inserted) for every axis parameter of the functions and
//!   methods of `AXES` (`axis`, `axis1`/`axis2`, `source`/`destination`), and for
//!   `np.concatenate`/`np.stack` of arrays of known shapes: numpy raises `AxisError` (an
//!   IndexError and a ValueError); an integer index past the size of its axis, or more indices
//!   than dimensions, in `a[i, j]`, `a[[i, j]]`, `a[:, [j, k]]` or `a[np.array([i])]` (read or
//!   assigned; an integer array of known elements, `np.arange(6)` or a name holding
//!   `np.array([5])`, by its extremes), an index past its axis (or past the flattened array without `axis`) given to
//!   `np.take`/`a.take`, `np.put`/`a.put`, `np.delete` or `np.insert` (which may also give the
//!   end), a boolean mask (a bool array, or a list of bools) of another shape, and a label of
//!   known value past `num_classes` given to Keras' `to_categorical`: IndexError.
//! - `index-type`: a float among the indices of a numpy array: IndexError.
//! - `shape-reshape`: `np.squeeze(a, axis=k)` / `a.squeeze(k)` of an axis whose size is not 1,
//!   `np.split(a, n)` of an axis whose size `n` does not divide, and a transpose whose axes are
//!   not a permutation of the array's (another count, one named twice): ValueError.
//! - `shape-broadcast`: `np.add(a, b)` and the other binary ufuncs, `np.where(c, x, y)`,
//!   `np.clip(a, low, high)` / `a.clip(low, high)` and `np.select(conditions, choices)` of
//!   operands that do not broadcast: ValueError.
//! - `shape-matmul`: `np.einsum` of explicit subscripts whose terms do not fit the operands'
//!   number, dimensions or sizes: ValueError.
//! - `bad-arguments`: a size or shape written as a float (`np.zeros(n / 2)`,
//!   `a.reshape(n / 2, 2)`, `np.linspace(0, 1, 5.0)`), a shape given as separate integers where
//!   numpy takes a tuple (`np.zeros(3, 4)`) or as a tuple where it takes separate integers
//!   (`np.random.rand((3, 4))`, `np.eye((3, 3))`): TypeError.
//! - `numpy-argument`: a negative dimension given to `np.zeros`/`ones`/`empty`/`full`, `choice`
//!   of more than its population with `replace=False` (`np.random` or a `default_rng()`
//!   Generator), `normal` of a negative `scale` (ValueError); `np.polyfit` (TypeError) and
//!   `np.corrcoef`/`np.cov` (ValueError) of vectors of other lengths; `np.select` of other numbers
//!   of conditions and choices (ValueError); a dtype word numpy does not know, given to `astype`
//!   or a constructor's `dtype=` (TypeError); a negative size given to `np.eye`/`identity`,
//!   `np.random.rand`/`randn`, `np.linspace`, `np.repeat`, `np.tile`, a negative value of known
//!   integers given to `np.bincount`, `np.random.choice` of an empty population or of
//!   probabilities that are negative, of another count, or do not sum to 1, `np.max`, `min`,
//!   `argmax`, `argmin` or `ptp` of an empty array without `axis` or `initial` (ValueError); a
//!   zero step of `np.arange` (ZeroDivisionError).
//!
//! Shapes flow (in `semantics::numpy`) through the constructors, the shape functions, the ufuncs
//! (one operand: the same shape; two: the broadcast one), `np.dot`/`np.matmul`/`a.dot`, and
//! `np.split`.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Keyword, SeqKind, TextRange};
use crate::semantics::numpy::{
    as_array, axis_params, bool_mask, index_parts, integer_indices, is_ellipsis, is_new_axis,
    normalize, number_of, ufunc_operands, AxisUse, Effect, GENERATOR,
};

use crate::ir::keyword as kw;
use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, ArrayVal, Val};
use crate::semantics::eval::{int_of, int_tuple};
use crate::semantics::python::{builtin_of, iterated_len, Builtin};
use crate::summary::tuple_text;
use crate::walker::state::Walker;

/// The shape given as separate integers where numpy takes one tuple (`np.zeros(3, 4)`: the 4
/// is read as the dtype), or as a tuple where it takes separate integers
/// (`np.random.rand((3, 4))`, `np.eye((3, 3))`): TypeError.
fn shape_form_problem(w: &Walker, func: &Expr, args: &[Expr]) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let name = path.strip_prefix("numpy.")?;
    // "tuple" or "list" for a sequence given as one argument.
    let sequence = |e: &Expr| match e {
        Expr::Seq {
            kind: SeqKind::Tuple,
            ..
        } => Some("tuple".to_string()),
        Expr::Seq {
            kind: SeqKind::List,
            ..
        } => Some("list".to_string()),
        _ => match w.eval(e) {
            Val::Items { type_name, .. } if type_name == "tuple" || type_name == "list" => {
                Some(type_name)
            }
            _ => None,
        },
    };
    match name {
        "zeros" | "ones" | "empty" | "full" => {
            let dtype = args.get(if name == "full" { 2 } else { 1 })?;
            let value = int_of(w, dtype)?;
            let fix = match args {
                [a, b] => format!(
                    "pass the shape as one tuple: np.{name}(({}, {}))",
                    w.text(a.range()),
                    w.text(b.range())
                ),
                _ => "pass the shape as one tuple".to_string(),
            };
            Some(Diagnostic::error(
                Rule::BadArguments,
                format!(
                    "np.{name} reads {} as the dtype; {fix}: TypeError: Cannot interpret '{value}' as a data type",
                    w.shown(dtype, "the argument"),
                ),
                dtype.range(),
            ))
        }
        "random.rand" | "random.randn" | "eye" | "identity" => {
            let (tuple, kind) = args.iter().find_map(|e| Some((e, sequence(e)?)))?;
            let hint = match name {
                "random.rand" => " (np.random.random takes a tuple)",
                "random.randn" => " (np.random.standard_normal takes a tuple)",
                _ => "",
            };
            Some(Diagnostic::error(
                Rule::BadArguments,
                format!(
                    "np.{name} takes its dimensions as separate integers{hint}, but {} is a {kind}: TypeError: '{kind}' object cannot be interpreted as an integer",
                    w.shown(tuple, "the argument")
                ),
                tuple.range(),
            ))
        }
        // `np.concatenate(a, b)`: the arrays go in one sequence; the second is read as the axis.
        "concatenate" | "vstack" | "hstack" | "stack" | "column_stack" | "dstack" => {
            let [first, second, ..] = args else {
                return None;
            };
            let axis_taken = name == "concatenate" || name == "stack";
            let what = match w.eval(second) {
                Val::Array(a) if a.shape.iter().product::<i64>() > 1 => "an array",
                _ if sequence(second).is_some() => "a sequence",
                _ => return None,
            };
            let error = if !axis_taken {
                format!("TypeError: {name}() takes 1 positional argument")
            } else if what == "an array" {
                "TypeError: only integer scalar arrays can be converted to a scalar index".into()
            } else {
                format!(
                    "TypeError: '{}' object cannot be interpreted as an integer",
                    sequence(second)?
                )
            };
            Some(Diagnostic::error(
                Rule::BadArguments,
                format!(
                    "np.{name} takes the arrays in one list or tuple (np.{name}([{}, {}])), but {} is {what} given on its own{}: {error}",
                    w.text(first.range()),
                    w.text(second.range()),
                    w.shown(second, "the second argument"),
                    if axis_taken { ", read as the axis" } else { "" }
                ),
                second.range(),
            ))
        }
        _ => None,
    }
}

/// "1 dimension", "3 dimensions".
pub(crate) fn dimensions(n: usize) -> String {
    format!("{n} dimension{}", if n == 1 { "" } else { "s" })
}

/// `np.transpose(a, axes)`, `a.transpose(*axes)`: the permutation must name each axis of `a`
/// once: ValueError for another count or a repeated axis, AxisError for an axis past the last.
fn transpose_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let (array, axes): (&Expr, Vec<&Expr>) = match w.lib_path(func).as_deref() {
        Some("numpy.transpose") => (
            args.first()?,
            vec![args.get(1).or_else(|| kw(keywords, "axes"))?],
        ),
        Some(_) => return None,
        None => match func {
            Expr::Attribute { value, attr, .. }
                if attr == "transpose" && !args.is_empty() && keywords.is_empty() =>
            {
                (&**value, args.iter().collect())
            }
            _ => return None,
        },
    };
    let a = as_array(w, array)?;
    let perm: Vec<i64> = match axes[..] {
        [one] => int_tuple(w, one)?,
        _ => axes.iter().map(|e| int_of(w, e)).collect::<Option<_>>()?,
    };
    let n = a.shape.len() as i64;
    let range = TextRange::new(axes[0].range().start, axes[axes.len() - 1].range().end);
    let shown = w.shown(array, "the array");
    let (rule, problem) = if perm.len() as i64 != n {
        (
            Rule::ShapeReshape,
            format!(
                "{} axes are given for its {n}: ValueError: axes don't match array",
                perm.len()
            ),
        )
    } else if let Some(bad) = perm.iter().find(|&&x| normalize(x, n).is_none()) {
        (
            Rule::IndexOutOfRange,
            format!("axis {bad} is out of bounds: AxisError"),
        )
    } else {
        let mut seen: Vec<usize> = perm.iter().filter_map(|&x| normalize(x, n)).collect();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() == perm.len() {
            return None;
        }
        (
            Rule::ShapeReshape,
            "an axis is named twice: ValueError: repeated axis in transpose".to_string(),
        )
    };
    Some(Diagnostic::error(
        rule,
        format!(
            "{shown} has shape {} ({}): transpose needs a permutation of its axes, but {problem}",
            tuple_text(&a.shape),
            dimensions(n as usize)
        ),
        range,
    ))
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

/// An axis of `rule` outside the dimensions of the array `array_expr` holds (AxisError), or a
/// squeezed axis whose size is not one (ValueError).
/// `out_of_bounds` is the error of an axis past the dimensions: numpy's AxisError, or
/// TensorFlow's InvalidArgumentError (its kernels check the axes).
fn axis_problem(
    w: &Walker,
    rule: &AxisUse,
    (array_expr, a): (&Expr, ArrayVal),
    axis: &Expr,
    out_of_bounds: &str,
) -> Option<Diagnostic> {
    let squeeze_error = a.lib.shape_error();
    let axes = int_tuple(w, axis)?;
    let n = a.shape.len() as i64;
    let bound = if rule.effect == Effect::Insert {
        n + 1
    } else {
        n
    };
    let shown = w.shown(array_expr, "the array");
    if let Some(bad) = axes.iter().find(|&&x| normalize(x, bound).is_none()) {
        // `np.split` reads the axis's size from the shape tuple first.
        let error = if matches!(rule.name, "split" | "array_split") {
            "IndexError"
        } else {
            out_of_bounds
        };
        let param = if rule.keyword == "axis" {
            String::new()
        } else {
            format!(" ({})", rule.keyword)
        };
        return Some(Diagnostic::error(
            Rule::IndexOutOfRange,
            format!(
                "{} has shape {} ({}): axis {bad}{param} is out of bounds for {}: {error}",
                shown,
                tuple_text(&a.shape),
                dimensions(n as usize),
                rule.name
            ),
            axis.range(),
        ));
    }
    if rule.effect != Effect::Squeeze {
        return None;
    }
    let &bad = axes
        .iter()
        .find(|&&x| normalize(x, n).is_some_and(|i| a.shape[i] != 1))?;
    Some(Diagnostic::error(
        Rule::ShapeReshape,
        format!(
            "{shown} has shape {}: axis {bad} has size {}, and squeeze removes only axes of size one: {squeeze_error}",
            tuple_text(&a.shape),
            a.shape[normalize(bad, n).unwrap_or(0)]
        ),
        axis.range(),
    ))
}

/// `np.concatenate(arrays, axis)` checks the axis against the first array's dimensions;
/// `np.stack(arrays, axis)` against one more, once the arrays have one shape: AxisError.
fn joined_axis_problem(
    w: &Walker,
    name: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    if !matches!(name, "concatenate" | "stack") {
        return None;
    }
    let axis = args.get(1).or_else(|| kw(keywords, "axis"))?;
    let arrays = super::shapes::listed_arrays(w, args.first()?)?;
    let (first, a) = arrays.first()?;
    if name == "stack" && arrays.iter().any(|(_, b)| b.shape != a.shape) {
        return None;
    }
    let n = a.shape.len() as i64;
    let bound = if name == "stack" { n + 1 } else { n };
    let at = int_of(w, axis)?;
    if normalize(at, bound).is_some() {
        return None;
    }
    let result = if name == "stack" {
        format!(", and stack makes {bound}")
    } else {
        String::new()
    };
    Some(Diagnostic::error(
        Rule::IndexOutOfRange,
        format!(
            "{} has shape {} ({}{result}): axis {at} is out of bounds for {name}: AxisError",
            first,
            tuple_text(&a.shape),
            dimensions(n as usize),
        ),
        axis.range(),
    ))
}

/// `a[i]` with a float among the indices (numpy takes integers, slices, `...`, `None` and
/// integer or boolean arrays only): IndexError; `a[mask]` with a boolean array whose shape is
/// not that of `a`'s leading axes: IndexError.
fn index_kind_problem(w: &Walker, value: &Expr, a: &ArrayVal, index: &Expr) -> Option<Diagnostic> {
    let parts = index_parts(index);
    let shown = w.shown(value, "the array");
    if let Some(float) = parts
        .iter()
        .find(|p| builtin_of(&w.eval(p)) == Some(Builtin::Float))
    {
        return Some(Diagnostic::error(
            Rule::IndexType,
            format!(
                "{shown} is a numpy array and {} is a float; use int(...) or //: IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices",
                w.shown(float, "the index")
            ),
            float.range(),
        ));
    }
    let [one] = parts[..] else { return None };
    let mask = bool_mask(&w.eval(one))?;
    let problem = if mask.shape.len() > a.shape.len() {
        format!(
            "too many indices for array: {shown} has {} dimension(s)",
            a.shape.len()
        )
    } else {
        let axis = (0..mask.shape.len()).find(|&i| mask.shape[i] != a.shape[i])?;
        format!(
            "boolean index did not match indexed array along axis {axis}; size of axis is {} but size of corresponding boolean axis is {}",
            a.shape[axis], mask.shape[axis]
        )
    };
    Some(Diagnostic::error(
        Rule::IndexOutOfRange,
        format!(
            "{shown} has shape {} and the mask {} has shape {}: IndexError: {problem}",
            tuple_text(&a.shape),
            w.shown(one, "the mask"),
            tuple_text(&mask.shape)
        ),
        one.range(),
    ))
}

/// `np.where(cond, x, y)`, `np.clip(a, low, high)` / `a.clip(low, high)` and
/// `np.select(conditions, choices, default)` broadcast all their operands together (a number is
/// of shape `()`, a `None` bound takes no part): operands of known shapes that do not broadcast
/// raise ValueError (`shape-broadcast`), as do other numbers of conditions and choices
/// (`numpy-argument`).
fn operands_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let path = w.lib_path(func);
    let (name, operands): (&str, Vec<&Expr>) = match (path.as_deref(), func, args, keywords) {
        (Some("numpy.where"), _, [c, x, y], []) => ("np.where", vec![c, x, y]),
        (Some("numpy.clip"), _, [a, low, high], []) => ("np.clip", vec![a, low, high]),
        (Some("numpy.select"), _, [conditions, choices, default @ ..], []) if default.len() < 2 => {
            let (
                Expr::Seq {
                    kind: SeqKind::List | SeqKind::Tuple,
                    elts: conditions,
                    ..
                },
                Expr::Seq {
                    kind: SeqKind::List | SeqKind::Tuple,
                    elts: choices,
                    ..
                },
            ) = (conditions, choices)
            else {
                return None;
            };
            if conditions.len() != choices.len() {
                return Some(Diagnostic::error(
                    Rule::NumpyArgument,
                    format!(
                        "np.select is given {} condition(s) and {} choice(s): ValueError: list of cases must be same length as list of conditions",
                        conditions.len(),
                        choices.len()
                    ),
                    range,
                ));
            }
            let operands = conditions.iter().chain(choices).chain(default);
            ("np.select", operands.collect())
        }
        (None, Expr::Attribute { value, attr, .. }, [low, high], [])
            if attr == "clip"
                && matches!(w.eval(value), Val::Array(a) if a.lib == ArrayLib::Numpy) =>
        {
            ("clip", vec![&**value, low, high])
        }
        _ => return None,
    };
    let mut shapes = Vec::new();
    for e in &operands {
        if matches!(w.eval(e), Val::None) && name.ends_with("clip") {
            continue;
        }
        shapes.push(match number_of(w, e) {
            Some(_) => vec![],
            None => as_array(w, e)?.shape,
        });
    }
    let mut joint: Vec<i64> = vec![];
    for shape in &shapes {
        match crate::semantics::shapes::broadcast(&joint, shape) {
            Some(s) => joint = s,
            None => {
                return Some(Diagnostic::error(
                    Rule::ShapeBroadcast,
                    format!(
                        "the operands of {name} have shapes {}: they cannot be broadcast together: ValueError",
                        shapes
                            .iter()
                            .map(tuple_text)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    range,
                ))
            }
        }
    }
    None
}

/// `np.einsum(subscripts, *operands)` of explicit letters (no `...`) and operands of known
/// shapes: another number of operands than of terms, a term with another number of letters
/// than its operand has dimensions, or a letter standing for two sizes (neither of them 1, which
/// broadcasts): ValueError.
fn einsum_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    if w.lib_path(func)? != "numpy.einsum" || !keywords.is_empty() {
        return None;
    }
    let (subscripts, operands) = args.split_first()?;
    let text = match w.eval(subscripts) {
        Val::Str(s) => s,
        _ => return None,
    };
    let inputs = text.split("->").next()?;
    if !text
        .chars()
        .all(|c| c.is_ascii_alphabetic() || " ,->".contains(c))
    {
        return None;
    }
    let terms: Vec<String> = inputs
        .split(',')
        .map(|t| t.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let error = |problem: String| {
        Some(Diagnostic::error(
            Rule::ShapeMatmul,
            format!("np.einsum('{text}'): {problem}: ValueError"),
            range,
        ))
    };
    let shapes = operands
        .iter()
        .map(|e| as_array(w, e).map(|a| a.shape))
        .collect::<Option<Vec<_>>>();
    if terms.len() != operands.len() {
        return error(format!(
            "the subscripts name {} operand(s) and {} are given",
            terms.len(),
            operands.len()
        ));
    }
    let shapes = shapes?;
    let mut sizes: Vec<(char, i64, usize)> = Vec::new();
    for (k, (term, shape)) in terms.iter().zip(&shapes).enumerate() {
        let shown = w.shown(&operands[k], "an operand");
        if term.chars().count() != shape.len() {
            return error(format!(
                "'{term}' names {} dimension(s) and {shown} has shape {}",
                term.chars().count(),
                tuple_text(shape)
            ));
        }
        for (letter, &size) in term.chars().zip(shape) {
            match sizes.iter().find(|(l, ..)| *l == letter) {
                Some(&(_, seen, at)) if seen != size && seen != 1 && size != 1 => {
                    return error(format!(
                        "'{letter}' is {seen} in {} and {size} in {shown} (shape {})",
                        w.shown(&operands[at], "an operand"),
                        tuple_text(shape)
                    ));
                }
                Some(_) => {}
                None => sizes.push((letter, size, k)),
            }
        }
    }
    None
}

/// The first of `indices` outside `low..high`.
fn outside(indices: &[i64], low: i64, high: i64) -> Option<i64> {
    indices.iter().copied().find(|i| !(low..high).contains(i))
}

/// `np.take(a, i)` / `a.take(i)`, `np.put(a, i, v)` / `a.put(i, v)`, `np.delete(a, i)` and
/// `np.insert(a, i, v)` with an index (an integer or an integer index array) past its axis, or
/// past the flattened array without `axis` (`insert` may also give the end): IndexError. A
/// `mode` other than the default `'raise'` clips or wraps: silence.
fn selection_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    // (name, where `axis` and `mode` are among the arguments after the array)
    const SELECTIONS: &[(&str, Option<usize>, Option<usize>)] = &[
        ("take", Some(1), Some(3)),
        ("put", None, Some(2)),
        ("delete", Some(1), None),
        ("insert", Some(2), None),
    ];
    let path = w.lib_path(func);
    let function = path.as_deref().and_then(|p| p.strip_prefix("numpy."));
    let ((name, axis_at, mode_at), (array, a), rest) =
        if let Some(found) = SELECTIONS.iter().find(|(n, ..)| Some(*n) == function) {
            let array = args.first()?;
            (*found, (array, as_array(w, array)?), &args[1..])
        } else if let Expr::Attribute { value, attr, .. } = func {
            let found = SELECTIONS[..2].iter().find(|(n, ..)| n == attr)?;
            let Val::Array(a) = w.eval(value) else {
                return None;
            };
            (*found, (&**value, a), args)
        } else {
            return None;
        };
    if a.lib != ArrayLib::Numpy
        || a.maybe_not_ndarray
        || mode_at.is_some_and(|m| rest.len() > m)
        || keywords
            .iter()
            .any(|k| axis_at.is_none() || k.name.as_deref() != Some("axis"))
    {
        return None;
    }
    let axis = match axis_at
        .and_then(|at| rest.get(at))
        .or_else(|| kw(keywords, "axis"))
    {
        Some(e) if matches!(w.eval(e), Val::None) => None,
        Some(e) => Some(normalize(int_of(w, e)?, a.shape.len() as i64)?),
        None => None,
    };
    let size = match axis {
        Some(axis) => a.shape[axis],
        None => a.shape.iter().product(),
    };
    let index = rest.first()?;
    let indices = match int_of(w, index) {
        Some(i) => vec![i],
        None => integer_indices(w, index)?,
    };
    let end = if name == "insert" { size + 1 } else { size };
    let i = outside(&indices, -size, end).filter(|_| size > 0)?;
    let whole = if axis.is_none() && a.shape.len() != 1 {
        " (the array flattened, as no axis is given)"
    } else {
        ""
    };
    Some(Diagnostic::error(
        Rule::IndexOutOfRange,
        format!(
            "index {i} is out of bounds for axis {} with size {size}{whole}: {} has shape {}: IndexError",
            axis.unwrap_or(0),
            w.shown(array, "the array"),
            tuple_text(&a.shape)
        ),
        index.range(),
    ))
}

/// The numpy function or `Generator` method a call names: (`zeros`, false) for `np.zeros`,
/// (`choice`, true) for `np.random.default_rng().choice`.
fn numpy_callee(w: &Walker, func: &Expr) -> Option<(String, bool)> {
    if let Some(name) = w
        .lib_path(func)
        .as_deref()
        .and_then(|p| p.strip_prefix("numpy."))
    {
        return Some((name.to_string(), false));
    }
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    matches!(w.eval(value), Val::Typed(t) if t == GENERATOR).then(|| (attr.clone(), true))
}

/// `a.astype('flaot')` of a numpy array, or `dtype='flaot'` given to a constructor: a dtype
/// name numpy does not know.
fn dtype_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let (dtype, callee) = match func {
        Expr::Attribute { value, attr, .. } if attr == "astype" => {
            let Val::Array(a) = w.eval(value) else {
                return None;
            };
            if a.lib != ArrayLib::Numpy || a.maybe_not_ndarray {
                return None;
            }
            (args.first().or_else(|| kw(keywords, "dtype"))?, "astype")
        }
        _ => {
            let path = w.lib_path(func)?;
            let name = path.strip_prefix("numpy.")?;
            if !matches!(
                name,
                "zeros" | "ones" | "empty" | "full" | "array" | "asarray" | "arange"
            ) {
                return None;
            }
            (kw(keywords, "dtype")?, "dtype")
        }
    };
    let Val::Str(name) = w.eval(dtype) else {
        return None;
    };
    if !crate::semantics::numpy::unknown_dtype_word(&name) {
        return None;
    }
    let hint = crate::rules::suggest(&name, crate::semantics::numpy::DTYPE_WORDS.iter().copied())
        .map(|s| format!("; did you mean '{s}'?"))
        .unwrap_or_default();
    Some(Diagnostic::error(
        Rule::NumpyArgument,
        format!("numpy has no dtype named '{name}' ({callee}){hint}: TypeError: data type '{name}' not understood"),
        dtype.range(),
    ))
}

/// The size of the population `np.random.choice(a, ...)` draws from: `a` itself when an int,
/// else the length of a 1-D array, list or tuple (numpy takes a text or a dict as one 0-d
/// object).
fn population(w: &Walker, a: &Expr) -> Option<i64> {
    match int_of(w, a) {
        Some(n) => Some(n),
        None => match w.eval(a) {
            Val::Array(a) if a.lib == ArrayLib::Numpy && a.shape.len() == 1 => Some(a.shape[0]),
            v => iterated_len(&v)
                .filter(|_| matches!(builtin_of(&v), Some(Builtin::List | Builtin::Tuple))),
        },
    }
}

/// `np.random.choice` of an empty population (a sample is drawn unless `size` is 0), or with
/// probabilities `p` of known numbers that are negative, of another count than the population,
/// or not summing to 1: ValueError.
fn legacy_choice_problem(w: &Walker, args: &[Expr], keywords: &[Keyword]) -> Option<Diagnostic> {
    let arg = |at: usize, keyword: &str| args.get(at).or_else(|| kw(keywords, keyword));
    let a = arg(0, "a")?;
    let n = population(w, a);
    let problem = |at: &Expr, message: String| {
        Some(Diagnostic::error(Rule::NumpyArgument, message, at.range()))
    };
    let draws_none = match arg(1, "size") {
        None => false,
        Some(size) => int_tuple(w, size)?.iter().product::<i64>() == 0,
    };
    if n == Some(0) && !draws_none {
        let error = if int_of(w, a).is_some() {
            "a must be greater than 0 unless no samples are taken"
        } else {
            "'a' cannot be empty unless no samples are taken"
        };
        return problem(
            a,
            format!("np.random.choice draws from an empty population: ValueError: {error}"),
        );
    }
    let p = arg(3, "p")?;
    let Val::Items { items, .. } = w.eval(p) else {
        return None;
    };
    let probabilities: Vec<f64> = items
        .iter()
        .map(|v| match v {
            Val::Int(i) => Some(*i as f64),
            Val::Float(f) if f.is_finite() => Some(*f),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let shown = w.shown(p, "p");
    if n.is_some_and(|n| n > 0 && n != probabilities.len() as i64) {
        return problem(
            p,
            format!(
                "np.random.choice draws from {} values but {shown} gives {} probabilities: ValueError: 'a' and 'p' must have same size",
                n.unwrap_or_default(),
                probabilities.len()
            ),
        );
    }
    if let Some(negative) = probabilities.iter().find(|q| **q < 0.0) {
        return problem(
            p,
            format!("{shown} holds the probability {negative}: ValueError: probabilities are not non-negative"),
        );
    }
    let total: f64 = probabilities.iter().sum();
    // numpy allows a rounding error of sqrt(machine epsilon), about 1.5e-8.
    ((total - 1.0).abs() > 1e-6).then_some(())?;
    problem(
        p,
        format!("the probabilities of {shown} sum to {total}, not 1: ValueError: probabilities do not sum to 1"),
    )
}

/// Arguments numpy's contracts refuse (numpy-argument): a negative dimension, a sample without
/// replacement larger than its population, a negative `scale`, and the two vectors of
/// `polyfit`, `corrcoef` and `cov` of other lengths.
fn argument_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    if let Some(d) = dtype_problem(w, func, args, keywords) {
        return Some(d);
    }
    let (name, generator) = numpy_callee(w, func)?;
    let arg = |at: usize, keyword: &str| args.get(at).or_else(|| kw(keywords, keyword));
    let problem = |at: &Expr, message: String| {
        Some(Diagnostic::error(Rule::NumpyArgument, message, at.range()))
    };
    let sampler = match func {
        Expr::Attribute { value, .. } if generator => w.shown(value, "the Generator"),
        _ => "np.random",
    };
    match name.as_str() {
        "zeros" | "ones" | "empty" | "full" if !generator => {
            let shape = arg(0, "shape")?;
            let dims = int_tuple(w, shape)?;
            let negative = dims.iter().find(|d| **d < 0)?;
            problem(
                shape,
                format!(
                    "np.{name} of the shape {} has the dimension {negative}: ValueError: negative dimensions are not allowed",
                    tuple_text(&dims)
                ),
            )
        }
        "eye" | "identity" | "random.rand" | "random.randn" if !generator => {
            // The sizes: `eye(N, M, k)` takes the diagonal `k` third, which may be negative.
            let sizes = match name.as_str() {
                "eye" => &args[..args.len().min(2)],
                "identity" => &args[..args.len().min(1)],
                _ => args,
            };
            let (at, n) = sizes
                .iter()
                .find_map(|a| Some((a, int_of(w, a).filter(|n| *n < 0)?)))?;
            problem(
                at,
                format!("np.{name} is given the dimension {n}: ValueError: negative dimensions are not allowed"),
            )
        }
        "repeat" | "tile" if !generator => {
            let times = arg(1, if name == "repeat" { "repeats" } else { "reps" })?;
            // A list of repeats raises another ValueError ("repeats may not contain negative
            // values"): one count only.
            let counts = if name == "repeat" {
                vec![int_of(w, times)?]
            } else {
                int_tuple(w, times)?
            };
            let n = counts.iter().find(|n| **n < 0)?;
            problem(
                times,
                format!("np.{name} is given {n} repetitions: ValueError: negative dimensions are not allowed"),
            )
        }
        // Over the whole array (no axis), with no `initial` value to start from.
        "max" | "min" | "amax" | "amin" | "ptp" | "argmax" | "argmin"
            if !generator && args.len() == 1 && keywords.is_empty() =>
        {
            let size: i64 = match w.eval(&args[0]) {
                Val::Items { type_name, items } if type_name == "list" && items.is_empty() => 0,
                _ => as_array(w, &args[0])
                    .filter(|a| a.lib == ArrayLib::Numpy && !a.maybe_not_ndarray)?
                    .shape
                    .iter()
                    .product(),
            };
            (size == 0).then_some(())?;
            let error = match name.as_str() {
                "argmax" | "argmin" => format!("attempt to get {name} of an empty sequence"),
                "min" | "amin" => {
                    "zero-size array to reduction operation minimum which has no identity".into()
                }
                _ => "zero-size array to reduction operation maximum which has no identity".into(),
            };
            problem(
                &args[0],
                format!(
                    "{} is empty, and np.{name} of no values has no answer: ValueError: {error}",
                    w.shown(&args[0], "the array")
                ),
            )
        }
        "arange" if !generator => {
            let step = arg(2, "step")?;
            (number_of(w, step)? == 0.0).then_some(())?;
            problem(
                step,
                "np.arange's step is 0, so no number of steps reaches the stop: ZeroDivisionError: division by zero".into(),
            )
        }
        "linspace" if !generator => {
            let num = arg(2, "num")?;
            let n = int_of(w, num).filter(|n| *n < 0)?;
            problem(
                num,
                format!("np.linspace is asked for {n} samples: ValueError: Number of samples, {n}, must be non-negative."),
            )
        }
        "bincount" if !generator => {
            let x = arg(0, "x")?;
            let (lowest, _) = as_array(w, x)?.int_bounds.filter(|(lo, _)| *lo < 0)?;
            problem(
                x,
                format!("np.bincount counts non-negative integers and {} holds {lowest}: ValueError: 'list' argument must have no negative elements", w.shown(x, "its argument")),
            )
        }
        "random.choice" | "choice" if generator || name == "random.choice" => {
            if let Some(d) = (!generator)
                .then(|| legacy_choice_problem(w, args, keywords))
                .flatten()
            {
                return Some(d);
            }
            let replace = arg(2, "replace")?;
            if !matches!(w.eval(replace), Val::Bool(false)) {
                return None;
            }
            let n = population(w, arg(0, "a")?)?;
            let size = arg(1, "size")?;
            let drawn: i64 = int_tuple(w, size)?.iter().product();
            if n <= 0 || drawn <= n {
                return None;
            }
            let quoted = if generator {
                "replace is False"
            } else {
                "'replace=False'"
            };
            problem(
                size,
                format!(
                    "{sampler}.choice draws {drawn} without replacement from a population of {n}: ValueError: Cannot take a larger sample than population when {quoted}"
                ),
            )
        }
        "random.normal" | "normal" if generator || name == "random.normal" => {
            let scale = arg(1, "scale")?;
            let value = crate::semantics::numpy::number_of(w, scale).filter(|s| *s < 0.0)?;
            problem(
                scale,
                format!(
                    "{sampler}.normal's scale (the standard deviation) is {value}, which is negative: ValueError: scale < 0"
                ),
            )
        }
        "random.randint" | "integers" if generator || name == "random.randint" => {
            let number = |e: &Expr| crate::semantics::numpy::number_of(w, e);
            let low_at = arg(0, "low")?;
            let low = number(low_at)?;
            let (high, error) = match arg(1, "high") {
                None => (low, "high <= 0"),
                Some(h) if matches!(w.eval(h), Val::None) => (low, "high <= 0"),
                Some(h) => (number(h)?, "low >= high"),
            };
            let empty = if error == "high <= 0" {
                high <= 0.0
            } else {
                low >= high
            };
            let method = if generator { "integers" } else { "randint" };
            empty.then(|| {
                Diagnostic::error(
                    Rule::NumpyArgument,
                    format!(
                        "{sampler}.{method} draws from [low, high), which is empty here: ValueError: {error}"
                    ),
                    low_at.range(),
                )
            })
        }
        "random.seed" if !generator => {
            let seed = arg(0, "seed")?;
            let n = int_of(w, seed)?;
            if (0..=u32::MAX as i64).contains(&n) {
                return None;
            }
            problem(
                seed,
                format!("np.random.seed({n}): ValueError: Seed must be between 0 and 2**32 - 1"),
            )
        }
        "percentile" | "nanpercentile" | "quantile" | "nanquantile" if !generator => {
            let q = arg(1, "q")?;
            let values: Vec<f64> = match w.eval(q) {
                Val::Items { items, .. } => items
                    .iter()
                    .map(|v| match v {
                        Val::Int(i) => Some(*i as f64),
                        Val::Float(f) => Some(*f),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
                _ => vec![crate::semantics::numpy::number_of(w, q)?],
            };
            let (top, kind) = if name.ends_with("percentile") {
                (100.0, "Percentiles must be in the range [0, 100]")
            } else {
                (1.0, "Quantiles must be in the range [0, 1]")
            };
            let bad = values.iter().find(|v| !(0.0..=top).contains(*v))?;
            problem(q, format!("np.{name} is given {bad}: ValueError: {kind}"))
        }
        "histogram" if !generator => {
            let bins = arg(1, "bins")?;
            let n = int_of(w, bins).filter(|n| *n <= 0)?;
            problem(
                bins,
                format!("np.histogram is given {n} bins: ValueError: `bins` must be positive, when an integer"),
            )
        }
        "polyfit" | "corrcoef" | "cov" if !generator && args.len() >= 2 => {
            let (x, y) = (as_array(w, &args[0])?, as_array(w, &args[1])?);
            let ([n], [m, ..]) = (x.shape.as_slice(), y.shape.as_slice()) else {
                return None;
            };
            if n == m || *n == 0 {
                return None;
            }
            let lengths = format!(
                "{} has {n} values and {} has {m}",
                w.shown(&args[0], "x"),
                w.shown(&args[1], "y")
            );
            match name.as_str() {
                "polyfit" if y.shape.len() <= 2 => problem(
                    &args[1],
                    format!("np.polyfit: {lengths}: TypeError: expected x and y to have same length"),
                ),
                _ if y.shape.len() == 1 && keywords.is_empty() => problem(
                    &args[1],
                    format!(
                        "np.{name}: {lengths}: ValueError: all the input array dimensions except for the concatenation axis must match exactly, but along dimension 1, the array at index 0 has size {n} and the array at index 1 has size {m}"
                    ),
                ),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `keras.utils.to_categorical(y, num_classes=n)` of labels of known values one of which is `n`
/// or more: the one-hot row has no column for it (IndexError).
fn categorical_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let api = crate::semantics::keras_build::keras_api(&path)?;
    if !matches!(
        api,
        "utils.to_categorical" | "utils.np_utils.to_categorical"
    ) {
        return None;
    }
    // `x` in Keras 3, `y` in Keras 2.
    let y = (args.first())
        .or_else(|| kw(keywords, "x"))
        .or_else(|| kw(keywords, "y"))?;
    let classes = args.get(1).or_else(|| kw(keywords, "num_classes"))?;
    let n = int_of(w, classes)?;
    // A backend tensor is one-hot encoded by `ops.one_hot`, which leaves such a row zero.
    let labels = as_array(w, y).filter(|a| a.lib == ArrayLib::Numpy)?;
    let (_, highest) = labels.int_bounds?;
    (highest >= n && n > 0).then_some(())?;
    Some(Diagnostic::error(
        Rule::IndexOutOfRange,
        format!(
            "to_categorical makes {n} columns (num_classes={n}) and {} holds the label {highest}: IndexError: index {highest} is out of bounds for axis 1 with size {n}",
            w.shown(y, "the labels")
        ),
        y.range(),
    ))
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
            if let Some(d) = float_size_problem(w, func, args, keywords)
                .or_else(|| shape_form_problem(w, func, args))
                .or_else(|| argument_problem(w, func, args, keywords))
                .or_else(|| transpose_problem(w, func, args, keywords))
                .or_else(|| selection_problem(w, func, args, keywords))
                .or_else(|| operands_problem(w, func, args, keywords, *range))
                .or_else(|| einsum_problem(w, func, args, keywords, *range))
                .or_else(|| categorical_problem(w, func, args, keywords))
            {
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
            // (the parameter, the array, the axis given) for every axis parameter of the call.
            let uses: Vec<(&AxisUse, &Expr, &Expr)> = if let Some(path) = w.lib_path(func) {
                if let Some(name) = crate::semantics::tensorflow::tf_name(&path) {
                    let found = crate::semantics::tensorflow::axis_params(name).find_map(|rule| {
                        let axis = args
                            .get(rule.function_at)
                            .or_else(|| kw(keywords, rule.keyword))?;
                        let t = args.first()?;
                        let a = crate::semantics::tensorflow::as_tensor(w, t)?;
                        axis_problem(w, rule, (t, a), axis, "InvalidArgumentError")
                    });
                    out.extend(found);
                    return;
                }
                let Some(name) = path.strip_prefix("numpy.") else {
                    return;
                };
                if let Some(d) = joined_axis_problem(w, name, args, keywords) {
                    out.push(d);
                    return;
                }
                axis_params(name)
                    .filter_map(|rule| {
                        let axis = args
                            .get(rule.function_at)
                            .or_else(|| kw(keywords, rule.keyword))?;
                        Some((rule, args.get(rule.array_at)?, axis))
                    })
                    .collect()
            } else {
                let Expr::Attribute { value, attr, .. } = &**func else {
                    return;
                };
                axis_params(attr)
                    .filter_map(|rule| {
                        let axis = args
                            .get(rule.method_at?)
                            .or_else(|| kw(keywords, rule.keyword))?;
                        Some((rule, &**value, axis))
                    })
                    .collect()
            };
            if let Some(d) = uses.into_iter().find_map(|(rule, array, axis)| {
                let a = as_array(w, array)?;
                axis_problem(w, rule, (array, a), axis, "AxisError")
            }) {
                out.push(d);
            }
        }
        Expr::Subscript {
            value,
            index,
            range,
        } => {
            let Val::Array(a) = w.eval(value) else {
                return;
            };
            if a.lib != ArrayLib::Numpy {
                return;
            }
            if let Some(d) = index_kind_problem(w, value, &a, index) {
                out.push(d);
                return;
            }
            // What each index selects on its axis: an integer, or an integer index array (both
            // take one axis); a slice takes an axis unchecked, `None` takes none, `...` the axes
            // no other index takes. Anything else (a mask, an unknown value): silence.
            let tuple = matches!(
                &**index,
                Expr::Seq {
                    kind: SeqKind::Tuple,
                    ..
                }
            );
            let mut axes: Vec<Option<(Vec<i64>, TextRange)>> = Vec::new();
            let mut ellipsis_at = None;
            for e in index_parts(index) {
                if is_new_axis(w, e) {
                    continue;
                } else if is_ellipsis(e) {
                    if ellipsis_at.replace(axes.len()).is_some() {
                        return;
                    }
                } else if matches!(e, Expr::Slice { .. }) {
                    axes.push(None);
                } else if let Some(i) = int_of(w, e) {
                    // `a[i]` alone is the sequences' check (`value_checks`).
                    if !tuple {
                        return;
                    }
                    axes.push(Some((vec![i], e.range())));
                } else if let Some(indices) = integer_indices(w, e) {
                    // A frame (a transformer's pandas output) reads a list as column labels.
                    if a.maybe_not_ndarray {
                        return;
                    }
                    axes.push(Some((indices, e.range())));
                } else {
                    return;
                }
            }
            let n = a.shape.len();
            let shown = w.shown(value, "the array");
            if axes.len() > n {
                out.push(Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "too many indices for array: {shown} has shape {} ({}), but {} were indexed: IndexError",
                        tuple_text(&a.shape),
                        dimensions(n),
                        axes.len()
                    ),
                    *range,
                ));
                return;
            }
            if let Some(at) = ellipsis_at {
                let rest = n - axes.len();
                axes.splice(at..at, std::iter::repeat_n(None, rest));
            }
            for (axis, selected) in axes.iter().enumerate() {
                let Some((indices, at)) = selected else {
                    continue;
                };
                if let Some(i) = outside(indices, -a.shape[axis], a.shape[axis]) {
                    out.push(Diagnostic::error(
                        Rule::IndexOutOfRange,
                        format!(
                            "index {i} is out of bounds for axis {axis} with size {}: {shown} has shape {}: IndexError",
                            a.shape[axis],
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
