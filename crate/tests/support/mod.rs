//! What the rule test files share: a check of one cell after earlier cells ran, with the kernel's
//! summaries of `objects`, and the snapshot text of its diagnostics.

// Each test binary compiles this module and uses a part of it.
#![allow(dead_code)]

use std::fmt::Write;

use cellguard::check::{check_cell, CheckInput};
use cellguard::diagnostic::{Diagnostic, Severities};
use cellguard::position::LineIndex;
use cellguard::summary::SummaryDoc;

/// Checks `target` after the cells `history` ran. The kernel holds the names those cells and
/// `also_run` define (code that ran but is not in the history: a verifier's set-up), and the
/// summaries `objects` (the inside of a summary document's `objects`).
pub fn check_after(
    history: &[String],
    also_run: &[&str],
    target: &str,
    objects: &str,
) -> Vec<Diagnostic> {
    let doc: SummaryDoc =
        serde_json::from_str(&format!(r#"{{"schema": 1, "objects": {{{objects}}}}}"#)).unwrap();
    let mut names: Vec<String> = doc.objects.keys().cloned().collect();
    // A star import binds names the facts do not list: the kernel's list is not known here.
    let mut star_import = false;
    for cell in history
        .iter()
        .map(String::as_str)
        .chain(also_run.iter().copied())
    {
        let facts = cellguard::facts::cell_facts(&cellguard::python::parse_cell(cell).body);
        names.extend(facts.definitions.iter().map(|d| d.name.clone()));
        star_import |= facts.star_import;
    }
    check_cell(&CheckInput {
        cells: history,
        target_source: target,
        target_index: None,
        history,
        history_raised: &[],
        kernel_names: (!star_import).then_some(&names),
        summaries: Some(&doc),
        severities: &Severities::new(),
    })
    .diagnostics
}

/// Checks `target` after the cells `history` ran, with no kernel to ask (a saved notebook
/// checked from the command line): the cells' code is all there is.
pub fn check_offline(history: &[String], target: &str) -> Vec<Diagnostic> {
    check_cell(&CheckInput::offline(history, target, &Severities::new())).diagnostics
}

/// The diagnostics of `source` as snapshot lines: code, line:column range, the text it covers,
/// message, and the fix with its edits.
pub fn describe(source: &str, diagnostics: &[Diagnostic]) -> String {
    let lines = LineIndex::new(source);
    let at = |offset: u32| {
        let p = lines.position(offset);
        format!("{}:{}", p.line + 1, p.column + 1)
    };
    let mut report = String::new();
    for d in diagnostics {
        let covered = &source[d.range.start as usize..d.range.end as usize];
        writeln!(
            report,
            "  {} {}-{} `{covered}`: {}",
            d.code,
            at(d.range.start),
            at(d.range.end),
            d.message
        )
        .unwrap();
        if let Some(fix) = &d.fix {
            let edits: Vec<String> = fix
                .edits
                .iter()
                .map(|e| {
                    format!(
                        "{}-{} -> `{}`",
                        at(e.range.start),
                        at(e.range.end),
                        e.content
                    )
                })
                .collect();
            writeln!(report, "    fix: {} [{}]", fix.message, edits.join(", ")).unwrap();
        }
    }
    report
}
