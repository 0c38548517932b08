//! `ambiguous-truth`: a pandas Series or DataFrame where Python needs one bool: the test of
//! `if`/`while`, the first operand of `and`/`or` (the others may never run), `not x`, and the first link of a
//! chained comparison (`1 < s < 5` is `1 < s and s < 5`). pandas refuses to choose between
//! "any" and "all": ValueError: The truth value of a Series is ambiguous.
//!
//! A value is a Series or a DataFrame when the walker knows it, or when it is a comparison
//! (`df['a'] > 1`), `&`/`|` or `~` of one: element-wise, they give a Series (a DataFrame).

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Stmt, TextRange};
use crate::semantics::abstract_value::Val;
use crate::walker::state::Walker;

/// The operator written between two operands of an `Expr::Other` (parentheses left out).
fn between(w: &Walker, left: &Expr, right: &Expr) -> String {
    w.text(TextRange::new(left.range().end, right.range().start))
        .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
        .to_string()
}

const COMPARISONS: &[&str] = &["==", "!=", "<", "<=", ">", ">="];

/// "Series" or "DataFrame" when `e` certainly evaluates to one.
fn pandas_object(w: &Walker, e: &Expr) -> Option<&'static str> {
    match w.eval(e) {
        Val::Series(_) => return Some("Series"),
        Val::Frame(f) if f.plain => return Some("DataFrame"),
        _ => {}
    }
    match e {
        Expr::BinOp {
            op: "&" | "|",
            left,
            right,
            ..
        } => either(w, left, right),
        Expr::Other { children, range } => match children.as_slice() {
            [operand] => {
                let head = w.text(TextRange::new(range.start, operand.range().start));
                let tail = w.text(TextRange::new(operand.range().end, range.end));
                let head = head.trim_matches(|c: char| c == '(' || c.is_whitespace());
                let closed = tail
                    .trim_matches(|c: char| c == ')' || c.is_whitespace())
                    .is_empty();
                (head == "~" && closed)
                    .then(|| pandas_object(w, operand))
                    .flatten()
            }
            [left, right] if COMPARISONS.contains(&between(w, left, right).as_str()) => {
                either(w, left, right)
            }
            _ => None,
        },
        _ => None,
    }
}

fn either(w: &Walker, left: &Expr, right: &Expr) -> Option<&'static str> {
    match (pandas_object(w, left), pandas_object(w, right)) {
        (Some("DataFrame"), _) | (_, Some("DataFrame")) => Some("DataFrame"),
        (Some(kind), _) | (_, Some(kind)) => Some(kind),
        _ => None,
    }
}

fn ambiguous(w: &Walker, e: &Expr, asks: &str, out: &mut Vec<Diagnostic>) -> bool {
    let Some(kind) = pandas_object(w, e) else {
        return false;
    };
    out.push(Diagnostic::error(
        Rule::AmbiguousTruth,
        format!(
            "{} is a {kind}, and {asks} needs one bool: ValueError: The truth value of a {kind} is ambiguous; combine element-wise conditions with & and | (each in parentheses), or reduce with .any() / .all() / .empty",
            w.shown(e, "the condition")
        ),
        e.range(),
    ));
    true
}

/// The test of `if` and `while`.
pub fn check_stmt(w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
    match stmt {
        Stmt::If { test, .. } => {
            ambiguous(w, test, "`if`", out);
        }
        Stmt::While { test, .. } => {
            ambiguous(w, test, "`while`", out);
        }
        _ => {}
    }
}

/// `a and b`, `a or b` (their first operand), `not a`, `x < s < y`.
pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Other { children, range } = expr else {
        return;
    };
    match children.as_slice() {
        [operand] => {
            let head = w.text(TextRange::new(range.start, operand.range().start));
            let head = head.trim_end_matches(|c: char| c == '(' || c.is_whitespace());
            if head.trim() == "not" {
                ambiguous(w, operand, "`not`", out);
            }
        }
        [first, second, ..] => {
            let op = between(w, first, second);
            if matches!(op.as_str(), "and" | "or") {
                ambiguous(w, first, &format!("`{op}`"), out);
            } else if COMPARISONS.contains(&op.as_str()) && children.len() > 2 {
                // `a < b < c` asks bool(a < b) before it compares b with c.
                let link = &children[..2];
                if let Some(kind) = either(w, &link[0], &link[1]) {
                    out.push(Diagnostic::error(
                        Rule::AmbiguousTruth,
                        format!(
                            "a chained comparison is `and` of its links, and {} {op} {} is element-wise: ValueError: The truth value of a {kind} is ambiguous; write ({} {op} {}) & (...) instead, or use .between()",
                            w.shown(&link[0], "the left side"),
                            w.shown(&link[1], "the middle"),
                            w.text(link[0].range()),
                            w.text(link[1].range()),
                        ),
                        *range,
                    ));
                }
            }
        }
        _ => {}
    }
}
