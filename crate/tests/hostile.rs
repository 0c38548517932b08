//! Hostile shapes of ordinary-looking code: long method chains, long sums, long `elif` chains,
//! deep nesting and very long cells. Each is checked natively (the WebAssembly core runs the same
//! code, tests/wasm/hostile.test.mjs) for its result: a statement too deep to analyse gets one
//! `too-deep` note and the rules still work on the rest of the cell. Speed is measured by
//! benchmarks/wasm_core.mjs, not asserted here.
#![cfg(not(target_arch = "wasm32"))] // the stack sizes below are native threads

use cellguard::check::{check_cell, check_notebook, CheckInput};
use cellguard::diagnostic::Severities;
use cellguard::diagnostic::{Diagnostic, Severity};
use cellguard::python::{parse_cell, MAX_DEPTH};

const IMPORTS: &str = "import pandas as pd";

/// The stack of the threads below: WebAssembly's (1 MiB) in an optimized build, so that recursion
/// that would overflow in the browser fails here too; unoptimized frames are many times larger.
const STACK: usize = if cfg!(debug_assertions) {
    16 << 20
} else {
    1 << 20
};

/// Checks `target` after `IMPORTS` ran (no kernel summaries), on a thread of `STACK` bytes.
fn check(target: &str) -> Vec<Diagnostic> {
    let target = target.to_owned();
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let history = vec![IMPORTS.to_owned()];
            check_cell(&CheckInput {
                cells: &history,
                target_source: &target,
                target_index: None,
                history: &history,
                history_raised: &[],
                kernel_names: None,
                summaries: None,
                severities: &Severities::new(),
            })
            .diagnostics
        })
        .unwrap()
        .join()
        .expect("the check overflowed a 1 MiB stack or panicked")
}

fn codes(d: &[Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.code()).collect()
}

fn too_deep_notes(d: &[Diagnostic]) -> usize {
    d.iter()
        .filter(|d| d.code == "too-deep" && d.severity == Severity::Info)
        .count()
}

/// A frame the cell builds, then `frame['tmp']`, a missing column the rules report.
const FRAME: &str = "frame = pd.DataFrame({'city': ['Oslo'], 'temp': [3.5]})\n";
const MISSING: &str = "frame['tmp'].mean()\n";

fn chain(calls: usize) -> String {
    format!("frame{}", ".dropna()".repeat(calls))
}

#[test]
fn a_40_call_chain_is_analysed_through() {
    // The chain keeps the frame's columns: the missing column is found at its end.
    let target = format!("{FRAME}{}['tmp']\n", chain(40));
    let d = check(&target);
    assert_eq!(codes(&d), ["missing-column"], "{d:#?}");
    // Its twin names a column the frame has.
    assert!(check(&format!("{FRAME}{}['temp']\n", chain(40))).is_empty());
}

#[test]
fn a_3300_call_chain_is_declined_and_the_rest_checked() {
    let target = format!("{FRAME}{}\n{MISSING}", chain(3300));
    let d = check(&target);
    assert_eq!(too_deep_notes(&d), 1, "{d:#?}");
    // The chain mentions `frame`, which may have changed: what is known of it is forgotten.
    assert_eq!(codes(&d), ["too-deep"], "{d:#?}");
    // A frame the chain does not mention keeps its columns.
    let other = "other = pd.DataFrame({'a': [1]})\n";
    let d = check(&format!("{FRAME}{other}{}\nother['b']\n", chain(3300)));
    assert_eq!(codes(&d), ["too-deep", "missing-column"], "{d:#?}");
}

fn sum(terms: usize) -> String {
    format!("total = {}\n", vec!["x"; terms].join(" + "))
}

#[test]
fn long_sums_get_one_note_and_the_rest_of_the_cell_is_checked() {
    for terms in [1000, 10_000] {
        let target = format!(
            "x = 1\n{FRAME}{}{MISSING}print(undefined_name)\n",
            sum(terms)
        );
        let d = check(&target);
        assert_eq!(
            codes(&d),
            ["too-deep", "undefined-name", "missing-column"],
            "{terms} terms: {d:#?}"
        );
        let note = &d[0];
        assert_eq!(
            &target[note.range.start as usize..note.range.end as usize],
            sum(terms).trim_end(),
            "the note covers the statement's first line"
        );
        assert!(note.message.contains(&MAX_DEPTH.to_string()));
        // What the sum binds counts as bound afterwards.
        let d = check(&format!("x = 1\n{}print(total)\n", sum(terms)));
        assert_eq!(codes(&d), ["too-deep"], "{d:#?}");
    }
    // A short sum is analysed as usual: no note.
    assert!(check(&format!("x = 1\n{}print(total)\n", sum(40))).is_empty());
}

#[test]
fn five_thousand_elifs() {
    let mut chain = String::from("if n == 0:\n    label = 'zero'\n");
    for i in 1..5000 {
        chain.push_str(&format!("elif n == {i}:\n    label = 'n{i}'\n"));
    }
    let target = format!("n = 3\n{FRAME}{chain}print(label)\n{MISSING}");
    let d = check(&target);
    assert_eq!(codes(&d), ["too-deep", "missing-column"], "{d:#?}");
    // Ninety `elif`s nest 90 levels: analysed.
    let short: String = chain.lines().take(180).map(|l| format!("{l}\n")).collect();
    assert!(check(&format!("n = 3\n{short}print(label)\n")).is_empty());
}

fn nested_ifs(depth: usize) -> String {
    let mut text: String = (0..depth)
        .map(|i| format!("{}if x:\n", "    ".repeat(i)))
        .collect();
    text.push_str(&format!("{}nested = 1\n", "    ".repeat(depth)));
    text
}

#[test]
fn deep_nesting_of_every_kind() {
    let n = 5000;
    let shapes = [
        format!("nested = {}{}\n", "[".repeat(n), "]".repeat(n)),
        format!("nested = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
        format!("nested = {}1\n", "-".repeat(n)),
        format!("nested = {}1\n", "not ".repeat(n)),
        format!("nested = {}1\n", "lambda: ".repeat(n)),
        format!("nested = {}1\n", "x if x else ".repeat(n)),
        format!("nested = {}\n", vec!["x"; n].join(" ** ")),
        format!("nested = x{}\n", ".a".repeat(n)),
        format!("nested = x{}\n", "[0]".repeat(n)),
        nested_ifs(150),
        format!(
            "match x:\n    case {}y{}:\n        nested = 1\n",
            "[".repeat(n),
            "]".repeat(n)
        ),
        format!(
            "match x:\n    case {}y{}:\n        nested = 1\n",
            "{'k': ".repeat(n),
            "}".repeat(n)
        ),
        format!(
            "match x:\n    case x{}:\n        nested = 1\n",
            ".a".repeat(n)
        ),
        format!(
            "match x:\n    case {}1{}:\n        nested = 1\n",
            "(1 | ".repeat(n),
            ")".repeat(n)
        ),
    ];
    for shape in &shapes {
        let target = format!("x = 1\ndef f(v):\n    return v\n{FRAME}{shape}{MISSING}");
        let d = check(&target);
        let label = &shape[..shape.len().min(40)];
        assert!(
            too_deep_notes(&d) <= 1 && d.iter().any(|d| d.code == "missing-column"),
            "{label}: {d:#?}"
        );
    }
}

#[test]
fn a_10k_line_cell() {
    let mut target = FRAME.to_string();
    for i in 0..10_000 {
        target.push_str(&format!("x{i} = {i} + 1\n"));
    }
    target.push_str(MISSING);
    target.push_str("print(x9999, not_defined)\n");
    let d = check(&target);
    assert_eq!(codes(&d), ["undefined-name", "missing-column"], "{d:#?}");
}

#[test]
fn a_notebook_checked_offline_gets_the_note_and_goes_on() {
    let cells = vec![
        IMPORTS.to_owned(),
        format!("x = 1\n{}", sum(10_000)),
        format!("{FRAME}{MISSING}print(total)\n"),
    ];
    let reports = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || check_notebook(&cells, &[0, 1, 2], &Severities::new()))
        .unwrap()
        .join()
        .unwrap();
    let found: Vec<Vec<&str>> = reports.cells.iter().map(|(_, d)| codes(d)).collect();
    assert_eq!(found, [vec![], vec!["too-deep"], vec!["missing-column"]]);
}

#[test]
fn parse_cell_keeps_the_names_of_a_declined_statement() {
    let parsed = parse_cell(&format!(
        "a, b = c, [{}]\n",
        "[".repeat(500) + &"]".repeat(500)
    ));
    let serialized = serde_json::to_value(&parsed.body).unwrap();
    assert_eq!(
        serialized,
        serde_json::json!([{"TooDeep": {"names": ["a", "b", "c"], "range": {"start": 0, "end": 1012}}}])
    );
}

/// `x = [x]` thousands of times, in one cell or one per cell, and the same with dicts: values
/// nested deeper than `MAX_NESTING` or larger than `MAX_ELEMENTS` are not followed, so no walk
/// over them overflows the stack or takes exponential time; what is followed still tells the
/// crash at the end.
#[test]
fn containers_nested_thousands_deep() {
    for (start, nest, times, read, code) in [
        (
            "x = 1",
            "x = [x]",
            5_000,
            "x[0][0][0][0][1]",
            "index-out-of-range",
        ),
        (
            "d = {}",
            "d = {'k': d}",
            5_000,
            "d['k']['k']['z']",
            "missing-key",
        ),
        (
            "d = {}",
            "d = dict(k=d)",
            5_000,
            "d['k']['k']['z']",
            "missing-key",
        ),
        // Doubling what it holds each time, were it followed: 2**300 values.
        (
            "x = []",
            "x = [x]\nx.append(list(x))",
            300,
            "x[5]",
            "index-out-of-range",
        ),
    ] {
        let target = format!("{start}\n{}{read}", format!("{nest}\n").repeat(times));
        assert_eq!(codes(&check(&target)), [code], "{target:.40}");
        let cells: Vec<String> = std::iter::once(start)
            .chain(std::iter::repeat_n(nest, times))
            .chain([read])
            .map(str::to_owned)
            .collect();
        let report = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                let order: Vec<usize> = (0..cells.len()).collect();
                check_notebook(&cells, &order, &Severities::new())
            })
            .unwrap()
            .join()
            .expect("the check overflowed a 1 MiB stack or panicked");
        let found: Vec<&str> = report
            .cells
            .iter()
            .flat_map(|(_, d)| d.iter().map(|d| d.code.code()))
            .collect();
        assert_eq!(found, [code]);
    }
}
