//! The entry point of the analysis: one cell against the notebook and what ran (the extension,
//! through the WebAssembly adapter), or a whole notebook in an assumed order (the CLI).
//!
//! Each source is parsed once per cache: the same text among the history, the notebook cells and
//! the target is analysed once. Keep a `CellCache` across calls to re-analyse only edited cells.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::facts::{cell_facts, CellFacts};
use crate::order::{undefined_names, Namespace, NotebookCell};
use crate::python::{parse_cell, ParsedCell};
use crate::summary::SummaryDoc;

pub struct CheckInput<'a> {
    /// The notebook's cells by index (non-code cells may be given as empty strings): indices in
    /// messages and in `Fix::run_cells` are indices into this slice.
    pub cells: &'a [String],
    pub target_source: &'a str,
    /// The target's index in `cells`, when it is one of them.
    pub target_index: Option<usize>,
    /// Sources of the cells that ran, in order. A notebook cell has run when its source, trailing
    /// whitespace aside, is among them.
    pub history: &'a [String],
    /// The names in the kernel's namespace now, when known; otherwise the names the history
    /// defines are used.
    pub kernel_names: Option<&'a [String]>,
    /// Kernel summaries of the objects the target uses (`CellFacts::wants`), for the rules.
    pub summaries: Option<&'a SummaryDoc>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellReport {
    pub diagnostics: Vec<Diagnostic>,
    pub facts: CellFacts,
}

/// A cell parsed and analysed once.
#[derive(Debug)]
pub struct AnalysedCell {
    pub parsed: ParsedCell,
    pub facts: CellFacts,
}

/// Analysed cells by source.
#[derive(Default)]
pub struct CellCache {
    cells: HashMap<String, Rc<AnalysedCell>>,
}

impl CellCache {
    pub fn analyse(&mut self, source: &str) -> Rc<AnalysedCell> {
        if let Some(cell) = self.cells.get(source) {
            return Rc::clone(cell);
        }
        let parsed = parse_cell(source);
        let facts = cell_facts(&parsed.body);
        let cell = Rc::new(AnalysedCell { parsed, facts });
        self.cells.insert(source.to_owned(), Rc::clone(&cell));
        cell
    }

    /// Forgets the cells whose source is not kept, e.g. the previous versions of an edited cell.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.cells.retain(|source, _| keep(source));
    }
}

pub fn check_cell(input: &CheckInput) -> CellReport {
    check_cell_with(&mut CellCache::default(), input)
}

pub fn check_cell_with(cache: &mut CellCache, input: &CheckInput) -> CellReport {
    let target = cache.analyse(input.target_source);
    let namespace = match input.kernel_names {
        Some(names) => Namespace::from_kernel(names),
        None => {
            let mut namespace = Namespace::default();
            for source in input.history {
                namespace.run(&cache.analyse(source).facts);
            }
            namespace
        }
    };
    let ran: HashSet<&str> = input.history.iter().map(|s| s.trim_end()).collect();
    let analysed: Vec<Rc<AnalysedCell>> = input.cells.iter().map(|s| cache.analyse(s)).collect();
    let cells = notebook_cells(input.cells, &analysed);
    let mut diagnostics = diagnose(&target, input.target_index, &namespace, &cells, |source| {
        ran.contains(source.trim_end())
    });
    if target.parsed.syntax_error.is_none() {
        let history: Vec<Rc<AnalysedCell>> =
            input.history.iter().map(|s| cache.analyse(s)).collect();
        let bodies: Vec<&[crate::ir::Stmt]> =
            history.iter().map(|c| c.parsed.body.as_slice()).collect();
        diagnostics.extend(crate::rules::run_on_cell(
            input.target_source,
            &target.parsed.body,
            input.summaries,
            input.kernel_names,
            &bodies,
            input.history,
        ));
    }
    CellReport {
        diagnostics,
        facts: target.facts.clone(),
    }
}

/// Checks each cell listed in `order` as if the cells before it in `order` ran, and nothing else:
/// the CLI's offline view of a notebook. Reports come in `order`.
pub fn check_notebook(cells: &[String], order: &[usize]) -> Vec<(usize, CellReport)> {
    let mut cache = CellCache::default();
    let analysed: Vec<Rc<AnalysedCell>> = cells.iter().map(|s| cache.analyse(s)).collect();
    let notebook = notebook_cells(cells, &analysed);
    let mut namespace = Namespace::default();
    let mut ran: HashSet<&str> = HashSet::new();
    let mut reports = Vec::new();
    for &index in order {
        let Some(target) = analysed.get(index) else {
            continue;
        };
        let diagnostics = diagnose(target, Some(index), &namespace, &notebook, |source| {
            ran.contains(source.trim_end())
        });
        // A cell with a syntax error does not run at all.
        if target.parsed.syntax_error.is_none() {
            namespace.run(&target.facts);
            ran.insert(cells[index].trim_end());
        }
        reports.push((
            index,
            CellReport {
                diagnostics,
                facts: target.facts.clone(),
            },
        ));
    }
    reports
}

fn notebook_cells<'a>(
    sources: &'a [String],
    analysed: &'a [Rc<AnalysedCell>],
) -> Vec<NotebookCell<'a>> {
    sources
        .iter()
        .zip(analysed)
        .enumerate()
        .map(|(index, (source, cell))| NotebookCell {
            index,
            source,
            facts: &cell.facts,
            runnable: cell.parsed.syntax_error.is_none(),
        })
        .collect()
}

/// The target's diagnostics. A syntax error is the only one: the cell does not run at all, and
/// the statements lost to it would make other findings unreliable.
fn diagnose(
    target: &AnalysedCell,
    target_index: Option<usize>,
    namespace: &Namespace,
    cells: &[NotebookCell],
    has_run: impl Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    if let Some(error) = &target.parsed.syntax_error {
        return vec![Diagnostic::error(
            "syntax-error",
            format!("SyntaxError: {}", error.message),
            error.range,
        )];
    }
    undefined_names(&target.facts, target_index, namespace, cells, has_run)
}
