//! `join-overlap`: `df.join(other)` where `other` (a named Series, or a frame) brings a column
//! `df` already has, and no suffix is given: pandas cannot tell the two columns apart and raises
//! `ValueError: columns overlap but no suffix specified`, whatever the rows.
//!
//! Certain when the frame's complete column list and what `other` brings are known, and the
//! shared label is a plain name: the kernel writes labels as strings, so `0` and `'0'` (or a date
//! and its text) would look alike.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Keyword};

use super::list_preview;
use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{date_like, parse_float, Frame, Val};
use crate::walker::state::Walker;

/// A `join` whose columns are known: the frame's, `other` (the expression) and its columns.
struct Join<'e> {
    columns: Vec<String>,
    other: &'e Expr,
    other_columns: Vec<String>,
}

/// `f.join(other, ...)` with only the keywords that leave the columns as they are (`on`, `sort`,
/// `how` other than 'cross'): no suffix, no `**kwargs`.
fn known_join<'e>(
    w: &Walker,
    f: &Frame,
    args: &'e [Expr],
    keywords: &'e [Keyword],
) -> Option<Join<'e>> {
    if unpacks(args, keywords) || args.len() > 1 {
        return None;
    }
    let mut other = args.first();
    for k in keywords {
        match k.name.as_deref() {
            Some("other") if other.is_none() => other = Some(&k.value),
            Some("on" | "sort") => {}
            Some("how") => {
                if !matches!(
                    k.value.as_str_literal(),
                    Some("left" | "right" | "inner" | "outer")
                ) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    let other = other?;
    let other_columns = match w.eval(other) {
        Val::Series(s) => vec![s.name?],
        Val::Frame(g) => g.columns?,
        _ => return None,
    };
    Some(Join {
        columns: f.columns.clone()?,
        other,
        other_columns,
    })
}

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

/// What `f.join(other)` gives when it succeeds: the frame's columns, then those `other` brings.
/// Rows may repeat or go missing, so what was known of them is not kept.
pub fn joined(w: &Walker, f: &Frame, args: &[Expr], keywords: &[Keyword]) -> Val {
    let Some(join) = known_join(w, f, args, keywords) else {
        return Val::Unknown;
    };
    if join.other_columns.iter().any(|c| join.columns.contains(c)) {
        return Val::Unknown;
    }
    let mut columns = join.columns;
    columns.extend(join.other_columns);
    Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        column_info: Default::default(),
        n_rows: None,
        has_nan: None,
        origin: f.origin.clone(),
        plain: f.plain,
        index_class: None,
    })
}
