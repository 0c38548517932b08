//! The `cellguard check` command on small notebooks: exit codes, text and JSON output.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{json, Value};

fn write_notebook(name: &str, cells: Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cellguard-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let notebook = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells});
    std::fs::write(&path, notebook.to_string()).unwrap();
    path
}

fn code(source: &str, count: Option<u32>) -> Value {
    json!({"cell_type": "code", "source": source, "execution_count": count, "metadata": {}, "outputs": []})
}

fn cellguard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cellguard"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_clean_notebook_exits_0() {
    let path = write_notebook(
        "clean.ipynb",
        json!([{"cell_type": "markdown", "source": ["# Title"], "metadata": {}},
               code("import math\nx = math.pi", Some(1)), code("print(x)", Some(2))]),
    );
    let output = cellguard(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "0 problems in 0 of 2 code cells: no crash predicted\n"
    );
}

#[test]
fn a_predicted_crash_exits_1_with_compiler_like_lines() {
    let path = write_notebook(
        "crash.ipynb",
        json!([{"cell_type": "markdown", "source": "# Title", "metadata": {}},
               code("import numpy as np\nprint(np.mean(scores))", Some(1)),
               code("scores = [1, 2]", Some(2))]),
    );
    let output = cellguard(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "cell 2 2:15: undefined-name: `scores` is not defined: no cell that ran defines it; \
         the cell below defines it but has not run\n    fix: Run the cell below first\n\
         1 problem in 1 of 2 code cells: a crash is predicted\n"
    );
    // Its execution counts give the same order.
    let output = cellguard(&["check", "--execution-order", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn the_rules_run_on_the_code_alone() {
    let path = write_notebook(
        "rules.ipynb",
        json!([
            code("import numpy as np", Some(1)),
            code(
                "a = np.zeros((3, 4))\nb = np.ones((5, 2))\nc = a @ b",
                Some(2)
            ),
            code("items = [1, 2, 3]\nprint(items[2])", Some(3))
        ]),
    );
    let output = cellguard(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let text = stdout(&output);
    assert!(
        text.contains("cell 2 3:5: shape-matmul: matrix product of a with shape (3, 4) and b with shape (5, 2)"),
        "{text}"
    );
    assert!(text.contains("1 problem in 1 of 3 code cells"), "{text}");
}

#[test]
fn execution_order_follows_execution_counts() {
    let path = write_notebook(
        "order.ipynb",
        json!([
            code("print(scores)", Some(2)),
            code("scores = [1]", Some(1)),
            code("z = 1", None)
        ]),
    );
    let path = path.to_str().unwrap();
    assert_eq!(cellguard(&["check", path]).status.code(), Some(1));
    let output = cellguard(&["check", path, "--execution-order", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let indices: Vec<u64> = report["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indices, [1, 0, 2]);
    assert_eq!(report["crash_predicted"], false);
}

#[test]
fn json_output_has_the_documented_shape() {
    let path = write_notebook("json.ipynb", json!([code("x = 1\ny = (x, é, w)", Some(4))]));
    let output = cellguard(&["check", "--json", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        report,
        json!({"cells": [{"index": 0, "execution_count": 4, "diagnostics": [
            {"code": "undefined-name", "severity": "error",
             "message": "`é` is not defined: no cell that ran defines it, nor any cell of the notebook",
             "start": {"line": 2, "column": 9}, "end": {"line": 2, "column": 10}, "fix": null},
            {"code": "undefined-name", "severity": "error",
             "message": "`w` is not defined: no cell that ran defines it, nor any cell of the notebook",
             "start": {"line": 2, "column": 12}, "end": {"line": 2, "column": 13}, "fix": null}]}],
              "crash_predicted": true})
    );
}

#[test]
fn bad_input_exits_2_with_one_line_on_stderr() {
    let dir = std::env::temp_dir().join(format!("cellguard-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let invalid = dir.join("invalid.ipynb");
    std::fs::write(&invalid, "{not json").unwrap();
    let not_notebook = dir.join("list.ipynb");
    std::fs::write(&not_notebook, "[1, 2]").unwrap();
    let missing = dir.join("missing.ipynb");
    for args in [
        vec!["check", invalid.to_str().unwrap()],
        vec!["check", not_notebook.to_str().unwrap()],
        vec!["check", missing.to_str().unwrap()],
        vec!["check"],
        vec!["check", "--frobnicate", "x.ipynb"],
        vec!["unknown"],
    ] {
        let output = cellguard(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("cellguard: "), "{stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn help_documents_positions_and_exit_codes() {
    let output = cellguard(&["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let help = stdout(&output);
    assert!(help.contains("1-based line and column"));
    assert!(help.contains("counted from 1 among all cells"));
    assert!(help.contains("EXIT STATUS"));
}

#[test]
fn sarif_output_has_the_required_fields() {
    let path = write_notebook(
        "sarif.ipynb",
        json!([{"cell_type": "markdown", "source": "# Title", "metadata": {}},
               code("import numpy as np\nprint(np.mean(scores))", Some(1)),
               code("scores = [1, 2]", Some(2))]),
    );
    let path = path.to_str().unwrap();
    let output = cellguard(&["check", "--format", "sarif", path]);
    assert_eq!(output.status.code(), Some(1));
    let log: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "cellguard");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0]["id"], "undefined-name");
    assert!(rules[0]["shortDescription"]["text"].is_string());
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let result = &results[0];
    assert_eq!(result["ruleId"], "undefined-name");
    assert_eq!(result["ruleIndex"], 0);
    assert_eq!(result["level"], "error");
    assert!(result["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with("`scores` is not defined"));
    let location = &result["locations"][0]["physicalLocation"];
    let uri = location["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.ends_with("sarif.ipynb#cell=2"), "{uri}");
    assert_eq!(
        location["region"],
        json!({"startLine": 2, "startColumn": 15, "endLine": 2, "endColumn": 21})
    );
    assert_eq!(result["properties"]["cellIndex"], 1);

    // `--format json` is `--json`; a clean notebook has no results.
    let json_output = cellguard(&["check", "--format", "json", path]);
    assert_eq!(
        json_output.stdout,
        cellguard(&["check", "--json", path]).stdout
    );
    let clean = write_notebook("clean-sarif.ipynb", json!([code("x = 1", Some(1))]));
    let output = cellguard(&["check", "--format", "sarif", clean.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    let log: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(log["runs"][0]["results"], json!([]));
    assert_eq!(
        cellguard(&["check", "--format", "xml", path]).status.code(),
        Some(2)
    );
}

// ---------- a saved session (`--execution-order`)

fn crashed(source: &str, count: u32, line: usize, code_line: &str) -> Value {
    let traceback = format!(
        "Cell \u{1b}[0;32mIn[{count}], line {line}\u{1b}[0m\n\u{1b}[0;32m----> {line}\u{1b}[0m {code_line}\n"
    );
    json!({"cell_type": "code", "source": source, "execution_count": count, "metadata": {},
           "outputs": [{"output_type": "error", "ename": "ValueError", "evalue": "",
                        "traceback": ["ValueError  Traceback (most recent call last)", traceback]}]})
}

/// `(cell index, severity, code)` of every diagnostic of `check --execution-order --json`.
fn session(name: &str, cells: Value) -> Vec<(u64, String, String)> {
    let path = write_notebook(name, cells);
    let output = cellguard(&[
        "check",
        path.to_str().unwrap(),
        "--execution-order",
        "--json",
    ]);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let mut found = Vec::new();
    for cell in report["cells"].as_array().unwrap() {
        for d in cell["diagnostics"].as_array().unwrap() {
            found.push((
                cell["index"].as_u64().unwrap(),
                d["severity"].as_str().unwrap().to_owned(),
                d["code"].as_str().unwrap().to_owned(),
            ));
        }
    }
    found
}

#[test]
fn an_output_count_stands_for_a_missing_cell_count() {
    let mut defining = code("x = 1", None);
    defining["outputs"] = json!([{"output_type": "execute_result", "execution_count": 1,
                                  "data": {"text/plain": "1"}, "metadata": {}}]);
    assert_eq!(
        session(
            "output-count.ipynb",
            json!([defining, code("print(x)", Some(2))])
        ),
        []
    );
    // Twin: without the output's count the cell is unnumbered: it may have run, so the missing
    // name is only likely.
    assert_eq!(
        session(
            "no-count.ipynb",
            json!([code("x = 1", None), code("print(x)", Some(1))])
        ),
        [(1, "warning".to_owned(), "undefined-name".to_owned())]
    );
}

#[test]
fn a_crashed_cell_bound_only_what_ran_before_the_crash() {
    let cells = json!([
        crashed("a = 1\nb = int('x')\nc = 2", 1, 2, "b = int('x')"),
        code("print(a)", Some(2)),
        code("print(c)", Some(3)),
    ]);
    let found = session("crashed.ipynb", cells);
    // The crash itself is certain from the code too (the Python-semantics rules).
    assert_eq!(
        found,
        [
            (0, "error".to_owned(), "builtin-argument".to_owned()),
            (2, "error".to_owned(), "undefined-name".to_owned())
        ]
    );
    // Twin: the same cell with no saved error bound `c`.
    let cells = json!([
        code("a = 1\nb = int('1')\nc = 2", Some(1)),
        code("print(a)", Some(2)),
        code("print(c)", Some(3)),
    ]);
    assert_eq!(session("not-crashed.ipynb", cells), []);
}

#[test]
fn missing_counts_or_an_edited_cell_make_errors_likely() {
    // [2] ran and is gone: it may have bound `y`.
    let gap = json!([code("x = 1", Some(1)), code("print(y)", Some(3))]);
    assert_eq!(
        session("gap.ipynb", gap),
        [(1, "warning".to_owned(), "undefined-name".to_owned())]
    );
    let no_gap = json!([code("x = 1", Some(1)), code("print(y)", Some(2))]);
    assert_eq!(
        session("no-gap.ipynb", no_gap),
        [(1, "error".to_owned(), "undefined-name".to_owned())]
    );
    // The saved error is on a line the cell no longer holds: edited since it ran.
    let edited = json!([
        crashed("a = 1\nb = 2", 1, 2, "b = int('x')"),
        code("print(z)", Some(2)),
    ]);
    assert_eq!(
        session("edited.ipynb", edited),
        [(1, "warning".to_owned(), "undefined-name".to_owned())]
    );
}

#[test]
fn a_saved_cell_whose_function_writes_globals_may_define_what_it_reads() {
    // As the standard library's `re._constants` does: names bound by a call of the cell's own
    // function, read below it; the cell ran fine.
    let source = "def make(*names):\n    globals().update({n: n for n in names})\n\
                  make('AT_END')\nTABLE = {AT_END: 1}";
    assert_eq!(
        session("writes-globals.ipynb", json!([code(source, Some(1))])),
        []
    );
    // Twin: a function that only reads its own namespace binds nothing.
    let source = "def make(*names):\n    return locals()\nmake('AT_END')\nTABLE = {AT_END: 1}";
    assert_eq!(
        session("reads-locals.ipynb", json!([code(source, Some(1))])),
        [(0, "error".to_owned(), "undefined-name".to_owned())]
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_program_quietly() {
    // `cellguard rules | head -1`: the pipe closes before the listing is written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_cellguard"))
        .arg("rules")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}
