//! `cellguard bench CASES --replay ANSWERS.jsonl`: recorded answers judged with no server, by the
//! vote, claim checks and hybrid of `--llm`.
//!
//! The recorded answers of the JunoBench development split live in `shared/` beside the
//! repository, as in CI (`CELLGUARD_JUNOBENCH` names another `dev.jsonl`, with
//! `recorded-answers.jsonl` beside it): the test fails, saying so, where they are absent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cellguard::bench::junobench::{analyze_case, read_cases, Counts};
use cellguard::bench::llm::{read_recorded_answers, replay};
use serde_json::Value;

fn junobench_file(name: &str) -> (PathBuf, String) {
    let dev = std::env::var("CELLGUARD_JUNOBENCH").map_or_else(
        |_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/junobench/dev.jsonl"),
        PathBuf::from,
    );
    let path = dev.with_file_name(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}. The JunoBench data must be in shared/ beside the clone (as in CI), or \
             CELLGUARD_JUNOBENCH must name its dev.jsonl",
            path.display()
        )
    });
    (path, text)
}

fn counts(crash_and_predicted: impl Iterator<Item = (bool, bool)>) -> Counts {
    let mut c = Counts::default();
    for (crash, predicted) in crash_and_predicted {
        c.add(crash, predicted);
    }
    c
}

fn tp_fp_fn_tn(c: &Counts) -> (u32, u32, u32, u32) {
    (c.tp, c.fp, c.fn_, c.tn)
}

/// On the real answers of three LLMs: every answer is read, the vote is the plain majority of the
/// recorded detections, and since no recorded answer states a structured claim, claim checks
/// downgrade nothing (so none wrongly); the hybrid is a rule firing, else the vote.
#[test]
fn recorded_answers_of_the_development_cases() {
    let (_, dev) = junobench_file("dev.jsonl");
    let (_, recorded_text) = junobench_file("recorded-answers.jsonl");
    let cases = read_cases(&dev).unwrap();
    let recorded = read_recorded_answers(&recorded_text).unwrap();

    // The majority of the recorded detections, computed here from the raw lines.
    let mut majority: HashMap<(String, String, String), bool> = HashMap::new();
    for line in recorded_text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let answers = v["answers"].as_array().unwrap();
        let crashes = answers.iter().filter(|a| a["detection"] == true).count();
        let key = |k: &str| v[k].as_str().unwrap().to_string();
        majority.insert(
            (key("model"), key("setting"), key("instance")),
            crashes * 2 > answers.len(),
        );
    }
    let rules: Vec<bool> = cases
        .iter()
        .map(|c| analyze_case(c).crash_predicted)
        .collect();

    let results = replay(&cases, &recorded, &[], &[]);
    let judged: Vec<(String, String)> = results
        .iter()
        .flat_map(|(m, r)| r.iter().map(move |s| (m.clone(), s.setting.clone())))
        .collect();
    assert_eq!(judged.len(), 6, "3 models x (+RT, -RT): {judged:?}");
    for (model, settings) in &results {
        for r in settings {
            let vote = |case: &cellguard::bench::junobench::Case| {
                majority[&(model.clone(), r.setting.clone(), case.instance.clone())]
            };
            let expected_llm = counts(cases.iter().map(|c| (c.crash, vote(c))));
            let expected_hybrid = counts(
                cases
                    .iter()
                    .zip(&rules)
                    .map(|(c, &rule)| (c.crash, rule || vote(c))),
            );
            let name = format!("{model} {}", r.setting);
            assert_eq!(r.unreadable, 0, "{name}");
            assert_eq!(tp_fp_fn_tn(&r.llm), tp_fp_fn_tn(&expected_llm), "{name}");
            assert_eq!(
                tp_fp_fn_tn(&r.hybrid),
                tp_fp_fn_tn(&expected_hybrid),
                "{name}"
            );
            let reasons: Vec<&str> = r.downgrades.iter().map(|d| d.reason.as_str()).collect();
            assert_eq!(r.wrong_downgrades(), 0, "{name}: {reasons:?}");
            assert!(r.downgrades.is_empty(), "{name}: {reasons:?}");
            assert_eq!(tp_fp_fn_tn(&r.checked), tp_fp_fn_tn(&r.llm), "{name}");
            assert_eq!(
                tp_fp_fn_tn(&r.hybrid_checked),
                tp_fp_fn_tn(&r.hybrid),
                "{name}"
            );
        }
    }
}

/// The command line on a fixture whose answers state structured claims: the crash answers of the
/// fixed version rest on a column the kernel has, so they vote no crash and the verdict is
/// downgraded (rightly); answers without claims are left alone.
#[test]
fn the_replay_command_judges_structured_claims() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let run = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_cellguard"))
            .arg("bench")
            .arg(fixtures.join("replay-cases.jsonl"))
            .arg("--replay")
            .arg(fixtures.join("replay-answers.jsonl"))
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        (output.status.code(), stdout)
    };
    let (code, out) = run(&[]);
    assert_eq!(code, Some(0), "{out}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{name:<34} ")))
            .and_then(|l| l.rsplit('(').next())
            .map(|counts| counts.trim_end_matches(')').to_string())
            .unwrap_or_else(|| panic!("no row `{name}` in:\n{out}"))
    };
    assert_eq!(row("LLM (+RT)"), "TP 1 FP 1 FN 0 TN 0");
    assert_eq!(row("LLM (+RT) + claims"), "TP 1 FP 0 FN 0 TN 1");
    assert_eq!(row("rules + LLM (+RT) + claims"), "TP 1 FP 0 FN 0 TN 1");
    let downgrades = |setting: &str| {
        let label = format!("  claim downgrades ({setting})");
        out.lines()
            .find_map(|l| l.strip_prefix(&label))
            .map(|rest| rest.trim().to_string())
            .unwrap_or_else(|| panic!("no `{label}` in:\n{out}"))
    };
    assert_eq!(downgrades("+RT"), "1 (right 1, wrong 0)");
    assert!(
        out.contains("t_1_fixed (no crash): The LLM's crash verdict rests on a claim the kernel's facts refute: “df has no column 'Age'”, but df has a column 'Age'."),
        "{out}"
    );
    // No claims, no downgrade; the answer that does not read is no vote.
    assert_eq!(row("LLM (-RT)"), "TP 1 FP 1 FN 0 TN 0");
    assert_eq!(row("LLM (-RT) + claims"), "TP 1 FP 1 FN 0 TN 0");
    assert_eq!(downgrades("-RT"), "0 (right 0, wrong 0)");

    let (code, out) = run(&["--setting", "-RT", "--model", "m"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("(+RT)") && out.contains("(-RT)"), "{out}");
    let (code, _) = run(&["--model", "other"]);
    assert_eq!(code, Some(2));
}
