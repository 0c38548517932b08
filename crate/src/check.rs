//! The entry point of the analysis: one cell against the notebook and what ran (the extension,
//! through the WebAssembly adapter), or a whole notebook in an assumed order (the CLI).
//!
//! Each source is parsed once per cache: the same text among the history, the notebook cells and
//! the target is analysed once. Keep a `CellCache` across calls to re-analyse only edited cells.

use std::cell::{Cell, OnceCell};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

use serde::Serialize;

use crate::codes::Rule;
use crate::diagnostic::{apply_severities, crash_predicted, Diagnostic, Severities};
use crate::facts::{cell_facts, CellFacts};
use crate::ir::{Stmt, TextRange};
use crate::order::{undefined_names, Namespace, Notebook, NotebookCell};
use crate::python::{parse_cell_after, ParsedCell, MAX_DEPTH};
use crate::summary::SummaryDoc;
use crate::text_hash::TextHashBuilder;
use crate::walker::history::{cell_effects, cell_rule_facts, CellRuleFacts, Effect, HistoryState};
use crate::walker::CellGlobals;

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
    /// Indices into `history` of the runs that raised: they ran up to an unknown statement, so
    /// the values of what they bind are not known.
    pub history_raised: &'a [usize],
    /// The names in the kernel's namespace now, when known; otherwise the names the history
    /// defines are used.
    pub kernel_names: Option<&'a [String]>,
    /// Kernel summaries of the objects the target uses (`CellFacts::wants`), for the rules.
    pub summaries: Option<&'a SummaryDoc>,
    /// The user's severity overrides: the report's diagnostics and `crash_predicted` follow them.
    pub severities: &'a Severities,
}

impl<'a> CheckInput<'a> {
    /// The cell `target` after the cells `history` ran (they are the notebook too), with no
    /// kernel to ask: the cells' code is all there is, as for a saved notebook.
    pub fn offline(history: &'a [String], target: &'a str, severities: &'a Severities) -> Self {
        CheckInput {
            cells: history,
            target_source: target,
            target_index: None,
            history,
            history_raised: &[],
            kernel_names: None,
            summaries: None,
            severities,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellReport {
    /// After the user's severity overrides.
    pub diagnostics: Vec<Diagnostic>,
    /// An error among `diagnostics` (`diagnostic::crash_predicted`): what every consumer reads.
    pub crash_predicted: bool,
    pub facts: CellFacts,
    /// Globals the notebook's functions the cell calls read (`walker::calls::callee_globals`):
    /// kernel summaries of them let the rules follow those calls.
    pub callee_globals: Vec<String>,
}

/// A cell parsed and analysed once.
#[derive(Debug)]
pub struct AnalysedCell {
    pub source: Rc<str>,
    pub parsed: ParsedCell,
    pub facts: CellFacts,
    /// What the rules need from the cell once it ran: computed when first asked.
    rule_facts: OnceCell<CellRuleFacts>,
    effects: OnceCell<Vec<Effect>>,
    /// The call of the cache that last asked for it (see `CellCache::retain_used`).
    used: Cell<u64>,
    /// The cell read as IPython's automagic runs it (`ParsedCell::automagic`).
    automagic: Option<Box<AnalysedCell>>,
}

impl AnalysedCell {
    fn new(source: Rc<str>, mut parsed: ParsedCell, epoch: u64) -> Self {
        let automagic = parsed
            .automagic
            .take()
            .map(|reading| Box::new(Self::new(Rc::clone(&source), *reading, epoch)));
        Self {
            facts: cell_facts(&parsed.body),
            source,
            parsed,
            rule_facts: OnceCell::new(),
            effects: OnceCell::new(),
            used: Cell::new(epoch),
            automagic,
        }
    }

    pub fn rule_facts(&self) -> &CellRuleFacts {
        self.rule_facts.get_or_init(|| {
            let mut facts = cell_rule_facts(&self.parsed.body, &self.source);
            if self.runs_binding_magic() {
                facts.rebinds_anything = true;
                facts.binds_unseen_names = true;
            }
            facts
        })
    }

    /// What the cell did when it ran, in order (`history::cell_effects`): computed when first
    /// asked, for a cell of the history.
    pub fn effects(&self) -> &[Effect] {
        self.effects.get_or_init(|| {
            let mut effects = cell_effects(&self.parsed.body, &self.source, &self.facts);
            if self.runs_binding_magic() {
                effects.push(Effect::Reset);
            }
            effects
        })
    }

    /// A line magic (`%run`) or a cell magic that may bind any name.
    fn runs_binding_magic(&self) -> bool {
        let line_magic = self
            .parsed
            .runs_line_magic
            .as_deref()
            .is_some_and(crate::walker::history::magic_rebinds_anything);
        // A cell magic is the cell's first non-blank line.
        let cell_magic = self
            .source
            .lines()
            .find(|line| !line.trim().is_empty())
            .and_then(|line| line.trim_start().strip_prefix("%%"))
            .is_some_and(crate::walker::history::cell_magic_binds_names);
        line_magic || cell_magic
    }

    /// The cell as IPython runs it after `namespace`: its automagic reading unless a bound name
    /// shadows the magic (IPython's `is_shadowed`; an unknown namespace shadows nothing).
    pub fn as_run(&self, namespace: &Namespace) -> &AnalysedCell {
        match &self.automagic {
            Some(reading) if !namespace.binds(reading.magic_name()) => reading,
            _ => self,
        }
    }

    /// The part of the cell that ran when it crashed on `line` (1-based): its top-level
    /// statements that start on or before it.
    fn ran_through_line(&self, line: usize) -> AnalysedCell {
        let lines = crate::position::LineIndex::new(&self.source);
        let parsed = ParsedCell {
            body: self
                .parsed
                .body
                .iter()
                .take_while(|stmt| (lines.position(stmt.range().start).line as usize) < line)
                .cloned()
                .collect(),
            ..self.parsed.clone()
        };
        AnalysedCell::new(Rc::clone(&self.source), parsed, self.used.get())
    }

    fn magic_name(&self) -> &str {
        self.parsed.runs_line_magic.as_deref().unwrap_or_default()
    }
}

/// The history combined, kept while the history stays the same or only grows.
#[derive(Clone, Debug, Default)]
struct HistoryView {
    /// The namespace the history's definitions make (used when the kernel's names are unknown).
    namespace: Namespace,
    rules: HistoryState,
}

/// The kernel's list of names, as the checks use it.
struct KernelView {
    namespace: Namespace,
    names: BTreeSet<String>,
}

/// A cell of the history, and whether its run raised.
type HistoryRun = (Rc<AnalysedCell>, bool);

/// Analysed cells by source, and what was combined from them for the last call.
#[derive(Default)]
pub struct CellCache {
    cells: HashMap<Rc<str>, Rc<AnalysedCell>, TextHashBuilder>,
    /// Counts the calls of `check_cell_with`.
    epoch: u64,
    /// The last call's history and what it combined to.
    history: Option<(Vec<HistoryRun>, Rc<HistoryView>)>,
    kernel: Option<(Vec<String>, Rc<KernelView>)>,
    /// The cell parsed last: the previous version of the cell being edited, whose statements
    /// above the edit are reused (`python::parse_cell_after`).
    last_parsed: Option<Rc<AnalysedCell>>,
}

impl CellCache {
    pub fn analyse(&mut self, source: &str) -> Rc<AnalysedCell> {
        if let Some(cell) = self.cells.get(source) {
            cell.used.set(self.epoch);
            return Rc::clone(cell);
        }
        let source: Rc<str> = Rc::from(source);
        let earlier = self
            .last_parsed
            .as_ref()
            .map(|cell| (&*cell.source, &cell.parsed));
        let parsed = parse_cell_after(&source, earlier);
        let cell = Rc::new(AnalysedCell::new(Rc::clone(&source), parsed, self.epoch));
        self.cells.insert(source, Rc::clone(&cell));
        self.last_parsed = Some(Rc::clone(&cell));
        cell
    }

    /// Starts a call: `retain_used` keeps what is used from now on.
    pub fn next_call(&mut self) {
        self.epoch += 1;
    }

    /// Marks a cell kept from the last call as used in this one.
    pub fn keep(&self, cell: &AnalysedCell) {
        cell.used.set(self.epoch);
    }

    /// Forgets the cells whose source is not kept, e.g. the previous versions of an edited cell.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.cells.retain(|source, _| keep(source));
    }

    /// Forgets the cells the current call (since `next_call`) did not use (a check keeps its
    /// notebook cells, history and target): the previous versions of an edited cell go.
    pub fn retain_used(&mut self) {
        let epoch = self.epoch;
        self.cells.retain(|_, cell| cell.used.get() == epoch);
    }

    /// The history combined, from the last call's when the history is the same or grew.
    fn history_view(
        &mut self,
        history: Vec<Rc<AnalysedCell>>,
        raised: &[usize],
    ) -> Rc<HistoryView> {
        let history: Vec<HistoryRun> = history
            .into_iter()
            .enumerate()
            .map(|(i, cell)| (cell, raised.contains(&i)))
            .collect();
        let mut view = HistoryView::default();
        let mut done = 0;
        if let Some((cells, last)) = &self.history {
            let prefix = cells.len() <= history.len()
                && cells
                    .iter()
                    .zip(&history)
                    .all(|((a, a_raised), (b, b_raised))| Rc::ptr_eq(a, b) && a_raised == b_raised);
            if prefix && cells.len() == history.len() {
                return Rc::clone(last);
            }
            if prefix {
                view = HistoryView::clone(last);
                done = cells.len();
            }
        }
        for (cell, raised) in &history[done..] {
            let cell = cell.as_run(&view.namespace);
            run_cell(&mut view.namespace, &mut view.rules, cell, *raised, None);
        }
        let view = Rc::new(view);
        self.history = Some((history, Rc::clone(&view)));
        view
    }

    fn kernel_view(&mut self, names: &[String]) -> Rc<KernelView> {
        if let Some((last, view)) = &self.kernel {
            if last.as_slice() == names {
                return Rc::clone(view);
            }
        }
        let view = Rc::new(KernelView {
            namespace: Namespace::from_kernel(names),
            names: names.iter().cloned().collect(),
        });
        self.kernel = Some((names.to_vec(), Rc::clone(&view)));
        view
    }
}

pub fn check_cell(input: &CheckInput) -> CellReport {
    check_cell_with(&mut CellCache::default(), input)
}

pub fn check_cell_with(cache: &mut CellCache, input: &CheckInput) -> CellReport {
    cache.next_call();
    let history: Vec<Rc<AnalysedCell>> = input.history.iter().map(|s| cache.analyse(s)).collect();
    let cells: Vec<Rc<AnalysedCell>> = input.cells.iter().map(|s| cache.analyse(s)).collect();
    check_prepared(cache, input, &cells, history)
}

/// `check_cell_with` for a caller that analysed `input.cells` and `input.history` itself, in this
/// call of the cache (after `next_call`): with `cache.analyse`, or kept from the last call and
/// marked with `cache.keep`.
pub fn check_prepared(
    cache: &mut CellCache,
    input: &CheckInput,
    analysed: &[Rc<AnalysedCell>],
    history: Vec<Rc<AnalysedCell>>,
) -> CellReport {
    let analysed_target = cache.analyse(input.target_source);
    let view = cache.history_view(history, input.history_raised);
    let kernel = input.kernel_names.map(|names| cache.kernel_view(names));
    let namespace = match &kernel {
        Some(kernel) => &kernel.namespace,
        None => &view.namespace,
    };
    let target = analysed_target.as_run(namespace);
    let cells = notebook_cells(input.cells, analysed);
    // Asked only about cells that define a name the target lacks.
    let has_run = |source: &str| {
        let source = source.trim_end();
        input.history.iter().any(|h| h.trim_end() == source)
    };
    let known = Known {
        namespace,
        history: &view.rules,
        summaries: input.summaries,
        kernel_names: kernel.as_ref().map(|k| &k.names),
        severities: input.severities,
    };
    let (diagnostics, _) = diagnose(target, input.target_index, &known, &cells, has_run);
    CellReport {
        crash_predicted: crash_predicted(diagnostics.iter().map(|d| d.severity)),
        diagnostics,
        facts: target.facts.clone(),
        callee_globals: crate::walker::calls::callee_globals(&target.facts, &view.rules),
    }
}

/// The diagnostics of the cells of a notebook, each code cell once, in the order checked.
#[derive(Clone, Debug, PartialEq)]
pub struct NotebookReport {
    /// (index among the notebook's cells, diagnostics after the user's overrides).
    pub cells: Vec<(usize, Vec<Diagnostic>)>,
    /// A crash is predicted in some cell (`diagnostic::crash_predicted`).
    pub crash_predicted: bool,
}

/// Checks each cell listed in `order` as if the cells before it in `order` ran, and nothing else:
/// the CLI's offline view of a notebook. Reports come in `order`.
pub fn check_notebook(
    cells: &[String],
    order: &[usize],
    severities: &Severities,
) -> NotebookReport {
    let steps: Vec<SessionStep> = order.iter().map(|&index| SessionStep::ran(index)).collect();
    check_session(cells, &steps, &HashSet::new(), severities)
}

/// A cell run in a notebook's session, as the saved notebook tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionStep {
    pub index: usize,
    /// The cell crashed: only its top-level statements that start on or before this line (1-based;
    /// 0 when nothing ran) ran, from its saved error output.
    pub ran_through_line: Option<usize>,
    /// Why what ran before this cell is not known for certain (counts missing from the saved
    /// notebook, ...): its diagnostics are then likely (warnings), not certain.
    pub uncertain: Option<String>,
}

impl SessionStep {
    pub fn ran(index: usize) -> Self {
        Self {
            index,
            ran_through_line: None,
            uncertain: None,
        }
    }
}

/// `check_notebook` for a saved session: cells that crashed bind what ran before the crash, and a
/// step whose history is uncertain gets warnings. `unnumbered` holds the cells with no execution
/// count: they may have run, unseen.
pub fn check_session(
    cells: &[String],
    steps: &[SessionStep],
    unnumbered: &HashSet<usize>,
    severities: &Severities,
) -> NotebookReport {
    let mut cache = CellCache::default();
    let analysed: Vec<Rc<AnalysedCell>> = cells.iter().map(|s| cache.analyse(s)).collect();
    let mut notebook = notebook_cells(cells, &analysed);
    for cell in &mut notebook.cells {
        cell.may_have_run = unnumbered.contains(&cell.index);
        cell.crashed = steps
            .iter()
            .any(|step| step.index == cell.index && step.ran_through_line.is_some());
    }
    let mut namespace = Namespace::default();
    let mut history = HistoryState::default();
    // Asked only about cells that define a name the target lacks.
    let mut ran: Vec<&str> = Vec::new();
    let mut reports = Vec::new();
    for step in steps {
        let index = step.index;
        let Some(target) = analysed.get(index) else {
            continue;
        };
        let target = target.as_run(&namespace);
        // Offline: no kernel to ask, the rules work from the code alone.
        let known = Known {
            namespace: &namespace,
            history: &history,
            summaries: None,
            kernel_names: None,
            severities,
        };
        let (mut diagnostics, globals) =
            diagnose(target, Some(index), &known, &notebook, |source| {
                ran.contains(&source.trim_end())
            });
        if let Some(reason) = &step.uncertain {
            for diagnostic in &mut diagnostics {
                diagnostic.make_likely(reason);
            }
        }
        // A cell with a syntax error does not run at all.
        if target.parsed.syntax_error.is_none() {
            let partial = step
                .ran_through_line
                .map(|line| target.ran_through_line(line));
            match &partial {
                Some(part) => run_cell(&mut namespace, &mut history, part, false, None),
                // The walk that checked the cell is the walk of what it left.
                None => run_cell(&mut namespace, &mut history, target, false, Some(globals)),
            }
            ran.push(cells[index].trim_end());
        }
        reports.push((index, diagnostics));
    }
    NotebookReport {
        crash_predicted: crash_predicted(reports.iter().flat_map(|(_, d)| d).map(|d| d.severity)),
        cells: reports,
    }
}

/// The namespace and the history after `cell` ran: its facts, and what its walk left in the
/// globals (`walked`, when that walk was done already). A cell with a syntax error ran nothing,
/// but its statements that parse are in its facts: the values of the names they bind are
/// forgotten. A run that `raised` stopped at a statement not known: what any of its statements
/// may have done holds.
fn run_cell(
    namespace: &mut Namespace,
    history: &mut HistoryState,
    cell: &AnalysedCell,
    raised: bool,
    walked: Option<CellGlobals>,
) {
    let globals = match (walked, &cell.parsed.syntax_error) {
        (Some(globals), _) => globals,
        (None, None) => crate::walker::globals_after(&crate::walker::RuleContext {
            source: &cell.source,
            body: &cell.parsed.body,
            facts: &cell.facts,
            summaries: None,
            kernel_names: None,
            namespace,
            history,
            cell: cell.rule_facts(),
            ran: false,
        }),
        (None, Some(_)) => CellGlobals::none(),
    };
    namespace.run(&cell.facts, cell.rule_facts().binds_unseen_names);
    let globals = if raised { globals.uncertain() } else { globals };
    history.run(cell.rule_facts(), cell.effects());
    history.absorb(globals, cell.rule_facts(), cell.effects());
}

fn notebook_cells<'a>(sources: &'a [String], analysed: &'a [Rc<AnalysedCell>]) -> Notebook<'a> {
    let cells = sources
        .iter()
        .zip(analysed)
        .enumerate()
        .map(|(index, (source, cell))| NotebookCell {
            index,
            source,
            facts: &cell.facts,
            runnable: cell.parsed.syntax_error.is_none(),
            may_have_run: false,
            crashed: false,
        })
        .collect();
    Notebook::new(cells)
}

/// What is known when the target runs.
struct Known<'a> {
    namespace: &'a Namespace,
    history: &'a HistoryState,
    summaries: Option<&'a SummaryDoc>,
    kernel_names: Option<&'a BTreeSet<String>>,
    severities: &'a Severities,
}

/// The target's diagnostics after the user's overrides: undefined names, then the rules. A syntax
/// error is the only one: the cell does not run at all, and the statements lost to it would make
/// other findings unreliable.
fn diagnose(
    target: &AnalysedCell,
    target_index: Option<usize>,
    known: &Known,
    notebook: &Notebook,
    has_run: impl Fn(&str) -> bool,
) -> (Vec<Diagnostic>, CellGlobals) {
    let (mut diagnostics, globals) = match &target.parsed.syntax_error {
        Some(error) => (
            vec![Diagnostic::error(
                Rule::SyntaxError,
                format!(
                    "SyntaxError: {}",
                    plain_syntax_message(
                        &error.message,
                        target
                            .source
                            .get(..error.range.start as usize)
                            .unwrap_or("")
                    )
                ),
                error.range,
            )],
            CellGlobals::none(),
        ),
        None => {
            let ran = has_run(&target.source);
            let mut found = too_deep(&target.parsed.body, &target.source);
            // `exec`, `globals()[...] = `, a magic: the cell may bind any name before it reads it.
            if !target.rule_facts().rebinds_anything {
                found.extend(undefined_names(
                    &target.facts,
                    target_index,
                    known.namespace,
                    notebook,
                    &has_run,
                ));
            }
            let (rules_found, globals) =
                crate::rules::run_keeping_globals(&crate::rules::RuleContext {
                    source: &target.source,
                    body: &target.parsed.body,
                    facts: &target.facts,
                    summaries: known.summaries,
                    kernel_names: known.kernel_names,
                    namespace: known.namespace,
                    history: known.history,
                    cell: target.rule_facts(),
                    ran,
                });
            found.extend(rules_found);
            (found, globals)
        }
    };
    apply_severities(&mut diagnostics, known.severities);
    (diagnostics, globals)
}

/// One `too-deep` note per top-level statement nested too deeply to analyse, on its first line.
fn too_deep(body: &[Stmt], source: &str) -> Vec<Diagnostic> {
    body.iter()
        .filter_map(|stmt| match stmt {
            Stmt::TooDeep { range, .. } => Some(*range),
            _ => None,
        })
        .map(|range| {
            let start = range.start as usize;
            let line_end = source
                .get(start..range.end as usize)
                .and_then(|text| text.find('\n'))
                .map_or(range.end, |at| (start + at) as u32);
            Diagnostic {
                code: Rule::TooDeep,
                severity: Rule::TooDeep.default_severity(),
                message: format!(
                    "this statement nests more than {MAX_DEPTH} levels deep, too deep for cellguard to analyse: it was not checked, and what it may change is treated as unknown"
                ),
                range: TextRange::new(range.start, line_end),
                fix: None,
            }
        })
        .collect()
}

/// The parser's message (rustpython's wording) in plain words; `before` is the cell's text before
/// the error.
fn plain_syntax_message(message: &str, before: &str) -> String {
    // A block with no body yet (`for row in rows:` and nothing below) reads to the parser as a
    // dedent matching nothing, or an early end.
    let opens_block = before
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .is_some_and(|line| line.trim_end().ends_with(':'));
    let plain = match message {
        "unindent does not match any outer indentation level"
        | "expected an indented block"
        | "Got unexpected EOF"
        | "unexpected EOF while parsing"
            if opens_block =>
        {
            "a line ending with `:` needs an indented block below it"
        }
        "Got unexpected EOF" | "unexpected EOF while parsing" => {
            "the cell ends in the middle of a statement (a bracket, string or block left open)"
        }
        "unexpected indent" => "this line is indented more than the code around it",
        "expected an indented block" => "a line ending with `:` needs an indented block below it",
        "unindent does not match any outer indentation level" => {
            "this line's indentation matches no block above it"
        }
        "Got unexpected string" => "a string is not closed on its line",
        "inconsistent use of tabs and spaces in indentation"
        | "Tabs not allowed as part of indentation after spaces" => {
            "the indentation mixes tabs and spaces"
        }
        _ => {
            return match message
                .strip_prefix("invalid syntax. Got unexpected token ")
                .or_else(|| message.strip_prefix("Got unexpected token "))
            {
                Some(token) => format!("Python does not expect `{token}` here"),
                None => message.to_owned(),
            }
        }
    };
    plain.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// A cache kept across calls (the history the same, grown, or replaced) answers as a fresh one.
    #[test]
    fn a_kept_cache_answers_like_a_fresh_one() {
        let target = "t = tqdm(range(3))\nprint(x)";
        let histories = [
            strings(&["import tqdm"]),
            strings(&["import tqdm"]),
            strings(&["import tqdm", "x = 1"]),
            strings(&["import tqdm", "x = 1", "from tqdm import tqdm"]),
            strings(&["x = 1"]),
            strings(&["import tqdm", "x = 1"]),
        ];
        let mut cache = CellCache::default();
        let severities = Severities::new();
        for history in &histories {
            let input = CheckInput::offline(history, target, &severities);
            let kept = check_cell_with(&mut cache, &input);
            cache.retain_used();
            assert_eq!(kept, check_cell(&input), "history {history:?}");
        }
    }

    /// The user's overrides decide the report's severities and whether a crash is predicted.
    #[test]
    fn overrides_decide_the_crash_prediction() {
        use crate::diagnostic::{Severity, SeverityOverride};
        let cells = strings(&["print(nowhere)"]);
        let report = |overrides: &[(&str, SeverityOverride)]| {
            let severities: Severities = overrides
                .iter()
                .map(|(code, level)| (code.to_string(), *level))
                .collect();
            check_cell(&CheckInput {
                cells: &cells,
                target_source: &cells[0],
                target_index: Some(0),
                history: &[],
                history_raised: &[],
                kernel_names: None,
                summaries: None,
                severities: &severities,
            })
        };
        let plain = report(&[]);
        assert!(plain.crash_predicted);
        assert_eq!(plain.diagnostics[0].severity, Severity::Error);
        let warned = report(&[("undefined-name", SeverityOverride::Warning)]);
        assert!(!warned.crash_predicted);
        assert_eq!(warned.diagnostics[0].severity, Severity::Warning);
        let off = report(&[("undefined-name", SeverityOverride::Off)]);
        assert!(!off.crash_predicted && off.diagnostics.is_empty());
        let other = report(&[("missing-column", SeverityOverride::Off)]);
        assert_eq!(other, plain);
        // The notebook view follows the same overrides.
        let severities = Severities::from([("undefined-name".to_string(), SeverityOverride::Info)]);
        let notebook = check_notebook(&cells, &[0], &severities);
        assert!(!notebook.crash_predicted);
        assert_eq!(notebook.cells[0].1[0].severity, Severity::Info);
        assert!(check_notebook(&cells, &[0], &Severities::new()).crash_predicted);
    }
}
