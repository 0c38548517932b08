//! The `cellguard` command line: static analysis of a whole notebook, offline.

use std::process::ExitCode;

use serde_json::{json, Value};

use crate::check::check_notebook;
use crate::codes::{self, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::notebook::{CellKind, Notebook};
use crate::position::LineIndex;

const HELP: &str = "\
cellguard: predicts whether notebook cells will crash, before they run

USAGE:
    cellguard check NOTEBOOK.ipynb [--json] [--execution-order]
    cellguard rules [CODE | --markdown | --generate [ROOT]]

Checks every code cell as if the code cells before it ran, top to bottom, and nothing else.

OPTIONS:
    --execution-order   Assume the cells ran in the order of their execution counts ([n]);
                        cells that never ran come last, in document order.
    --json              Print a machine-readable report (see below) instead of text.
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

RULES:
    cellguard rules             lists every diagnostic code
    cellguard rules CODE        prints what CODE catches, why it crashes, and examples
    cellguard rules --markdown  prints the README's rule table
    cellguard rules --generate [ROOT]
                                rewrites the files generated from the registry under the
                                repository root ROOT (default .): README.md's rule table and
                                labextension/schema/settings.json's codes

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
        ["rules", rest @ ..] => rules(rest),
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

fn rules(args: &[&str]) -> ExitCode {
    match args {
        [] => print!("{}", codes::listing()),
        ["--markdown"] => print!("{}", codes::markdown_table()),
        ["--generate"] => return generate("."),
        ["--generate", root] => return generate(root),
        [code] if !code.starts_with('-') => match Rule::from_code(code) {
            Some(rule) => print!("{}", codes::explain(rule)),
            None => {
                return usage_error(&format!("no rule `{code}` (`cellguard rules` lists them)"))
            }
        },
        _ => return usage_error("`rules` takes a code, --markdown or --generate [ROOT]"),
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
        println!("wrote {rel}");
    }
    ExitCode::SUCCESS
}

fn check(args: &[&str]) -> ExitCode {
    let mut json_output = false;
    let mut execution_order = false;
    let mut paths = Vec::new();
    for &arg in args {
        match arg {
            "--json" => json_output = true,
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
    let reports = check_notebook(&sources, &order);
    let crash_predicted = reports
        .iter()
        .flat_map(|(_, diagnostics)| diagnostics)
        .any(|d| d.severity == Severity::Error);

    if json_output {
        let cells: Vec<Value> = reports
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
            json!({"cells": cells, "crash_predicted": crash_predicted})
        );
    } else {
        print_text(&reports, &sources, crash_predicted);
    }
    if crash_predicted {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_text(reports: &[(usize, Vec<Diagnostic>)], sources: &[String], crash_predicted: bool) {
    let mut count = 0;
    let mut cells_with_problems = 0;
    for (index, diagnostics) in reports {
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
    let verdict = if crash_predicted {
        "a crash is predicted"
    } else {
        "no crash predicted"
    };
    println!(
        "{count} problem{} in {cells_with_problems} of {} code cells: {verdict}",
        if count == 1 { "" } else { "s" },
        reports.len()
    );
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
