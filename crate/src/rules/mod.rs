//! The deterministic rule engine: predicts crashes from the target cell's code and the kernel
//! summaries. A rule fires only when the crash is certain; whatever is unknown is silence.
//!
//! `flow` walks the target cell's statements in execution order, keeping an abstract value per
//! name (`value::Val`), and hands every expression that will certainly be evaluated to the rules;
//! `calls` follows it into the functions of the notebook the cell calls.

pub mod api;
mod attr_tables;
pub mod calls;
pub mod columns;
pub mod flow;
pub mod history;
pub mod join;
pub mod keras;
pub mod keras_build;
pub mod numpy_calls;
pub mod plots;
pub mod pytypes;
pub mod shapes;
pub mod sklearn;
mod sklearn_tables;
pub mod targets;
pub mod torch;
pub mod torch_classes;
pub mod torch_layers;
pub mod value;
pub mod values;

use std::collections::BTreeSet;

use crate::diagnostic::Diagnostic;
use crate::facts::CellFacts;
use crate::ir::Stmt;
use crate::summary::SummaryDoc;
use history::{CellRuleFacts, HistoryState};

/// What the rules know about one run of a cell.
pub struct RuleContext<'a> {
    /// The target cell's source, as the user wrote it (ranges index into it).
    pub source: &'a str,
    /// The target cell's statements.
    pub body: &'a [Stmt],
    /// What the target cell binds and reads (`facts::cell_facts` of `body`).
    pub facts: &'a CellFacts,
    /// Kernel summaries of the names the cell uses (state before the cell runs).
    pub summaries: Option<&'a SummaryDoc>,
    /// Names defined in the kernel before the cell runs, when known.
    pub kernel_names: Option<&'a BTreeSet<String>>,
    /// What the cells that ran before tell the rules, combined.
    pub history: &'a HistoryState,
    /// What the target cell's own code tells them (`history::cell_rule_facts` of `body`); the
    /// walk into a called function keeps its caller's.
    pub cell: &'a CellRuleFacts,
}

/// Runs every rule on the target cell; diagnostics come sorted by position.
pub fn run(ctx: &RuleContext) -> Vec<Diagnostic> {
    let mut out = flow::Walker::new(ctx).run();
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out.dedup_by(|a, b| a.code == b.code && a.range == b.range);
    out
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest candidate: same name but for case, or within edit distance 2 (1 for short names).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = if c.to_lowercase() == lower {
            0
        } else {
            edit_distance(name, c)
        };
        let limit = if name.chars().count() <= 3 { 1 } else { 2 };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `'a', 'b', 'c', ... (N in all)` for messages.
pub fn list_preview(items: &[String], max: usize) -> String {
    let shown: Vec<String> = items.iter().take(max).map(|c| format!("'{c}'")).collect();
    if items.len() > max {
        format!("{}, ...", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_need_a_close_name() {
        assert_eq!(suggest("Agee", ["Age", "Sex"]), Some("Age"));
        assert_eq!(suggest("age", ["Age", "Sex"]), Some("Age"));
        assert_eq!(suggest("Fare", ["Age", "Sex"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
