//! The `cellguard` command line: static analysis of a whole notebook, offline.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use serde_json::{json, Value};

use std::collections::{BTreeSet, HashSet};

use crate::bench::BenchArgs;
use crate::check::{check_notebook, check_session, NotebookReport, SessionStep};
use crate::codes::{self, Rule};
use crate::diagnostic::{Diagnostic, Severities, Severity};
use crate::notebook::{CellKind, Notebook};
use crate::position::LineIndex;

/// What `cellguard --help` and `cellguard check --help` say after the options: positions, the JSON
/// and SARIF outputs, the exit codes.
const OUTPUT_HELP: &str = "\
TEXT OUTPUT:
    cell 4 2:5: undefined-name: `x` is not defined: ...
    cell 4 is the notebook's fourth cell, counted from 1 among all cells (markdown included), as
    in messages; 2:5 is the 1-based line and column in the cell (columns count UTF-16 code units,
    as JupyterLab does).

JSON OUTPUT (stable):
    {\"cells\": [{\"index\": 3, \"execution_count\": 7 | null, \"diagnostics\": [
        {\"code\": \"undefined-name\", \"severity\": \"error\" | \"warning\" | \"info\",
         \"message\": \"...\", \"start\": {\"line\": 2, \"column\": 5}, \"end\": {...},
         \"fix\": null | {\"message\": \"...\", \"run_cells\": [1],
                         \"edits\": [{\"start\": {...}, \"end\": {...}, \"content\": \"...\"}]}}]}],
     \"crash_predicted\": true}
    Cells are listed in the order checked, each code cell once; positions as in the text output.
    `index` and `run_cells` are 0-based indices among all cells (cell 4 has index 3).

SARIF OUTPUT (2.1.0, for code-scanning tools and CI):
    One run; tool.driver.rules lists the codes found (id, shortDescription). Each result has
    ruleId, level (error, warning, note), message.text and one location: artifactLocation.uri is
    the notebook path as given with a `#cell=N` fragment (N as in the text output, counted from
    1 among all cells) and region startLine/startColumn/endLine/endColumn are in that cell, as in
    the text output (run.columnKind is utf16CodeUnits); properties.cellIndex is the 0-based index.

EXIT STATUS:
    0  no crash predicted
    1  a crash is predicted (an error diagnostic)
    2  bad usage or input: unreadable file, invalid JSON, not a notebook
";

#[derive(Parser)]
#[command(
    name = "cellguard",
    version,
    about = "cellguard: predicts whether notebook cells will crash, before they run",
    after_help = OUTPUT_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Checks every code cell as if the code cells before it ran, top to bottom, and nothing else.
    #[command(after_help = OUTPUT_HELP)]
    Check(CheckArgs),
    /// Lists every diagnostic code, or explains one.
    Rules(RulesArgs),
    /// Scores the rules (or an LLM, with --llm / --replay) on JunoBench cases.
    Bench(BenchArgs),
    /// Development tool (benchmarks/syntax_corpus.py): reads each FILE (or each path on stdin) as
    /// a cell and prints one JSON line per file: the syntax error cellguard reports, or null.
    #[command(hide = true)]
    Syntax { paths: Vec<String> },
}

#[derive(Args)]
struct CheckArgs {
    #[arg(value_name = "NOTEBOOK.ipynb")]
    path: String,
    /// The output format (see below).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Assume the cells ran in the order of their execution counts ([n], or the count their
    /// outputs carry); cells that never ran come last, in document order. A cell whose saved
    /// output is an error ran only up to the line that raised. Where the notebook does not show
    /// all that ran (counts missing or repeated, a cell edited since it crashed, a defining cell
    /// with no count), errors that depend on it are warnings (likely).
    #[arg(long, verbatim_doc_comment)]
    execution_order: bool,
}

#[derive(Args)]
#[group(multiple = false)]
struct RulesArgs {
    /// Prints what CODE catches, why it crashes, and examples.
    #[arg(value_name = "CODE")]
    code: Option<String>,
    /// Prints the README's rule table.
    #[arg(long)]
    markdown: bool,
    /// Rewrites the files generated from the registry under the repository root ROOT (default
    /// .): README.md's rule table and labextension/schema/settings.json's codes.
    #[arg(long, value_name = "ROOT", num_args = 0..=1, default_missing_value = ".")]
    generate: Option<String>,
}

pub fn run(args: Vec<String>) -> ExitCode {
    let cli = match Cli::try_parse_from(std::iter::once("cellguard".to_owned()).chain(args)) {
        Ok(cli) => cli,
        Err(error) => return clap_error(&error),
    };
    match cli.command {
        None => {
            let _ = Cli::command().print_help();
            ExitCode::SUCCESS
        }
        Some(Command::Check(args)) => check(&args),
        Some(Command::Rules(args)) => rules(&args),
        Some(Command::Bench(args)) => ExitCode::from(crate::bench::run(&args)),
        Some(Command::Syntax { paths }) => syntax(&paths),
    }
}

/// Help and version go to stdout (exit 0); a usage error is one line on stderr (exit 2).
fn clap_error(error: &clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        _ => {
            // clap's message, without its usage and tip paragraphs, on one line.
            let rendered = error.render().to_string();
            let message = rendered.split("\n\n").next().unwrap_or_default();
            let message = message.strip_prefix("error: ").unwrap_or(message);
            usage_error(&message.split_whitespace().collect::<Vec<_>>().join(" "))
        }
    }
}

/// `cellguard syntax [FILE...]` (see [`Command::Syntax`]).
fn syntax(paths: &[String]) -> ExitCode {
    let from_stdin: Vec<String>;
    let paths = if paths.is_empty() {
        from_stdin = std::io::stdin().lines().map_while(Result::ok).collect();
        &from_stdin
    } else {
        paths
    };
    for path in paths {
        let report = match std::fs::read(path) {
            Err(e) => json!({"path": path, "unreadable": e.to_string()}),
            Ok(bytes) => {
                let source = String::from_utf8_lossy(&bytes);
                let error = crate::python::parse_cell(&source)
                    .syntax_error
                    .map(|error| {
                        let start = LineIndex::new(&source).position(error.range.start);
                        json!({"message": error.message, "line": start.line + 1})
                    });
                json!({"path": path, "syntax_error": error})
            }
        };
        outln!("{report}");
    }
    ExitCode::SUCCESS
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("cellguard: {message} (see `cellguard --help`)");
    ExitCode::from(2)
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Format {
    Text,
    Json,
    Sarif,
}

fn rules(args: &RulesArgs) -> ExitCode {
    if let Some(root) = &args.generate {
        return generate(root);
    }
    if args.markdown {
        out!("{}", codes::markdown_table());
    } else if let Some(code) = &args.code {
        match Rule::from_code(code) {
            Some(rule) => out!("{}", codes::explain(rule)),
            None => {
                return usage_error(&format!("no rule `{code}` (`cellguard rules` lists them)"))
            }
        }
    } else {
        out!("{}", codes::listing());
    }
    ExitCode::SUCCESS
}

/// Rewrites the files generated from the registry, under the repository root `root`.
fn generate(root: &str) -> ExitCode {
    let root = std::path::Path::new(root);
    let read = |rel: &str| {
        std::fs::read_to_string(root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))
    };
    let files = read(codes::README)
        .and_then(|readme| Ok((readme, read(codes::SETTINGS_SCHEMA)?)))
        .and_then(|(readme, settings)| codes::generated(&readme, &settings));
    let files = match files {
        Ok(files) => files,
        Err(message) => {
            eprintln!("cellguard: {message}");
            return ExitCode::from(2);
        }
    };
    for (rel, content) in files {
        if let Err(e) = std::fs::write(root.join(rel), content) {
            eprintln!("cellguard: cannot write {rel}: {e}");
            return ExitCode::from(2);
        }
        outln!("wrote {rel}");
    }
    ExitCode::SUCCESS
}

fn check(args: &CheckArgs) -> ExitCode {
    let format = if args.json { Format::Json } else { args.format };
    let execution_order = args.execution_order;
    let path = &args.path;
    let notebook = match std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {path}: {e}"))
        .and_then(|text| Notebook::parse(&text).map_err(|e| format!("{path}: {e}")))
    {
        Ok(notebook) => notebook,
        Err(message) => {
            eprintln!("cellguard: {message}");
            return ExitCode::from(2);
        }
    };

    let order: Vec<usize> = if execution_order {
        notebook.execution_order()
    } else {
        notebook.code_cells().collect()
    };
    // Non-code cells stay as empty sources so that indices are notebook cell indices.
    let sources: Vec<String> = notebook
        .cells
        .iter()
        .map(|cell| match cell.kind {
            CellKind::Code => cell.source.clone(),
            CellKind::Other => String::new(),
        })
        .collect();
    let report = if execution_order {
        let (steps, unnumbered) = saved_session(&notebook, &order);
        check_session(&sources, &steps, &unnumbered, &Severities::new())
    } else {
        check_notebook(&sources, &order, &Severities::new())
    };

    match format {
        Format::Json => {
            let cells: Vec<Value> = report
                .cells
                .iter()
                .map(|(index, diagnostics)| {
                    json!({
                        "index": index,
                        "execution_count": notebook.cells[*index].execution_count,
                        "diagnostics": diagnostics_json(diagnostics, &sources[*index]),
                    })
                })
                .collect();
            outln!(
                "{}",
                json!({"cells": cells, "crash_predicted": report.crash_predicted})
            );
        }
        Format::Sarif => outln!("{}", sarif(&report, &sources, path)),
        Format::Text => print_text(&report, &sources),
    }
    if report.crash_predicted {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The session a saved notebook records, in execution order: a cell whose output is an error ran
/// up to the line that raised; a cell's diagnostics are likely rather than certain when the
/// notebook does not show all that ran before it (execution counts missing or repeated, a cell
/// that crashed on a line it no longer holds: edited since). Also the code cells with no count.
fn saved_session(notebook: &Notebook, order: &[usize]) -> (Vec<SessionStep>, HashSet<usize>) {
    let mut steps = Vec::new();
    let mut counts_seen = BTreeSet::new();
    let mut edited: Option<usize> = None;
    let mut repeated = false;
    for &index in order {
        let cell = &notebook.cells[index];
        let count = cell.execution_count;
        let missing: Vec<u64> = match count {
            Some(count) => (1..count).filter(|c| !counts_seen.contains(c)).collect(),
            None => {
                let last = counts_seen.last().copied().unwrap_or(0);
                (1..=last).filter(|c| !counts_seen.contains(c)).collect()
            }
        };
        let uncertain = if repeated {
            Some("execution counts repeat: the kernel restarted".to_owned())
        } else if let Some(edited) = edited {
            Some(format!(
                "cell {} was edited after it ran: its saved error is on a line it no longer holds",
                edited + 1
            ))
        } else if !missing.is_empty() {
            Some(
                format!(
                    "the notebook does not hold the cells that ran as [{}]",
                    missing
                        .iter()
                        .take(5)
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join("], [")
                ) + if missing.len() > 5 { " and others" } else { "" },
            )
        } else {
            None
        };
        let error = count.and(cell.error.as_ref());
        let ran_through_line = error.and_then(|error| error.ran_through_line());
        if let Some((line, code)) = error.and_then(|error| error.line.as_ref()) {
            let current = cell.source.lines().nth(line.saturating_sub(1));
            if current.map(str::trim) != Some(code.as_str()) {
                edited.get_or_insert(index);
            }
        }
        if let Some(count) = count {
            repeated |= !counts_seen.insert(count);
        }
        steps.push(SessionStep {
            index,
            ran_through_line,
            uncertain,
        });
    }
    let unnumbered = notebook
        .code_cells()
        .filter(|&index| {
            let cell = &notebook.cells[index];
            cell.execution_count.is_none() && !cell.source.trim().is_empty()
        })
        .collect();
    (steps, unnumbered)
}

fn print_text(report: &NotebookReport, sources: &[String]) {
    let mut count = 0;
    let mut cells_with_problems = 0;
    for (index, diagnostics) in &report.cells {
        let lines = LineIndex::new(&sources[*index]);
        for diagnostic in diagnostics {
            let start = lines.position(diagnostic.range.start);
            outln!(
                "cell {} {}:{}: {}: {}",
                index + 1,
                start.line + 1,
                start.column + 1,
                diagnostic.code,
                diagnostic.message
            );
            if let Some(fix) = &diagnostic.fix {
                outln!("    fix: {}", fix.message);
            }
        }
        count += diagnostics.len();
        cells_with_problems += usize::from(!diagnostics.is_empty());
    }
    let verdict = if report.crash_predicted {
        "a crash is predicted"
    } else {
        "no crash predicted"
    };
    outln!(
        "{count} problem{} in {cells_with_problems} of {} code cells: {verdict}",
        if count == 1 { "" } else { "s" },
        report.cells.len()
    );
}

/// The report as a SARIF 2.1.0 log (documented in HELP).
fn sarif(report: &NotebookReport, sources: &[String], path: &str) -> Value {
    let mut rules: Vec<Rule> = Vec::new();
    let mut results = Vec::new();
    for (index, diagnostics) in &report.cells {
        let lines = LineIndex::new(&sources[*index]);
        for diagnostic in diagnostics {
            let rule_index = match rules.iter().position(|&rule| rule == diagnostic.code) {
                Some(known) => known,
                None => {
                    rules.push(diagnostic.code);
                    rules.len() - 1
                }
            };
            let start = lines.position(diagnostic.range.start);
            let end = lines.position(diagnostic.range.end);
            results.push(json!({
                "ruleId": diagnostic.code,
                "ruleIndex": rule_index,
                "level": match diagnostic.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "note",
                },
                "message": {"text": diagnostic.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": format!("{}#cell={}", uri_path(path), index + 1)},
                        "region": {
                            "startLine": start.line + 1,
                            "startColumn": start.column + 1,
                            "endLine": end.line + 1,
                            "endColumn": end.column + 1,
                        },
                    },
                }],
                "properties": {"cellIndex": index},
            }));
        }
    }
    let rules: Vec<Value> = rules
        .iter()
        .map(|rule| {
            json!({
                "id": rule.code(),
                "shortDescription": {"text": rule.doc().catches},
                "fullDescription": {"text": rule.doc().why},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cellguard",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    })
}

/// A relative URI reference for a path: the characters a URI reserves
/// (a `#` in a file name would start the fragment) percent-encoded.
fn uri_path(path: &str) -> String {
    let mut uri = String::new();
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

fn diagnostics_json(diagnostics: &[Diagnostic], source: &str) -> Vec<Value> {
    let lines = LineIndex::new(source);
    let position = |offset: u32| {
        let p = lines.position(offset);
        json!({"line": p.line + 1, "column": p.column + 1})
    };
    diagnostics
        .iter()
        .map(|d: &Diagnostic| {
            json!({
                "code": d.code,
                "severity": d.severity,
                "message": d.message,
                "start": position(d.range.start),
                "end": position(d.range.end),
                "fix": d.fix.as_ref().map(|fix| json!({
                    "message": fix.message,
                    "run_cells": fix.run_cells,
                    "edits": fix.edits.iter().map(|edit| json!({
                        "start": position(edit.range.start),
                        "end": position(edit.range.end),
                        "content": edit.content,
                    })).collect::<Vec<_>>(),
                })),
            })
        })
        .collect()
}
