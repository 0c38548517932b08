//! The interpreter over cellguard's IR: follows values through the target cell, the notebook's
//! own functions and what the cells that ran did. It knows no rule: it reports what it evaluates
//! through `Checks`, which the rules implement.

pub mod calls;
mod dispatch;
mod expressions;
pub mod history;
pub mod state;
mod statements;

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::Diagnostic;
use crate::facts::CellFacts;
use crate::ir::{Expr, Stmt};
use crate::order::Namespace;
use crate::semantics::abstract_value::Val;
use crate::summary::SummaryDoc;
use history::{CellRuleFacts, HistoryState};
use state::Forget;
pub use state::Walker;

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
    /// The names defined before the cell runs: the kernel's, else those the cells that ran bound.
    pub namespace: &'a Namespace,
    /// What the cells that ran before tell the rules, combined.
    pub history: &'a HistoryState,
    /// What the target cell's own code tells them (`history::cell_rule_facts` of `body`); the
    /// walk into a called function keeps its caller's.
    pub cell: &'a CellRuleFacts,
    /// The target's source ran already: what it did is in the kernel's state (and `history`).
    pub ran: bool,
}

/// What the walker reports, as ruff's Checker calls its rules: the rules answer with diagnostics.
pub trait Checks {
    /// A statement whose iterated or unpacked values are about to be evaluated.
    fn statement(&self, w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>);
    /// An expression that will certainly be evaluated, its sub-expressions reported before it.
    fn expression(&self, w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>);
    /// A comprehension, its iterable and (when they certainly run) its elements reported before it.
    fn comprehension(&self, w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>);
}

/// What a walk of a cell left in the globals: the values it knew at the end (those it loaded from
/// the history, bound or forgot), and the changes it made to every matching value.
pub struct CellGlobals {
    pub env: BTreeMap<String, Val>,
    pub forgotten: Vec<Forget>,
}

impl CellGlobals {
    /// What a run that raised left: it stopped at a statement not known, so every value the
    /// walk touched may be what it was before, or anything the cell did up to there.
    pub fn uncertain(mut self) -> Self {
        self.env.values_mut().for_each(|val| *val = Val::Unknown);
        self
    }

    /// What a cell that did not run left: nothing.
    pub fn none() -> Self {
        CellGlobals {
            env: BTreeMap::new(),
            forgotten: Vec::new(),
        }
    }
}

/// A walk for its values alone: no rule is asked.
struct NoChecks;

impl Checks for NoChecks {
    fn statement(&self, _: &Walker, _: &Stmt, _: &mut Vec<Diagnostic>) {}
    fn expression(&self, _: &Walker, _: &Expr, _: &mut Vec<Diagnostic>) {}
    fn comprehension(&self, _: &Walker, _: &Expr, _: &mut Vec<Diagnostic>) {}
}

/// What running the cell of `ctx` on top of its history leaves in the globals.
pub fn globals_after(ctx: &RuleContext) -> CellGlobals {
    Walker::new(ctx, &NoChecks).run_keeping_globals().1
}
