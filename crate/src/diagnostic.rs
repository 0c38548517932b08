//! The one diagnostic type of cellguard, shaped like Ruff's: a stable code, a severity, a message in
//! plain words, a range in the cell, and an optional fix. Rules, the CLI and the extension all use it.

use serde::Serialize;

use crate::codes::Rule;
use crate::ir::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A crash that will certainly happen.
    Error,
    /// A crash that is likely.
    Warning,
    Info,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub range: TextRange,
    pub content: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub message: String,
    /// Text edits in the target cell.
    pub edits: Vec<Edit>,
    /// Notebook cells (indices into the notebook's cells) to run before the target cell.
    pub run_cells: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Serialized as its stable kebab-case code: `undefined-name`, `missing-column`, ...
    pub code: Rule,
    pub severity: Severity,
    pub message: String,
    pub range: TextRange,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic of `code` at its default severity (an error for every rule).
    pub fn error(code: Rule, message: impl Into<String>, range: TextRange) -> Self {
        Self {
            code,
            severity: code.default_severity(),
            message: message.into(),
            range,
            fix: None,
        }
    }

    /// An error that holds only if what is assumed to have run did: a warning saying why it may
    /// not hold. A syntax error holds whatever ran.
    pub fn make_likely(&mut self, reason: &str) {
        if self.severity == Severity::Error && self.code != "syntax-error" {
            self.severity = Severity::Warning;
            self.message = format!("{} (likely, not certain: {reason})", self.message);
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}
