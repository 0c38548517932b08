//! cellguard's analysis core: predicts whether a notebook cell will crash, from the cells that ran,
//! the cell's code and kernel summaries. Builds natively (CLI) and for WebAssembly (the browser).

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod builtins;
pub mod check;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod codes;
pub mod diagnostic;
pub mod did_you_mean;
pub mod dryrun;
pub mod facts;
pub mod ir;
pub mod ir_scan;
pub mod llm;
pub mod notebook;
pub mod order;
pub mod position;
pub mod python;
pub mod rules;
pub mod semantics;
pub mod summary;
pub mod text_hash;
pub mod walker;
#[cfg(target_arch = "wasm32")]
mod wasm;
