//! The paper's experiment with any OpenAI-compatible endpoint (`cellguard bench CASES.jsonl --llm
//! BASE_URL --model M [--runs N] [--setting S]...`), and the prompt-size comparison with the
//! paper (`cellguard bench CASES.jsonl --prompt-sizes`).
//!
//! The LLM is reached through THE one client, `cellguard.llm` (Python): we spawn one long-lived
//! `python3 -m cellguard.llm` worker (the interpreter from `CELLGUARD_PYTHON`, default `python3`)
//! and speak JSON lines over its stdin/stdout:
//! request `{"id", "messages", "n", "temperature"?, "schema"?}`,
//! reply `{"id", "ok": true, "contents": [...], "errors": [...]}` or `{"id", "ok": false, "error"}`.
//! The worker reads the endpoint from `CELLGUARD_LLM_BASE_URL` / `CELLGUARD_LLM_MODEL` and the key
//! from `CELLGUARD_LLM_API_KEY` (or `OPENAI_API_KEY`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::bench::junobench::{analyze_case, convert_runtime_info, read_cases, Case, Counts};
use crate::llm::claims::{judge_answers, Evidence};
use crate::llm::prompt::{build_prompt, Prompt, PromptOptions, PromptRequest};

/// Listing 1 of the paper, the instructions its prompts start with.
pub const PAPER_INSTRUCTIONS: &str = "You are an automated crash detector for ML notebooks.
Given:
- a set of [Executed Cells] that have already run successfully,
- a [Target Cell] that may or may not crash when executed,
Your task is to reason step by step whether executing the [Target Cell] will crash.
Important output rules:
- Output EXACTLY one JSON object and NOTHING else. Use JSON booleans true and false (lowercase).
- Schema:
{
\"reasoning\": string,
\"detection\": boolean
}
- Give a short explanation in reasoning (concise: 1-2 sentences).
- If you are not CERTAIN the cell will crash, you MUST output '\"detection\": false'.
- Your output must ONLY be the JSON object.
--- Input Begins Below ---
";

/// The paper's prompt for a case, as its prompt extractor lays it out: instructions, the executed
/// cells, the runtime information (its pretty-printed dict), the target cell.
pub fn paper_prompt(case: &Case, runtime_info_raw: &str) -> String {
    let mut p = String::from(PAPER_INSTRUCTIONS);
    p.push_str("[Executed Cells]\n");
    for cell in &case.executed_cells {
        p.push_str(cell);
        p.push_str("\n\n");
    }
    p.push_str("[Runtime Information]\n");
    p.push_str(runtime_info_raw);
    p.push_str("\n[Target Cell]\n");
    p.push_str(&case.target_cell);
    p
}

pub fn case_request(case: &Case, options: PromptOptions) -> PromptRequest {
    PromptRequest {
        history: case.executed_cells.clone(),
        target: case.target_cell.clone(),
        summaries: Some(convert_runtime_info(&case.runtime_info)),
        signatures: None,
        options,
    }
}

const STOPWORDS: &[&str] = &[
    "the", "and", "not", "for", "with", "has", "have", "are", "was", "but", "this", "that", "from",
    "which", "into", "when", "its", "can", "cannot", "than", "does", "being", "should", "used",
    "defined", "instead", "because", "there", "only", "one", "two", "value", "values", "type",
    "data", "column", "columns", "shape", "object", "function", "error", "called", "using", "none",
];

/// Words of a diagnosis that name something concrete (identifiers, numbers, quoted values).
fn diagnosis_terms(label: &str) -> BTreeSet<String> {
    label
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| w.len() >= 2 && !STOPWORDS.contains(&w.to_lowercase().as_str()))
        .map(str::to_string)
        .collect()
}

pub struct SizeRow {
    pub instance: String,
    pub paper_chars: usize,
    pub ours_chars: usize,
    pub ours_tokens: usize,
    /// Diagnosis terms in the paper's input (cells + runtime info).
    pub terms_paper: usize,
    /// Of those, the ones our prompt keeps.
    pub terms_kept: usize,
}

/// Our default prompt against the paper's, per case. "Decisive facts" are approximated by the
/// concrete terms of the case's diagnosis label that the paper's input contains.
pub fn prompt_sizes(lines: &[(Case, String)], options: &PromptOptions) -> Vec<SizeRow> {
    lines
        .iter()
        .map(|(case, raw)| {
            let paper = paper_prompt(case, raw);
            let ours = build_prompt(&case_request(case, options.clone()));
            let ours_text = format!("{}\n{}", ours.system, ours.user);
            let paper_input = &paper[PAPER_INSTRUCTIONS.len()..];
            let terms: Vec<String> = case
                .diagnosis_label
                .as_deref()
                .map(diagnosis_terms)
                .unwrap_or_default()
                .into_iter()
                .map(|t| t.to_lowercase())
                .filter(|t| paper_input.to_lowercase().contains(t.as_str()))
                .collect();
            let ours_lower = ours_text.to_lowercase();
            let kept = terms
                .iter()
                .filter(|t| ours_lower.contains(t.as_str()))
                .count();
            SizeRow {
                instance: case.instance.clone(),
                paper_chars: paper.chars().count(),
                ours_chars: ours.chars,
                ours_tokens: ours.tokens_estimate,
                terms_paper: terms.len(),
                terms_kept: kept,
            }
        })
        .collect()
}

pub fn size_report(rows: &[SizeRow]) -> String {
    let paper: usize = rows.iter().map(|r| r.paper_chars).sum();
    let ours: usize = rows.iter().map(|r| r.ours_chars).sum();
    let tokens: usize = rows.iter().map(|r| r.ours_tokens).sum();
    let terms: usize = rows.iter().map(|r| r.terms_paper).sum();
    let kept: usize = rows.iter().map(|r| r.terms_kept).sum();
    let mut ratios: Vec<f64> = rows
        .iter()
        .map(|r| r.ours_chars as f64 / r.paper_chars.max(1) as f64)
        .collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
    let over = ratios.iter().filter(|&&r| r > 0.7).count();
    let quartile = |q: usize| ratios.get(ratios.len() * q / 4).copied().unwrap_or(0.0);
    let mut s = format!(
        "prompt sizes on {} versions: paper {} chars, ours {} chars (~{} tokens): total ratio {:.2}, median per case {:.2}, {} cases above 0.7\n",
        rows.len(),
        paper,
        ours,
        tokens,
        ours as f64 / paper.max(1) as f64,
        median,
        over
    );
    s.push_str(&format!(
        "per-case ratio quartiles: {:.2} / {:.2} / {:.2}\n",
        quartile(1),
        quartile(2),
        quartile(3)
    ));
    s.push_str(&format!(
        "diagnosis terms found in the paper's input: {terms}, kept in ours: {kept} ({:.1}%)\n",
        100.0 * kept as f64 / terms.max(1) as f64
    ));
    if std::env::var_os("CELLGUARD_SIZES_VERBOSE").is_some() {
        for r in rows {
            s.push_str(&format!(
                "  {:<28} paper {:>6}  ours {:>6}  ratio {:.2}\n",
                r.instance,
                r.paper_chars,
                r.ours_chars,
                r.ours_chars as f64 / r.paper_chars.max(1) as f64
            ));
        }
    }
    for r in rows.iter().filter(|r| r.terms_kept < r.terms_paper) {
        s.push_str(&format!(
            "  {} keeps {}/{} diagnosis terms\n",
            r.instance, r.terms_kept, r.terms_paper
        ));
    }
    s
}

/// Table 2b's columns for one row.
fn table_row(name: &str, c: &Counts) -> String {
    let j = c.to_json();
    let pct = |k: &str| j[k].as_f64().unwrap_or(0.0) * 100.0;
    format!(
        "{name:<34} {:>9.1} {:>7.1} {:>6.1} {:>9.1}   (TP {} FP {} FN {} TN {})\n",
        pct("precision"),
        pct("recall"),
        pct("f1"),
        pct("accuracy"),
        c.tp,
        c.fp,
        c.fn_,
        c.tn
    )
}

fn table_header() -> String {
    format!(
        "{:<34} {:>9} {:>7} {:>6} {:>9}\n",
        "setting", "precision", "recall", "F1", "accuracy"
    )
}

/// A crash verdict the claim checks turned into no crash.
pub struct Downgrade {
    pub instance: String,
    /// The version really crashes: the downgrade was wrong.
    pub crash: bool,
    pub reason: String,
}

/// One setting's answers judged, alone and with the rules.
pub struct SettingResult {
    pub setting: String,
    pub llm: Counts,
    pub checked: Counts,
    /// A rule fires, else the LLM's vote.
    pub hybrid: Counts,
    /// A rule fires, else the LLM's vote after claim checks.
    pub hybrid_checked: Counts,
    /// Versions none of whose answers could be read (counted as no crash).
    pub unreadable: usize,
    pub downgrades: Vec<Downgrade>,
}

impl SettingResult {
    pub fn wrong_downgrades(&self) -> usize {
        self.downgrades.iter().filter(|d| d.crash).count()
    }
}

/// Judges each case's raw answers (`answers[i]` for `cases[i]`) as the browser does: majority
/// vote, then claim checks against the case's runtime facts; `rules[i]` is whether a rule fires.
pub fn judge_setting(
    cases: &[Case],
    rules: &[bool],
    setting: &str,
    answers: &[Vec<String>],
) -> SettingResult {
    let mut result = SettingResult {
        setting: setting.to_string(),
        llm: Counts::default(),
        checked: Counts::default(),
        hybrid: Counts::default(),
        hybrid_checked: Counts::default(),
        unreadable: 0,
        downgrades: Vec::new(),
    };
    for ((case, &rule), contents) in cases.iter().zip(rules).zip(answers) {
        let summaries = convert_runtime_info(&case.runtime_info);
        let evidence = Evidence {
            summaries: Some(&summaries),
            signatures: None,
            target: Some(&case.target_cell),
        };
        let (llm, checked) = match judge_answers(contents, evidence) {
            Ok(judgement) => {
                if judgement.downgraded {
                    result.downgrades.push(Downgrade {
                        instance: case.instance.clone(),
                        crash: case.crash,
                        reason: judgement.reason.clone().unwrap_or_default(),
                    });
                }
                (judgement.vote.detection, judgement.detection)
            }
            Err(_) => {
                result.unreadable += 1;
                (false, false)
            }
        };
        result.llm.add(case.crash, llm);
        result.checked.add(case.crash, checked);
        result.hybrid.add(case.crash, rule || llm);
        result.hybrid_checked.add(case.crash, rule || checked);
    }
    result
}

/// The table of one model's settings (Table 2b's columns), with the rules alone first, and the
/// downgrades listed.
pub fn judged_report(cases: &[Case], rules: &[bool], results: &[SettingResult]) -> String {
    let mut rule_counts = Counts::default();
    for (case, &r) in cases.iter().zip(rules) {
        rule_counts.add(case.crash, r);
    }
    let mut out = table_header();
    out.push_str(&table_row("rules", &rule_counts));
    let mut notes = Vec::new();
    for r in results {
        let s = &r.setting;
        out.push_str(&table_row(&format!("LLM ({s})"), &r.llm));
        out.push_str(&table_row(&format!("LLM ({s}) + claims"), &r.checked));
        out.push_str(&table_row(&format!("rules + LLM ({s})"), &r.hybrid));
        out.push_str(&table_row(
            &format!("rules + LLM ({s}) + claims"),
            &r.hybrid_checked,
        ));
        let wrong = r.wrong_downgrades();
        out.push_str(&format!(
            "{:<34} {} (right {}, wrong {})\n",
            format!("  claim downgrades ({s})"),
            r.downgrades.len(),
            r.downgrades.len() - wrong,
            wrong
        ));
        if r.unreadable > 0 {
            notes.push(format!(
                "{s}: {} versions without a readable answer (counted as no crash)",
                r.unreadable
            ));
        }
        if !r.downgrades.is_empty() {
            notes.push(format!("{s}: crash verdicts downgraded by claim checks:"));
            notes.extend(r.downgrades.iter().map(|d| {
                format!(
                    "    {} ({}): {}",
                    d.instance,
                    if d.crash { "crashes" } else { "no crash" },
                    d.reason
                )
            }));
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes.join("\n"));
        out.push('\n');
    }
    out
}

fn rule_verdicts(cases: &[Case]) -> Vec<bool> {
    cases
        .iter()
        .map(|c| analyze_case(c).crash_predicted)
        .collect()
}

/// A spawned `python3 -m cellguard.llm` worker.
pub struct Worker {
    child: std::process::Child,
}

impl Worker {
    pub fn spawn(base_url: &str, model: &str) -> Result<Self, String> {
        let python = std::env::var("CELLGUARD_PYTHON").unwrap_or_else(|_| "python3".into());
        let child = Command::new(&python)
            .args(["-m", "cellguard.llm"])
            .env("CELLGUARD_LLM_BASE_URL", base_url)
            .env("CELLGUARD_LLM_MODEL", model)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start `{python} -m cellguard.llm`: {e}"))?;
        Ok(Self { child })
    }

    /// Sends every request, then collects the replies by id (the worker answers them
    /// concurrently, in any order).
    pub fn ask_all(&mut self, requests: Vec<Value>) -> Result<HashMap<String, Value>, String> {
        let mut stdin = self.child.stdin.take().ok_or("worker stdin gone")?;
        let stdout = self.child.stdout.take().ok_or("worker stdout gone")?;
        let expected = requests.len();
        let writer = std::thread::spawn(move || -> std::io::Result<()> {
            for request in requests {
                writeln!(stdin, "{request}")?;
            }
            stdin.flush()
            // stdin drops here: the worker ends after the last reply.
        });
        let mut replies = HashMap::new();
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading the worker: {e}"))?;
            let Ok(reply) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if let Some(id) = reply.get("id").and_then(Value::as_str) {
                replies.insert(id.to_string(), reply.clone());
                eprint!("\r{}/{} answers", replies.len(), expected);
            }
            if replies.len() == expected {
                break;
            }
        }
        eprintln!();
        writer
            .join()
            .map_err(|_| "writer thread panicked".to_string())?
            .map_err(|e| format!("writing to the worker: {e}"))?;
        let _ = self.child.wait();
        Ok(replies)
    }
}

pub fn llm_request(id: &str, prompt: &Prompt, runs: usize, temperature: Option<f64>) -> Value {
    let mut r = json!({
        "id": id,
        "messages": [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ],
        "n": runs,
        "schema": prompt.schema,
    });
    if let Some(t) = temperature {
        r["temperature"] = json!(t);
    }
    r
}

pub struct LlmBenchOptions {
    pub base_url: String,
    pub model: String,
    pub runs: usize,
    pub settings: Vec<String>,
    pub temperature: Option<f64>,
}

/// Runs the experiment and returns the report (Table 2b per setting, plus claim checking and the
/// combination with the rules).
pub fn run_llm_bench(cases: &[Case], options: &LlmBenchOptions) -> Result<String, String> {
    let mut requests = Vec::new();
    let mut prompts: BTreeMap<String, PromptOptions> = BTreeMap::new();
    for setting in &options.settings {
        let prompt_options = PromptOptions::from_setting(setting)
            .ok_or_else(|| format!("unknown setting `{setting}` (+RT, -RT, -S, -R, -V, +DOCS)"))?;
        prompts.insert(setting.clone(), prompt_options.clone());
        for (i, case) in cases.iter().enumerate() {
            let prompt = build_prompt(&case_request(case, prompt_options.clone()));
            requests.push(llm_request(
                &format!("{setting}#{i}"),
                &prompt,
                options.runs,
                options.temperature,
            ));
        }
    }
    let mut worker = Worker::spawn(&options.base_url, &options.model)?;
    let replies = worker.ask_all(requests)?;
    let rules = rule_verdicts(cases);
    let results: Vec<SettingResult> = options
        .settings
        .iter()
        .map(|setting| {
            let answers: Vec<Vec<String>> = (0..cases.len())
                .map(|i| {
                    replies
                        .get(&format!("{setting}#{i}"))
                        .and_then(|r| r.get("contents"))
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(Value::as_str)
                                .map(String::from)
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect();
            judge_setting(cases, &rules, setting, &answers)
        })
        .collect();
    Ok(format!(
        "model {} at {}, {} runs per case (majority vote), {} versions\n\n{}",
        options.model,
        options.base_url,
        options.runs,
        cases.len(),
        judged_report(cases, &rules, &results)
    ))
}

/// Recorded answers (`recorded-answers.jsonl`: `{instance, model, setting, answers: [{reasoning,
/// detection, ...}]}` a line), each answer as the JSON text the model returned: model -> setting
/// -> instance -> answers.
pub type Recorded = BTreeMap<String, BTreeMap<String, HashMap<String, Vec<String>>>>;

pub fn read_recorded_answers(text: &str) -> Result<Recorded, String> {
    let mut recorded = Recorded::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}", n + 1);
        let v: Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
        let field = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| bad(&format!("no `{k}`")))
        };
        let answers = v
            .get("answers")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("no `answers` list"))?
            .iter()
            .map(|a| match a {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        recorded
            .entry(field("model")?.to_string())
            .or_default()
            .entry(field("setting")?.to_string())
            .or_default()
            .insert(field("instance")?.to_string(), answers);
    }
    Ok(recorded)
}

/// Judges recorded answers with no server: per model, per setting (all recorded ones, or those
/// given), as `--llm` judges live ones.
pub fn replay(
    cases: &[Case],
    recorded: &Recorded,
    models: &[String],
    settings: &[String],
) -> Vec<(String, Vec<SettingResult>)> {
    let rules = rule_verdicts(cases);
    recorded
        .iter()
        .filter(|(model, _)| models.is_empty() || models.contains(model))
        .map(|(model, by_setting)| {
            let results = by_setting
                .iter()
                .filter(|(setting, _)| settings.is_empty() || settings.contains(setting))
                .map(|(setting, by_instance)| {
                    let answers: Vec<Vec<String>> = cases
                        .iter()
                        .map(|c| by_instance.get(&c.instance).cloned().unwrap_or_default())
                        .collect();
                    judge_setting(cases, &rules, setting, &answers)
                })
                .collect();
            (model.clone(), results)
        })
        .collect()
}

fn replay_report(cases: &[Case], results: &[(String, Vec<SettingResult>)]) -> String {
    let rules = rule_verdicts(cases);
    results
        .iter()
        .map(|(model, settings)| {
            format!(
                "model {model}, recorded answers (majority vote), {} versions\n\n{}",
                cases.len(),
                judged_report(cases, &rules, settings)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Case lines with the paper's raw runtime summary (`runtime_info_raw`), which `Case` does not
/// keep.
pub fn read_cases_with_raw(text: &str) -> Result<Vec<(Case, String)>, String> {
    let cases = read_cases(text)?;
    let raws: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<Value>(l)
                .ok()
                .and_then(|v| v.get("runtime_info_raw")?.as_str().map(String::from))
                .unwrap_or_default()
        })
        .collect();
    Ok(cases.into_iter().zip(raws).collect())
}

/// `cellguard bench CASES.jsonl` with `--llm`, `--replay`, `--prompt-sizes` or `--show-prompt`;
/// returns the exit code (2 when a file cannot be read or an option is missing).
pub fn cli(args: &super::BenchArgs) -> u8 {
    let path = &args.cases;
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return 2;
        }
    };
    let cases = match read_cases_with_raw(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{path}: {e}");
            return 2;
        }
    };
    if let Some(wanted) = &args.show_prompt {
        let setting = args.settings.first().map(String::as_str).unwrap_or("+RT");
        let options = PromptOptions::from_setting(setting).unwrap_or_default();
        for (case, raw) in cases.iter().filter(|(c, _)| &c.instance == wanted) {
            let prompt = build_prompt(&case_request(case, options.clone()));
            outln!("{}\n\n{}", prompt.system, prompt.user);
            outln!(
                "--- {} chars (~{} tokens); the paper's: {} chars",
                prompt.chars,
                prompt.tokens_estimate,
                paper_prompt(case, raw).chars().count()
            );
        }
        return 0;
    }
    if args.prompt_sizes {
        out!(
            "{}",
            size_report(&prompt_sizes(&cases, &PromptOptions::default()))
        );
        if args.llm.is_none() {
            return 0;
        }
    }
    if let Some(replay_path) = &args.replay {
        let cases: Vec<Case> = cases.into_iter().map(|(c, _)| c).collect();
        let recorded = match std::fs::read_to_string(replay_path)
            .map_err(|e| format!("cannot read {replay_path}: {e}"))
            .and_then(|t| read_recorded_answers(&t).map_err(|e| format!("{replay_path}: {e}")))
        {
            Ok(r) => r,
            Err(e) => {
                eprintln!("cellguard bench: {e}");
                return 2;
            }
        };
        // Only a model named on the command line filters the recorded ones.
        let models: Vec<String> = args.model.iter().cloned().collect();
        let results = replay(&cases, &recorded, &models, &args.settings);
        if results.is_empty() {
            eprintln!(
                "cellguard bench: {replay_path} has no answers of the model and settings asked"
            );
            return 2;
        }
        out!("{}", replay_report(&cases, &results));
        return 0;
    }
    let Some(base_url) = args.llm.clone() else {
        return 0;
    };
    let Some(model) = args
        .model
        .clone()
        .or_else(|| std::env::var("CELLGUARD_LLM_MODEL").ok())
    else {
        eprintln!("cellguard bench: --llm needs --model (or CELLGUARD_LLM_MODEL)");
        return 2;
    };
    let mut settings = args.settings.clone();
    if settings.is_empty() {
        settings.push("+RT".into());
    }
    let cases: Vec<Case> = cases.into_iter().map(|(c, _)| c).collect();
    match run_llm_bench(
        &cases,
        &LlmBenchOptions {
            base_url,
            model,
            runs: usize::from(args.runs),
            settings,
            temperature: args.temperature,
        },
    ) {
        Ok(report) => {
            out!("{report}");
            0
        }
        Err(e) => {
            eprintln!("cellguard bench: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEV: &str = "../../shared/junobench/dev.jsonl";

    /// The development cases, from `shared/` beside the clone (as in CI) or `CELLGUARD_JUNOBENCH`;
    /// a test that needs them fails where they are absent.
    fn dev() -> Vec<(Case, String)> {
        let path = std::env::var("CELLGUARD_JUNOBENCH")
            .unwrap_or_else(|_| format!("{}/{DEV}", env!("CARGO_MANIFEST_DIR")));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{path}: {e}. The JunoBench data must be in shared/ beside the clone (as in CI)")
        });
        read_cases_with_raw(&text).unwrap()
    }

    /// Our prompts are at most 0.7 x the paper's characters on JunoBench and keep the diagnosis
    /// terms the paper's input has.
    #[test]
    fn prompts_are_smaller_than_the_papers() {
        let cases = dev();
        let rows = prompt_sizes(&cases, &PromptOptions::default());
        let paper: usize = rows.iter().map(|r| r.paper_chars).sum();
        let ours: usize = rows.iter().map(|r| r.ours_chars).sum();
        eprintln!("{}", size_report(&rows));
        assert!(ours * 10 <= paper * 7, "ours {ours} vs paper {paper}");
        let terms: usize = rows.iter().map(|r| r.terms_paper).sum();
        let kept: usize = rows.iter().map(|r| r.terms_kept).sum();
        assert!(kept * 100 >= terms * 90, "kept {kept} of {terms}");
    }
}
