//! The `cellguard` command line: static analysis of a whole notebook, offline.

use std::process::ExitCode;

use serde_json::{json, Value};

use crate::check::{check_notebook, NotebookReport};
use crate::diagnostic::{Diagnostic, Severities, Severity};
use crate::notebook::{CellKind, Notebook};
use crate::position::LineIndex;

const HELP: &str = "\
cellguard: predicts whether notebook cells will crash, before they run

USAGE:
    cellguard check NOTEBOOK.ipynb [--format text|json|sarif] [--execution-order]

Checks every code cell as if the code cells before it ran, top to bottom, and nothing else.

OPTIONS:
    --execution-order   Assume the cells ran in the order of their execution counts ([n]);
                        cells that never ran come last, in document order.
    --format FORMAT     text (default), json or sarif (see below).
    --json              Same as --format json.
    -h, --help          Print this help.
    -V, --version       Print the version.

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

pub fn run(args: Vec<String>) -> ExitCode {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] | ["-h" | "--help" | "help", ..] => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        ["-V" | "--version", ..] => {
            println!("cellguard {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        ["check", rest @ ..] => check(rest),
        ["bench", rest @ ..] => {
            let rest: Vec<String> = rest.iter().map(|s| s.to_string()).collect();
            if let Some(code) = crate::bench_llm::cli(&rest) {
                return ExitCode::from(code as u8);
            }
            ExitCode::from(crate::junobench::cli(&rest) as u8)
        }
        [other, ..] => usage_error(&format!("unknown command `{other}`")),
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("cellguard: {message} (see `cellguard --help`)");
    ExitCode::from(2)
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Text,
    Json,
    Sarif,
}

fn check(args: &[&str]) -> ExitCode {
    let mut format = Format::Text;
    let mut execution_order = false;
    let mut paths = Vec::new();
    let mut args = args.iter().copied();
    while let Some(arg) = args.next() {
        match arg {
            "--json" => format = Format::Json,
            "--format" => {
                format = match args.next() {
                    Some("text") => Format::Text,
                    Some("json") => Format::Json,
                    Some("sarif") => Format::Sarif,
                    _ => return usage_error("`--format` takes text, json or sarif"),
                }
            }
            "--execution-order" => execution_order = true,
            "-h" | "--help" => {
                print!("{HELP}");
                return ExitCode::SUCCESS;
            }
            flag if flag.starts_with('-') => {
                return usage_error(&format!("unknown option `{flag}`"))
            }
            path => paths.push(path),
        }
    }
    let [path] = paths.as_slice() else {
        return usage_error("`check` takes one notebook path");
    };
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
    let report = check_notebook(&sources, &order, &Severities::new());

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
            println!(
                "{}",
                json!({"cells": cells, "crash_predicted": report.crash_predicted})
            );
        }
        Format::Sarif => println!("{}", sarif(&report, &sources, path)),
        Format::Text => print_text(&report, &sources),
    }
    if report.crash_predicted {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_text(report: &NotebookReport, sources: &[String]) {
    let mut count = 0;
    let mut cells_with_problems = 0;
    for (index, diagnostics) in &report.cells {
        let lines = LineIndex::new(&sources[*index]);
        for diagnostic in diagnostics {
            let start = lines.position(diagnostic.range.start);
            println!(
                "cell {} {}:{}: {}: {}",
                index + 1,
                start.line + 1,
                start.column + 1,
                diagnostic.code,
                diagnostic.message
            );
            if let Some(fix) = &diagnostic.fix {
                println!("    fix: {}", fix.message);
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
    println!(
        "{count} problem{} in {cells_with_problems} of {} code cells: {verdict}",
        if count == 1 { "" } else { "s" },
        report.cells.len()
    );
}

/// The report as a SARIF 2.1.0 log (documented in HELP).
fn sarif(report: &NotebookReport, sources: &[String], path: &str) -> Value {
    let mut rules: Vec<&'static str> = Vec::new();
    let mut results = Vec::new();
    for (index, diagnostics) in &report.cells {
        let lines = LineIndex::new(&sources[*index]);
        for diagnostic in diagnostics {
            let rule_index = match rules.iter().position(|&code| code == diagnostic.code) {
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
        .map(|code| json!({"id": code, "shortDescription": {"text": code.replace('-', " ")}}))
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
