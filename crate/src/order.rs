//! Execution order: which names a cell reads will be undefined when it runs, given what ran
//! before it, and which notebook cells would define them ("run the cell above first").

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use crate::builtins::is_always_defined;
use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::facts::CellFacts;
use crate::text_hash::TextHashBuilder;

/// The names defined in the kernel when the target cell runs.
#[derive(Clone, Debug, Default)]
pub struct Namespace {
    names: HashSet<String, TextHashBuilder>,
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
    pub fn names(&self) -> Option<&HashSet<String, TextHashBuilder>> {
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

/// The notebook's code cells, and which of them define each name: an index built when a name is
/// first missing from the namespace, then shared by every target of the notebook.
pub struct Notebook<'a> {
    pub cells: Vec<NotebookCell<'a>>,
    definers: OnceCell<HashMap<&'a str, Vec<usize>, TextHashBuilder>>,
}

impl<'a> Notebook<'a> {
    pub fn new(cells: Vec<NotebookCell<'a>>) -> Self {
        Self {
            cells,
            definers: OnceCell::new(),
        }
    }

    /// The runnable cells that define `name`, in notebook order.
    fn definers(&self, name: &str) -> impl Iterator<Item = &NotebookCell<'a>> {
        let index = self.definers.get_or_init(|| {
            let mut index: HashMap<&'a str, Vec<usize>, TextHashBuilder> = HashMap::default();
            for (position, cell) in self.cells.iter().enumerate() {
                for definition in cell.facts.definitions.iter().filter(|_| cell.runnable) {
                    let cells = index.entry(definition.name.as_str()).or_default();
                    if cells.last() != Some(&position) {
                        cells.push(position);
                    }
                }
            }
            index
        });
        index
            .get(name)
            .into_iter()
            .flatten()
            .map(|&position| &self.cells[position])
    }
}

/// `undefined-name` errors for the target's free names missing from the namespace, each with the
/// notebook cells that define the name; `has_run` tells whether a source has run.
pub fn undefined_names(
    target: &CellFacts,
    target_index: Option<usize>,
    namespace: &Namespace,
    notebook: &Notebook,
    has_run: impl Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = target
        .reads_after_deletion
        .iter()
        .map(|read| {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{}` is not defined: `del {}` earlier in this cell deleted it, and nothing bound it again",
                    read.name, read.name
                ),
                read.range,
            )
        })
        .collect();
    for free in &target.free_names {
        let name = free.name.as_str();
        let after_deletion = target.reads_after_deletion.contains(free);
        if namespace.defines(name) || after_deletion {
            continue;
        }
        let (ran, not_run): (Vec<&NotebookCell>, Vec<&NotebookCell>) = notebook
            .definers(name)
            .filter(|cell| Some(cell.index) != target_index)
            .partition(|cell| has_run(cell.source));
        let diagnostic = if let Some(cell) = closest(&not_run, target_index) {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{name}` is not defined: no cell that ran defines it; {} but {} not run",
                    define_it(&not_run, target_index),
                    if not_run.len() == 1 { "has" } else { "have" }
                ),
                free.range,
            )
            .with_fix(run_first(cell.index, target_index))
        } else if let Some(cell) = closest(&ran, target_index).filter(|cell| cell.crashed) {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{name}` is not defined: {} defines it, but crashed before binding it \
                     when it ran (its saved output is an error)",
                    cell_label(cell.index, target_index)
                ),
                free.range,
            )
            .with_fix(run_first(cell.index, target_index))
        } else if let Some(cell) = closest(&ran, target_index) {
            Diagnostic::error(
                Rule::UndefinedName,
                format!(
                    "`{name}` is not defined in the kernel, although {} and ran: it was deleted, \
                     not bound on the path taken, or the kernel restarted",
                    define_it(&ran, target_index)
                ),
                free.range,
            )
            .with_fix(run_first(cell.index, target_index))
        } else {
            let message = format!(
                "`{name}` is not defined: no cell that ran defines it, nor any cell of the notebook"
            );
            match did_you_mean(name, target, namespace) {
                // As Python's own NameError suggests a close name of the namespace or builtins.
                Some(close) => Diagnostic::error(
                    Rule::UndefinedName,
                    format!("{message}; did you mean `{close}`?"),
                    free.range,
                )
                .with_fix(Fix::replace(
                    format!("Use `{close}`"),
                    free.range,
                    close.clone(),
                )),
                None => Diagnostic::error(Rule::UndefinedName, message, free.range),
            }
        };
        let mut diagnostic = diagnostic;
        if let Some(cell) = not_run.iter().find(|cell| cell.may_have_run) {
            diagnostic.make_likely(&format!(
                "{} defines it and has no execution count: it may have run",
                cell_label(cell.index, target_index)
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

/// A defined name that resembles the undefined `name`: one of the namespace, of the target
/// cell's own definitions, or a builtin.
fn did_you_mean(name: &str, target: &CellFacts, namespace: &Namespace) -> Option<String> {
    let defined = namespace.names.iter().map(String::as_str);
    let own = target.definitions.iter().map(|d| d.name.as_str());
    let builtins = crate::builtins::python_builtins().map(|b| -> &str { b });
    let others = defined.chain(own).chain(builtins).filter(|c| *c != name);
    crate::did_you_mean::suggest(name, others).map(str::to_string)
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

/// How a message names another cell: by its place relative to the target ("the cell above", "the
/// 3rd cell below"), as the user sees the notebook. JupyterLab shows no cell numbers, and a cell
/// that has not run has no execution count. A target outside the notebook: "cell 4", from 1.
pub fn cell_label(index: usize, target_index: Option<usize>) -> String {
    let Some(target) = target_index else {
        return format!("cell {}", index + 1);
    };
    let (distance, side) = if index < target {
        (target - index, "above")
    } else {
        (index - target, "below")
    };
    match distance {
        0 => "this cell".to_string(),
        1 => format!("the cell {side}"),
        n => format!("the {} cell {side}", ordinal(n)),
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "the cell above defines it", "the 3rd cell above and the cell below define it"; past three
/// cells, how many and the nearest.
fn define_it(cells: &[&NotebookCell], target_index: Option<usize>) -> String {
    let labels: Vec<String> = cells
        .iter()
        .map(|cell| cell_label(cell.index, target_index))
        .collect();
    match labels.as_slice() {
        [one] => format!("{one} defines it"),
        [first, second] => format!("{first} and {second} define it"),
        [first, second, third] => format!("{first}, {second} and {third} define it"),
        _ => {
            let nearest = closest(cells, target_index)
                .map(|cell| format!(" ({} is the nearest)", cell_label(cell.index, target_index)))
                .unwrap_or_default();
            format!("{} cells define it{nearest}", labels.len())
        }
    }
}

fn run_first(index: usize, target_index: Option<usize>) -> Fix {
    Fix {
        message: format!("Run {} first", cell_label(index, target_index)),
        edits: Vec::new(),
        run_cells: vec![index],
    }
}
