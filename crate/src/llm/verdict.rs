//! Reading LLM answers: the JSON object of the answer schema (`reasoning`, `detection`, `line`,
//! `claims`), wherever it is in the text and however loosely it is written, and the majority vote
//! over several answers.
//!
//! Robust but never guessing: an answer is read when it holds an object with a `detection` that is
//! a boolean (or `"true"`/`"false"`, `True`/`False`, `yes`/`no`); anything else is an error that
//! says why, and counts as no vote. Its `claims` are read leniently: a claim that is garbled, of an
//! unknown kind or with a field of the wrong type is left out, never guessed at.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use crate::summary::shape_text;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub reasoning: String,
    pub detection: bool,
    /// 1-based line of the crash in the target cell.
    pub line: Option<u32>,
    /// The facts the answer says its verdict rests on.
    #[serde(default)]
    pub claims: Vec<StatedClaim>,
}

/// A fact an answer states, in the prompt's closed vocabulary (`{"claim": "missing_column",
/// "object": "df", "column": "Fare"}`), about the kernel's objects as they are before the target
/// cell runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "claim", rename_all = "snake_case")]
pub enum StatedClaim {
    /// The frame `object` has no column `column`.
    MissingColumn { object: String, column: String },
    /// `object` has no attribute or method `attribute`.
    MissingAttribute { object: String, attribute: String },
    /// `callable` takes no keyword argument `keyword`.
    BadKeyword { callable: String, keyword: String },
    /// `name` is not defined.
    UndefinedName { name: String },
    /// `object` has this shape (`None`: a dimension not stated).
    Shape {
        object: String,
        shape: Vec<Option<i64>>,
    },
    /// `object` (or its `column`) has this dtype.
    Dtype {
        object: String,
        column: Option<String>,
        dtype: String,
    },
    /// `object` (or its `column`) holds NaN.
    HasNan {
        object: String,
        column: Option<String>,
    },
    /// The estimator `object` is not fitted.
    NotFitted { object: String },
}

impl StatedClaim {
    /// The claim in words, as the LLM states it.
    pub fn statement(&self) -> String {
        let of = |object: &str, column: &Option<String>| match column {
            Some(c) => format!("{object}['{c}']"),
            None => object.to_string(),
        };
        match self {
            Self::MissingColumn { object, column } => format!("{object} has no column '{column}'"),
            Self::MissingAttribute { object, attribute } => {
                format!("{object} has no attribute '{attribute}'")
            }
            Self::BadKeyword { callable, keyword } => {
                format!("{callable} takes no keyword '{keyword}'")
            }
            Self::UndefinedName { name } => format!("'{name}' is not defined"),
            Self::Shape { object, shape } => format!("{object} has shape {}", shape_text(shape)),
            Self::Dtype {
                object,
                column,
                dtype,
            } => format!("{} has dtype {dtype}", of(object, column)),
            Self::HasNan { object, column } => format!("{} holds NaN", of(object, column)),
            Self::NotFitted { object } => format!("{object} is not fitted"),
        }
    }
}

/// `(68, 58)`, `(17,)`, `(?, 28)` for a dimension not stated.
/// The claims of an answer's `claims` field: a list (or one object) of claim objects. Keys and
/// kinds are read case-insensitively (`missing-column`, `MissingColumn`); a frame column written
/// into the object (`"object": "df['Age']"`) is split off. Anything else is left out.
pub fn read_claims(value: Option<&Value>) -> Vec<StatedClaim> {
    let items: Vec<&Value> = match value {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(one @ Value::Object(_)) => vec![one],
        _ => Vec::new(),
    };
    items
        .into_iter()
        .filter_map(|item| claim_of(item.as_object()?))
        .collect()
}

fn claim_of(map: &Map<String, Value>) -> Option<StatedClaim> {
    let get = |key: &str| {
        map.iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    };
    let kind: String = get("claim")
        .or_else(|| get("kind"))
        .or_else(|| get("type"))?
        .as_str()?
        .trim()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    // A name: a string that is not empty, without the quotes or backticks models put around it.
    let name = |key: &str| -> Option<String> {
        let text = get(key)?.as_str()?;
        let text = text
            .trim()
            .trim_matches(|c| matches!(c, '`' | '\'' | '"'))
            .trim();
        (!text.is_empty()).then(|| text.to_string())
    };
    // A column label, exactly (spaces count), without quotes around it; or a number.
    let column = |key: &str| -> Option<String> {
        match get(key)? {
            Value::Number(n) => Some(n.to_string()),
            Value::String(text) => {
                let unquoted = ['`', '\'', '"']
                    .iter()
                    .find_map(|q| text.strip_prefix(*q)?.strip_suffix(*q))
                    .unwrap_or(text);
                (!unquoted.is_empty()).then(|| unquoted.to_string())
            }
            _ => None,
        }
    };
    // An optional column: absent or null is none; anything else must read as a column.
    let optional_column = |key: &str| -> Option<Option<String>> {
        match get(key) {
            None | Some(Value::Null) => Some(None),
            Some(_) => column(key).map(Some),
        }
    };
    match kind.as_str() {
        "badkeyword" => {
            return Some(StatedClaim::BadKeyword {
                callable: name("callable")?,
                keyword: name("keyword")?,
            })
        }
        "undefinedname" => {
            return Some(StatedClaim::UndefinedName {
                name: name("name")?,
            })
        }
        _ => {}
    }
    let (object, object_column) = split_subscript(&name("object")?);
    // The column stated, or the one written into the object; both must agree.
    let with_column = |stated: Option<String>| -> Option<Option<String>> {
        match (stated, &object_column) {
            (Some(c), Some(o)) if &c != o => None,
            (Some(c), _) => Some(Some(c)),
            (None, o) => Some(o.clone()),
        }
    };
    let no_column = object_column.is_none();
    let claim = match kind.as_str() {
        "missingcolumn" => StatedClaim::MissingColumn {
            column: with_column(column("column"))??,
            object,
        },
        "missingattribute" if no_column => StatedClaim::MissingAttribute {
            attribute: name("attribute")?,
            object,
        },
        "shape" if no_column => StatedClaim::Shape {
            shape: read_shape(get("shape")?)?,
            object,
        },
        "dtype" => StatedClaim::Dtype {
            column: with_column(optional_column("column")?)?,
            dtype: name("dtype")?,
            object,
        },
        "hasnan" => StatedClaim::HasNan {
            column: with_column(optional_column("column")?)?,
            object,
        },
        "notfitted" if no_column => StatedClaim::NotFitted { object },
        _ => return None,
    };
    Some(claim)
}

/// `df['Age']` -> (`df`, `Age`); anything else is the object alone.
fn split_subscript(object: &str) -> (String, Option<String>) {
    if let Some(open) = object.find('[') {
        let inner = object[open + 1..].strip_suffix(']').map(str::trim);
        let quoted = inner.and_then(|i| {
            ['\'', '"']
                .iter()
                .find_map(|q| i.strip_prefix(*q)?.strip_suffix(*q))
        });
        if let Some(column) = quoted.filter(|c| !c.is_empty() && !c.contains(['\'', '"'])) {
            return (object[..open].trim().to_string(), Some(column.to_string()));
        }
    }
    (object.to_string(), None)
}

/// A shape: a list of non-negative integers (null or `None` for a dimension not stated), or the
/// same written as a tuple in a string (`"(68, 58)"`).
fn read_shape(value: &Value) -> Option<Vec<Option<i64>>> {
    let dim = |v: &Value| -> Option<Option<i64>> {
        match v {
            Value::Null => Some(None),
            Value::Number(n) => n.as_i64().filter(|&d| d >= 0).map(Some),
            Value::String(s) if s.trim() == "None" || s.trim() == "?" => Some(None),
            _ => None,
        }
    };
    let shape: Option<Vec<Option<i64>>> = match value {
        Value::Array(items) => items.iter().map(dim).collect(),
        Value::String(text) => {
            let inner = text
                .trim()
                .trim_start_matches(['(', '['])
                .trim_end_matches([')', ']']);
            inner
                .split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(|d| match d {
                    "None" | "?" => Some(None),
                    d => d.parse::<i64>().ok().filter(|&d| d >= 0).map(Some),
                })
                .collect()
        }
        _ => None,
    };
    shape.filter(|s| !s.is_empty())
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictError {
    pub message: String,
}

impl VerdictError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for VerdictError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Reads one answer. Candidates are, in order: the whole text, the contents of code fences, and
/// every balanced `{...}` in the text; the last candidate that reads as an object with a
/// `detection` wins (models that think aloud put the final answer last).
pub fn read_verdict(answer: &str) -> Result<Verdict, VerdictError> {
    let text = answer.trim();
    if text.is_empty() {
        return Err(VerdictError::new("the answer is empty"));
    }
    let mut candidates: Vec<&str> = vec![text];
    candidates.extend(fenced_blocks(text));
    candidates.extend(brace_spans(text));
    let mut objects = 0;
    let mut last_error = None;
    let mut found = None;
    for candidate in candidates {
        let Some(Value::Object(map)) = Lenient::parse(candidate) else {
            continue;
        };
        objects += 1;
        match verdict_of(&map) {
            Ok(v) => found = Some(v),
            Err(e) => last_error = Some(e),
        }
    }
    if let Some(v) = found {
        return Ok(v);
    }
    // Claims the reader cannot parse (`"object": df`) must not cost the verdict: without them.
    if let Some(without) = without_claims(text) {
        if let Ok(v) = read_verdict(&without) {
            return Ok(v);
        }
    }
    Err(match last_error {
        Some(e) => e,
        None if objects == 0 => {
            VerdictError::new(format!("no JSON object in the answer: {}", preview(text)))
        }
        None => VerdictError::new("the answer has no verdict"),
    })
}

fn preview(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = one_line.chars().take(80).collect();
    if cut.len() < one_line.len() {
        format!("\"{cut}…\"")
    } else {
        format!("\"{cut}\"")
    }
}

fn verdict_of(map: &Map<String, Value>) -> Result<Verdict, VerdictError> {
    let get = |key: &str| {
        map.iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
            .map(|(_, v)| v)
    };
    let detection = match get("detection").or_else(|| get("crash")) {
        None => return Err(VerdictError::new("the answer has no `detection` field")),
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "crash" => true,
            "false" | "no" | "no crash" => false,
            other => {
                return Err(VerdictError::new(format!(
                    "`detection` is not a boolean: \"{other}\""
                )))
            }
        },
        Some(other) => {
            return Err(VerdictError::new(format!(
                "`detection` is not a boolean: {other}"
            )))
        }
    };
    let reasoning = match get("reasoning").or_else(|| get("reason")) {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let line = match get("line") {
        Some(Value::Number(n)) => n.as_u64().filter(|&n| n >= 1).map(|n| n as u32),
        Some(Value::String(s)) => s.trim().parse::<u32>().ok().filter(|&n| n >= 1),
        _ => None,
    };
    Ok(Verdict {
        reasoning,
        detection,
        line,
        claims: read_claims(get("claims")),
    })
}

/// The text with the first `claims` field (key and bracketed value) cut out; `None` when there is
/// none.
fn without_claims(text: &str) -> Option<String> {
    let key = text.match_indices("claims").map(|(i, _)| i).find(|&i| {
        let after = text[i + "claims".len()..].trim_start_matches(['"', '\'', ' ']);
        after.starts_with(':')
    })?;
    let start = text[..key].trim_end_matches(['"', '\'']).len();
    let colon = key + text[key..].find(':')?;
    let value = colon + 1 + (text[colon + 1..].len() - text[colon + 1..].trim_start().len());
    let bytes = text.as_bytes();
    let open = *bytes.get(value)?;
    let close = match open {
        b'[' => b']',
        b'{' => b'}',
        _ => return None,
    };
    let mut depth = 0;
    let mut end = None;
    for (i, &b) in bytes.iter().enumerate().skip(value) {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                end = Some(i + 1);
                break;
            }
        }
    }
    // An unterminated value runs to the end of the answer: the object is closed after it.
    let rest = end.map_or("}", |end| text[end..].trim_start());
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    let head = text[..start].trim_end();
    // `..., "claims": [...]}`: the comma before the field goes instead.
    let head = if rest.trim_start().starts_with('}') {
        head.strip_suffix(',').unwrap_or(head)
    } else {
        head
    };
    Some(format!("{head} {rest}"))
}

/// The insides of ``` fences (with or without a language tag).
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body_start = after.find('\n').map_or(0, |i| i + 1);
        // A tag on the fence line (```json) is skipped; `{` right after the fence is kept.
        let body_start = if after.trim_start().starts_with('{') {
            0
        } else {
            body_start
        };
        let body = &after[body_start..];
        let Some(end) = body.find("```") else {
            blocks.push(body);
            break;
        };
        blocks.push(&body[..end]);
        rest = &body[end + 3..];
    }
    blocks
}

/// Every balanced `{...}` span, outermost first, skipping braces inside quotes.
fn brace_spans(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if let Some(end) = matching_brace(bytes, i) {
                spans.push(&text[i..=end]);
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    spans
}

fn matching_brace(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<u8> = None;
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) => {
                if b == b'\\' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
            }
            None => match b {
                b'"' => quote = Some(b),
                // An apostrophe in prose ("don't") is not a quote: only one after a delimiter.
                b'\'' if i > 0 && matches!(bytes[i - 1], b'{' | b':' | b',' | b' ' | b'[') => {
                    quote = Some(b)
                }
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// A JSON reader that also takes what models write instead: single-quoted strings, unquoted keys,
/// `True`/`False`/`None`, trailing commas, and comments.
struct Lenient<'a> {
    chars: Vec<char>,
    pos: usize,
    _text: &'a str,
}

impl<'a> Lenient<'a> {
    fn parse(text: &'a str) -> Option<Value> {
        if let Ok(v) = serde_json::from_str::<Value>(text.trim()) {
            return Some(v);
        }
        let mut p = Lenient {
            chars: text.chars().collect(),
            pos: 0,
            _text: text,
        };
        let v = p.value()?;
        p.space();
        (p.pos == p.chars.len()).then_some(v)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn space(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => self.pos += 1,
                Some('/') if self.chars.get(self.pos + 1) == Some(&'/') => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.space();
        match self.peek()? {
            '{' => self.object(),
            '[' => self.array(),
            '"' | '\'' | '“' | '‘' => self.string().map(Value::String),
            _ => self.bare(),
        }
    }

    fn object(&mut self) -> Option<Value> {
        self.pos += 1;
        let mut map = Map::new();
        loop {
            self.space();
            match self.peek()? {
                '}' => {
                    self.pos += 1;
                    return Some(Value::Object(map));
                }
                ',' => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            let key = match self.peek()? {
                '"' | '\'' | '“' | '‘' => self.string()?,
                _ => self.word()?,
            };
            self.space();
            if self.peek()? != ':' {
                return None;
            }
            self.pos += 1;
            let value = self.value()?;
            map.insert(key, value);
            self.space();
            match self.peek()? {
                ',' => self.pos += 1,
                '}' => {}
                _ => return None,
            }
        }
    }

    fn array(&mut self) -> Option<Value> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.space();
            match self.peek()? {
                ']' => {
                    self.pos += 1;
                    return Some(Value::Array(items));
                }
                ',' => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            items.push(self.value()?);
            self.space();
            match self.peek()? {
                ',' => self.pos += 1,
                ']' => {}
                _ => return None,
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let open = self.peek()?;
        let close = match open {
            '“' => '”',
            '‘' => '’',
            c => c,
        };
        self.pos += 1;
        let mut s = String::new();
        loop {
            let c = self.peek()?;
            self.pos += 1;
            if c == close {
                // In a single-quoted string, an apostrophe followed by a letter is part of the
                // text ('it's'): the closing quote must be followed by a delimiter.
                if close == '\'' {
                    let mut j = self.pos;
                    while self.chars.get(j).is_some_and(|c| c.is_whitespace()) {
                        j += 1;
                    }
                    if !matches!(self.chars.get(j), None | Some(',' | '}' | ']' | ':')) {
                        s.push(c);
                        continue;
                    }
                }
                return Some(s);
            }
            if c == '\\' {
                let e = self.peek()?;
                self.pos += 1;
                match e {
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    'r' => s.push('\r'),
                    'u' => {
                        let hex: String = self.chars.get(self.pos..self.pos + 4)?.iter().collect();
                        self.pos += 4;
                        s.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                    }
                    other => s.push(other),
                }
            } else {
                s.push(c);
            }
        }
    }

    fn word(&mut self) -> Option<String> {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '+' | '.'))
        {
            self.pos += 1;
        }
        (self.pos > start).then(|| self.chars[start..self.pos].iter().collect())
    }

    fn bare(&mut self) -> Option<Value> {
        let word = self.word()?;
        Some(match word.as_str() {
            "true" | "True" | "TRUE" => Value::Bool(true),
            "false" | "False" | "FALSE" => Value::Bool(false),
            "null" | "None" | "none" | "NULL" => Value::Null,
            w => {
                if let Ok(i) = w.parse::<i64>() {
                    Value::Number(i.into())
                } else {
                    Value::Number(Number::from_f64(w.parse::<f64>().ok()?)?)
                }
            }
        })
    }
}

/// The outcome of a majority vote over several answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vote {
    /// Crash when more than half of the readable answers say so (a tie is not a crash: the
    /// paper's instructions ask for `true` only when certain).
    pub detection: bool,
    pub crash_votes: usize,
    /// Answers that could be read.
    pub valid: usize,
    /// Why the other answers could not be read.
    pub errors: Vec<String>,
    /// The first readable answer that agrees with the outcome: its reasoning and line.
    pub verdict: Verdict,
    /// Every readable answer, in order.
    pub verdicts: Vec<Verdict>,
}

pub fn majority_vote(answers: &[String]) -> Result<Vote, VerdictError> {
    let mut verdicts = Vec::new();
    let mut errors = Vec::new();
    for answer in answers {
        match read_verdict(answer) {
            Ok(v) => verdicts.push(v),
            Err(e) => errors.push(e.message),
        }
    }
    if verdicts.is_empty() {
        return Err(VerdictError::new(match errors.first() {
            Some(first) => format!(
                "none of the {} answers could be read: {first}",
                answers.len()
            ),
            None => "no answers".to_string(),
        }));
    }
    let crash_votes = verdicts.iter().filter(|v| v.detection).count();
    let detection = crash_votes * 2 > verdicts.len();
    let agreeing: Vec<&Verdict> = verdicts
        .iter()
        .filter(|v| v.detection == detection)
        .collect();
    // The line most of the agreeing answers give.
    let mut lines: Vec<(u32, usize)> = Vec::new();
    for line in agreeing.iter().filter_map(|v| v.line) {
        match lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, n)) => *n += 1,
            None => lines.push((line, 1)),
        }
    }
    let line = lines.iter().max_by_key(|(_, n)| *n).map(|(l, _)| *l);
    let mut verdict = agreeing
        .iter()
        .find(|v| v.line == line)
        .or(agreeing.first())
        .map(|v| (*v).clone())
        .expect("the majority side has answers");
    verdict.line = line;
    Ok(Vote {
        detection,
        crash_votes,
        valid: verdicts.len(),
        errors,
        verdict,
        verdicts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(answer: &str) -> Verdict {
        read_verdict(answer).unwrap_or_else(|e| panic!("{answer:?}: {e}"))
    }

    #[test]
    fn reads_tricky_answers() {
        let table: &[(&str, bool, Option<u32>, &str)] = &[
            (
                r#"{"reasoning": "col missing", "detection": true, "line": 2}"#,
                true,
                Some(2),
                "col missing",
            ),
            (
                "```json\n{\"reasoning\": \"fine\", \"detection\": false, \"line\": null}\n```",
                false,
                None,
                "fine",
            ),
            (
                "Let me think. The frame has no 'Fare' column.\n\nFinal answer: {\"reasoning\": \"no Fare\", \"detection\": true}",
                true,
                None,
                "no Fare",
            ),
            (
                "{'reasoning': 'KeyError on Fare', 'detection': True, 'line': 1}",
                true,
                Some(1),
                "KeyError on Fare",
            ),
            (
                "{\"reasoning\": \"ok\", \"detection\": false,}",
                false,
                None,
                "ok",
            ),
            ("{reasoning: 'it's fine', detection: False, line: None}", false, None, "it's fine"),
            ("{\"detection\": \"true\", \"line\": \"3\"}", true, Some(3), ""),
            (
                "```\n{\"reasoning\": \"x\", \"detection\": true, \"line\": 0}\n```",
                true,
                None,
                "x",
            ),
            (
                "Example format: {\"reasoning\": string, \"detection\": boolean}. My answer: {\"reasoning\": \"shape mismatch\", \"detection\": true, \"line\": 4}",
                true,
                Some(4),
                "shape mismatch",
            ),
            (
                "{\n  // verdict\n  \"reasoning\": \"a \\\"quoted\\\" name\",\n  \"detection\": false\n}",
                false,
                None,
                "a \"quoted\" name",
            ),
        ];
        for (answer, detection, line, reasoning) in table {
            let v = ok(answer);
            assert_eq!(v.detection, *detection, "{answer}");
            assert_eq!(v.line, *line, "{answer}");
            assert_eq!(v.reasoning, *reasoning, "{answer}");
        }
    }

    #[test]
    fn garbage_is_an_error_never_a_guess() {
        for answer in [
            "",
            "I think it will crash.",
            "<html><script>alert(1)</script></html>",
            "{\"reasoning\": \"maybe\"}",
            "{\"reasoning\": \"x\", \"detection\": \"perhaps\"}",
            "{\"reasoning\": \"unterminated",
            "[true]",
        ] {
            let err = read_verdict(answer).expect_err(answer);
            assert!(!err.message.is_empty());
        }
        assert!(read_verdict("<html>")
            .unwrap_err()
            .message
            .starts_with("no JSON object in the answer: \"<html>\""));
        assert_eq!(
            read_verdict("{\"reasoning\": \"maybe\"}")
                .unwrap_err()
                .message,
            "the answer has no `detection` field"
        );
    }

    #[test]
    fn majority_vote_over_answers() {
        let a = |d: bool, line: Option<u32>| {
            format!(
                "{{\"reasoning\": \"r{}\", \"detection\": {d}, \"line\": {}}}",
                line.unwrap_or(0),
                line.map_or("null".to_string(), |l| l.to_string())
            )
        };
        let vote = majority_vote(&[
            a(true, Some(2)),
            a(false, None),
            a(true, Some(3)),
            a(true, Some(3)),
            "garbage".into(),
        ])
        .unwrap();
        assert!(vote.detection);
        assert_eq!((vote.crash_votes, vote.valid, vote.errors.len()), (3, 4, 1));
        assert_eq!(vote.verdict.line, Some(3));
        assert_eq!(vote.verdict.reasoning, "r3");

        // A tie is not a crash.
        let tie = majority_vote(&[a(true, Some(1)), a(false, None)]).unwrap();
        assert!(!tie.detection);

        let none = majority_vote(&["nope".into(), "".into()]).unwrap_err();
        assert!(none
            .message
            .starts_with("none of the 2 answers could be read"));
    }

    fn claims_of(answer: &str) -> Vec<StatedClaim> {
        ok(answer).claims
    }

    #[test]
    fn reads_clean_structured_claims() {
        let answer = r#"{"reasoning": "No Fare column.", "detection": true, "line": 2, "claims": [
            {"claim": "missing_column", "object": "df", "column": "Fare"},
            {"claim": "missing_attribute", "object": "model", "attribute": "coef_"},
            {"claim": "bad_keyword", "callable": "df.drop", "keyword": "inplce"},
            {"claim": "undefined_name", "name": "x"},
            {"claim": "shape", "object": "X", "shape": [68, null]},
            {"claim": "dtype", "object": "df", "column": "Age", "dtype": "object"},
            {"claim": "has_nan", "object": "X", "column": null},
            {"claim": "not_fitted", "object": "model"}]}"#;
        let object = |o: &str| o.to_string();
        assert_eq!(
            claims_of(answer),
            [
                StatedClaim::MissingColumn {
                    object: object("df"),
                    column: "Fare".into()
                },
                StatedClaim::MissingAttribute {
                    object: object("model"),
                    attribute: "coef_".into()
                },
                StatedClaim::BadKeyword {
                    callable: "df.drop".into(),
                    keyword: "inplce".into()
                },
                StatedClaim::UndefinedName { name: "x".into() },
                StatedClaim::Shape {
                    object: object("X"),
                    shape: vec![Some(68), None]
                },
                StatedClaim::Dtype {
                    object: object("df"),
                    column: Some("Age".into()),
                    dtype: "object".into()
                },
                StatedClaim::HasNan {
                    object: object("X"),
                    column: None
                },
                StatedClaim::NotFitted {
                    object: object("model")
                },
            ]
        );
        // The statements the panel shows.
        let statements: Vec<String> = claims_of(answer)
            .iter()
            .map(StatedClaim::statement)
            .collect();
        assert_eq!(statements[0], "df has no column 'Fare'");
        assert_eq!(statements[4], "X has shape (68, ?)");
        assert_eq!(statements[5], "df['Age'] has dtype object");
    }

    #[test]
    fn reads_loosely_written_claims() {
        // Python-ish syntax, other spellings of the kind and keys, a column inside the object, a
        // shape as a tuple string, a numeric column label, one object instead of a list.
        let answer = "{'reasoning': 'x', 'detection': True, 'claims': [\
            {'Claim': 'Missing-Column', 'Object': '`df`', 'Column': 'Fare'}, \
            {'kind': 'HasNan', 'object': \"df['Age']\", 'column': None}, \
            {'type': 'shape', 'object': 'X', 'shape': '(68, 58)'}, \
            {'claim': 'missing_column', 'object': 'wide', 'column': 0}]}";
        assert_eq!(
            claims_of(answer),
            [
                StatedClaim::MissingColumn {
                    object: "df".into(),
                    column: "Fare".into()
                },
                StatedClaim::HasNan {
                    object: "df".into(),
                    column: Some("Age".into())
                },
                StatedClaim::Shape {
                    object: "X".into(),
                    shape: vec![Some(68), Some(58)]
                },
                StatedClaim::MissingColumn {
                    object: "wide".into(),
                    column: "0".into()
                },
            ]
        );
        let one = r#"{"detection": true, "claims": {"claim": "not_fitted", "object": "model"}}"#;
        assert_eq!(
            claims_of(one),
            [StatedClaim::NotFitted {
                object: "model".into()
            }]
        );
    }

    #[test]
    fn garbled_or_wrongly_typed_claims_are_left_out() {
        // Each claim below is wrong in one way; the verdict is still read, with no claims.
        for claims in [
            r#""df has no column Fare""#,
            "42",
            "null",
            r#"[1, null, "missing_column", []]"#,
            r#"[{"claim": "column_is_missing", "object": "df", "column": "Fare"}]"#,
            r#"[{"object": "df", "column": "Fare"}]"#,
            r#"[{"claim": "missing_column", "object": "df"}]"#,
            r#"[{"claim": "missing_column", "object": 5, "column": "Fare"}]"#,
            r#"[{"claim": "missing_column", "object": "", "column": "Fare"}]"#,
            r#"[{"claim": "missing_column", "object": "df['A']", "column": "B"}]"#,
            r#"[{"claim": "shape", "object": "X", "shape": "big"}]"#,
            r#"[{"claim": "shape", "object": "X", "shape": [68.5, 2]}]"#,
            r#"[{"claim": "shape", "object": "X", "shape": [-1, 2]}]"#,
            r#"[{"claim": "shape", "object": "X", "shape": []}]"#,
            r#"[{"claim": "dtype", "object": "df", "column": ["Age"], "dtype": "int"}]"#,
            r#"[{"claim": "dtype", "object": "df", "column": "Age", "dtype": 64}]"#,
            r#"[{"claim": "has_nan", "object": "df", "column": true}]"#,
            r#"[{"claim": "bad_keyword", "callable": "f"}]"#,
            r#"[{"claim": "undefined_name", "name": null}]"#,
            r#"[{"claim": "not_fitted", "object": "df['a']"}]"#,
            r#"[{"claim": "missing_column", "object": df, "column": "Fare"}]"#,
            r#"[{"claim": "missing_column", "object": "df", "column": "Fare""#,
        ] {
            let answer = format!(
                r#"{{"reasoning": "r", "detection": true, "line": 3, "claims": {claims}}}"#
            );
            let v = read_verdict(&answer).unwrap_or_else(|e| panic!("{claims}: {e}"));
            assert!(
                v.detection && v.line == Some(3) && v.reasoning == "r",
                "{claims}"
            );
            assert_eq!(v.claims, [], "{claims}");
        }
        // Well-formed claims beside garbled ones are kept.
        let answer = r#"{"detection": true, "claims": [{"claim": "nope"}, {"claim": "undefined_name", "name": "x"}]}"#;
        assert_eq!(
            claims_of(answer),
            [StatedClaim::UndefinedName { name: "x".into() }]
        );
    }

    #[test]
    fn answers_without_claims_have_none() {
        assert_eq!(
            claims_of(r#"{"reasoning": "df has no column 'Fare'", "detection": true}"#),
            []
        );
        assert_eq!(claims_of(r#"{"detection": false, "claims": []}"#), []);
    }
}
