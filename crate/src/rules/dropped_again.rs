//! `dropped-again`: a label an in-place drop removed already, dropped again.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::Expr;
use crate::semantics::abstract_value::{from_summary, Val};
use crate::semantics::pandas::drop_spec;
use crate::walker::Walker;

/// `df.drop([10472], inplace=True)` ran already (an earlier cell, or this cell run again):
/// the label is gone, and dropping it again raises KeyError. The kernel's summary, when there is
/// one, must agree (it still lists a column something gave back).
pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Some((name, spec)) = drop_spec(expr) else {
        return;
    };
    let Some(before) = w.drops.get(name) else {
        return;
    };
    // The object the kernel summarized (a drop since would have forgotten it otherwise).
    let summarized = w
        .ctx
        .summaries
        .and_then(|d| d.objects.get(name))
        .map(|o| from_summary(name, o));
    let frame = match summarized {
        Some(Val::Frame(f)) => Some(f),
        Some(Val::Series(_)) => None,
        // No kernel to ask: the executed cells' code alone tells (`drops` forgets a name
        // rebound or possibly changed since).
        None if w.ctx.summaries.is_none() && w.ctx.kernel_names.is_none() => None,
        _ => return,
    };
    let gone = spec.labels.iter().find(|l| {
        // The kernel still lists the column: something gave it back.
        let listed = spec.columns
            && before.iter().any(|b| !b.in_target)
            && frame.as_ref().is_some_and(|f| {
                f.columns
                    .as_ref()
                    .is_none_or(|cols| cols.iter().any(|c| format!("'{c}'") == **l || c == *l))
            });
        !listed
            && before
                .iter()
                .any(|b| b.columns == spec.columns && b.labels.contains(l))
    });
    if let Some(label) = gone {
        let axis = if spec.columns { "columns" } else { "index" };
        // Not "an earlier drop" when the drop that ran is this cell's own.
        let own = w.ctx.ran && w.ctx.cell.dropped.contains(label.trim_matches(['\'', '"']));
        let which = if own {
            "this cell dropped it when it ran"
        } else {
            "an earlier drop ran"
        };
        out.push(Diagnostic::error(
            Rule::DroppedAgain,
            format!(
                "{label} was already dropped from {name}'s {axis} in place ({which}), so dropping it again raises KeyError: not found in axis; re-create {name} first or pass errors='ignore'"
            ),
            expr.range(),
        ));
    }
}
