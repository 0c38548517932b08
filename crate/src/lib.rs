//! cellguard's analysis core: predicts whether a notebook cell will crash, from the cells that ran,
//! the cell's code and kernel summaries. Builds natively (CLI) and for WebAssembly (the browser).

pub mod diagnostic;
pub mod ir;
pub mod junobench;
pub mod position;
pub mod python;
pub mod rules;
pub mod summary;
