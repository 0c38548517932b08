//! Text in numpy arithmetic: numpy's arithmetic ufuncs have no loop for an array of text (dtype
//! `<U`), with a number or alone; only `+` of two texts and comparisons for equality work.
//!
//! - `operand-type`: `a - 1`, `a / 2`, `a * 2`, `a + 1.5`, `a ** 2`, `a @ b`, ... of a numpy
//!   array of text and a number or a numeric array: TypeError.
//! - `value-conversion`: the reductions and the math functions of numpy given text
//!   (`a.mean()`, `np.sum(a)`, `np.log(a)`, `np.mean(['a', 1])`: a list of texts, or of texts
//!   and numbers, becomes an array of text): TypeError.
//!
//! The text is known when the array was made of known strings, or the kernel reports its dtype.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::Expr;
use crate::semantics::abstract_value::{ArrayLib, Val};
use crate::semantics::numpy::MATH_REFUSING_TEXT;
use crate::walker::state::Walker;

/// The methods of an ndarray of text that raise TypeError.
const REDUCTIONS: &[&str] = &[
    "sum", "mean", "std", "var", "prod", "cumsum", "cumprod", "round",
];

/// The numpy functions beside `MATH_REFUSING_TEXT` that raise TypeError for an array of text
/// (a pandas Series of text sums and rounds its own way).
const REDUCING_FUNCTIONS: &[&str] = &[
    "sum", "mean", "std", "var", "prod", "cumsum", "cumprod", "median", "average", "nanmean",
    "nansum", "diff", "round",
];

/// Whether `v` is an ndarray of text.
fn text_array(v: &Val) -> bool {
    match v {
        Val::Strs { type_name, .. } => type_name == "ndarray",
        Val::Array(a) => {
            a.lib == ArrayLib::Numpy
                && !a.maybe_not_ndarray
                && a.dtype.as_deref().is_some_and(|d| d.starts_with("<U"))
        }
        _ => false,
    }
}

/// Whether numpy makes an array of text of `v`: an ndarray of text, or a flat list or tuple of
/// texts, or of texts and numbers (`['a', 1]` is `<U21`).
fn becomes_text_array(v: &Val) -> bool {
    match v {
        Val::Strs { .. } => true,
        Val::Items { items, .. } => {
            items.iter().any(|i| matches!(i, Val::Str(_)))
                && items
                    .iter()
                    .all(|i| matches!(i, Val::Str(_) | Val::Int(_) | Val::Float(_) | Val::Bool(_)))
        }
        v => text_array(v),
    }
}

/// Whether `v` is a number or an ndarray of numbers.
fn numeric(v: &Val) -> bool {
    match v {
        Val::Int(_) | Val::Float(_) | Val::Bool(_) => true,
        Val::Array(a) => {
            a.lib == ArrayLib::Numpy
                && a.dtype.as_deref().is_some_and(|d| {
                    d.starts_with("int")
                        || d.starts_with("float")
                        || d.starts_with("uint")
                        || d == "bool"
                })
        }
        _ => false,
    }
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } if matches!(*op, "+" | "-" | "*" | "/" | "//" | "%" | "**" | "@") => {
            let (l, r) = (w.eval(left), w.eval(right));
            let (text, other) = match (text_array(&l), text_array(&r)) {
                (true, _) if numeric(&r) => (left, right),
                (_, true) if numeric(&l) => (right, left),
                _ => return,
            };
            out.push(Diagnostic::error(
                Rule::OperandType,
                format!(
                    "{} is a numpy array of text and {} a number: numpy has no '{op}' of text and numbers; convert the text first (astype(float)): TypeError",
                    w.shown(text, "an operand"),
                    w.shown(other, "the other operand"),
                ),
                *range,
            ));
        }
        Expr::Call {
            func, args, range, ..
        } => {
            let (what, text) = match &**func {
                Expr::Attribute { value, attr, .. }
                    if REDUCTIONS.contains(&attr.as_str()) && text_array(&w.eval(value)) =>
                {
                    (format!("{attr}()"), &**value)
                }
                _ => {
                    let Some(name) = w
                        .lib_path(func)
                        .and_then(|p| p.strip_prefix("numpy.").map(str::to_string))
                    else {
                        return;
                    };
                    match args.first() {
                        Some(arg)
                            if (REDUCING_FUNCTIONS.contains(&name.as_str())
                                || MATH_REFUSING_TEXT.contains(&name.as_str()))
                                && becomes_text_array(&w.eval(arg)) =>
                        {
                            (format!("np.{name}"), arg)
                        }
                        _ => return,
                    }
                }
            };
            out.push(Diagnostic::error(
                Rule::ValueConversion,
                format!(
                    "{} is text to numpy (dtype <U), and {what} computes with numbers only; convert it first (astype(float)) or leave the text out: TypeError",
                    w.shown(text, "the array")
                ),
                *range,
            ));
        }
        _ => {}
    }
}
