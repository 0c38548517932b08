//! The LLM prompt of CRANE-LLM (§3.2, Listing 1), built once here so the browser (through the
//! WebAssembly adapter) and the CLI send the same text.
//!
//! Structure, as in the paper: instructions with a JSON answer schema (the system message), then
//! the executed cells in execution order, the runtime facts of the names the target cell uses, and
//! the target cell (the user message). Configurations as in §3.3: without runtime information
//! (`runtime: false`, the paper's -RT), leaving out any of the S / R / V categories, and optional
//! API documentation grounding (`docs`, from the kernel's `signature` answers).
//!
//! Compared with the paper the prompt is compact:
//! - facts are one line per object (`df: DataFrame shape (891, 12) | columns: Age:float64 ...`),
//!   not a pretty-printed dict;
//! - when the history is long, only the cells the target depends on are sent (see
//!   [`select_history`]);
//! - executed cells lose comment-only lines, trailing blanks and runs of blank lines.
//!
//! The answer schema adds `line` (1-based line of the crash in the target cell, or null) and
//! `claims` (the facts a crash rests on, in a closed vocabulary the kernel's facts can check: see
//! [`crate::llm::verdict::StatedClaim`]) to the paper's `reasoning` and `detection`.

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::check::CellCache;
use crate::facts::{CellFacts, DefinitionKind};
use crate::ir::Stmt;
use crate::summary::{tuple_text, Category, FailureFields, ObjectSummary, SummaryDoc};

/// Which of the paper's runtime-fact categories go into the prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Categories {
    #[serde(rename = "S")]
    pub s: bool,
    #[serde(rename = "R")]
    pub r: bool,
    #[serde(rename = "V")]
    pub v: bool,
}

impl Default for Categories {
    fn default() -> Self {
        Self {
            s: true,
            r: true,
            v: true,
        }
    }
}

impl Categories {
    pub fn has(&self, category: Category) -> bool {
        match category {
            Category::S => self.s,
            Category::R => self.r,
            Category::V => self.v,
        }
    }
}

/// Which executed cells go into the prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "choice", rename_all = "snake_case")]
pub enum HistoryChoice {
    /// Every executed cell, in execution order (the paper).
    All,
    /// When more than `max_cells` cells ran, only the cells the target depends on (see
    /// [`select_history`]); otherwise all of them.
    DependenciesOnly { max_cells: usize },
}

impl Default for HistoryChoice {
    fn default() -> Self {
        HistoryChoice::DependenciesOnly { max_cells: 3 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PromptOptions {
    /// Runtime facts in the prompt (+RT); `false` is the paper's -RT baseline.
    pub runtime: bool,
    pub categories: Categories,
    /// API documentation grounding from the kernel's signature answers.
    pub docs: bool,
    /// Example values of columns and series.
    pub include_examples: bool,
    pub history: HistoryChoice,
    /// Columns detailed per frame (mentioned columns first), as the paper's 20.
    pub max_columns: usize,
}

impl Default for PromptOptions {
    fn default() -> Self {
        Self {
            runtime: true,
            categories: Categories::default(),
            docs: false,
            include_examples: true,
            history: HistoryChoice::default(),
            max_columns: 20,
        }
    }
}

impl PromptOptions {
    /// Options from a setting name of the paper's experiments: `+RT`, `-RT`, `-S`, `-R`, `-V`,
    /// `+DOCS`.
    pub fn from_setting(setting: &str) -> Option<Self> {
        let mut options = Self::default();
        match setting.trim().to_ascii_uppercase().as_str() {
            "+RT" | "RT" | "DEFAULT" => {}
            "-RT" => options.runtime = false,
            "-S" => options.categories.s = false,
            "-R" => options.categories.r = false,
            "-V" => options.categories.v = false,
            "+DOCS" | "+DOC" => options.docs = true,
            _ => return None,
        }
        Some(options)
    }
}

/// Everything a prompt is built from: what ran, the target, and the kernel's answers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PromptRequest {
    /// Sources of the cells that ran successfully, in execution order.
    pub history: Vec<String>,
    pub target: String,
    /// Kernel summaries of the objects the target uses.
    pub summaries: Option<SummaryDoc>,
    /// The kernel's `signature` answers for the target's calls: `{path: {kind, signature,
    /// parameters, library, version, doc?, attributes?} | {error}}`.
    pub signatures: Option<Map<String, Value>>,
    pub options: PromptOptions,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    pub system: String,
    pub user: String,
    /// Characters of system + user.
    pub chars: usize,
    pub tokens_estimate: usize,
    /// Indices into the request's history of the cells sent.
    pub history_cells: Vec<usize>,
    /// The JSON schema of the answer, for endpoints with structured output.
    pub schema: Value,
}

pub const SYSTEM_INSTRUCTIONS: &str = "\
You detect crashes in ML notebooks. Given the [Executed Cells] (ran successfully, in order), \
[Runtime Facts] about objects the [Target Cell] uses, and the [Target Cell], reason step by step \
whether running the [Target Cell] raises an exception.
Answer with ONE JSON object only: {\"reasoning\": string, \"detection\": boolean, \"line\": integer|null, \"claims\": [...]}
reasoning: 1-2 sentences naming the decisive fact.
detection: true only if you are CERTAIN it crashes, else false.
line: 1-based line of the crash in the target cell, or null.
claims: the facts a crash rests on, about objects as they are before the target cell runs; [] if none fits. Each one of:
{\"claim\":\"missing_column\",\"object\":\"df\",\"column\":\"Fare\"}
{\"claim\":\"missing_attribute\",\"object\":\"model\",\"attribute\":\"coef_\"}
{\"claim\":\"bad_keyword\",\"callable\":\"df.drop\",\"keyword\":\"inplce\"}
{\"claim\":\"undefined_name\",\"name\":\"x\"}
{\"claim\":\"shape\",\"object\":\"X\",\"shape\":[68,58]}
{\"claim\":\"dtype\",\"object\":\"df\",\"column\":\"Age\",\"dtype\":\"object\"} (column null: the object's own)
{\"claim\":\"has_nan\",\"object\":\"df\",\"column\":\"Age\"}
{\"claim\":\"not_fitted\",\"object\":\"model\"}";

/// The answer schema (the paper's plus `line` and `claims`), as a JSON schema for structured
/// output: every field required and no others, as strict endpoints want.
pub fn answer_schema() -> Value {
    let text = json!({"type": "string"});
    let nullable_text = json!({"type": ["string", "null"]});
    let claim = |kind: &str, fields: Vec<(&str, Value)>| {
        let mut properties = Map::new();
        properties.insert("claim".into(), json!({"type": "string", "enum": [kind]}));
        for (name, schema) in &fields {
            properties.insert((*name).into(), schema.clone());
        }
        let required: Vec<&String> = properties.keys().collect();
        json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false
        })
    };
    let claims = vec![
        claim(
            "missing_column",
            vec![("object", text.clone()), ("column", text.clone())],
        ),
        claim(
            "missing_attribute",
            vec![("object", text.clone()), ("attribute", text.clone())],
        ),
        claim(
            "bad_keyword",
            vec![("callable", text.clone()), ("keyword", text.clone())],
        ),
        claim("undefined_name", vec![("name", text.clone())]),
        claim(
            "shape",
            vec![
                ("object", text.clone()),
                (
                    "shape",
                    json!({"type": "array", "items": {"type": ["integer", "null"]}}),
                ),
            ],
        ),
        claim(
            "dtype",
            vec![
                ("object", text.clone()),
                ("column", nullable_text.clone()),
                ("dtype", text.clone()),
            ],
        ),
        claim(
            "has_nan",
            vec![("object", text.clone()), ("column", nullable_text)],
        ),
        claim("not_fitted", vec![("object", text)]),
    ];
    json!({
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "detection": {"type": "boolean"},
            "line": {"type": ["integer", "null"]},
            "claims": {"type": "array", "items": {"anyOf": claims}}
        },
        "required": ["reasoning", "detection", "line", "claims"],
        "additionalProperties": false
    })
}

pub fn build_prompt(request: &PromptRequest) -> Prompt {
    build_prompt_with(&mut CellCache::default(), request)
}

/// [`build_prompt`], reading the cells through `cache` (the browser's: the cells its checks parsed
/// are not parsed again).
pub fn build_prompt_with(cache: &mut CellCache, request: &PromptRequest) -> Prompt {
    let options = &request.options;
    let target = cache.analyse(&request.target);
    let detail = select_history_detail(cache, &request.history, &target.facts, options.history);
    let selected: Vec<usize> = detail.iter().map(|(i, _)| *i).collect();

    let mut user = String::new();
    user.push_str("[Executed Cells]\n");
    if selected.is_empty() {
        user.push_str("(none)\n");
    }
    for (index, unused_imports) in &detail {
        let index = *index;
        let cell = compact_cell(&without_ranges(&request.history[index], unused_imports));
        if cell.is_empty() {
            continue;
        }
        user.push_str(&format!("# [{}]\n{}\n", index + 1, cell));
    }
    if selected.len() < request.history.len() {
        user.push_str(&format!(
            "({} of {} executed cells shown: those the target depends on)\n",
            selected.len(),
            request.history.len()
        ));
    }
    if options.runtime {
        user.push_str("\n[Runtime Facts]\n");
        let facts = match &request.summaries {
            Some(doc) => render_facts(doc, &target.facts, options),
            None => String::new(),
        };
        if facts.is_empty() {
            user.push_str("(none)\n");
        } else {
            user.push_str(&facts);
        }
    }
    if options.docs {
        if let Some(signatures) = &request.signatures {
            let docs = render_docs(signatures);
            if !docs.is_empty() {
                user.push_str("\n[API Documentation]\n");
                user.push_str(&docs);
            }
        }
    }
    user.push_str("\n[Target Cell]\n");
    for (n, line) in request.target.trim_end().lines().enumerate() {
        user.push_str(&format!("{:>2}| {}\n", n + 1, line.trim_end()));
    }
    let system = SYSTEM_INSTRUCTIONS.to_string();
    let chars = system.chars().count() + user.chars().count();
    let tokens_estimate = estimate_tokens(&system) + estimate_tokens(&user);
    Prompt {
        system,
        user,
        chars,
        tokens_estimate,
        history_cells: selected,
        schema: answer_schema(),
    }
}

/// A rough token count for chat models (BPE vocabularies of ~100k): a word piece of up to four
/// letters or three digits is a token, each other visible character is one, spaces are folded into
/// the following word.
pub fn estimate_tokens(text: &str) -> usize {
    let mut tokens = 0;
    let mut run = 0usize;
    let mut digits = false;
    let flush = |run: &mut usize, digits: bool, tokens: &mut usize| {
        if *run > 0 {
            *tokens += run.div_ceil(if digits { 3 } else { 4 });
            *run = 0;
        }
    };
    for c in text.chars() {
        if c.is_alphabetic() || c == '_' {
            if digits {
                flush(&mut run, digits, &mut tokens);
            }
            digits = false;
            run += 1;
        } else if c.is_ascii_digit() {
            if !digits {
                flush(&mut run, digits, &mut tokens);
            }
            digits = true;
            run += 1;
        } else {
            flush(&mut run, digits, &mut tokens);
            if c == '\n' || !c.is_whitespace() {
                tokens += 1;
            }
        }
    }
    flush(&mut run, digits, &mut tokens);
    tokens
}

/// The source without the given byte ranges (whole statements).
fn without_ranges(source: &str, ranges: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for &(start, end) in ranges {
        if start < at
            || end > source.len()
            || !source.is_char_boundary(start)
            || !source.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&source[at..start]);
        at = end;
    }
    out.push_str(&source[at..]);
    out
}

/// Executed cells without comment-only lines, trailing blanks and repeated blank lines, and with
/// 4-space indentation halved when the cell indents with spaces only, in multiples of 4.
fn compact_cell(source: &str) -> String {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let halve = !source.contains('\t')
        && source
            .lines()
            .filter(|l| !l.trim().is_empty())
            .all(|l| indent(l) % 4 == 0);
    let lines: Vec<String> = source
        .lines()
        .map(|l| {
            if halve {
                let n = indent(l);
                format!("{}{}", " ".repeat(n / 2), &l[n..])
            } else {
                l.to_string()
            }
        })
        .collect();
    let mut out: Vec<&str> = Vec::new();
    for line in &lines {
        let line = line.trim_end();
        if line.trim_start().starts_with('#') {
            continue;
        }
        if line.is_empty() && out.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        out.push(line);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Methods that only show an object: calling them does not make a cell a dependency.
const DISPLAY_METHODS: &[&str] = &[
    "head",
    "tail",
    "info",
    "describe",
    "summary",
    "show",
    "plot",
    "print",
    "sample",
    "count",
    "value_counts",
    "nunique",
    "unique",
    "isnull",
    "isna",
    "sum",
    "mean",
    "corr",
    "max",
    "min",
];

/// The executed cells sent in the prompt (indices into `history`, in execution order).
///
/// With `DependenciesOnly` and a history longer than `max_cells`: walking the history backwards
/// from the target, a cell is kept when it binds a name that is still needed, or mutates one
/// (assigns into `name[...]`, or calls a method on it other than a display method such as
/// `head`); the names it reads then become needed in turn. Needed names start as the target's
/// free names. A plain (unconditional) assignment satisfies the need for the name, so older
/// definitions are dropped. Imports are cells binding names like any other, so a kept cell brings
/// the imports it uses. Cells that do not parse are kept (we cannot tell what they do).
pub fn select_history(history: &[String], target: &CellFacts, choice: HistoryChoice) -> Vec<usize> {
    select_history_detail(&mut CellCache::default(), history, target, choice)
        .into_iter()
        .map(|(index, _)| index)
        .collect()
}

/// [`select_history`], with the byte ranges of each kept cell's top-level imports that bind no
/// needed name (left out of the prompt).
fn select_history_detail(
    cache: &mut CellCache,
    history: &[String],
    target: &CellFacts,
    choice: HistoryChoice,
) -> Vec<(usize, Vec<(usize, usize)>)> {
    let all: Vec<(usize, Vec<(usize, usize)>)> =
        (0..history.len()).map(|i| (i, Vec::new())).collect();
    let HistoryChoice::DependenciesOnly { max_cells } = choice else {
        return all;
    };
    if history.len() <= max_cells {
        return all;
    }
    let mut needed: HashSet<String> = HashSet::new();
    add_reads(&mut needed, target);
    let mut keep = Vec::new();
    for index in (0..history.len()).rev() {
        let cell = cache.analyse(&history[index]);
        let (parsed, facts) = (&cell.parsed, &cell.facts);
        if parsed.syntax_error.is_some() && parsed.body.is_empty() {
            keep.push((index, Vec::new()));
            continue;
        }
        let binds = facts.definitions.iter().any(|d| needed.contains(&d.name));
        let mutates = facts
            .subscripts
            .iter()
            .any(|s| s.store && needed.contains(&s.object.path[0]))
            || facts.calls.iter().any(|c| match (&c.callee, &c.method) {
                (Some(callee), Some(method)) => {
                    callee.path.len() >= 2
                        && needed.contains(&callee.path[0])
                        && !DISPLAY_METHODS.contains(&method.as_str())
                }
                _ => false,
            });
        if !(binds || mutates) {
            continue;
        }
        let unused_imports: Vec<(usize, usize)> = if parsed.syntax_error.is_some() {
            Vec::new()
        } else {
            parsed
                .body
                .iter()
                .filter_map(|stmt| match stmt {
                    Stmt::Import { names, range, .. } => {
                        let used = names.iter().any(|alias| {
                            let bound = match &alias.asname {
                                Some(a) => a.as_str(),
                                None => alias.name.split('.').next().unwrap_or(""),
                            };
                            alias.name == "*" || needed.contains(bound)
                        });
                        (!used).then_some((range.start as usize, range.end as usize))
                    }
                    _ => None,
                })
                .collect()
        };
        keep.push((index, unused_imports));
        for d in &facts.definitions {
            if !d.conditional && d.kind != DefinitionKind::AugmentedAssignment {
                needed.remove(&d.name);
            }
        }
        add_reads(&mut needed, facts);
    }
    keep.reverse();
    keep
}

fn add_reads(needed: &mut HashSet<String>, facts: &CellFacts) {
    for use_ in &facts.free_names {
        needed.insert(use_.name.clone());
    }
    for want in &facts.wants {
        if let Some(root) = want.name.split('.').next() {
            needed.insert(root.to_string());
        }
    }
}

/// The short form of a qualified type name: `pandas.core.frame.DataFrame` -> `DataFrame`.
fn short_type(type_name: &str) -> &str {
    let t = type_name
        .trim_start_matches("<class '")
        .trim_end_matches("'>");
    t.rsplit('.').next().unwrap_or(t)
}

/// The runtime facts, one line per object: the objects the target uses (its `wants`, their roots
/// and, when the target reads none of them, every summarized object), in the target's order.
pub fn render_facts(doc: &SummaryDoc, target: &CellFacts, options: &PromptOptions) -> String {
    let mut order: Vec<&str> = Vec::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for name in target
        .wants
        .iter()
        .chain(&target.free_names)
        .map(|u| u.name.as_str())
    {
        if doc.objects.contains_key(name) && seen.insert(name) {
            order.push(name);
        }
    }
    // Summarized objects the target's facts do not name (a summary made for another reading of
    // the cell): still facts about its names, after the others.
    for name in doc.objects.keys() {
        if seen.insert(name.as_str()) {
            order.push(name.as_str());
        }
    }
    let mentioned: Vec<&str> = target
        .subscripts
        .iter()
        .flat_map(|s| s.keys.iter().map(String::as_str))
        .collect();
    let mut out = String::new();
    for name in order {
        let object = &doc.objects[name];
        if let Some(line) = render_object(name, object, &mentioned, options) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if doc.partial {
        out.push_str("(facts incomplete: the kernel ran out of time)\n");
    }
    out
}

/// One object's line; `None` when nothing of it is left under the category filter.
pub fn render_object(
    name: &str,
    object: &ObjectSummary,
    mentioned: &[&str],
    options: &PromptOptions,
) -> Option<String> {
    if let Some(error) = object.error_sentence() {
        return Some(format!("{name}: {error}"));
    }
    let cats = options.categories;
    let mut parts: Vec<String> = Vec::new();
    let mut head = String::new();
    if cats.r && !object.type_name.is_empty() {
        head.push_str(short_type(&object.type_name));
    }
    if object.kind == "dataframe" {
        render_frame(object, mentioned, options, &mut head, &mut parts);
    } else {
        for category in [Category::S, Category::R, Category::V] {
            if !cats.has(category) {
                continue;
            }
            for (key, value) in object.facts(category) {
                if let Some(text) = render_fact(key, value, options) {
                    parts.push(text);
                }
            }
        }
    }
    if object.sampled && cats.v {
        parts.push("values sampled".into());
    }
    if head.is_empty() && parts.is_empty() {
        return None;
    }
    let mut line = format!("{name}:");
    if !head.is_empty() {
        line.push(' ');
        line.push_str(&head);
    }
    if !parts.is_empty() {
        line.push_str(if head.is_empty() { " " } else { " | " });
        line.push_str(&parts.join(" | "));
    }
    Some(line)
}

fn render_frame(
    object: &ObjectSummary,
    mentioned: &[&str],
    options: &PromptOptions,
    head: &mut String,
    parts: &mut Vec<String>,
) {
    let cats = options.categories;
    if cats.s {
        if let Some(shape) = object.structural.get("shape") {
            if !head.is_empty() {
                head.push(' ');
            }
            head.push_str(&format!("shape {}", compact_value(shape)));
        }
        for (key, value) in &object.structural {
            if key != "shape" {
                if let Some(t) = render_fact(key, value, options) {
                    parts.push(t);
                }
            }
        }
    }
    let columns: Vec<&str> = object
        .representation
        .get("columns")
        .and_then(Value::as_array)
        .map(|c| c.iter().filter_map(Value::as_str).collect())
        .or_else(|| {
            object
                .value
                .get("column_values")
                .and_then(Value::as_object)
                .map(|m| m.keys().map(String::as_str).collect())
        })
        .unwrap_or_default();
    let complete = object.representation.get("columns_complete") != Some(&Value::Bool(false));
    let nan_columns: Vec<&str> = object
        .value
        .get("nan_columns")
        .and_then(Value::as_array)
        .map(|c| c.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // Columns to detail: the mentioned ones first, then in frame order, up to `max_columns`; the
    // names of all columns are listed (R) as long as they fit twice the cap.
    let mut detailed: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| mentioned.contains(c))
        .collect();
    for c in &columns {
        if detailed.len() >= options.max_columns {
            break;
        }
        if !detailed.contains(c) {
            detailed.push(c);
        }
    }
    let mut column_parts = Vec::new();
    for column in &columns {
        let is_detailed = detailed.contains(column);
        if !is_detailed && column_parts.len() >= options.max_columns * 2 {
            continue;
        }
        let mut text = column.to_string();
        if cats.r {
            if let Some(dtype) = object.dtype_of_column(column) {
                text.push(':');
                text.push_str(dtype);
            }
        }
        if cats.v && is_detailed {
            let mut v = Vec::new();
            if nan_columns.contains(column) {
                v.push("NaN".to_string());
            }
            if let Some(values) = object.column_values(column) {
                v.extend(render_values(values, options));
            }
            if !v.is_empty() {
                text.push_str(&format!(" ({})", v.join(", ")));
            }
        }
        if cats.r || (cats.v && is_detailed) {
            column_parts.push(text);
        }
    }
    if !column_parts.is_empty() {
        let shown = column_parts.len();
        let mut text = format!("columns: {}", column_parts.join(", "));
        if shown < columns.len() {
            text.push_str(&format!(" ... ({} more)", columns.len() - shown));
        }
        if !complete && cats.r {
            text.push_str(" ... (list cut)");
        }
        parts.push(text);
    }
    if cats.r {
        for (key, value) in &object.representation {
            if matches!(key.as_str(), "columns" | "columns_complete" | "dtypes") {
                continue;
            }
            if let Some(t) = render_fact(key, value, options) {
                parts.push(t);
            }
        }
    }
    if cats.v {
        if let Some(has_nan) = object.has_nan() {
            parts.push(if has_nan { "has NaN" } else { "no NaN" }.into());
        }
        for (key, value) in &object.value {
            if matches!(key.as_str(), "has_nan" | "nan_columns" | "column_values") {
                continue;
            }
            if let Some(t) = render_fact(key, value, options) {
                parts.push(t);
            }
        }
    }
}

/// The `values` of a column or series: `categorical, 3 unique, e.g. a/b/c`.
fn render_values(values: &Map<String, Value>, options: &PromptOptions) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(kind) = values.get("kind").and_then(Value::as_str) {
        v.push(kind.to_string());
    }
    if values.get("has_nan") == Some(&Value::Bool(true)) {
        v.push("NaN".into());
    }
    if let Some(range) = values.get("range").and_then(Value::as_array) {
        if range.len() == 2 {
            v.push(format!(
                "{}..{}",
                compact_value(&range[0]),
                compact_value(&range[1])
            ));
        }
    }
    if let Some(n) = values.get("unique") {
        v.push(format!("{} unique", compact_value(n)));
    }
    if options.include_examples {
        if let Some(examples) = values.get("examples").and_then(Value::as_array) {
            let shown: Vec<String> = examples
                .iter()
                .take(3)
                .map(|e| cut(&compact_value(e), 20))
                .collect();
            if !shown.is_empty() {
                v.push(format!("e.g. {}", shown.join("/")));
            }
        }
    }
    v
}

/// One fact as `key value`; `None` for facts that say nothing to a reader.
fn render_fact(key: &str, value: &Value, options: &PromptOptions) -> Option<String> {
    let label = key.replace('_', " ");
    match (key, value) {
        (_, Value::Null) => None,
        ("columns_complete", _) => None,
        // An unnamed index says nothing the index class does not.
        ("index_names", Value::Array(names)) if names.iter().all(Value::is_null) => None,
        ("has_nan", Value::Bool(b)) => Some(if *b { "has NaN" } else { "no NaN" }.into()),
        ("fitted", Value::Bool(b)) => Some(if *b { "fitted" } else { "not fitted" }.into()),
        ("compiled", Value::Bool(b)) => Some(if *b { "compiled" } else { "not compiled" }.into()),
        ("training", Value::Bool(b)) => Some(if *b { "train mode" } else { "eval mode" }.into()),
        ("examples" | "preview", _) if !options.include_examples => None,
        ("examples", Value::Array(list)) => Some(format!(
            "e.g. {}",
            list.iter()
                .take(3)
                .map(|e| cut(&compact_value(e), 20))
                .collect::<Vec<_>>()
                .join("/")
        )),
        ("range", Value::Array(r)) if r.len() == 2 => Some(format!(
            "range {}..{}",
            compact_value(&r[0]),
            compact_value(&r[1])
        )),
        ("unique", v) => Some(format!("{} unique", compact_value(v))),
        ("kind", Value::String(s)) => Some(s.clone()),
        ("dataset", Value::Object(_)) => {
            // A nested summary (a data loader's dataset).
            let nested: ObjectSummary = serde_json::from_value(value.clone()).ok()?;
            render_object("dataset", &nested, &[], options).map(|l| format!("[{l}]"))
        }
        (_, v) => Some(format!("{label} {}", cut(&compact_value(v), 160))),
    }
}

/// JSON without quotes where they are not needed: `(891, 12)`, `{a: 1}`, `[x, y]`.
pub fn compact_value(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let all_numbers = !items.is_empty() && items.iter().all(Value::is_number);
            let inner: Vec<String> = items.iter().map(compact_value).collect();
            if all_numbers && items.len() <= 6 {
                tuple_text(&inner)
            } else {
                format!("[{}]", inner.join(", "))
            }
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}: {}", compact_value(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max).collect();
        s.push('…');
        s
    }
}

/// API documentation grounding: one line per callable (its signature), plus the attributes and
/// the key documentation sections the kernel sent (cut short).
pub fn render_docs(signatures: &Map<String, Value>) -> String {
    let mut out = String::new();
    // serde_json's map is ordered by key.
    for (path, answer) in signatures {
        if let Some(code) = answer.get("error").and_then(Value::as_str) {
            let sentence = FailureFields::of(answer).sentence(code);
            out.push_str(&format!("{path}: {sentence}\n"));
            continue;
        }
        let signature = answer
            .get("signature")
            .and_then(Value::as_str)
            .unwrap_or("(...)");
        let mut line = format!("{path}{signature}");
        if let Some(library) = answer.get("library").and_then(Value::as_str) {
            let version = answer.get("version").and_then(Value::as_str).unwrap_or("");
            line.push_str(&format!("  [{library} {version}]"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if let Some(attributes) = answer.get("attributes").and_then(Value::as_array) {
            let names: Vec<String> = attributes.iter().map(compact_value).take(40).collect();
            out.push_str(&format!("  attributes: {}\n", names.join(", ")));
        }
        if let Some(doc) = answer.get("doc").and_then(Value::as_str) {
            let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
            out.push_str(&format!("  doc: {}\n", cut(&doc, 400)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::cell_facts;
    use crate::python::parse_cell;

    fn titanic() -> SummaryDoc {
        serde_json::from_str(
            r#"{"schema": 1, "objects": {
                "df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
                       "S": {"shape": [891, 3]},
                       "R": {"columns": ["PassengerId", "Age", "Sex"], "dtypes": {"PassengerId": "int64", "Age": "float64", "Sex": "object"}},
                       "V": {"has_nan": true, "nan_columns": ["Age"],
                             "column_values": {"Age": {"kind": "continuous", "range": [0.42, 80.0]},
                                               "Sex": {"kind": "binary", "unique": 2, "examples": ["male", "female"]}}}},
                "model": {"type": "sklearn.linear_model._logistic.LogisticRegression", "kind": "estimator",
                          "S": {"n_features_in": 2}, "V": {"fitted": true, "classes": [0, 1]}}}}"#,
        )
        .unwrap()
    }

    fn request(history: &[&str], target: &str, options: PromptOptions) -> PromptRequest {
        PromptRequest {
            history: history.iter().map(|s| s.to_string()).collect(),
            target: target.to_string(),
            summaries: Some(titanic()),
            signatures: None,
            options,
        }
    }

    #[test]
    fn prompt_snapshot() {
        let prompt = build_prompt(&request(
            &[
                "import pandas as pd\n# load\n\n\ndf = pd.read_csv('train.csv')",
                "from sklearn.linear_model import LogisticRegression\nmodel = LogisticRegression().fit(df[['PassengerId', 'Age']].fillna(0), df['Sex'])",
            ],
            "model.predict(df[['Age', 'Sex', 'Fare']])",
            PromptOptions::default(),
        ));
        insta::assert_snapshot!(format!("{}\n\n{}", prompt.system, prompt.user));
        assert!(prompt.system.contains("\"line\""));
        assert_eq!(prompt.chars, prompt.system.len() + prompt.user.len());
        assert!(prompt.tokens_estimate > prompt.chars / 6);
        assert!(prompt.tokens_estimate < prompt.chars / 2);
    }

    #[test]
    fn index_names_shown_only_when_a_level_has_one() {
        let options = PromptOptions::default();
        let unnamed = serde_json::json!([null]);
        assert_eq!(render_fact("index_names", &unnamed, &options), None);
        let named = serde_json::json!(["day", null]);
        assert_eq!(
            render_fact("index_names", &named, &options).as_deref(),
            Some("index names [day, None]")
        );
    }

    /// Every claim the instructions show reads back as a claim, and the answer schema offers
    /// exactly those kinds, each with the fields the example has.
    #[test]
    fn claim_examples_and_schema_agree() {
        let examples: Vec<&str> = SYSTEM_INSTRUCTIONS
            .lines()
            .filter(|l| l.starts_with("{\"claim\""))
            .map(|l| &l[..=l.find('}').unwrap()])
            .collect();
        assert_eq!(examples.len(), 8);
        let schema = answer_schema();
        let variants = schema["properties"]["claims"]["items"]["anyOf"]
            .as_array()
            .unwrap();
        assert_eq!(variants.len(), examples.len());
        for (example, variant) in examples.iter().zip(variants) {
            let value: Value = serde_json::from_str(example).unwrap();
            let claims = crate::llm::verdict::read_claims(Some(&value));
            assert_eq!(claims.len(), 1, "{example}");
            let written = serde_json::to_value(&claims[0]).unwrap();
            assert_eq!(written, value, "{example} reads back unchanged");
            assert_eq!(variant["properties"]["claim"]["enum"][0], value["claim"]);
            let mut fields: Vec<&str> = value
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let mut required: Vec<&str> = variant["required"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            fields.sort_unstable();
            required.sort_unstable();
            assert_eq!(fields, required, "{example}");
        }
    }

    #[test]
    fn without_runtime_facts() {
        let prompt = build_prompt(&request(
            &["df = 1"],
            "df['Age']",
            PromptOptions::from_setting("-RT").unwrap(),
        ));
        assert!(!prompt.user.contains("[Runtime Facts]"));
        assert!(!prompt.user.contains("891"));
        assert!(prompt.user.contains("df = 1"));
    }

    #[test]
    fn category_filters() {
        let user = |setting: &str| {
            build_prompt(&request(
                &[],
                "model.predict(df[['Age']])",
                PromptOptions::from_setting(setting).unwrap(),
            ))
            .user
        };
        let all = user("+RT");
        assert!(all.contains("shape (891, 3)"));
        assert!(all.contains("Age:float64"));
        assert!(all.contains("has NaN"));
        assert!(all.contains("n features in 2"));
        assert!(all.contains("fitted"));

        let no_s = user("-S");
        assert!(!no_s.contains("891"));
        assert!(!no_s.contains("n features in"));
        assert!(no_s.contains("Age:float64"));

        let no_r = user("-R");
        assert!(!no_r.contains("float64"));
        assert!(!no_r.contains("DataFrame"));
        assert!(no_r.contains("shape (891, 3)"));
        assert!(no_r.contains("NaN"));

        let no_v = user("-V");
        assert!(!no_v.contains("NaN"));
        assert!(!no_v.contains("male"));
        assert!(!no_v.contains("fitted"));
        assert!(no_v.contains("Sex:object"));
    }

    #[test]
    fn examples_can_be_left_out() {
        let options = PromptOptions {
            include_examples: false,
            ..Default::default()
        };
        let user = build_prompt(&request(&[], "df['Sex']", options)).user;
        assert!(!user.contains("male"));
        assert!(user.contains("binary"));
    }

    #[test]
    fn long_histories_keep_the_cells_the_target_depends_on() {
        let history = [
            "import pandas as pd\nimport numpy as np",
            "import matplotlib.pyplot as plt",
            "df = pd.read_csv('a.csv')",
            "plt.plot([1, 2])",
            "other = np.zeros(3)",
            "df.head()",
            "df['x'] = df['a'] * 2",
            "df = df.dropna()",
            "y = 5",
            "print(other)",
        ];
        let history: Vec<String> = history.iter().map(|s| s.to_string()).collect();
        let target = cell_facts(&parse_cell("df['x'].mean() + y").body);
        let selected = select_history(
            &history,
            &target,
            HistoryChoice::DependenciesOnly { max_cells: 4 },
        );
        assert_eq!(selected, vec![0, 2, 6, 7, 8]);
        // A short history is kept whole, and `All` keeps everything.
        let all: Vec<usize> = (0..10).collect();
        assert_eq!(
            select_history(
                &history,
                &target,
                HistoryChoice::DependenciesOnly { max_cells: 20 }
            ),
            all
        );
        assert_eq!(select_history(&history, &target, HistoryChoice::All), all);
    }

    #[test]
    fn a_plain_assignment_ends_the_need() {
        let history: Vec<String> = ["a = 1", "a = 2", "b = a", "c = 3"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let target = cell_facts(&parse_cell("b + 1").body);
        let selected = select_history(
            &history,
            &target,
            HistoryChoice::DependenciesOnly { max_cells: 1 },
        );
        assert_eq!(selected, vec![1, 2]);
    }

    #[test]
    fn docs_grounding() {
        let mut req = request(
            &[],
            "model.predict(df)",
            PromptOptions::from_setting("+DOCS").unwrap(),
        );
        req.signatures = Some(
            serde_json::from_str::<Map<String, Value>>(
                r#"{"model.predict": {"kind": "method", "signature": "(X)", "library": "sklearn", "version": "1.9", "doc": "Predict class labels.\n\n  Notes: X must have n_features_in_ columns."},
                    "model.nope": {"error": "no_attribute", "owner": "'LogisticRegression' object", "attribute": "nope"}}"#,
            )
            .unwrap(),
        );
        let user = build_prompt(&req).user;
        assert!(user.contains("[API Documentation]\nmodel.nope: AttributeError"));
        assert!(user.contains("model.predict(X)  [sklearn 1.9]"));
        assert!(user.contains("doc: Predict class labels. Notes: X must"));
        req.options.docs = false;
        assert!(!build_prompt(&req).user.contains("[API Documentation]"));
    }

    #[test]
    fn token_estimate_is_plausible() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("df = pd.read_csv('a.csv')"), 13);
    }
}
