//! Measuring, native only: the JunoBench harness for the rules (`junobench`, `cellguard bench`)
//! and the paper's LLM experiment (`llm`, `cellguard bench --llm | --replay | --prompt-sizes`).

pub mod junobench;
pub mod llm;
