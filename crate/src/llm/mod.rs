//! The LLM path: the prompt built from cells and kernel summaries (`prompt`), the answers read and
//! voted (`verdict`), and the facts an answer claims checked against the kernel (`claims`). The
//! HTTP client is Python (`cellguard/llm/`); the browser and the CLI share everything here.

pub mod claims;
pub mod prompt;
pub mod verdict;
