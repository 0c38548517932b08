//! The core's figures natively, for profiling with `perf` what benchmarks/wasm_core.mjs measures
//! under node: a whole notebook checked cold, one keystroke in its last cell, one cell alone.
//! Figures only, nothing asserted.
//!
//!   node --input-type=module -e "import {generateCells} from './benchmarks/notebook_gen.mjs';
//!     console.log(JSON.stringify(generateCells(300, 20)))" > /tmp/cells.json
//!   cargo run --release --example core_profile -- /tmp/cells.json [whole|keystroke|alone|parse] [RUNS]
//!
//! `parse` times the parse alone, the floor under the whole notebook's figure: rustpython's parser
//! by itself, and the front end (`python::parse_cell`: IPython syntax masked, parsed, lowered).
//!
//! On a shared machine wall times vary by 2x; compare instruction counts instead:
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/x.cg \
//!     target/release/examples/core_profile /tmp/cells.json whole 1

use std::time::Instant;

use cellguard::check::{check_cell_with, check_notebook, CellCache, CheckInput};
use cellguard::diagnostic::Severities;
use rustpython_parser::{ast, Parse};

fn median_ms(runs: usize, mut body: impl FnMut(usize)) -> f64 {
    let mut samples: Vec<f64> = (0..runs)
        .map(|i| {
            let start = Instant::now();
            body(i);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: core_profile CELLS.json [PHASE] [RUNS]");
    let phase = args.get(1).map_or("all", String::as_str);
    let runs: usize = args
        .get(2)
        .map_or(21, |n| n.parse().expect("RUNS is a number"));
    let text = std::fs::read_to_string(path).expect("readable cells file");
    let cells: Vec<String> = serde_json::from_str(&text).expect("a JSON array of strings");
    let severities = Severities::new();
    let target = cells.len() - 1;
    let history = &cells[..target];

    if matches!(phase, "all" | "whole") {
        let order: Vec<usize> = (0..cells.len()).collect();
        let ms = median_ms(runs, |_| {
            std::hint::black_box(check_notebook(&cells, &order, &severities));
        });
        println!("whole notebook (cold):    median {ms:.2} ms");
    }
    if matches!(phase, "all" | "keystroke") {
        let mut cache = CellCache::default();
        let mut check = |source: &str| {
            let report = check_cell_with(
                &mut cache,
                &CheckInput {
                    cells: &cells,
                    target_source: source,
                    target_index: Some(target),
                    history,
                    history_raised: &[],
                    kernel_names: None,
                    summaries: None,
                    severities: &severities,
                },
            );
            cache.retain_used();
            std::hint::black_box(report);
        };
        check(&cells[target]);
        let ms = median_ms(runs * 10, |i| {
            check(&format!("{}\nx_{i} = {i}", cells[target]))
        });
        println!("one cell edited:          median {ms:.3} ms");
    }
    if matches!(phase, "all" | "alone") {
        let middle = &cells[cells.len() / 2];
        let ms = median_ms(runs * 10, |i| {
            let source = format!("{middle}\ny_{i} = {i}");
            std::hint::black_box(check_cell_with(
                &mut CellCache::default(),
                &CheckInput {
                    cells: &[],
                    target_source: &source,
                    target_index: None,
                    history: &[],
                    history_raised: &[],
                    kernel_names: None,
                    summaries: None,
                    severities: &severities,
                },
            ));
        });
        println!("one cell alone:           median {ms:.3} ms");
    }
    if matches!(phase, "all" | "parse") {
        let ms = median_ms(runs, |_| {
            for cell in &cells {
                std::hint::black_box(ast::Suite::parse(cell, "<cell>").ok());
            }
        });
        println!("parse only, rustpython:   median {ms:.2} ms");
        let ms = median_ms(runs, |_| {
            for cell in &cells {
                std::hint::black_box(cellguard::python::parse_cell(cell));
            }
        });
        println!("parse only, front end:    median {ms:.2} ms");
    }
}
