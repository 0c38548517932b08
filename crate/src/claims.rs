//! Checking what an LLM claims against the kernel.
//!
//! The reasoning of an answer often names a concrete fact: a column that is missing, an attribute
//! or method an object lacks, a keyword a function does not take, a shape, a feature count, NaN
//! values. Where the kernel's summaries (or its `signature` answers) can confirm or refute such a
//! fact, we check it. A crash verdict that rests on a refuted claim is downgraded, and the reason
//! says which fact the kernel contradicts.
//!
//! Checks are conservative: a claim is refuted only when the kernel's facts are complete enough to
//! be sure (a column list cut to fit, a sentence about what the cell turns an object into, an
//! object the kernel did not summarize all give `unknown`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::summary::{Category, FailureFields, ObjectSummary, SummaryDoc};
use crate::verdict::Verdict;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// A column is missing (or present) in a frame.
    Column,
    /// An object lacks an attribute or method.
    Attribute,
    /// A callable does not take a keyword argument.
    Keyword,
    /// An object has a shape.
    Shape,
    /// An object has or expects a number of features.
    FeatureCount,
    /// An object (or column) holds NaN values.
    Nan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Confirmed,
    Refuted,
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub kind: ClaimKind,
    /// The object the claim is about, when the sentence names one the kernel summarized.
    pub subject: Option<String>,
    /// The column, attribute, keyword, shape or count claimed.
    pub value: String,
    /// The claim asserts an absence (missing column, no attribute, no NaN).
    pub negative: bool,
    /// The sentence of the reasoning the claim comes from.
    pub sentence: String,
    pub outcome: Outcome,
    /// What the kernel says, in words.
    pub evidence: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckedVerdict {
    /// The verdict after checking: the LLM's, or no crash when downgraded.
    pub detection: bool,
    /// The LLM's own verdict.
    pub llm_detection: bool,
    pub downgraded: bool,
    /// Why the verdict was downgraded, for the panel.
    pub reason: Option<String>,
    pub claims: Vec<Claim>,
}

/// The kernel's answers the claims are checked against.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evidence<'a> {
    pub summaries: Option<&'a SummaryDoc>,
    /// `signature` answers: `{path: {kind, signature, parameters: [{name, kind, default?}]} |
    /// {error}}`.
    pub signatures: Option<&'a Map<String, Value>>,
    /// The target cell, to tell claims about the kernel's objects from claims about what the cell
    /// itself does to them.
    pub target: Option<&'a str>,
}

/// Checks a verdict's claims; a crash verdict with a refuted claim is downgraded.
pub fn check_verdict(verdict: &Verdict, evidence: Evidence) -> CheckedVerdict {
    let claims = check_claims(&verdict.reasoning, evidence);
    let refuted: Vec<&Claim> = claims
        .iter()
        .filter(|c| c.outcome == Outcome::Refuted)
        .collect();
    let downgraded = verdict.detection && !refuted.is_empty();
    let reason = downgraded.then(|| {
        let why: Vec<String> = refuted
            .iter()
            .map(|c| format!("{} ({})", describe(c), c.evidence))
            .collect();
        format!(
            "The LLM predicted a crash because {}, but the kernel contradicts it: {}.",
            first_sentence(&verdict.reasoning),
            why.join("; ")
        )
    });
    CheckedVerdict {
        detection: verdict.detection && !downgraded,
        llm_detection: verdict.detection,
        downgraded,
        reason,
        claims,
    }
}

fn first_sentence(text: &str) -> String {
    let s = sentences(text).into_iter().next().unwrap_or_default();
    let s = s.trim().trim_end_matches('.');
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "of its reasoning".into(),
    }
}

fn describe(claim: &Claim) -> String {
    let subject = claim.subject.as_deref().unwrap_or("the object");
    match (claim.kind, claim.negative) {
        (ClaimKind::Column, true) => format!("column '{}' is said to be missing", claim.value),
        (ClaimKind::Column, false) => format!("column '{}' is said to exist", claim.value),
        (ClaimKind::Attribute, _) => format!("'{}' is said to be no attribute", claim.value),
        (ClaimKind::Keyword, _) => format!("'{}' is said to be no valid keyword", claim.value),
        (ClaimKind::Shape, _) => format!("{subject} is said to have shape {}", claim.value),
        (ClaimKind::FeatureCount, _) => {
            format!("{subject} is said to have {} features", claim.value)
        }
        (ClaimKind::Nan, true) => format!("{subject} is said to have no NaN"),
        (ClaimKind::Nan, false) => format!("{subject} is said to contain NaN"),
    }
}

const NEGATIONS: &[&str] = &[
    "not ",
    "n't",
    "no ",
    "missing",
    "absent",
    "lacks",
    "lack ",
    "without",
    "nonexistent",
    "non-existent",
    "keyerror",
    "attributeerror",
    "unexpected",
    "invalid",
    "unknown",
];

/// Words that mark a sentence about what the target cell makes of an object, not what it is now.
const TRANSFORMS: &[&str] = &[
    "after ",
    "becomes",
    "become ",
    "reshape",
    "transform",
    "will be",
    "would be",
    "result",
    "output",
    "produces",
    "returns",
    "converted",
    "encoded",
    "dummies",
    "split",
];

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        let end = match c {
            '\n' | ';' => true,
            '.' | '!' | '?' => chars.get(i + 1).is_none_or(|n| n.is_whitespace()),
            _ => false,
        };
        if end {
            if !current.trim().is_empty() {
                out.push(current.trim().to_string());
            }
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// Quoted tokens of a sentence ('x', "x", `x`, and ‘x’), with their byte positions.
fn quoted(sentence: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = sentence.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        let close = match c {
            '\'' | '"' | '`' => c,
            '‘' => '’',
            '“' => '”',
            _ => {
                i += 1;
                continue;
            }
        };
        // An apostrophe inside a word (don't) opens nothing.
        if c == '\'' && i > 0 && chars[i - 1].1.is_alphanumeric() {
            i += 1;
            continue;
        }
        if let Some(j) = (i + 1..chars.len()).find(|&j| chars[j].1 == close) {
            let token: String = chars[i + 1..j].iter().map(|(_, c)| c).collect();
            if !token.is_empty() && token.len() <= 80 {
                out.push((pos, token));
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Positions of the summarized objects a sentence names (as whole words).
fn named_objects<'d>(sentence: &str, doc: Option<&'d SummaryDoc>) -> Vec<(usize, &'d str)> {
    let Some(doc) = doc else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for name in doc.objects.keys() {
        let mut from = 0;
        while let Some(found) = sentence[from..].find(name.as_str()) {
            let start = from + found;
            let end = start + name.len();
            let before = sentence[..start].chars().next_back();
            let after = sentence[end..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            if !word(before) && !word(after) {
                out.push((start, name.as_str()));
            }
            from = end;
        }
    }
    out.sort();
    out
}

fn nearest_before<'d>(objects: &[(usize, &'d str)], pos: usize) -> Option<&'d str> {
    objects
        .iter()
        .rev()
        .find(|(p, _)| *p < pos)
        .or(objects.first())
        .map(|(_, n)| *n)
}

/// Every concrete claim of a reasoning text, each checked.
pub fn check_claims(reasoning: &str, evidence: Evidence) -> Vec<Claim> {
    let mut claims = Vec::new();
    for sentence in sentences(reasoning) {
        let lower = sentence.to_lowercase();
        let negative = NEGATIONS.iter().any(|n| lower.contains(n));
        let transforms = TRANSFORMS.iter().any(|t| lower.contains(t));
        let objects = named_objects(&sentence, evidence.summaries);
        let object_names: Vec<&str> = objects.iter().map(|(_, n)| *n).collect();
        let claim = |kind, subject: Option<&str>, value: String, negative| Claim {
            kind,
            subject: subject.map(str::to_string),
            value,
            negative,
            sentence: sentence.clone(),
            outcome: Outcome::Unknown,
            evidence: String::new(),
        };
        let mut quotes: Vec<(usize, String)> = Vec::new();
        for (pos, q) in quoted(&sentence) {
            if !object_names.contains(&q.as_str()) && !quotes.iter().any(|(_, seen)| *seen == q) {
                quotes.push((pos, q));
            }
        }

        // Keywords and attributes first: their quoted names are not columns.
        let mut used = vec![false; quotes.len()];
        if lower.contains("keyword") || lower.contains("argument") || lower.contains("parameter") {
            for (i, (_, q)) in quotes.iter().enumerate() {
                if is_identifier(q) && negative {
                    used[i] = true;
                    let mut c = claim(ClaimKind::Keyword, None, q.clone(), true);
                    check_keyword(&mut c, &lower, evidence);
                    claims.push(c);
                }
            }
        }
        if lower.contains("attribute") || lower.contains("method") {
            for (i, (pos, q)) in quotes.iter().enumerate() {
                if used[i] || !negative {
                    continue;
                }
                let name = q.rsplit('.').next().unwrap_or(q);
                if !is_identifier(name) {
                    continue;
                }
                used[i] = true;
                let subject = nearest_before(&objects, *pos);
                let mut c = claim(ClaimKind::Attribute, subject, name.to_string(), true);
                check_attribute(&mut c, evidence);
                claims.push(c);
            }
        }
        if lower.contains("column") || lower.contains("keyerror") || lower.contains("key ") {
            for (i, (pos, q)) in quotes.iter().enumerate() {
                if used[i] {
                    continue;
                }
                used[i] = true;
                let subject = nearest_before(&objects, *pos);
                let mut c = claim(ClaimKind::Column, subject, q.clone(), negative);
                check_column(&mut c, &object_names, evidence);
                claims.push(c);
            }
        }
        for (pos, shape) in shapes(&sentence) {
            let subject = nearest_before(&objects, pos);
            let mut c = claim(ClaimKind::Shape, subject, format_shape(&shape), false);
            check_shape(&mut c, &shape, transforms, evidence);
            claims.push(c);
        }
        for (pos, count) in feature_counts(&lower) {
            let subject = nearest_before(&objects, pos);
            let mut c = claim(ClaimKind::FeatureCount, subject, count.to_string(), false);
            check_feature_count(&mut c, count, transforms, evidence);
            claims.push(c);
        }
        if let Some(pos) = ["nan", "missing value", "null value", "none value"]
            .iter()
            .filter_map(|w| lower.find(w))
            .min()
        {
            let nan_negative = [
                "no nan",
                "no missing",
                "no null",
                "without",
                "not contain",
                "n't contain",
                "free of",
            ]
            .iter()
            .any(|n| lower.contains(n));
            let subject = nearest_before(&objects, pos);
            let column = quotes.first().map(|(_, q)| q.clone());
            let mut c = claim(
                ClaimKind::Nan,
                subject,
                column.clone().unwrap_or_default(),
                nan_negative,
            );
            check_nan(&mut c, column.as_deref(), transforms, evidence);
            claims.push(c);
        }
    }
    claims
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

fn set(claim: &mut Claim, outcome: Outcome, evidence: String) {
    claim.outcome = outcome;
    claim.evidence = evidence;
}

fn object<'d>(evidence: Evidence<'d>, name: &str) -> Option<&'d ObjectSummary> {
    evidence
        .summaries?
        .objects
        .get(name)
        .filter(|o| o.error.is_none())
}

fn check_column(claim: &mut Claim, named: &[&str], evidence: Evidence) {
    let Some(doc) = evidence.summaries else {
        return;
    };
    // A cell that drops, renames or creates columns changes what the kernel's frame says.
    if let Some(target) = evidence.target {
        let changes = ["drop", "rename", "pop(", "del ", ".columns =", "columns="]
            .iter()
            .any(|w| target.contains(w));
        let assigns = target.contains(&format!("['{}'] =", claim.value))
            || target.contains(&format!("[\"{}\"] =", claim.value));
        if changes || assigns {
            return;
        }
    }
    let frames: Vec<(&str, &ObjectSummary)> = doc
        .objects
        .iter()
        .filter(|(name, o)| {
            o.kind == "dataframe" && (named.is_empty() || named.contains(&name.as_str()))
        })
        .map(|(n, o)| (n.as_str(), o))
        .collect();
    if frames.is_empty() {
        return;
    }
    let mut all_complete = true;
    for (name, frame) in &frames {
        match frame.complete_columns() {
            Some(columns) if columns.contains(&claim.value.as_str()) => {
                claim.subject = Some(name.to_string());
                let outcome = if claim.negative {
                    Outcome::Refuted
                } else {
                    Outcome::Confirmed
                };
                set(
                    claim,
                    outcome,
                    format!("{name} has a column '{}'", claim.value),
                );
                return;
            }
            Some(_) => {}
            None => all_complete = false,
        }
    }
    if all_complete {
        let names: Vec<&str> = frames.iter().map(|(n, _)| *n).collect();
        let outcome = if claim.negative {
            Outcome::Confirmed
        } else {
            Outcome::Refuted
        };
        set(
            claim,
            outcome,
            format!("no column '{}' in {}", claim.value, names.join(", ")),
        );
    }
}

/// Signature answers whose path ends in `.name` (or is `name`).
fn signatures_named<'d>(evidence: Evidence<'d>, name: &str) -> Vec<(&'d String, &'d Value)> {
    let Some(signatures) = evidence.signatures else {
        return Vec::new();
    };
    signatures
        .iter()
        .filter(|(path, _)| path.as_str() == name || path.ends_with(&format!(".{name}")))
        .collect()
}

fn check_attribute(claim: &mut Claim, evidence: Evidence) {
    let name = claim.value.clone();
    // A frame's column is an attribute too.
    if let Some(subject) = claim.subject.clone() {
        if let Some(o) = object(evidence, &subject) {
            if o.complete_columns()
                .is_some_and(|c| c.contains(&name.as_str()))
            {
                set(
                    claim,
                    Outcome::Refuted,
                    format!("{subject}.{name} is a column of {subject}"),
                );
                return;
            }
        }
        let path = format!("{subject}.{name}");
        if let Some(doc) = evidence.summaries {
            if let Some(o) = doc.objects.get(&path) {
                match &o.error {
                    None => {
                        set(claim, Outcome::Refuted, format!("the kernel has {path}"));
                        return;
                    }
                    Some(e) if e == "undefined" || o.missing_attribute(&name).is_some() => {
                        set(
                            claim,
                            Outcome::Confirmed,
                            format!("the kernel has no {path}"),
                        );
                        return;
                    }
                    Some(_) => {}
                }
            }
        }
    }
    let answers = signatures_named(evidence, &name);
    let subject_matches = |path: &str| {
        claim
            .subject
            .as_deref()
            .is_none_or(|s| path.starts_with(&format!("{s}.")))
    };
    for (path, answer) in &answers {
        if !subject_matches(path) {
            continue;
        }
        match answer.get("error").and_then(Value::as_str) {
            None => {
                set(claim, Outcome::Refuted, format!("the kernel has {path}"));
                return;
            }
            Some(code) => {
                let last = path.rsplit('.').next().unwrap_or(path);
                if let Some(message) = FailureFields::of(answer).certain_missing(code, last) {
                    set(claim, Outcome::Confirmed, format!("the kernel: {message}"));
                    return;
                }
            }
        }
    }
}

fn check_keyword(claim: &mut Claim, lower: &str, evidence: Evidence) {
    let Some(signatures) = evidence.signatures else {
        return;
    };
    // The callables the sentence names, else every answered one.
    let named: Vec<(&String, &Value)> = signatures
        .iter()
        .filter(|(path, _)| {
            let last = path.rsplit('.').next().unwrap_or(path).to_lowercase();
            lower.contains(&last)
        })
        .collect();
    let candidates: Vec<(&String, &Value)> = if named.is_empty() {
        signatures.iter().collect()
    } else {
        named
    };
    let mut lacking = Vec::new();
    for (path, answer) in &candidates {
        let Some(parameters) = answer.get("parameters").and_then(Value::as_array) else {
            continue;
        };
        let takes = parameters.iter().any(|p| {
            p.get("name").and_then(Value::as_str) == Some(claim.value.as_str())
                && p.get("kind").and_then(Value::as_str) != Some("POSITIONAL_ONLY")
        });
        let var_keyword = parameters
            .iter()
            .any(|p| p.get("kind").and_then(Value::as_str) == Some("VAR_KEYWORD"));
        if takes {
            set(
                claim,
                Outcome::Refuted,
                format!("{path} takes a keyword '{}'", claim.value),
            );
            return;
        }
        if !var_keyword {
            lacking.push(path.as_str());
        }
    }
    if !lacking.is_empty() && lacking.len() == candidates.len() {
        set(
            claim,
            Outcome::Confirmed,
            format!("{} takes no keyword '{}'", lacking.join(", "), claim.value),
        );
    }
}

/// Parenthesized integer tuples: `(68,)`, `(891, 12)`, `(None, 28, 28)` is skipped.
fn shapes(sentence: &str) -> Vec<(usize, Vec<i64>)> {
    let mut out = Vec::new();
    let bytes = sentence.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'(' || bytes[i] == b'[' {
            let close = if bytes[i] == b'(' { ')' } else { ']' };
            if let Some(len) = sentence[i + 1..].find(close) {
                let inner = &sentence[i + 1..i + 1 + len];
                let parts: Vec<&str> = inner
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .collect();
                let dims: Option<Vec<i64>> = parts.iter().map(|p| p.parse().ok()).collect();
                let tuple_like = inner.contains(',') || close == ']';
                if let Some(dims) = dims.filter(|d| !d.is_empty() && tuple_like) {
                    // `[0, 1]` of two small numbers is more likely values than a shape.
                    if close == ')' || dims.len() > 2 || dims.iter().all(|&d| d > 1) {
                        out.push((i, dims));
                    }
                }
                i += len + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

fn format_shape(shape: &[i64]) -> String {
    if shape.len() == 1 {
        format!("({},)", shape[0])
    } else {
        format!(
            "({})",
            shape
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn check_shape(claim: &mut Claim, shape: &[i64], transforms: bool, evidence: Evidence) {
    let Some(subject) = claim.subject.clone() else {
        return;
    };
    let Some(actual) = object(evidence, &subject).and_then(ObjectSummary::shape) else {
        return;
    };
    if actual == shape {
        set(
            claim,
            Outcome::Confirmed,
            format!("{subject} has shape {}", format_shape(&actual)),
        );
    } else if !transforms {
        set(
            claim,
            Outcome::Refuted,
            format!("{subject} has shape {}", format_shape(&actual)),
        );
    }
}

/// `58 features`, `58 input features`, `n_features_in_ = 58`, `58 columns`.
fn feature_counts(lower: &str) -> Vec<(usize, i64)> {
    let mut out = Vec::new();
    let words: Vec<(usize, &str)> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .scan(0usize, |pos, w| {
            let start = lower[*pos..].find(w).map_or(*pos, |i| *pos + i);
            *pos = start + w.len();
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    for (i, (pos, word)) in words.iter().enumerate() {
        let Ok(n) = word.trim_end_matches('.').parse::<i64>() else {
            continue;
        };
        let next = words.get(i + 1).map(|(_, w)| *w).unwrap_or("");
        let next2 = words.get(i + 2).map(|(_, w)| *w).unwrap_or("");
        let is_features = |w: &str| w.starts_with("feature");
        if is_features(next) || (next == "input" && is_features(next2)) {
            out.push((*pos, n));
        }
    }
    out
}

fn check_feature_count(claim: &mut Claim, count: i64, transforms: bool, evidence: Evidence) {
    let Some(subject) = claim.subject.clone() else {
        return;
    };
    let Some(o) = object(evidence, &subject) else {
        return;
    };
    let actual = o
        .int_fact(Category::S, "n_features_in")
        .or_else(|| o.shape().filter(|s| s.len() == 2).map(|s| s[1]));
    let Some(actual) = actual else {
        return;
    };
    if actual == count {
        set(
            claim,
            Outcome::Confirmed,
            format!("{subject} has {actual} features"),
        );
    } else if !transforms {
        set(
            claim,
            Outcome::Refuted,
            format!("{subject} has {actual} features"),
        );
    }
}

fn check_nan(claim: &mut Claim, column: Option<&str>, transforms: bool, evidence: Evidence) {
    if transforms {
        return;
    }
    let Some(subject) = claim.subject.clone() else {
        return;
    };
    let Some(o) = object(evidence, &subject) else {
        return;
    };
    let has_nan = match column {
        Some(column) => {
            let listed = o
                .value
                .get("nan_columns")
                .and_then(Value::as_array)
                .map(|c| c.iter().any(|v| v.as_str() == Some(column)));
            match (listed, o.has_nan()) {
                (Some(true), _) => Some(true),
                // With no NaN anywhere, the column has none either.
                (_, Some(false)) => Some(false),
                (Some(false), Some(true)) => Some(false),
                _ => None,
            }
        }
        None => o.has_nan(),
    };
    let Some(has_nan) = has_nan else {
        return;
    };
    let what = match column {
        Some(c) => format!("{subject}['{c}']"),
        None => subject.clone(),
    };
    let evidence_text = if has_nan {
        format!("{what} has NaN")
    } else {
        format!("{what} has no NaN")
    };
    let outcome = if has_nan != claim.negative {
        Outcome::Confirmed
    } else {
        Outcome::Refuted
    };
    set(claim, outcome, evidence_text);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> SummaryDoc {
        serde_json::from_str(
            r#"{"schema": 1, "objects": {
                "df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
                       "S": {"shape": [891, 3]},
                       "R": {"columns": ["PassengerId", "Age", "Sex"]},
                       "V": {"has_nan": true, "nan_columns": ["Age"]}},
                "X": {"kind": "ndarray", "S": {"shape": [68, 58]}, "V": {"has_nan": false}},
                "y": {"kind": "ndarray", "S": {"shape": [17]}},
                "model": {"kind": "estimator", "S": {"n_features_in": 57}, "V": {"fitted": true}}}}"#,
        )
        .unwrap()
    }

    fn signatures() -> Map<String, Value> {
        serde_json::from_str(
            r#"{"df.drop": {"kind": "method", "signature": "(labels=None, *, axis=0, inplace=False)",
                            "parameters": [{"name": "labels", "kind": "POSITIONAL_OR_KEYWORD", "default": "None"},
                                           {"name": "axis", "kind": "KEYWORD_ONLY", "default": "0"},
                                           {"name": "inplace", "kind": "KEYWORD_ONLY", "default": "False"}]},
                "df.dropp": {"error": "no_attribute", "owner": "'DataFrame' object", "attribute": "dropp"},
                "np.nope": {"error": "not_loaded", "owner": "module 'numpy'", "attribute": "nope"},
                "model.predict": {"kind": "method", "signature": "(X)", "parameters": [{"name": "X", "kind": "POSITIONAL_OR_KEYWORD"}]}}"#,
        )
        .unwrap()
    }

    fn check(reasoning: &str) -> CheckedVerdict {
        let doc = doc();
        let signatures = signatures();
        check_verdict(
            &Verdict {
                reasoning: reasoning.into(),
                detection: true,
                line: None,
            },
            Evidence {
                summaries: Some(&doc),
                signatures: Some(&signatures),
                target: Some("model.predict(df[['Age', 'Fare']])"),
            },
        )
    }

    fn outcomes(v: &CheckedVerdict) -> Vec<(ClaimKind, Outcome)> {
        v.claims.iter().map(|c| (c.kind, c.outcome)).collect()
    }

    #[test]
    fn columns() {
        let v = check("The column 'Fare' does not exist in df, so indexing raises a KeyError.");
        assert_eq!(outcomes(&v), [(ClaimKind::Column, Outcome::Confirmed)]);
        assert!(v.detection && !v.downgraded);

        let v = check("df has no column 'Age', so df[['Age']] raises KeyError.");
        assert_eq!(outcomes(&v), [(ClaimKind::Column, Outcome::Refuted)]);
        assert!(!v.detection && v.downgraded);
        let reason = v.reason.unwrap();
        assert!(reason.contains("df has a column 'Age'"), "{reason}");
    }

    #[test]
    fn attributes_and_keywords() {
        let v = check("DataFrame has no attribute 'dropp', AttributeError.");
        assert_eq!(outcomes(&v), [(ClaimKind::Attribute, Outcome::Confirmed)]);
        let v = check("df has no attribute 'Sex'.");
        assert_eq!(outcomes(&v), [(ClaimKind::Attribute, Outcome::Refuted)]);
        assert!(v.downgraded);
        // numpy's module `__getattr__` was not called: the kernel cannot tell.
        let v = check("np has no attribute 'nope'.");
        assert_eq!(outcomes(&v), [(ClaimKind::Attribute, Outcome::Unknown)]);

        let v = check("drop() got an unexpected keyword argument 'inplace'.");
        assert_eq!(outcomes(&v), [(ClaimKind::Keyword, Outcome::Refuted)]);
        let v = check("predict does not accept the keyword argument 'axis'.");
        assert_eq!(outcomes(&v), [(ClaimKind::Keyword, Outcome::Confirmed)]);
        assert!(!v.downgraded);
    }

    #[test]
    fn shapes_counts_and_nan() {
        let v = check("X has shape (68, 58) but y has shape (17,), so the lengths differ.");
        assert_eq!(
            outcomes(&v),
            [
                (ClaimKind::Shape, Outcome::Confirmed),
                (ClaimKind::Shape, Outcome::Confirmed)
            ]
        );
        assert!(v.detection);
        let v = check("y has shape (68,) while X has 68 rows.");
        assert_eq!(outcomes(&v), [(ClaimKind::Shape, Outcome::Refuted)]);
        assert!(v.downgraded);

        let v = check("model was fitted on 57 features but X has 58 features.");
        assert_eq!(
            outcomes(&v),
            [
                (ClaimKind::FeatureCount, Outcome::Confirmed),
                (ClaimKind::FeatureCount, Outcome::Confirmed)
            ]
        );
        let v = check("model expects 60 features.");
        assert_eq!(outcomes(&v), [(ClaimKind::FeatureCount, Outcome::Refuted)]);

        let v = check("X contains NaN values, which LinearRegression rejects.");
        assert_eq!(outcomes(&v), [(ClaimKind::Nan, Outcome::Refuted)]);
        assert!(v.downgraded);
        let v = check("Column 'Age' of df contains NaN values.");
        assert!(v
            .claims
            .iter()
            .any(|c| c.kind == ClaimKind::Nan && c.outcome == Outcome::Confirmed));
        assert!(!v.downgraded);
    }

    #[test]
    fn vague_claims_stay_unknown() {
        let v = check("After get_dummies, X will have shape (68, 70) and the model fails.");
        assert_eq!(outcomes(&v), [(ClaimKind::Shape, Outcome::Unknown)]);
        assert!(v.detection);
        let v = check("The function is not defined in the executed cells.");
        assert!(v.claims.is_empty());
        assert!(v.detection);
    }
}
