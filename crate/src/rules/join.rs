//! `join-overlap`: `df.join(other)` where `other` (a named Series, or a frame) brings a column
//! `df` already has, and no suffix is given: pandas cannot tell the two columns apart and raises
//! `ValueError: columns overlap but no suffix specified`, whatever the rows.
//!
//! Certain when the frame's complete column list and what `other` brings are known, and the
//! shared label is a plain name: the kernel writes labels as strings, so `0` and `'0'` (or a date
//! and its text) would look alike.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::Expr;
use crate::semantics::pandas::known_join;

use super::list_preview;
use crate::semantics::abstract_value::{date_like, parse_float, Val};
use crate::walker::state::Walker;

/// A label the kernel's string form names for certain: not a number, a date, a tuple, or the
/// text of None or a bool.
fn plain_label(label: &str) -> bool {
    parse_float(label).is_none()
        && !date_like(label)
        && !label.starts_with('(')
        && !matches!(label, "None" | "True" | "False")
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = expr
    else {
        return;
    };
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    if attr != "join" {
        return;
    }
    let Val::Frame(f) = w.eval(value) else {
        return;
    };
    // A subclass may join otherwise.
    if !f.plain {
        return;
    }
    let Some(join) = known_join(w, &f, args, keywords) else {
        return;
    };
    let shared: Vec<String> = join
        .other_columns
        .iter()
        .filter(|c| join.columns.contains(c) && plain_label(c))
        .cloned()
        .collect();
    if shared.is_empty() {
        return;
    }
    let what = if matches!(w.eval(join.other), Val::Series(_)) {
        format!(
            "the Series {} (named '{}')",
            w.shown(join.other, "joined"),
            shared[0]
        )
    } else {
        w.shown(join.other, "the other frame").to_string()
    };
    out.push(Diagnostic::error(
        Rule::JoinOverlap,
        format!(
            "{} already has the column{} {} that {what} brings, and no lsuffix/rsuffix is given: ValueError: columns overlap but no suffix specified",
            w.shown(value, "the frame"),
            if shared.len() == 1 { "" } else { "s" },
            list_preview(&shared, 5),
        ),
        join.other.range(),
    ));
}
