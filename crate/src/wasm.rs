//! The WebAssembly API: a thin adapter. Requests arrive as plain JS objects, internal results leave
//! as the plain serde structs below (positions as line + UTF-16 column for CodeMirror), so nothing
//! internal leaks to JS. The TypeScript types are emitted with the package.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use crate::check::{check_prepared, AnalysedCell, CellCache, CheckInput};
use crate::diagnostic::{self, Severities, Severity};
use crate::dryrun::{self, DryRunException};
use crate::facts::{CellFacts, Origin};
use crate::ir::TextRange;
use crate::llm::claims::{judge_answers as judge, Claim, Evidence, LineSource};
use crate::llm::prompt::{self, PromptRequest};
use crate::position::LineIndex;
use crate::summary::SummaryDoc;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface CheckRequest {
  /** Every notebook cell in order (non-code cells as ""); indices in fixes point into it. */
  cells: string[];
  target_source: string;
  target_index: number | null;
  /** Sources of the cells the kernel ran, in execution order. */
  history: string[];
  /** Indices into `history` of the runs that raised, or may have (absent: none). */
  history_raised?: number[];
  kernel_names: string[] | null;
  /** The kernel's summary document (docs/summary-schema.md). */
  summaries: object | null;
  /** The user's overrides by code: the report's diagnostics and `crash_predicted` follow them. */
  severities?: Severities;
}
export type Severity = "error" | "warning" | "info";
export type Severities = Record<string, Severity | "off">;
export interface Position { line: number; column: number; }
export interface TextEdit { start: Position; end: Position; content: string; }
export interface Fix { message: string; edits: TextEdit[]; run_cells: number[]; }
export interface Diagnostic {
  code: Code;
  severity: Severity;
  message: string;
  start: Position;
  end: Position;
  fix: Fix | null;
}
export interface Wants {
  /** Names to summarize. */
  names: string[];
  /** Dotted attribute paths to summarize (`model.classes_`). */
  paths: string[];
  /** Callables whose signatures matter (`pd.read_csv`, `model.fit`). */
  callables: string[];
  /** Column names the cell mentions: summarized in detail first. */
  focus_columns: string[];
}
export interface CellReport {
  diagnostics: Diagnostic[];
  /** A certain crash: an error among `diagnostics`, after the overrides. The one answer to
   * "is a crash predicted?" (crate/src/diagnostic.rs); never decide it from severities again. */
  crash_predicted: boolean;
  wants: Wants;
}
/** Why a cell is not dry-run: the first thing its code evidently does outside the kernel. */
export interface DryRunDecline {
  effect: "write-file" | "filesystem" | "subprocess" | "network" | "database" | "magic";
  /** What does it, as written: `df.to_csv`, `open`, `!`, `%%bash`, `os.remove`. */
  what: string;
  /** 1-based line in the cell. */
  line: number;
}
export interface DryRunCrashRequest {
  source: string;
  /** The `exception` of the kernel's `dry_run` reply (docs/summary-schema.md). */
  exception: { name: string; message: string; line: number | null };
}
export interface NotebookRequest {
  cells: string[];
  /** Indices into `cells` in the order they are assumed to run; default: top to bottom. */
  order?: number[];
  severities?: Severities;
}
export interface CellDiagnostics { index: number; diagnostics: Diagnostic[]; }
export interface NotebookReport { cells: CellDiagnostics[]; crash_predicted: boolean; }
/** Diagnostics from outside the core (an LLM's finding) to take the user's overrides. */
export interface SeveritiesRequest { diagnostics: Diagnostic[]; severities: Severities; }
export interface Verdict { diagnostics: Diagnostic[]; crash_predicted: boolean; }
export interface PromptOptions {
  /** Runtime facts in the prompt (+RT); false is the paper's -RT baseline. */
  runtime?: boolean;
  categories?: { S: boolean; R: boolean; V: boolean };
  /** API documentation grounding from the kernel's signature answers. */
  docs?: boolean;
  include_examples?: boolean;
  history?: { choice: "all" } | { choice: "dependencies_only"; max_cells: number };
  max_columns?: number;
}
export interface PromptRequest {
  history: string[];
  target: string;
  summaries?: object | null;
  /** The kernel's `signature` answers, by callable path. */
  signatures?: Record<string, object> | null;
  options?: PromptOptions;
}
export interface Prompt {
  system: string;
  user: string;
  chars: number;
  tokens_estimate: number;
  /** Indices into the request's history of the cells sent. */
  history_cells: number[];
  /** JSON schema of the answer, for endpoints with structured output. */
  schema: object;
}
export interface JudgeRequest {
  /** The LLM's raw answers, one per vote. */
  answers: string[];
  target: string;
  summaries?: object | null;
  signatures?: Record<string, object> | null;
}
/** A fact an answer states its verdict rests on (the prompt's closed vocabulary). */
export type StatedClaim =
  | { claim: "missing_column"; object: string; column: string }
  | { claim: "missing_attribute"; object: string; attribute: string }
  | { claim: "bad_keyword"; callable: string; keyword: string }
  | { claim: "undefined_name"; name: string }
  | { claim: "shape"; object: string; shape: (number | null)[] }
  | { claim: "dtype"; object: string; column: string | null; dtype: string }
  | { claim: "has_nan"; object: string; column: string | null }
  | { claim: "not_fitted"; object: string };
export interface Claim {
  stated: StatedClaim;
  /** The claim in words. */
  statement: string;
  outcome: "confirmed" | "refuted" | "unknown";
  /** The kernel's fact, in words (empty when unknown). */
  evidence: string;
}
export interface Judgement {
  /** No answer could be read: why (then the other fields are absent). */
  error?: string;
  /** The verdict after checking the LLM's claims against the kernel. */
  detection?: boolean;
  llm_detection?: boolean;
  downgraded?: boolean;
  /** Why the verdict was downgraded. */
  reason?: string | null;
  reasoning?: string;
  /** 1-based line of the crash in the target cell. */
  line?: number | null;
  /** Where the line comes from: the answers, or the line their decisive claim names. */
  line_source?: "answer" | "claim" | null;
  crash_votes?: number;
  valid_answers?: number;
  /** Why some answers could not be read. */
  answer_errors?: string[];
  claims?: Claim[];
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const CODE_TYPE: &'static str = crate::codes::TYPESCRIPT_CODE;

/// The fields of a check request other than `cells`, `history` (read by `JsStrings`),
/// `kernel_names` and `summaries` (read by `JsParsed`).
#[derive(Deserialize)]
struct CheckRequestRest {
    target_source: String,
    target_index: Option<usize>,
    /// Absent, `undefined` or `null`: none.
    history_raised: Option<Vec<usize>>,
    /// Absent, `undefined` or `null`: none.
    severities: Option<Severities>,
}

/// A field read from JS, kept while the caller passes the same object (`Object.is`): the kernel's
/// summaries and names change when the kernel answers, not on each keystroke, and reading them
/// costs time in proportion to their size.
struct JsParsed<T> {
    js: JsValue,
    value: Rc<Option<T>>,
}

impl<T> Default for JsParsed<T> {
    fn default() -> Self {
        Self {
            js: JsValue::UNDEFINED,
            value: Rc::new(None),
        }
    }
}

impl<T: for<'de> Deserialize<'de>> JsParsed<T> {
    fn update(&mut self, value: JsValue, field: &str) -> Result<Rc<Option<T>>, JsError> {
        if !js_sys::Object::is(&self.js, &value) || self.js.is_undefined() {
            let parsed: Option<T> =
                serde_wasm_bindgen::from_value(value.clone()).map_err(|error| {
                    JsError::new(&format!("cellguard: bad check request: `{field}`: {error}"))
                })?;
            self.value = Rc::new(parsed);
            self.js = value;
        }
        Ok(Rc::clone(&self.value))
    }
}

#[wasm_bindgen(inline_js = "
export function changedStrings(last, next) {
  if (!Array.isArray(next)) throw new TypeError('not an array');
  const changed = [];
  for (let i = 0; i < next.length; i++) {
    if (typeof next[i] !== 'string') throw new TypeError('not a string');
    if (last === undefined || i >= last.length || last[i] !== next[i]) changed.push(i);
  }
  return [next.slice(), Uint32Array.from(changed)];
}")]
extern "C" {
    /// A copy of `next` (an array of strings), and the indices where it differs from `last` (a
    /// copy from the last call, or undefined).
    #[wasm_bindgen(js_name = changedStrings, catch)]
    fn changed_strings(last: &JsValue, next: &JsValue) -> Result<js_sys::Array, JsValue>;
}

/// A list of cell sources from JS, kept across calls with their analyses: copying a string into
/// WebAssembly and finding its analysis cost time in proportion to its length, and a keystroke
/// sends the whole notebook and history again. A string equal (`===`) to the one at the same place
/// in the last call is neither copied nor looked up again.
#[derive(Default)]
struct JsStrings {
    /// A copy of the last call's JS array.
    js: JsValue,
    rust: Vec<String>,
    analysed: Vec<Rc<AnalysedCell>>,
}

impl JsStrings {
    fn update(
        &mut self,
        value: &JsValue,
        field: &str,
        cache: &mut CellCache,
    ) -> Result<(), JsError> {
        let bad = || {
            JsError::new(&format!(
                "cellguard: bad check request: `{field}` must be an array of strings"
            ))
        };
        let pair = changed_strings(&self.js, value).map_err(|_| bad())?;
        let copy = pair.get(0);
        let changed: Vec<u32> = js_sys::Uint32Array::from(pair.get(1)).to_vec();
        let n = js_sys::Array::from(&copy).length() as usize;
        let next = js_sys::Array::from(value);
        self.rust.resize_with(n, String::new);
        self.analysed.truncate(n);
        let mut changed = changed.into_iter().map(|i| i as usize).peekable();
        for i in 0..n {
            if changed.peek() == Some(&i) {
                changed.next();
                let text = next.get(i as u32).as_string().ok_or_else(bad)?;
                let cell = cache.analyse(&text);
                self.rust[i] = text;
                if i < self.analysed.len() {
                    self.analysed[i] = cell;
                } else {
                    self.analysed.push(cell);
                }
            } else {
                cache.keep(&self.analysed[i]);
            }
        }
        self.js = copy;
        Ok(())
    }
}

#[derive(Default)]
struct RequestStrings {
    cells: JsStrings,
    history: JsStrings,
    kernel_names: JsParsed<Vec<String>>,
    summaries: JsParsed<SummaryDoc>,
}

#[derive(Serialize)]
struct Position {
    line: u32,
    column: u32,
}

#[derive(Serialize)]
struct TextEdit {
    start: Position,
    end: Position,
    content: String,
}

#[derive(Serialize)]
struct Fix {
    message: String,
    edits: Vec<TextEdit>,
    run_cells: Vec<usize>,
}

#[derive(Serialize)]
struct Diagnostic {
    code: &'static str,
    severity: Severity,
    message: String,
    start: Position,
    end: Position,
    fix: Option<Fix>,
}

#[derive(Serialize, Default)]
struct Wants {
    names: Vec<String>,
    paths: Vec<String>,
    callables: Vec<String>,
    focus_columns: Vec<String>,
}

#[derive(Serialize)]
struct CellReport {
    diagnostics: Vec<Diagnostic>,
    crash_predicted: bool,
    wants: Wants,
}

#[derive(Deserialize)]
struct NotebookRequest {
    cells: Vec<String>,
    order: Option<Vec<usize>>,
    /// Absent, `undefined` or `null`: none.
    severities: Option<Severities>,
}

#[derive(Serialize)]
struct NotebookReport {
    cells: Vec<CellDiagnostics>,
    crash_predicted: bool,
}

/// JS diagnostics pass through as they are, but for their severity.
#[derive(Deserialize)]
struct SeveritiesRequest {
    diagnostics: Vec<Map<String, Value>>,
    severities: Severities,
}

#[derive(Serialize)]
struct Verdict {
    diagnostics: Vec<Map<String, Value>>,
    crash_predicted: bool,
}

#[derive(Serialize)]
struct CellDiagnostics {
    index: usize,
    diagnostics: Vec<Diagnostic>,
}

thread_local! {
    /// Parsed cells by source, kept across calls so that only edited cells are parsed again.
    static CACHE: RefCell<CellCache> = RefCell::new(CellCache::default());
    /// The last request's notebook cells and history.
    static STRINGS: RefCell<RequestStrings> = RefCell::new(RequestStrings::default());
}

#[wasm_bindgen(start)]
fn start() {
    // The core must never panic on input; if a bug makes it, log why and give the next call a
    // fresh instance (a panicked instance is poisoned).
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("cellguard core: {info}").into());
        wasm_bindgen::handler::schedule_reinit();
    }));
}

/// Gives the next call a fresh instance: for the extension after any exception from the core
/// (a `RangeError` from a stack overflow is not a panic, and leaves the instance's stack pointer and
/// borrows where they were).
#[wasm_bindgen(js_name = resetCore)]
pub fn reset_core() {
    wasm_bindgen::handler::schedule_reinit();
}

/// Checks one cell against the notebook, what ran and the kernel's summaries.
#[wasm_bindgen(js_name = checkCell, unchecked_return_type = "CellReport")]
pub fn check_cell(
    #[wasm_bindgen(unchecked_param_type = "CheckRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let field = |name: &str| js_sys::Reflect::get(&request, &JsValue::from_str(name));
    let (cells, history, kernel_names, summaries) = match (
        field("cells"),
        field("history"),
        field("kernel_names"),
        field("summaries"),
    ) {
        (Ok(cells), Ok(history), Ok(kernel_names), Ok(summaries)) => {
            (cells, history, kernel_names, summaries)
        }
        _ => return Err(JsError::new("cellguard: bad check request: not an object")),
    };
    let request: CheckRequestRest = serde_wasm_bindgen::from_value(request)
        .map_err(|error| JsError::new(&format!("cellguard: bad check request: {error}")))?;
    let report = STRINGS.with_borrow_mut(|strings| {
        CACHE.with_borrow_mut(|cache| {
            cache.next_call();
            let updated = strings
                .cells
                .update(&cells, "cells", cache)
                .and_then(|()| strings.history.update(&history, "history", cache))
                .and_then(|()| {
                    Ok((
                        strings.kernel_names.update(kernel_names, "kernel_names")?,
                        strings.summaries.update(summaries, "summaries")?,
                    ))
                });
            let (kernel_names, summaries) = match updated {
                Ok(parsed) => parsed,
                Err(error) => {
                    // Start afresh next time.
                    *strings = RequestStrings::default();
                    return Err(error);
                }
            };
            let report = check_prepared(
                cache,
                &CheckInput {
                    cells: &strings.cells.rust,
                    target_source: &request.target_source,
                    target_index: request.target_index,
                    history: &strings.history.rust,
                    history_raised: request.history_raised.as_deref().unwrap_or_default(),
                    kernel_names: kernel_names.as_deref(),
                    summaries: summaries.as_ref().as_ref(),
                    severities: request.severities.as_ref().unwrap_or(&Severities::new()),
                },
                &strings.cells.analysed,
                strings.history.analysed.clone(),
            );
            // Keep what the next keystroke will ask again; drop old versions of edited cells.
            cache.retain_used();
            Ok(report)
        })
    })?;
    let index = LineIndex::new(&request.target_source);
    let report = CellReport {
        diagnostics: report
            .diagnostics
            .iter()
            .map(|d| diagnostic_to_js(&index, d))
            .collect(),
        crash_predicted: report.crash_predicted,
        wants: wants(&report.facts, &report.callee_globals),
    };
    to_js(&report)
}

/// Checks every cell as if the cells before it in `order` ran, and nothing else: the offline view
/// of a whole notebook (the CLI's `check`), with no kernel.
#[wasm_bindgen(js_name = checkNotebook, unchecked_return_type = "NotebookReport")]
pub fn check_notebook(
    #[wasm_bindgen(unchecked_param_type = "NotebookRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: NotebookRequest = serde_wasm_bindgen::from_value(request)
        .map_err(|error| JsError::new(&format!("cellguard: bad notebook request: {error}")))?;
    let order = request
        .order
        .unwrap_or_else(|| (0..request.cells.len()).collect());
    let report = crate::check::check_notebook(
        &request.cells,
        &order,
        &request.severities.unwrap_or_default(),
    );
    let cells: Vec<CellDiagnostics> = report
        .cells
        .into_iter()
        .map(|(cell, diagnostics)| {
            let index = LineIndex::new(&request.cells[cell]);
            CellDiagnostics {
                index: cell,
                diagnostics: diagnostics
                    .iter()
                    .map(|d| diagnostic_to_js(&index, d))
                    .collect(),
            }
        })
        .collect();
    to_js(&NotebookReport {
        cells,
        crash_predicted: report.crash_predicted,
    })
}

/// The user's overrides applied to diagnostics found outside the core (an LLM check source), and
/// whether they predict a crash: decided as for the core's own diagnostics.
#[wasm_bindgen(js_name = applySeverities, unchecked_return_type = "Verdict")]
pub fn apply_severities(
    #[wasm_bindgen(unchecked_param_type = "SeveritiesRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let bad = |error: &dyn std::fmt::Display| {
        JsError::new(&format!("cellguard: bad severities request: {error}"))
    };
    let request: SeveritiesRequest =
        serde_wasm_bindgen::from_value(request).map_err(|e| bad(&e))?;
    let mut diagnostics = Vec::new();
    let mut severities = Vec::new();
    for mut diagnostic in request.diagnostics {
        let code = diagnostic.get("code").and_then(Value::as_str).unwrap_or("");
        let severity: Severity = diagnostic
            .get("severity")
            .cloned()
            .map(serde_json::from_value)
            .ok_or_else(|| bad(&"a diagnostic without a severity"))?
            .map_err(|e| bad(&e))?;
        if let Some(severity) = diagnostic::effective_severity(code, severity, &request.severities)
        {
            diagnostic.insert(
                "severity".into(),
                serde_json::to_value(severity).map_err(|e| bad(&e))?,
            );
            severities.push(severity);
            diagnostics.push(diagnostic);
        }
    }
    to_js(&Verdict {
        diagnostics,
        crash_predicted: diagnostic::crash_predicted(severities),
    })
}

/// The LLM prompt for a target cell, as `cellguard bench --llm` builds it.
#[wasm_bindgen(js_name = buildPrompt, unchecked_return_type = "Prompt")]
pub fn build_prompt(
    #[wasm_bindgen(unchecked_param_type = "PromptRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: PromptRequest = serde_wasm_bindgen::from_value(request)
        .map_err(|error| JsError::new(&format!("cellguard: bad prompt request: {error}")))?;
    to_js(&CACHE.with_borrow_mut(|cache| prompt::build_prompt_with(cache, &request)))
}

/// The first evident outside effect of a cell, or null when it may be dry-run.
#[wasm_bindgen(js_name = declineDryRun, unchecked_return_type = "DryRunDecline | null")]
pub fn decline_dry_run(source: &str) -> Result<JsValue, JsError> {
    to_js(&dryrun::decline(source))
}

#[derive(Deserialize)]
struct DryRunCrashRequest {
    source: String,
    exception: DryRunException,
}

/// The `dry-run-crash` error diagnostic for the crash a dry run reported.
#[wasm_bindgen(js_name = dryRunCrash, unchecked_return_type = "Diagnostic")]
pub fn dry_run_crash(
    #[wasm_bindgen(unchecked_param_type = "DryRunCrashRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: DryRunCrashRequest = serde_wasm_bindgen::from_value(request)
        .map_err(|error| JsError::new(&format!("cellguard: bad dry-run crash: {error}")))?;
    let crash = dryrun::crash_diagnostic(&request.source, &request.exception);
    to_js(&diagnostic_to_js(&LineIndex::new(&request.source), &crash))
}

#[derive(Deserialize)]
struct JudgeRequest {
    answers: Vec<String>,
    target: String,
    summaries: Option<SummaryDoc>,
    signatures: Option<Map<String, Value>>,
}

#[derive(Serialize, Default)]
struct Judgement {
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    verdict: Option<JudgedVerdict>,
}

#[derive(Serialize)]
struct JudgedVerdict {
    detection: bool,
    llm_detection: bool,
    downgraded: bool,
    reason: Option<String>,
    reasoning: String,
    line: Option<u32>,
    line_source: Option<LineSource>,
    crash_votes: usize,
    valid_answers: usize,
    answer_errors: Vec<String>,
    claims: Vec<Claim>,
}

/// Reads the LLM's answers (majority vote) and checks each answer's claims against the kernel's
/// summaries and signatures; a crash answer resting on a refuted claim votes no crash.
#[wasm_bindgen(js_name = judgeAnswers, unchecked_return_type = "Judgement")]
pub fn judge_answers(
    #[wasm_bindgen(unchecked_param_type = "JudgeRequest")] request: JsValue,
) -> Result<JsValue, JsError> {
    let request: JudgeRequest = serde_wasm_bindgen::from_value(request)
        .map_err(|error| JsError::new(&format!("cellguard: bad judge request: {error}")))?;
    let evidence = Evidence {
        summaries: request.summaries.as_ref(),
        signatures: request.signatures.as_ref(),
        target: Some(&request.target),
    };
    let judgement = match judge(&request.answers, evidence) {
        Err(error) => Judgement {
            error: Some(error.message),
            verdict: None,
        },
        Ok(judged) => Judgement {
            error: None,
            verdict: Some(JudgedVerdict {
                detection: judged.detection,
                llm_detection: judged.vote.detection,
                downgraded: judged.downgraded,
                reason: judged.reason,
                reasoning: judged.vote.verdict.reasoning,
                line: judged.line,
                line_source: judged.line_source,
                crash_votes: judged.vote.crash_votes,
                valid_answers: judged.vote.valid,
                answer_errors: judged.vote.errors,
                claims: judged.claims,
            }),
        },
    };
    to_js(&judgement)
}

/// Plain JS objects (not `Map`s) for JSON maps, so results read like the JSON they mirror.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    Ok(value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?)
}

fn position(index: &LineIndex, offset: u32) -> Position {
    let position = index.position(offset);
    Position {
        line: position.line,
        column: position.column,
    }
}

fn span(index: &LineIndex, range: TextRange) -> (Position, Position) {
    (position(index, range.start), position(index, range.end))
}

fn diagnostic_to_js(index: &LineIndex, diagnostic: &diagnostic::Diagnostic) -> Diagnostic {
    let (start, end) = span(index, diagnostic.range);
    Diagnostic {
        code: diagnostic.code.code(),
        severity: diagnostic.severity,
        message: diagnostic.message.clone(),
        start,
        end,
        fix: diagnostic.fix.as_ref().map(|fix| Fix {
            message: fix.message.clone(),
            edits: fix
                .edits
                .iter()
                .map(|edit| {
                    let (start, end) = span(index, edit.range);
                    TextEdit {
                        start,
                        end,
                        content: edit.content.clone(),
                    }
                })
                .collect(),
            run_cells: fix.run_cells.clone(),
        }),
    }
}

/// What to ask the kernel about before the rules can say more: summaries of the objects the cell
/// reads from the namespace (and the notebook's functions it calls read), signatures of what it
/// calls on them, columns it mentions.
fn wants(facts: &CellFacts, callee_globals: &[String]) -> Wants {
    let mut wants = Wants::default();
    wants.names.extend(callee_globals.iter().cloned());
    for want in &facts.wants {
        if want.name.contains('.') {
            wants.paths.push(want.name.clone());
        } else {
            wants.names.push(want.name.clone());
        }
    }
    let mut seen = HashSet::new();
    for call in &facts.calls {
        if let Some(callee) = call
            .callee
            .as_ref()
            .filter(|callee| callee.origin == Origin::Kernel)
        {
            let path = callee.path.join(".");
            if seen.insert(path.clone()) {
                wants.callables.push(path);
            }
        }
    }
    let mut seen = HashSet::new();
    for key in facts
        .subscripts
        .iter()
        .filter(|s| s.object.origin == Origin::Kernel)
        .flat_map(|s| &s.keys)
    {
        if seen.insert(key.as_str()) {
            wants.focus_columns.push(key.clone());
        }
    }
    wants
}
