//! `index-type`: `.iloc` given a label where it takes positions (`df.iloc['a']`,
//! `df.iloc[:, 'a']`, `df.iloc[:, ['a', 'b']]`): TypeError for one label, ValueError for a list
//! of them or a label beside a row, IndexError for a list beside a row; `.loc` takes labels.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, SeqKind};
use crate::semantics::abstract_value::Val;
use crate::walker::state::Walker;

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Subscript { value, index, .. } = expr else {
        return;
    };
    let Expr::Attribute {
        value: owner, attr, ..
    } = &**value
    else {
        return;
    };
    if attr != "iloc" || w.pandas_extended {
        return;
    }
    let frame = match w.eval(owner) {
        Val::Frame(f) if f.plain => true,
        Val::Series(_) => false,
        _ => return,
    };
    // The keys: one, or a row and a column.
    let (keys, pair): (Vec<&Expr>, bool) = match &**index {
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } if frame && elts.len() == 2 => (elts.iter().collect(), true),
        Expr::Seq {
            kind: SeqKind::Tuple,
            ..
        } => return,
        single => (vec![single], false),
    };
    let Some((key, label)) = keys.into_iter().find_map(|k| Some((k, labels(w, k)?))) else {
        return;
    };
    let error = match (pair, label.starts_with('[')) {
        (true, true) => "IndexError: .iloc requires numeric indexers",
        (true, false) => "ValueError: Location based indexing can only have [integer, integer slice, listlike of integers, boolean array] types",
        (false, true) => "ValueError: invalid literal for int() with base 10",
        (false, false) => "TypeError: Cannot index by location index with a non-integer key",
    };
    out.push(Diagnostic::error(
        Rule::IndexType,
        format!(".iloc takes positions, not the label {label} (.loc takes labels): {error}"),
        key.range(),
    ));
}

/// `'a'`, or `['a', 'b']`: a key of labels given as text.
fn labels(w: &Walker, key: &Expr) -> Option<String> {
    match w.eval(key) {
        Val::Str(s) => Some(format!("'{s}'")),
        Val::Strs { type_name, items } if type_name == "list" && !items.is_empty() => {
            Some(format!(
                "[{}]",
                items
                    .iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        _ => None,
    }
}
