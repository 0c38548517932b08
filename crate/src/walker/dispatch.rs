//! Handing what is evaluated to the rules: each statement's iterated or unpacked values, and
//! every expression that will certainly be evaluated.

use std::collections::BTreeSet;

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Stmt, TextRange};

use crate::rules::{
    api, columns, frames, join, keras, numpy_calls, plots, pytypes, shapes, sklearn, targets,
    torch, value_checks,
};
use crate::semantics::abstract_value::{from_summary, Val};

use super::state::Walker;
use crate::ir_scan::target_names;

impl<'a> Walker<'a> {
    /// Runs the rules on what a statement iterates or unpacks, its expressions evaluated.
    pub(super) fn check_stmt_values(&mut self, stmt: &Stmt) {
        let mut found = Vec::new();
        pytypes::check_stmt(self, stmt, &mut found);
        shapes::check_stmt(self, stmt, &mut found);
        frames::check_stmt(self, stmt, &mut found);
        self.out.extend(found);
    }

    /// Runs the rules on `expr` and on the sub-expressions that will certainly be evaluated.
    pub fn check(&mut self, expr: &Expr) {
        match expr {
            Expr::Lambda { .. } => return,
            Expr::Comprehension {
                elements,
                generators,
                ..
            } => {
                if let Some(g) = generators.first() {
                    self.check(&g.iter);
                }
                // One generator over a non-empty iterable, no condition: the elements are
                // evaluated at least once, with the target names unknown.
                if let [g] = generators.as_slice() {
                    if g.ifs.is_empty() && self.non_empty(&g.iter) {
                        let mut names = BTreeSet::new();
                        target_names(&g.target, &mut names, false);
                        let mark = self.shadowed.len();
                        let saved: Vec<(String, Option<Val>, bool)> = names
                            .into_iter()
                            .map(|n| {
                                let before = self.env.insert(n.clone(), Val::Unknown);
                                let fresh = self.bound_here.insert(n.clone());
                                let defined = self.defined_here.remove(&n);
                                if let Some(p) = defined {
                                    // Restored below; the element sees the loop variable.
                                    self.shadowed.push((n.clone(), p));
                                }
                                (n, before, fresh)
                            })
                            .collect();
                        for e in elements {
                            self.check(e);
                        }
                        for (n, before, fresh) in saved {
                            match before {
                                Some(v) => self.env.insert(n.clone(), v),
                                None => self.env.remove(&n),
                            };
                            if fresh {
                                self.bound_here.remove(&n);
                            }
                        }
                        let hidden: Vec<_> = self.shadowed.drain(mark..).collect();
                        for (n, p) in hidden {
                            self.defined_here.insert(n, p);
                        }
                    }
                }
                let mut found = Vec::new();
                pytypes::check(self, expr, &mut found);
                self.out.extend(found);
                return;
            }
            Expr::Other { children, range } => {
                if self.short_circuits(*range, children) {
                    return;
                }
                for c in children {
                    self.check(c);
                }
            }
            Expr::Attribute { value, .. } => self.check(value),
            Expr::Subscript { value, index, .. } => {
                self.check(value);
                self.check(index);
            }
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => {
                self.check(func);
                for a in args {
                    self.check(a);
                }
                for k in keywords {
                    self.check(&k.value);
                }
            }
            Expr::Seq { elts, .. } => elts.iter().for_each(|e| self.check(e)),
            Expr::Dict { keys, values, .. } => {
                keys.iter().flatten().for_each(|e| self.check(e));
                values.iter().for_each(|e| self.check(e));
            }
            Expr::Slice {
                lower, upper, step, ..
            } => {
                for e in [lower, upper, step].into_iter().flatten() {
                    self.check(e);
                }
            }
            Expr::Starred { value, .. } => self.check(value),
            Expr::BinOp { left, right, .. } => {
                self.check(left);
                self.check(right);
            }
            Expr::Walrus { value, .. } => self.check(value),
            Expr::Name { .. } | Expr::Literal { .. } => {}
        }
        let mut found = Vec::new();
        self.dropped_again(expr, &mut found);
        columns::check(self, expr, &mut found);
        join::check(self, expr, &mut found);
        sklearn::check(self, expr, &mut found);
        targets::check(self, expr, &mut found);
        shapes::check(self, expr, &mut found);
        plots::check(self, expr, &mut found);
        numpy_calls::check(self, expr, &mut found);
        frames::check(self, expr, &mut found);
        value_checks::check(self, expr, &mut found);
        api::check(self, expr, &mut found);
        pytypes::check(self, expr, &mut found);
        keras::check(self, expr, &mut found);
        torch::check(self, expr, &mut found);
        torch::check_tensor_ops(self, expr, &mut found);
        self.out.extend(found);
        if !self.speculating {
            self.follow_call(expr);
        }
    }

    /// `df.drop([10472], inplace=True)` ran already (an earlier cell, or this cell run again):
    /// the label is gone, and dropping it again raises KeyError.
    pub(super) fn dropped_again(&self, expr: &Expr, out: &mut Vec<Diagnostic>) {
        let Some((name, spec)) = super::history::drop_spec(expr) else {
            return;
        };
        let Some(before) = self.drops.get(name) else {
            return;
        };
        // The object the kernel summarized (a drop since would have forgotten it otherwise).
        let summarized = self
            .ctx
            .summaries
            .and_then(|d| d.objects.get(name))
            .map(|o| from_summary(name, o));
        let frame = match summarized {
            Some(Val::Frame(f)) => Some(f),
            Some(Val::Series(_)) => None,
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
            let own = self.ctx.ran
                && self
                    .ctx
                    .cell
                    .dropped
                    .contains(label.trim_matches(['\'', '"']));
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

    /// `a and b`, `a or b`, `x if c else y`: some children may never be evaluated. The IR folds
    /// these into `Other`, so look at the source between the children.
    pub(super) fn short_circuits(&self, range: TextRange, children: &[Expr]) -> bool {
        let mut gaps = String::new();
        let mut pos = range.start;
        for c in children {
            let r = c.range();
            if r.start >= pos {
                gaps.push_str(self.text(TextRange::new(pos, r.start)));
                gaps.push(' ');
                pos = r.end;
            }
        }
        gaps.push_str(self.text(TextRange::new(pos.min(range.end), range.end)));
        // Inside string literals (f-strings) these words are harmless but we stay conservative.
        gaps.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| matches!(w, "and" | "or" | "if" | "else"))
    }
}
