//! Python's own semantics as rules (crate/src/rules/pytypes.rs), on the fixture files in
//! tests/fixtures/pytypes/: every case there is labelled `crash` or `runs`, and verify.py there
//! runs each one in CPython to prove the label. A crashing case must get a diagnostic of its
//! file's code, a running one none at all; the snapshots keep code, message, range and fix.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use cellguard::check::{check_cell, CheckInput};
use cellguard::diagnostic::Severities;
use cellguard::summary::SummaryDoc;

mod support;

struct Case {
    name: String,
    crashes: bool,
    ran: String,
    cell: String,
}

/// The cases of a fixture file, as verify.py reads them.
fn cases(text: &str) -> Vec<Case> {
    text.split("# %% ")
        .skip(1)
        .map(|chunk| {
            let (header, body) = chunk.split_once('\n').unwrap_or((chunk, ""));
            let (name, label) = header.split_once(':').expect("`# %% NAME: crash|runs`");
            let label = label.trim();
            assert!(label == "crash" || label == "runs", "{header}");
            let ran: Vec<&str> = body
                .lines()
                .filter_map(|l| l.strip_prefix("# ran: "))
                .collect();
            let cell: Vec<&str> = body.lines().filter(|l| !l.starts_with("# ran: ")).collect();
            Case {
                name: name.trim().to_string(),
                crashes: label == "crash",
                ran: ran.join("\n"),
                cell: cell.join("\n").trim().to_string(),
            }
        })
        .collect()
}

fn check_fixture(code: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pytypes");
    let text = std::fs::read_to_string(dir.join(format!("{code}.py"))).unwrap();
    let summaries: BTreeMap<String, BTreeMap<String, serde_json::Value>> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summaries.json")).unwrap())
            .unwrap();
    let mut report = String::new();
    for case in cases(&text) {
        // A case with cells that ran is checked as the extension does, with the kernel's
        // summaries of their names; one without is checked from its code alone.
        let history: Vec<String> = if case.ran.is_empty() {
            vec![]
        } else {
            vec![case.ran.clone()]
        };
        let doc: Option<SummaryDoc> = summaries
            .get(code)
            .and_then(|cases| cases.get(&case.name))
            .map(|objects| {
                serde_json::from_value(serde_json::json!({"schema": 1, "objects": objects}))
                    .unwrap()
            });
        assert_eq!(
            doc.is_some(),
            !case.ran.is_empty(),
            "{code}:{}: summaries.json is stale: run `python3 crate/tests/fixtures/pytypes/verify.py`",
            case.name
        );
        let names: Option<Vec<String>> = doc.as_ref().map(|d| d.objects.keys().cloned().collect());
        let input = CheckInput {
            cells: &history,
            target_source: &case.cell,
            target_index: None,
            history: &history,
            history_raised: &[],
            kernel_names: names.as_deref(),
            summaries: doc.as_ref(),
            severities: &Severities::new(),
        };
        let diagnostics = check_cell(&input).diagnostics;
        if case.crashes {
            assert!(
                diagnostics.iter().any(|d| d.code == code),
                "{code}:{}: crashes, but no {code}: {diagnostics:#?}",
                case.name
            );
        } else {
            assert!(
                diagnostics.is_empty(),
                "{code}:{}: runs, but {diagnostics:#?}",
                case.name
            );
        }
        let label = if case.crashes { "crash" } else { "runs" };
        writeln!(report, "{} ({label})", case.name).unwrap();
        report.push_str(&support::describe(&case.cell, &diagnostics));
    }
    report
}

macro_rules! fixture {
    ($test:ident, $code:literal) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!(check_fixture($code));
        }
    };
}

fixture!(operand_type, "operand-type");
fixture!(builtin_argument, "builtin-argument");
fixture!(not_callable, "not-callable");
fixture!(not_iterable, "not-iterable");
fixture!(not_subscriptable, "not-subscriptable");
fixture!(unpack_count, "unpack-count");
fixture!(missing_attribute, "missing-attribute");
fixture!(index_out_of_range, "index-out-of-range");
fixture!(bad_arguments, "bad-arguments");
fixture!(missing_key, "missing-key");
fixture!(index_type, "index-type");
fixture!(undefined_name, "undefined-name");
fixture!(item_assignment, "item-assignment");
