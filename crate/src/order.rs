//! Execution order: which names a cell reads will be undefined when it runs, given what ran
//! before it, and which notebook cells would define them ("run cell 3 first").

use std::collections::HashSet;

use crate::builtins::is_always_defined;
use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::facts::CellFacts;

/// The names defined in the kernel when the target cell runs.
#[derive(Clone, Debug, Default)]
pub struct Namespace {
    names: HashSet<String>,
    /// A star import, `%run`, `exec` or a write to `globals()` ran and the names it bound are
    /// unknown: no name can be called undefined.
    opaque: bool,
}

impl Namespace {
    /// The kernel's own list of names: exact, star imports included.
    pub fn from_kernel(names: &[String]) -> Self {
        Self {
            names: names.iter().cloned().collect(),
            opaque: false,
        }
    }

    /// Applies what a cell that ran did to the namespace; `binds_unseen_names` when it may have
    /// bound names the analysis cannot see (`CellRuleFacts::binds_unseen_names`).
    pub fn run(&mut self, facts: &CellFacts, binds_unseen_names: bool) {
        for definition in &facts.definitions {
            self.names.insert(definition.name.clone());
        }
        for deletion in &facts.deletions {
            self.names.remove(&deletion.name);
        }
        self.opaque |= facts.star_import || binds_unseen_names;
    }

    /// Every name defined, or `None` when that is unknown (`opaque`).
    pub fn names(&self) -> Option<&HashSet<String>> {
        (!self.opaque).then_some(&self.names)
    }

    /// Whether a cell that ran bound `name` (and no later one deleted it); false when unknown.
    pub fn binds(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    fn defines(&self, name: &str) -> bool {
        self.opaque || self.names.contains(name) || is_always_defined(name)
    }
}

/// A code cell of the notebook, by its index in the notebook.
pub struct NotebookCell<'a> {
    pub index: usize,
    pub source: &'a str,
    pub facts: &'a CellFacts,
    /// False for a cell with a syntax error: running it defines nothing.
    pub runnable: bool,
    /// A saved notebook's cell with no execution count: it may have run, unseen.
    pub may_have_run: bool,
    /// A saved notebook's cell whose output is an error: it crashed when it ran.
    pub crashed: bool,
}

/// `undefined-name` errors for the target's free names missing from the namespace, each with the
/// notebook cells that define the name; `has_run` tells whether a source has run.
pub fn undefined_names(
    target: &CellFacts,
    target_index: Option<usize>,
    namespace: &Namespace,
    cells: &[NotebookCell],
    has_run: impl Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for free in &target.free_names {
        let name = free.name.as_str();
        if namespace.defines(name) {
            continue;
        }
        let (ran, not_run): (Vec<&NotebookCell>, Vec<&NotebookCell>) = cells
            .iter()
            .filter(|cell| {
                cell.runnable && Some(cell.index) != target_index && cell.facts.defines(name)
            })
            .partition(|cell| has_run(cell.source));
        let diagnostic = if let Some(cell) = closest(&not_run, target_index) {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{name}` is not defined: no cell that ran defines it; {} but {} not run",
                    define_it(&not_run),
                    if not_run.len() == 1 { "has" } else { "have" }
                ),
                free.range,
            )
            .with_fix(run_first(cell.index))
        } else if let Some(cell) = closest(&ran, target_index).filter(|cell| cell.crashed) {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{name}` is not defined: cell {} defines it, but crashed before binding it \
                     when it ran (its saved output is an error)",
                    cell.index + 1
                ),
                free.range,
            )
            .with_fix(run_first(cell.index))
        } else if let Some(cell) = closest(&ran, target_index) {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{name}` is not defined in the kernel, although {} and ran: it was deleted, \
                     not bound on the path taken, or the kernel restarted",
                    define_it(&ran)
                ),
                free.range,
            )
            .with_fix(run_first(cell.index))
        } else {
            Diagnostic::error(
                Rule::UndefinedName,
                format!("`{name}` is not defined: no cell that ran defines it, nor any cell of the notebook"),
                free.range,
            )
        };
        let mut diagnostic = diagnostic;
        if let Some(cell) = not_run.iter().find(|cell| cell.may_have_run) {
            diagnostic.make_likely(&format!(
                "cell {} defines it and has no execution count: it may have run",
                cell.index + 1
            ));
        }
        diagnostics.push(if target.deferred_reads.contains(name) {
            // Defining a function reads nothing: the NameError comes if and when it is called.
            Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "{} (read in a function body: NameError when it is called)",
                    diagnostic.message
                ),
                ..diagnostic
            }
        } else {
            diagnostic
        });
    }
    diagnostics
}

/// The defining cell to run: the last one above the target, else the first one below it.
fn closest<'c>(
    cells: &[&'c NotebookCell<'c>],
    target_index: Option<usize>,
) -> Option<&'c NotebookCell<'c>> {
    let target = target_index.unwrap_or(usize::MAX);
    cells
        .iter()
        .copied()
        .rfind(|cell| cell.index < target)
        .or_else(|| cells.first().copied())
}

/// "cell 7 defines it", "cells 2, 7 define it": numbered from 1 in the notebook, as people count
/// (`[n]` would read as an execution count).
fn define_it(cells: &[&NotebookCell]) -> String {
    let list = cells
        .iter()
        .map(|cell| (cell.index + 1).to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if cells.len() == 1 {
        format!("cell {list} defines it")
    } else {
        format!("cells {list} define it")
    }
}

fn run_first(index: usize) -> Fix {
    Fix {
        message: format!("Run cell {} first", index + 1),
        edits: Vec::new(),
        run_cells: vec![index],
    }
}
