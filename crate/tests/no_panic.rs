//! Property tests: no input makes the front end, the facts pass or `check_cell` panic, and every
//! range they report lies within the source, on character boundaries; no LLM answer makes
//! `judge_answers` panic; reusing an earlier version's statements parses as a fresh parse does.
//! Inputs are arbitrary
//! strings and real cells (JunoBench, else the fixtures) with characters deleted, inserted or
//! duplicated, and fragments of IPython syntax, brackets, quotes and multi-byte characters added.
#![cfg(not(target_arch = "wasm32"))] // proptest is a native dev-dependency

use std::sync::OnceLock;

use cellguard::check::{check_cell, CheckInput};
use cellguard::diagnostic::Severities;
use cellguard::llm::claims::{judge_answers, Evidence};
use cellguard::python::{parse_cell, parse_cell_after};
use cellguard::summary::SummaryDoc;
use proptest::prelude::*;
use serde_json::Value;

const FRAGMENTS: &[&str] = &[
    "%time ",
    "%timeit -n 3 ",
    "%%time\n",
    "%%bash\n",
    "%matplotlib inline\n",
    "!ls ",
    "x = !ls ",
    "?",
    "??",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "'",
    "\"",
    "'''",
    "\"\"\"",
    "\\\n",
    "\\",
    "#",
    "\t",
    "    ",
    ":",
    "\n",
    "\r\n",
    "é",
    "😀",
    "名前",
    "=",
    ":=",
    "lambda x: ",
    "def f(",
    "class C:",
    "f\"{x[\"k\"]}\"",
    "del ",
    "global x\n",
    "from m import *\n",
    "@d\n",
    "else:\n",
    "match x:\n",
];

fn real_cells() -> &'static [String] {
    static CELLS: OnceLock<Vec<String>> = OnceLock::new();
    CELLS.get_or_init(|| {
        let dev = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/junobench/dev.jsonl"
        );
        let from_junobench: Vec<String> = std::fs::read_to_string(dev)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .flat_map(|case| {
                let mut cells: Vec<String> = case["executed_cells"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c.as_str().map(str::to_owned))
                    .collect();
                cells.extend(case["target_cell"].as_str().map(str::to_owned));
                cells
            })
            .collect();
        if !from_junobench.is_empty() {
            return from_junobench;
        }
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
        std::fs::read_dir(fixtures)
            .unwrap()
            .filter_map(|entry| std::fs::read_to_string(entry.ok()?.path()).ok())
            .collect()
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, fragment: usize },
    Duplicate { at: usize, len: usize, to: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..40usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), 0..FRAGMENTS.len())
            .prop_map(|(at, fragment)| Mutation::Insert { at, fragment }),
        (any::<usize>(), 1..80usize, any::<usize>())
            .prop_map(|(at, len, to)| Mutation::Duplicate { at, len, to }),
    ]
}

/// Applies mutations on characters, so that the result stays a valid string.
fn mutate(source: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = source.chars().collect();
    for mutation in mutations {
        let n = chars.len() + 1;
        match *mutation {
            Mutation::Delete { at, len } => {
                let at = at % n;
                let end = (at + len).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            Mutation::Insert { at, fragment } => {
                let at = at % n;
                chars.splice(at..at, FRAGMENTS[fragment].chars());
            }
            Mutation::Duplicate { at, len, to } => {
                let at = at % n;
                let end = (at + len).min(chars.len());
                let copy: Vec<char> = chars[at.min(end)..end].to_vec();
                let to = to % (chars.len() + 1);
                chars.splice(to..to, copy);
            }
        }
    }
    chars.into_iter().collect()
}

/// Every `{"start", "end"}` object in a JSON tree must be a range of `source` on boundaries.
fn assert_ranges_valid(value: &Value, source: &str) {
    match value {
        Value::Object(map) => {
            if let (Some(start), Some(end), 2) = (map.get("start"), map.get("end"), map.len()) {
                let (start, end) = (
                    start.as_u64().unwrap() as usize,
                    end.as_u64().unwrap() as usize,
                );
                assert!(
                    start <= end && end <= source.len(),
                    "{start}..{end} out of {}",
                    source.len()
                );
                assert!(
                    source.is_char_boundary(start) && source.is_char_boundary(end),
                    "{start}..{end} splits a character"
                );
            }
            map.values().for_each(|v| assert_ranges_valid(v, source));
        }
        Value::Array(items) => items.iter().for_each(|v| assert_ranges_valid(v, source)),
        _ => {}
    }
}

fn check_everything(source: &str) {
    let parsed = parse_cell(source);
    assert_ranges_valid(&serde_json::to_value(&parsed).unwrap(), source);
    let cells = vec![source.to_owned(), "x = 1".to_owned()];
    let report = check_cell(&CheckInput {
        cells: &cells,
        target_source: source,
        target_index: Some(0),
        history: &cells[1..],
        history_raised: &[],
        kernel_names: None,
        summaries: None,
        severities: &Severities::new(),
    });
    assert_ranges_valid(&serde_json::to_value(&report).unwrap(), source);
    if let Some(declined) = cellguard::dryrun::decline(source) {
        assert!(declined.line as usize <= source.split('\n').count());
    }
    for line in [None, Some(1), Some(3)] {
        let error = cellguard::dryrun::DryRunException {
            name: "KeyError".into(),
            message: String::new(),
            line,
        };
        let crash = cellguard::dryrun::crash_diagnostic(source, &error);
        assert_ranges_valid(&serde_json::to_value(&crash).unwrap(), source);
    }
}

#[test]
fn cases_found_by_the_properties() {
    // Masking placeholders once ended inside the multi-byte character after `%`; syntax error
    // positions were once snapped to characters of the masked text instead of the source.
    for source in ["%😀", "%𑃰", "é?", "x = !é", "%time é", "'\né ?"] {
        check_everything(source);
    }
}

/// `parse_cell_after(edited, earlier)` must be `parse_cell(edited)`.
fn assert_reuse_parses_the_same(earlier: &str, edited: &str) {
    let fresh = parse_cell(edited);
    let reused = parse_cell_after(edited, Some((earlier, &parse_cell(earlier))));
    assert_eq!(reused, fresh, "{earlier:?} edited to {edited:?}");
}

#[test]
fn reused_statements_parse_as_a_fresh_parse() {
    // Edits that change where the statements above them end: a clause continuing a compound
    // statement, a string or bracket opened or closed, a decorator, a backslash, IPython syntax.
    let edits = [
        ("if a:\n    b = 1\n", "if a:\n    b = 1\nelse:\n    b = 2\n"),
        (
            "try:\n    f()\nx = 1\n",
            "try:\n    f()\nexcept E:\n    x = 1\n",
        ),
        ("x = 1\ny = (\n2)\n", "x = 1\ny = (\n2,\n3)\n"),
        (
            "x = 1\ns = '''\ny = 2\n'''\n",
            "x = 1\ns = '''\ny = 3\n'''\n",
        ),
        ("x = 1\ny = 2\n", "x = 1\n'''\ny = 2\n"),
        ("x = 1\ny = 2\n", "x = 1\n@d\ny = 2\n"),
        ("x = 1 + \\\n2\ny = 2\n", "x = 1 + \\\n2\ny = 3\n"),
        ("x = 1\n%time y = 2\n", "x = 1\n%time y = 3\n"),
        ("x = 1\n!ls \\\ny = 2\n", "x = 1\n!ls \\\ny = 3\n"),
        ("x = 1\ny = f'{x}'\n", "x = 1\ny = f'{x!r}'\nz = 2"),
        ("  x = 1\n  y = 2\n", "  x = 1\n  y = 3\n"),
        ("x = 1\ny = = 2\n", "x = 1\ny = 2\n"),
        ("x = 1\ny = 2\n", "x = 1\ny = = 2\n"),
        (
            "x = 1\ndef f():\n    return 1\n",
            "x = 1\ndef f():\n    return 1\nreturn 2\n",
        ),
    ];
    for (earlier, edited) in edits {
        assert_reuse_parses_the_same(earlier, edited);
    }
    // Real cells cut after each of their lines, with a statement or a clause typed there (a
    // sample: in a debug build each parse takes milliseconds).
    for cell in real_cells().iter().step_by(4).take(75) {
        let lines: Vec<&str> = cell.split_inclusive('\n').collect();
        for cut in 1..=lines.len() {
            let kept = lines[..cut].concat();
            assert_reuse_parses_the_same(cell, &format!("{kept}\nz_typed = 1"));
            assert_reuse_parses_the_same(cell, &format!("{kept}else:\n    pass\n"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_cells_reuse_statements_as_a_fresh_parse_would(
        cell in any::<prop::sample::Index>(),
        earlier_mutations in prop::collection::vec(mutation(), 0..3),
        edits in prop::collection::vec(mutation(), 1..4),
    ) {
        let cells = real_cells();
        let earlier = mutate(&cells[cell.index(cells.len())], &earlier_mutations);
        assert_reuse_parses_the_same(&earlier, &mutate(&earlier, &edits));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings(source in "\\PC*") {
        check_everything(&source);
    }

    #[test]
    fn python_like_strings(source in "[a-z_ =:()\\[\\]{}'\"#\\\\%!?@.,\t\n\r é😀0-9]{0,120}") {
        check_everything(&source);
    }

    #[test]
    fn mutated_real_cells(cell in any::<prop::sample::Index>(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let cells = real_cells();
        let source = mutate(&cells[cell.index(cells.len())], &mutations);
        check_everything(&source);
    }

    #[test]
    fn mutated_answers_with_claims(
        mutations in prop::collection::vec(mutation(), 1..8),
        cell in any::<prop::sample::Index>(),
        cell_mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        let cells = real_cells();
        let target = mutate(&cells[cell.index(cells.len())], &cell_mutations);
        judge_everything(&mutate(ANSWER, &mutations), &target);
    }

    #[test]
    fn arbitrary_answers(answer in "\\PC*", target in "\\PC{0,80}") {
        judge_everything(&answer, &target);
    }
}

/// An answer stating one claim of each kind.
const ANSWER: &str = r#"{"reasoning": "df has no 'Fare' (é😀)", "detection": true, "line": 2, "claims": [
    {"claim": "missing_column", "object": "df['Fare']", "column": "Fare"},
    {"claim": "missing_attribute", "object": "model", "attribute": "coef_"},
    {"claim": "bad_keyword", "callable": "df.drop", "keyword": "inplce"},
    {"claim": "undefined_name", "name": "x"},
    {"claim": "shape", "object": "X", "shape": [68, null]},
    {"claim": "dtype", "object": "df", "column": "Age", "dtype": "object"},
    {"claim": "has_nan", "object": "X", "column": null},
    {"claim": "not_fitted", "object": "model"}]}"#;

fn judge_everything(answer: &str, target: &str) {
    let doc: SummaryDoc = serde_json::from_str(
        r#"{"objects": {"df": {"kind": "dataframe", "R": {"columns": ["Age", "Fare"], "dtypes": {"Age": "float64"}}},
                        "X": {"kind": "ndarray", "S": {"shape": [68, 58]}, "V": {"has_nan": false}},
                        "model": {"kind": "estimator", "V": {"fitted": true}}}}"#,
    )
    .unwrap();
    let evidence = Evidence {
        summaries: Some(&doc),
        signatures: None,
        target: Some(target),
    };
    if let Ok(judgement) = judge_answers(&[answer.to_string(), ANSWER.to_string()], evidence) {
        if let (Some(line), Some(cellguard::llm::claims::LineSource::Claim)) =
            (judgement.line, judgement.line_source)
        {
            assert!(line as usize >= 1 && line as usize <= target.lines().count());
        }
    }
}

/// Deep and long shapes of code: nesting of every kind (brackets, calls, unary operators,
/// lambdas, conditional expressions, `**`, blocks, patterns) and left-deep chains (sums, method
/// chains, attributes, subscripts, `elif`s), `n` levels or terms.
fn deep_shape(kind: usize, n: usize) -> String {
    let repeat = |s: &str| s.repeat(n);
    match kind {
        0 => format!("x = {}{}", repeat("["), repeat("]")),
        1 => format!("x = {}1{}", repeat("f("), repeat(")")),
        2 => format!("x = {}1", repeat("-")),
        3 => format!("x = {}y", repeat("not ")),
        4 => format!("x = {}1", repeat("lambda: ")),
        5 => format!("x = {}1", repeat("y if y else ")),
        6 => format!("x = {}", vec!["y"; n].join(" ** ")),
        7 => format!("x = {}", vec!["y"; n].join(" + ")),
        8 => format!("df{}", repeat(".dropna()")),
        9 => format!("x = y{}", repeat(".a")),
        10 => format!("x = y{}", repeat("[0]")),
        11 => format!(
            "if y == 0:\n    x = 0\n{}",
            (1..n)
                .map(|i| format!("elif y == {i}:\n    x = {i}\n"))
                .collect::<String>()
        ),
        12 => (0..n.min(400))
            .map(|i| format!("{}for x{i} in y:\n", " ".repeat(i)))
            .chain([format!("{}pass\n", " ".repeat(n.min(400)))])
            .collect(),
        13 => format!(
            "match y:\n    case {}z{}:\n        pass",
            repeat("["),
            repeat("]")
        ),
        14 => format!("x = {}{}", repeat("{'k': "), repeat("}")),
        15 => format!("x = [{}y{}]", repeat("[z for z in "), repeat("]")),
        _ => format!("def f(a={}):\n    return a", vec!["y"; n].join(" - ")),
    }
}

/// `check_everything` on a thread with WebAssembly's stack size (1 MiB) in an optimized build:
/// recursion that would overflow in the browser overflows here too (unoptimized frames are many
/// times larger).
fn check_on_a_small_stack(source: String) {
    let stack = if cfg!(debug_assertions) {
        16 << 20
    } else {
        1 << 20
    };
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || check_everything(&source))
        .unwrap()
        .join()
        .expect("the check overflowed a 1 MiB stack or panicked");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn deep_and_long_code(kind in 0..17usize, n in 1..4000usize, cell in any::<prop::sample::Index>(), before in any::<bool>()) {
        // Around a real cell, before or after it, so that the rest of the cell is checked too.
        let cells = real_cells();
        let real = &cells[cell.index(cells.len())];
        let shape = deep_shape(kind, n);
        let source = if before { format!("{shape}\n{real}") } else { format!("{real}\n{shape}") };
        check_on_a_small_stack(source);
    }
}
