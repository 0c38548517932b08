//! Value rules.
//!
//! - `value-conversion`: `astype(int)` / `astype(float)` / `pd.to_numeric` on a column whose recorded
//!   string values do not parse as such numbers (or `astype(int)` on a column with NaN).
//! - `index-out-of-range`: a literal index past the known length of a list, tuple, string or
//!   array.
//! - `index-type`: a list or tuple indexed by a numpy array (not an integer scalar).
//! - `histogram-nan`: `np.histogram(x)` of data with NaN and no `range=` or explicit bin edges
//!   (the autodetected range is `[nan, nan]`: ValueError).

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Literal};

use crate::semantics::abstract_value::{not_a_float, not_an_int, ArrayLib, Val};
use crate::semantics::eval::int_of;
use crate::walker::state::Walker;

#[derive(Clone, Copy, PartialEq)]
enum Target {
    Int,
    Float,
}

fn dtype_target(w: &Walker, e: &Expr) -> Option<Target> {
    let name = match e {
        Expr::Name { id, .. } if w.is_builtin(id) => id.clone(),
        Expr::Literal {
            value: Literal::Str(s),
            ..
        } => s.clone(),
        _ => {
            let path = w.lib_path(e)?;
            path.strip_prefix("numpy.")?.to_string()
        }
    };
    match name.as_str() {
        "int" | "int64" | "int32" | "int16" | "int8" | "uint8" | "uint16" | "uint32" | "uint64" => {
            Some(Target::Int)
        }
        "float" | "float64" | "float32" | "float16" => Some(Target::Float),
        _ => None,
    }
}

fn bad_example(examples: &[String], t: Target) -> Option<&str> {
    examples
        .iter()
        .find(|s| match t {
            Target::Int => not_an_int(s),
            Target::Float => not_a_float(s),
        })
        .map(String::as_str)
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } => {
            if let Expr::Attribute { value, attr, .. } = &**func {
                if attr == "astype" && args.len() == 1 {
                    if keywords.iter().any(|k| k.name.as_deref() == Some("errors")) {
                        return;
                    }
                    let Some(t) = dtype_target(w, &args[0]) else {
                        return;
                    };
                    // A column's recorded strings, or a numpy array of known strings.
                    let (examples, has_nan) = match w.eval(value) {
                        Val::Series(s) => (s.str_examples, s.has_nan),
                        // `df.astype(float)` converts every column: the first that cannot.
                        Val::Frame(f) if f.plain => {
                            let bad = f.columns.iter().flatten().find_map(|c| {
                                let info = f.column_info.get(c)?;
                                bad_example(&info.str_examples, t)
                                    .map(|_| info.str_examples.clone())
                            });
                            (bad.unwrap_or_default(), f.has_nan)
                        }
                        Val::Strs { type_name, items } if type_name == "ndarray" => {
                            (items, Some(false))
                        }
                        Val::Array(_) => match w.kernel_array_texts(value) {
                            Some(texts) => (texts, Some(false)),
                            None => return,
                        },
                        _ => return,
                    };
                    {
                        if let Some(bad) = bad_example(&examples, t) {
                            out.push(Diagnostic::error(
                                Rule::ValueConversion,
                                format!(
                                    "{} holds strings such as '{bad}' that do not convert to {}: ValueError",
                                    w.shown(value, "the column"),
                                    match t {
                                        Target::Int if crate::semantics::abstract_value::parse_float(bad).is_some_and(|f| !f.is_nan()) => "int (a float string needs astype(float) first)",
                                        Target::Int => "int",
                                        Target::Float => "float",
                                    }
                                ),
                                *range,
                            ));
                        } else if t == Target::Int && has_nan == Some(true) {
                            out.push(Diagnostic::error(
                                Rule::ValueConversion,
                                format!("{} contains NaN, which cannot be converted to int; fill or drop it first, or use the 'Int64' dtype: IntCastingNaNError", w.shown(value, "the column")),
                                *range,
                            ));
                        }
                    }
                    return;
                }
            }
            if matches!(
                w.lib_path(func).as_deref(),
                Some("numpy.histogram" | "numpy.histogram_bin_edges")
            ) {
                histogram_nan(w, args, keywords, *range, out);
                return;
            }
            if w.lib_path(func).as_deref() == Some("pandas.to_numeric") {
                let errors = keywords
                    .iter()
                    .find(|k| k.name.as_deref() == Some("errors"));
                if errors.is_some_and(|k| k.value.as_str_literal() != Some("raise"))
                    || args.len() != 1
                {
                    return;
                }
                let one = matches!(w.eval(&args[0]), Val::Str(_));
                let texts = match w.eval(&args[0]) {
                    Val::Series(s) => s.str_examples,
                    Val::Str(t) => vec![t],
                    Val::Strs { type_name, items }
                        if matches!(type_name.as_str(), "list" | "tuple") =>
                    {
                        items
                    }
                    _ => return,
                };
                // pandas reads an empty text as NaN.
                let texts: Vec<String> = texts.into_iter().filter(|t| !t.is_empty()).collect();
                if let Some(bad) = bad_example(&texts, Target::Float) {
                    out.push(Diagnostic::error(
                        Rule::ValueConversion,
                        format!(
                            "{}; pass errors='coerce' to get NaN instead: ValueError: Unable to parse string",
                            if one {
                                format!("'{bad}' is no number")
                            } else {
                                format!("{} holds strings such as '{bad}' that are not numbers", w.shown(&args[0], "the values"))
                            },
                        ),
                        *range,
                    ));
                }
            }
        }
        Expr::Subscript {
            value,
            index,
            range,
        } => {
            let base = w.eval(value);
            if let (Some((type_name, _)), Val::Array(a)) = (base.sized(), w.eval(index)) {
                if (type_name == "list" || type_name == "tuple")
                    && a.lib == crate::semantics::abstract_value::ArrayLib::Numpy
                    && !a.shape.is_empty()
                {
                    out.push(Diagnostic::error(
                        Rule::IndexType,
                        format!(
                            "{} is a {type_name} and {} is an array of shape {:?}, not an integer: TypeError: only integer scalar arrays can be converted to a scalar index",
                            w.shown(value, "the column"),
                            w.shown(index, "the column"),
                            a.shape
                        ),
                        index.range(),
                    ));
                    return;
                }
            }
            // A literal, or an int the walker knows (`k`, `len(xs)`, `n - 1`).
            let i = match int_of(w, index) {
                Some(i) => i,
                None => match w.eval(index) {
                    Val::Int(i) => i,
                    _ => return,
                },
            };
            let (len, what) = match &base {
                Val::Sized { .. } | Val::Items { .. } => match base.sized() {
                    Some((t, len)) if t == "list" || t == "tuple" => (len, format!("a {t}")),
                    // The array of Axes of `plt.subplots`.
                    Some(("ndarray", len)) => (len, "an array of Axes".to_string()),
                    _ => return,
                },
                Val::Strs { type_name, items } => (items.len() as i64, format!("a {type_name}")),
                Val::Str(s) => (s.chars().count() as i64, "a string".to_string()),
                Val::Array(a) if a.lib == ArrayLib::Tensorflow && !a.shape.is_empty() => {
                    (a.shape[0], "a tensor".to_string())
                }
                Val::Array(a) if !a.shape.is_empty() => (a.shape[0], "an array".to_string()),
                _ => return,
            };
            // A tensor's strided slice raises TensorFlow's own error.
            let error = match &base {
                Val::Array(a) if a.lib == ArrayLib::Tensorflow => "InvalidArgumentError",
                _ => "IndexError",
            };
            if i >= len || i < -len {
                out.push(Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "index {} is out of range: {} is {what} of length {len}: {error}",
                        match &**index {
                            Expr::Literal { .. } => i.to_string(),
                            e if w.text(e.range()).trim().parse::<i64>().is_ok() => i.to_string(),
                            e => format!("{} = {i}", w.text(e.range())),
                        },
                        w.shown(value, "the column")
                    ),
                    *range,
                ));
            }
        }
        _ => {}
    }
}

/// `xs[i] = v` (or `xs[i] += v`) of a list or an array: its index is checked as a read's is
/// (list assignment index out of range: IndexError; an array's other indices by `numpy_calls`).
/// Tuples and strings are item-assignment's.
pub fn check_stmt(w: &Walker, stmt: &crate::ir::Stmt, out: &mut Vec<Diagnostic>) {
    let crate::ir::Stmt::Assign {
        targets,
        value: Some(_),
        ..
    } = stmt
    else {
        return;
    };
    for target in targets {
        if let crate::ir::Target::Store {
            expr: subscript @ Expr::Subscript { value, .. },
            ..
        } = target
        {
            let base = w.eval(value);
            let list_or_array =
                matches!(base, Val::Array(_)) || base.sized().is_some_and(|(t, _)| t == "list");
            if list_or_array {
                check(w, subscript, out);
            }
            // The indices of a numpy array (several axes, integer lists, masks) as well.
            if matches!(base, Val::Array(_)) {
                super::numpy_calls::check(w, subscript, out);
            }
        }
    }
}

/// `np.histogram(a, bins=10)` finds its range from `a.min()` and `a.max()` unless `range=` is
/// given or `bins` are the edges themselves: with a NaN in `a` the range is `[nan, nan]`.
fn histogram_nan(
    w: &Walker,
    args: &[Expr],
    keywords: &[crate::ir::Keyword],
    range: crate::ir::TextRange,
    out: &mut Vec<Diagnostic>,
) {
    if crate::ir_scan::unpacks(args, keywords) || args.len() > 2 {
        return;
    }
    let kw = |name: &str| keywords.iter().find(|k| k.name.as_deref() == Some(name));
    if kw("range").is_some()
        || keywords.iter().any(|k| {
            !matches!(
                k.name.as_deref(),
                Some("a" | "bins" | "density" | "weights")
            )
        })
    {
        return;
    }
    // Bins given as a count or a rule name (`'auto'`), not as edges.
    let bins = args.get(1).or(kw("bins").map(|k| &k.value));
    let counted = bins.is_none_or(|b| {
        matches!(
            b,
            Expr::Literal {
                value: Literal::Int(_) | Literal::Str(_),
                ..
            }
        )
    });
    let Some(data) = args.first().or(kw("a").map(|k| &k.value)) else {
        return;
    };
    if !counted {
        return;
    }
    // `s.values` and `s.to_numpy()` hold the Series' values.
    let inner = match data {
        Expr::Attribute { value, attr, .. } if attr == "values" => &**value,
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } if args.is_empty() && keywords.is_empty() => match &**func {
            Expr::Attribute { value, attr, .. } if attr == "to_numpy" => &**value,
            _ => data,
        },
        _ => data,
    };
    let has_nan = match w.eval(inner) {
        Val::Series(s) => s.has_nan,
        Val::Array(a) => a.has_nan,
        _ => None,
    };
    if has_nan == Some(true) {
        out.push(Diagnostic::error(
            Rule::HistogramNan,
            format!(
                "{} contains NaN, so np.histogram's autodetected range is [nan, nan]: ValueError (autodetected range is not finite); drop the NaN first (.dropna()) or pass range=",
                w.shown(data, "the data")
            ),
            range,
        ));
    }
}
