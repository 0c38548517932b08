//! The one diagnostic type of cellguard, shaped like Ruff's: a stable code, a severity, a message in
//! plain words, a range in the cell, and an optional fix. Rules, the CLI and the extension all use it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::codes::Rule;
use crate::ir::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A crash that will certainly happen.
    Error,
    /// A crash that is likely.
    Warning,
    Info,
}

/// What the user chose for a diagnostic code: another severity, or `off` to drop it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeverityOverride {
    Error,
    Warning,
    Info,
    Off,
}

/// The user's overrides by diagnostic code (the extension's `severities` setting).
pub type Severities = BTreeMap<String, SeverityOverride>;

/// The severity a diagnostic of `code` is reported with after the user's overrides; `None` when
/// the user turned the code off.
pub fn effective_severity(
    code: &str,
    severity: Severity,
    severities: &Severities,
) -> Option<Severity> {
    match severities.get(code) {
        None => Some(severity),
        Some(SeverityOverride::Error) => Some(Severity::Error),
        Some(SeverityOverride::Warning) => Some(Severity::Warning),
        Some(SeverityOverride::Info) => Some(Severity::Info),
        Some(SeverityOverride::Off) => None,
    }
}

/// The one decision of "is a crash predicted?": some diagnostic, after the user's overrides, is an
/// error (a certain crash). Every consumer (CLI, extension, benchmarks) reads it from a report.
pub fn crash_predicted(severities: impl IntoIterator<Item = Severity>) -> bool {
    severities.into_iter().any(|s| s == Severity::Error)
}

/// Applies the user's overrides: diagnostics of codes turned off go, the others take the chosen
/// severity.
pub fn apply_severities(diagnostics: &mut Vec<Diagnostic>, severities: &Severities) {
    if severities.is_empty() {
        return;
    }
    diagnostics.retain_mut(
        |d| match effective_severity(d.code.code(), d.severity, severities) {
            Some(severity) => {
                d.severity = severity;
                true
            }
            None => false,
        },
    );
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

impl Fix {
    /// The fix that replaces `range` of the target cell with `content`.
    pub fn replace(
        message: impl Into<String>,
        range: TextRange,
        content: impl Into<String>,
    ) -> Fix {
        Fix {
            message: message.into(),
            edits: vec![Edit {
                range,
                content: content.into(),
            }],
            run_cells: vec![],
        }
    }
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
