//! The deterministic rule engine: predicts crashes from the target cell's code and the kernel
//! summaries. A rule fires only when the crash is certain; whatever is unknown is silence.
//!
//! `flow` walks the target cell's statements in execution order, keeping an abstract value per
//! name (`abstract_value::Val`), and hands every expression that will certainly be evaluated to the rules;
//! `calls` follows it into the functions of the notebook the cell calls.

pub mod api;
pub mod columns;
pub mod dropped_again;
pub mod frames;
pub mod join;
pub mod keras;
pub mod numpy_calls;
pub mod plots;
pub mod pytypes;
pub mod shapes;
pub mod sklearn;
pub mod targets;
pub mod torch;
pub mod value_checks;

use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Stmt};
pub use crate::walker::RuleContext;
use crate::walker::{Checks, Walker};

/// Runs every rule on the target cell; diagnostics come sorted by position.
pub fn run(ctx: &RuleContext) -> Vec<Diagnostic> {
    let mut out = Walker::new(ctx, &AllRules).run();
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out.dedup_by(|a, b| a.code == b.code && a.range == b.range);
    out
}

/// Every rule unit, in the order the walker's reports reach them.
struct AllRules;

impl Checks for AllRules {
    fn statement(&self, w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
        pytypes::check_stmt(w, stmt, out);
        shapes::check_stmt(w, stmt, out);
        frames::check_stmt(w, stmt, out);
    }

    fn expression(&self, w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
        dropped_again::check(w, expr, out);
        columns::check(w, expr, out);
        join::check(w, expr, out);
        sklearn::check(w, expr, out);
        targets::check(w, expr, out);
        shapes::check(w, expr, out);
        plots::check(w, expr, out);
        numpy_calls::check(w, expr, out);
        frames::check(w, expr, out);
        value_checks::check(w, expr, out);
        api::check(w, expr, out);
        pytypes::check(w, expr, out);
        keras::check(w, expr, out);
        torch::check(w, expr, out);
        torch::check_tensor_ops(w, expr, out);
    }

    fn comprehension(&self, w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
        pytypes::check(w, expr, out);
    }
}

/// Similarity from 0 to 1: twice the longest common subsequence over both lengths (as difflib's
/// `ratio` for names without repeated blocks).
fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut prev = vec![0usize; b.len() + 1];
    for ca in &a {
        let mut cur = vec![0usize; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = if ca == cb {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        prev = cur;
    }
    2.0 * prev[b.len()] as f64 / (a.len() + b.len()) as f64
}

/// Case, `_`, `-` and spaces aside: `Fare_Log`, `fare log` and `farelog` are one name.
fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A "did you mean" needs a real resemblance: the same name but for case and separators, or a
/// similarity of at least `SIMILAR` (`Agee`/`Age`, not `Name`/`Fare`).
const SIMILAR: f64 = 0.8;

/// The closest candidate that resembles `name`, if any.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = loose(name);
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let score = if loose(c) == wanted {
            2.0
        } else {
            similarity(name, c)
        };
        if score >= SIMILAR && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
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
        assert_eq!(suggest("fare_log", ["Age", "FareLog"]), Some("FareLog"));
        // Edit distance 2 between four-letter words is no resemblance.
        assert_eq!(suggest("Name", ["Fare", "Age"]), None);
        assert_eq!(suggest("Embarkd", ["Embarked", "Fare"]), Some("Embarked"));
    }
}
