//! Checking what an LLM claims against the kernel, and judging its answers.
//!
//! An answer lists the facts its verdict rests on in a closed vocabulary ([`StatedClaim`]): a
//! missing column, attribute or name, a keyword a callable does not take, a shape, a dtype, NaN, an
//! unfitted estimator. Each is checked exactly against the kernel's summaries and `signature`
//! answers. A crash answer one of whose own claims a reported fact refutes votes no crash; the
//! reasoning's free text is never read, and an answer without claims is never downgraded.
//!
//! Checks are conservative: a claim is refuted only when the kernel reported the fact that
//! contradicts it, about the very object the claim names, and the target cell does not rebind or
//! change that object before it could crash (else the outcome is `unknown`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::llm::verdict::{majority_vote, StatedClaim, VerdictError, Vote};
use crate::summary::{
    parameters, shape_text, Category, FailureFields, ObjectSummary, ParameterKind, SummaryDoc,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Confirmed,
    Refuted,
    Unknown,
}

/// A stated claim and what the kernel's facts say about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub stated: StatedClaim,
    /// The claim in words.
    pub statement: String,
    pub outcome: Outcome,
    /// The kernel's fact, in words (empty when unknown).
    pub evidence: String,
}

/// The kernel's answers the claims are checked against.
#[derive(Clone, Copy, Debug, Default)]
pub struct Evidence<'a> {
    pub summaries: Option<&'a SummaryDoc>,
    /// `signature` answers: `{path: {kind, signature, parameters: [{name, kind, default?}]} |
    /// {error}}`.
    pub signatures: Option<&'a Map<String, Value>>,
    /// The target cell: a claim about an object it rebinds or changes is not checked.
    pub target: Option<&'a str>,
}

/// Where the judged crash line comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineSource {
    /// The answers' `line`.
    Answer,
    /// The target cell's line that the decisive claim names (a quoted column, an attribute...).
    Claim,
}

/// The LLM's answers judged: the majority vote, then every answer's claims checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub vote: Vote,
    /// The verdict after claim checks: the majority of the answers' votes, where a crash answer
    /// with a refuted claim votes no crash.
    pub detection: bool,
    /// The LLM's crash verdict was turned into no crash by claim checks.
    pub downgraded: bool,
    /// Why, for the panel.
    pub reason: Option<String>,
    /// The claims of all answers, each once, checked.
    pub claims: Vec<Claim>,
    /// 1-based crash line in the target cell.
    pub line: Option<u32>,
    pub line_source: Option<LineSource>,
}

/// Reads the answers (majority vote) and checks each answer's claims; the one judging shared by
/// the browser (through the WebAssembly adapter) and `cellguard bench`.
pub fn judge_answers(answers: &[String], evidence: Evidence) -> Result<Judgement, VerdictError> {
    let vote = majority_vote(answers)?;
    let mut claims: Vec<Claim> = Vec::new();
    let mut checked_crash_votes = 0;
    // The refuted claims crash answers rest on, each once: the reason of a downgrade.
    let mut refuting: Vec<String> = Vec::new();
    for verdict in &vote.verdicts {
        let mut refuted = false;
        for stated in &verdict.claims {
            let claim = match claims.iter().find(|c| &c.stated == stated) {
                Some(seen) => seen.clone(),
                None => {
                    let claim = check_claim(stated, evidence);
                    claims.push(claim.clone());
                    claim
                }
            };
            if claim.outcome == Outcome::Refuted && verdict.detection {
                refuted = true;
                let why = format!("“{}”, but {}", claim.statement, claim.evidence);
                if !refuting.contains(&why) {
                    refuting.push(why);
                }
            }
        }
        checked_crash_votes += usize::from(verdict.detection && !refuted);
    }
    let detection = checked_crash_votes * 2 > vote.valid;
    let downgraded = vote.detection && !detection;
    let reason = downgraded.then(|| {
        format!(
            "The LLM's crash verdict rests on a claim the kernel's facts refute: {}.",
            refuting.join("; ")
        )
    });
    let (line, line_source) = match vote.verdict.line {
        Some(line) => (Some(line), Some(LineSource::Answer)),
        None => {
            let located = evidence.target.and_then(|target| {
                vote.verdicts
                    .iter()
                    .filter(|v| v.detection == vote.detection)
                    .flat_map(|v| &v.claims)
                    .find_map(|c| locate(c, target))
            });
            (located, located.map(|_| LineSource::Claim))
        }
    };
    Ok(Judgement {
        vote,
        detection,
        downgraded,
        reason,
        claims,
        line,
        line_source,
    })
}

/// Checks one stated claim against the kernel's facts.
pub fn check_claim(stated: &StatedClaim, evidence: Evidence) -> Claim {
    let (outcome, evidence_text) = match changed_object(stated) {
        Some(name) if evidence.target.is_some_and(|t| may_change(t, name)) => {
            (Outcome::Unknown, String::new())
        }
        _ => outcome(stated, evidence).unwrap_or((Outcome::Unknown, String::new())),
    };
    Claim {
        stated: stated.clone(),
        statement: stated.statement(),
        outcome,
        evidence: evidence_text,
    }
}

/// The name whose value the claim is about (for a keyword, the callable's object).
fn changed_object(stated: &StatedClaim) -> Option<&str> {
    let path = match stated {
        StatedClaim::MissingColumn { object, .. }
        | StatedClaim::MissingAttribute { object, .. }
        | StatedClaim::Shape { object, .. }
        | StatedClaim::Dtype { object, .. }
        | StatedClaim::HasNan { object, .. }
        | StatedClaim::NotFitted { object } => object,
        StatedClaim::BadKeyword { callable, .. } => callable,
        StatedClaim::UndefinedName { name } => name,
    };
    path.split('.').next()
}

fn outcome(stated: &StatedClaim, evidence: Evidence) -> Option<(Outcome, String)> {
    match stated {
        StatedClaim::MissingColumn { object, column } => {
            let columns = summary(evidence, object)?.complete_columns()?;
            if columns.contains(&column.as_str()) {
                // `df[0]` and `df['0']` both read as column "0" in a summary: not exact.
                (column.parse::<f64>().is_err()).then(|| {
                    (
                        Outcome::Refuted,
                        format!("{object} has a column '{column}'"),
                    )
                })
            } else {
                Some((
                    Outcome::Confirmed,
                    format!("{object} has no column '{column}'"),
                ))
            }
        }
        StatedClaim::MissingAttribute { object, attribute } => {
            check_attribute(object, attribute, evidence)
        }
        StatedClaim::BadKeyword { callable, keyword } => check_keyword(callable, keyword, evidence),
        StatedClaim::UndefinedName { name } => {
            let o = evidence.summaries?.objects.get(name)?;
            match o.error.as_deref() {
                None => Some((Outcome::Refuted, format!("the kernel has {name}"))),
                Some("undefined") => {
                    Some((Outcome::Confirmed, format!("the kernel has no {name}")))
                }
                Some(_) => None,
            }
        }
        StatedClaim::Shape { object, shape } => {
            let actual = summary(evidence, object)?.shape()?;
            let fits = actual.len() == shape.len()
                && actual
                    .iter()
                    .zip(shape)
                    .all(|(a, s)| s.is_none_or(|s| s == *a));
            let actual: Vec<Option<i64>> = actual.into_iter().map(Some).collect();
            let text = format!("{object} has shape {}", shape_text(&actual));
            Some((
                if fits {
                    Outcome::Confirmed
                } else {
                    Outcome::Refuted
                },
                text,
            ))
        }
        StatedClaim::Dtype {
            object,
            column,
            dtype,
        } => {
            let o = summary(evidence, object)?;
            let actual = match column {
                Some(c) => o.dtype_of_column(c)?,
                None => o.str_fact(Category::R, "dtype")?,
            };
            let what = match column {
                Some(c) => format!("{object}['{c}']"),
                None => object.clone(),
            };
            let same = same_dtype_family(dtype, actual)?;
            Some((
                if same {
                    Outcome::Confirmed
                } else {
                    Outcome::Refuted
                },
                format!("{what} has dtype {actual}"),
            ))
        }
        StatedClaim::HasNan { object, column } => check_nan(object, column.as_deref(), evidence),
        StatedClaim::NotFitted { object } => match summary(evidence, object)?.fitted()? {
            true => Some((Outcome::Refuted, format!("{object} is fitted"))),
            false => Some((Outcome::Confirmed, format!("{object} is not fitted"))),
        },
    }
}

fn summary<'d>(evidence: Evidence<'d>, name: &str) -> Option<&'d ObjectSummary> {
    evidence
        .summaries?
        .objects
        .get(name)
        .filter(|o| o.error.is_none())
}

fn check_attribute(object: &str, attribute: &str, evidence: Evidence) -> Option<(Outcome, String)> {
    let path = format!("{object}.{attribute}");
    // A frame's column is an attribute too.
    if let Some(columns) = summary(evidence, object).and_then(ObjectSummary::complete_columns) {
        if columns.contains(&attribute) {
            return Some((Outcome::Refuted, format!("{path} is a column of {object}")));
        }
    }
    let summarized = evidence.summaries.and_then(|d| d.objects.get(&path));
    // The kernel's answer on the path: absent, found (no error code), or an error code with fields.
    let answer = summarized
        .map(|o| (o.error.as_deref(), o.failure.clone()))
        .or_else(|| {
            let answer = evidence.signatures?.get(&path)?;
            let code = answer.get("error").and_then(Value::as_str);
            Some((code, FailureFields::of(answer)))
        });
    match answer {
        Some((None, _)) => Some((Outcome::Refuted, format!("the kernel has {path}"))),
        Some((Some(code), fields))
            if code == "undefined" || fields.certain_missing(code, attribute).is_some() =>
        {
            Some((Outcome::Confirmed, format!("the kernel has no {path}")))
        }
        _ => None,
    }
}

fn check_keyword(callable: &str, keyword: &str, evidence: Evidence) -> Option<(Outcome, String)> {
    let answer = evidence.signatures?.get(callable)?;
    let parameters = parameters(answer.get("parameters")?)?;
    let takes = parameters.iter().any(|p| {
        p.name == keyword
            && matches!(
                p.kind,
                ParameterKind::PositionalOrKeyword | ParameterKind::KeywordOnly
            )
    });
    if takes {
        Some((
            Outcome::Refuted,
            format!("{callable} takes a keyword '{keyword}'"),
        ))
    } else if parameters
        .iter()
        .any(|p| p.kind == ParameterKind::VarKeyword)
    {
        // `**kwargs` passes it on: whether something down the line takes it is unknown.
        None
    } else {
        Some((
            Outcome::Confirmed,
            format!("{callable} takes no keyword '{keyword}'"),
        ))
    }
}

fn check_nan(object: &str, column: Option<&str>, evidence: Evidence) -> Option<(Outcome, String)> {
    let o = summary(evidence, object)?;
    let has_nan = match column {
        Some(c) => o
            .column_values(c)
            .and_then(|values| values.get("has_nan")?.as_bool())
            .or_else(|| {
                let listed = o.str_list_fact(Category::V, "nan_columns")?;
                // The list may be cut: only a column on it is known to hold NaN.
                listed.contains(&c).then_some(true)
            })
            .or_else(|| o.has_nan().filter(|has| !has)),
        None => o.has_nan(),
    }?;
    let what = match column {
        Some(c) => format!("{object}['{c}']"),
        None => object.to_string(),
    };
    if has_nan {
        Some((Outcome::Confirmed, format!("{what} holds NaN")))
    } else if o.sampled {
        // A NaN between the sampled rows is missed.
        None
    } else {
        Some((Outcome::Refuted, format!("{what} holds no NaN")))
    }
}

/// Whether a stated dtype and the kernel's are of one family (integer, float, text...); `None`
/// when either is not a dtype we know, so that no spelling is taken for a contradiction.
fn same_dtype_family(stated: &str, actual: &str) -> Option<bool> {
    let stated_family = dtype_family(stated)?;
    let actual_family = dtype_family(actual)?;
    if stated_family == "numeric" {
        return match actual_family {
            "int" | "float" | "complex" => Some(true),
            "bool" => None,
            _ => Some(false),
        };
    }
    Some(stated_family == actual_family)
}

fn dtype_family(dtype: &str) -> Option<&'static str> {
    let d = dtype.trim().to_ascii_lowercase();
    let d = d
        .trim_start_matches("np.")
        .trim_start_matches("numpy.")
        .trim_start_matches("torch.")
        .trim_start_matches("tf.");
    let starts = |p: &str| d.starts_with(p);
    Some(if starts("int") || starts("uint") || d == "long" {
        "int"
    } else if starts("float") || d == "double" || d == "half" || starts("bfloat") {
        "float"
    } else if starts("complex") {
        "complex"
    } else if d == "bool" || d == "boolean" {
        "bool"
    } else if matches!(d, "object" | "o" | "str" | "string" | "unicode") || starts("<u") {
        "text"
    } else if starts("datetime") {
        "datetime"
    } else if starts("timedelta") {
        "timedelta"
    } else if d == "category" || d == "categorical" {
        "category"
    } else if matches!(d, "numeric" | "number") {
        "numeric"
    } else {
        return None;
    })
}

/// Methods that change their object in place.
const MUTATORS: &[&str] = &[
    "fit",
    "fit_transform",
    "fit_generator",
    "partial_fit",
    "train_on_batch",
    "compile",
    "build",
    "add",
    "pop",
    "insert",
    "append",
    "extend",
    "update",
    "clear",
    "remove",
    "set_params",
    "load_state_dict",
    "load_weights",
    "resize",
];

/// Whether the target cell may rebind or change `name` before it could crash, so that the
/// kernel's facts about it need not hold there: `name` left of an assignment (also `name[...] =`,
/// `name.x =`, `a, name =`, in any function), bound by `for`, `as`, `def`, `class`, `import`,
/// `global`, `nonlocal`, `del` or `:=`, or a method that changes it in place (`fit`, `pop`,
/// anything with `inplace`).
pub fn may_change(target: &str, name: &str) -> bool {
    target.lines().any(|line| {
        let code = strip_comment(line);
        let words = word_positions(code, name);
        if words.is_empty() {
            return false;
        }
        if assignment_at(code).is_some_and(|eq| words.iter().any(|&w| w < eq)) {
            return true;
        }
        let binders = [
            "for ",
            "as ",
            "def ",
            "class ",
            "import ",
            "global ",
            "nonlocal ",
            "del ",
        ];
        words.iter().any(|&w| {
            let before = code[..w].trim_end();
            let after = code[w + name.len()..].trim_start();
            binders.iter().any(|b| before.ends_with(b.trim_end()))
                || after.starts_with(":=")
                || MUTATORS.iter().any(|m| {
                    after
                        .strip_prefix('.')
                        .and_then(|a| a.strip_prefix(m))
                        .is_some_and(|a| a.trim_start().starts_with('('))
                })
        }) || code.contains("inplace")
    })
}

/// The byte offset of a line's assignment `=` (also `+=` and the like), outside brackets and
/// quotes; `None` for comparisons and keyword arguments.
fn assignment_at(code: &str) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut depth = 0i32;
    let mut quote: Option<u8> = None;
    for (i, &b) in bytes.iter().enumerate() {
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            continue;
        }
        match b {
            b'\'' | b'"' => quote = Some(b),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'=' if depth <= 0 => {
                let prev = i.checked_sub(1).map(|p| bytes[p]);
                let next = bytes.get(i + 1).copied();
                let comparison =
                    matches!(prev, Some(b'=' | b'!' | b'<' | b'>')) || next == Some(b'=');
                if !comparison {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A line without its `#` comment (a `#` outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' => return &line[..i],
            None => {}
        }
    }
    line
}

/// Byte offsets where `word` occurs as a whole identifier.
fn word_positions(code: &str, word: &str) -> Vec<usize> {
    if word.is_empty() {
        return Vec::new();
    }
    let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.match_indices(word)
        .map(|(i, _)| i)
        .filter(|&i| {
            !is_ident(code[..i].chars().next_back())
                && !is_ident(code[i + word.len()..].chars().next())
        })
        .collect()
}

/// The 1-based line of the target cell a claim points at: the first line quoting the column,
/// reading `.attribute`, passing `keyword=`, or using the name; for a claim about an object as a
/// whole (shape, dtype, NaN, fitted), the one line that uses the object, if only one does.
pub fn locate(stated: &StatedClaim, target: &str) -> Option<u32> {
    let lines: Vec<&str> = target.lines().map(strip_comment).collect();
    let first =
        |found: &dyn Fn(&str) -> bool| lines.iter().position(|l| found(l)).map(|i| i as u32 + 1);
    let quotes = |column: &str| {
        let column = column.to_string();
        move |l: &str| l.contains(&format!("'{column}'")) || l.contains(&format!("\"{column}\""))
    };
    let only_user = |object: &str| {
        let users: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !word_positions(l, object).is_empty())
            .map(|(i, _)| i)
            .collect();
        match users.as_slice() {
            [one] => Some(*one as u32 + 1),
            _ => None,
        }
    };
    match stated {
        StatedClaim::MissingColumn { column, .. } => first(&quotes(column)),
        StatedClaim::Dtype {
            column: Some(column),
            ..
        }
        | StatedClaim::HasNan {
            column: Some(column),
            ..
        } => first(&quotes(column)),
        StatedClaim::MissingAttribute { attribute, .. } => first(&|l: &str| {
            l.match_indices(&format!(".{attribute}")).any(|(i, m)| {
                !l[i + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        }),
        StatedClaim::BadKeyword { keyword, .. } => first(&|l: &str| {
            word_positions(l, keyword).iter().any(|&i| {
                let after = l[i + keyword.len()..].trim_start();
                after.starts_with('=') && !after.starts_with("==")
            })
        }),
        StatedClaim::UndefinedName { name } => {
            first(&|l: &str| !word_positions(l, name).is_empty())
        }
        StatedClaim::Shape { object, .. }
        | StatedClaim::Dtype { object, .. }
        | StatedClaim::HasNan { object, .. }
        | StatedClaim::NotFitted { object } => only_user(object.split('.').next()?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> SummaryDoc {
        serde_json::from_str(
            r#"{"schema": 1, "objects": {
                "df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
                       "S": {"shape": [891, 4]},
                       "R": {"columns": ["PassengerId", "Age", "Sex", "0"],
                             "dtypes": {"PassengerId": "int64", "Age": "float64", "Sex": "object", "0": "int64"}},
                       "V": {"has_nan": true, "nan_columns": ["Age"],
                             "column_values": {"Age": {"has_nan": true}, "Sex": {"has_nan": false}}}},
                "wide": {"kind": "dataframe", "R": {"columns": ["a"], "columns_complete": false}},
                "clean": {"kind": "dataframe", "S": {"shape": [3, 1]}, "R": {"columns": ["a"]}, "V": {"has_nan": false}},
                "X": {"kind": "ndarray", "S": {"shape": [68, 58]}, "R": {"dtype": "float64"}, "V": {"has_nan": false}},
                "big": {"kind": "ndarray", "S": {"shape": [9000000]}, "R": {"dtype": "float32"}, "V": {"has_nan": false}, "sampled": true},
                "y": {"kind": "series", "S": {"shape": [17]}, "R": {"dtype": "object"}, "V": {"has_nan": true}},
                "model": {"kind": "estimator", "S": {"n_features_in": 57}, "V": {"fitted": true}},
                "raw": {"kind": "estimator", "V": {"fitted": false}},
                "odd": {"kind": "object"},
                "model.coef_": {"kind": "ndarray", "S": {"shape": [1, 57]}},
                "model.nope": {"error": "no_attribute", "owner": "'LogisticRegression' object", "attribute": "nope"},
                "np.nope": {"error": "not_loaded", "owner": "module 'numpy'", "attribute": "nope"},
                "ghost": {"error": "undefined"},
                "broken": {"error": "raised", "exception": "ValueError", "message": "summarizing raised"}}}"#,
        )
        .unwrap()
    }

    fn signatures() -> Map<String, Value> {
        serde_json::from_str(
            r#"{"df.drop": {"kind": "method", "parameters": [{"name": "labels", "kind": "POSITIONAL_OR_KEYWORD", "default": "None"},
                                                              {"name": "axis", "kind": "KEYWORD_ONLY", "default": "0"},
                                                              {"name": "inplace", "kind": "KEYWORD_ONLY", "default": "False"}]},
                "f": {"kind": "function", "parameters": [{"name": "a", "kind": "POSITIONAL_ONLY"}]},
                "g": {"kind": "function", "parameters": [{"name": "a", "kind": "POSITIONAL_OR_KEYWORD"}, {"name": "kw", "kind": "VAR_KEYWORD"}]},
                "model.dropp": {"error": "no_attribute", "owner": "'LogisticRegression' object", "attribute": "dropp"},
                "model.predict": {"kind": "method", "parameters": [{"name": "X", "kind": "POSITIONAL_OR_KEYWORD"}]}}"#,
        )
        .unwrap()
    }

    fn outcome_in(claim: &str, target: &str) -> (Outcome, String) {
        let doc = doc();
        let signatures = signatures();
        let stated = crate::llm::verdict::read_claims(Some(&serde_json::from_str(claim).unwrap()));
        assert_eq!(stated.len(), 1, "{claim}");
        let checked = check_claim(
            &stated[0],
            Evidence {
                summaries: Some(&doc),
                signatures: Some(&signatures),
                target: Some(target),
            },
        );
        (checked.outcome, checked.evidence)
    }

    fn outcome(claim: &str) -> Outcome {
        outcome_in(claim, "print(1)").0
    }

    use Outcome::{Confirmed, Refuted, Unknown};

    #[test]
    fn missing_column() {
        let claim = |o: &str, c: &str| {
            format!(r#"{{"claim": "missing_column", "object": "{o}", "column": "{c}"}}"#)
        };
        assert_eq!(
            outcome_in(&claim("df", "Age"), "x = 1"),
            (Refuted, "df has a column 'Age'".into())
        );
        assert_eq!(outcome(&claim("df", "Fare")), Confirmed);
        // Exact: a column that differs by a space or case is missing.
        assert_eq!(outcome(&claim("df", "Age ")), Confirmed);
        assert_eq!(outcome(&claim("df", "age")), Confirmed);
        // A cut column list, an unsummarized or failed object: unknown.
        assert_eq!(outcome(&claim("wide", "a")), Unknown);
        assert_eq!(outcome(&claim("wide", "b")), Unknown);
        assert_eq!(outcome(&claim("frame", "Age")), Unknown);
        assert_eq!(outcome(&claim("broken", "Age")), Unknown);
        // `df[0]` and `df['0']` both summarize as column "0".
        assert_eq!(outcome(&claim("df", "0")), Unknown);
    }

    #[test]
    fn claims_about_objects_the_target_changes_stay_unknown() {
        let claim = r#"{"claim": "missing_column", "object": "df", "column": "Age"}"#;
        assert_eq!(outcome_in(claim, "print(df['Age'])").0, Refuted);
        for target in [
            "df = df.drop(columns=['Age'])\ndf['Age']",
            "df['Age2'] = 1\ndf['Age']",
            "df.drop('Age', axis=1, inplace=True)\ndf['Age']",
            "df.columns = ['a', 'b', 'c', 'd']\ndf['Age']",
            "a, df = 1, other\ndf['Age']",
            "for df in frames:\n    df['Age']",
            "def f():\n    df = load()\n    return df['Age']",
            "del df\ndf['Age']",
            "df.pop('Age')\ndf['Age']",
        ] {
            assert_eq!(outcome_in(claim, target).0, Unknown, "{target}");
        }
        let fitted = r#"{"claim": "not_fitted", "object": "model"}"#;
        assert_eq!(outcome_in(fitted, "model.predict(X)").0, Refuted);
        assert_eq!(
            outcome_in(fitted, "model.fit(X, y)\nmodel.predict(X)").0,
            Unknown
        );
        // A comparison, a keyword argument or a mention in a comment changes nothing.
        for target in [
            "df == other",
            "f(df=1)",
            "x = df['Age']  # df = 2",
            "model.predict(df)",
        ] {
            assert_eq!(outcome_in(claim, target).0, Refuted, "{target}");
        }
    }

    #[test]
    fn missing_attribute() {
        let claim = |o: &str, a: &str| {
            format!(r#"{{"claim": "missing_attribute", "object": "{o}", "attribute": "{a}"}}"#)
        };
        assert_eq!(
            outcome_in(&claim("model", "coef_"), "").1,
            "the kernel has model.coef_"
        );
        assert_eq!(outcome(&claim("model", "coef_")), Refuted);
        assert_eq!(outcome(&claim("model", "nope")), Confirmed);
        assert_eq!(outcome(&claim("model", "predict")), Refuted);
        assert_eq!(outcome(&claim("model", "dropp")), Confirmed);
        // A frame's column reads as an attribute.
        assert_eq!(outcome(&claim("df", "Sex")), Refuted);
        // A module `__getattr__` the kernel did not call may still provide it; nothing asked.
        assert_eq!(outcome(&claim("np", "nope")), Unknown);
        assert_eq!(outcome(&claim("model", "intercept_")), Unknown);
    }

    #[test]
    fn bad_keyword() {
        let claim = |c: &str, k: &str| {
            format!(r#"{{"claim": "bad_keyword", "callable": "{c}", "keyword": "{k}"}}"#)
        };
        assert_eq!(outcome(&claim("df.drop", "inplace")), Refuted);
        assert_eq!(outcome(&claim("df.drop", "inplce")), Confirmed);
        // Positional-only is no keyword; `**kwargs` passes unknown ones on.
        assert_eq!(outcome(&claim("f", "a")), Confirmed);
        assert_eq!(outcome(&claim("g", "a")), Refuted);
        assert_eq!(outcome(&claim("g", "other")), Unknown);
        // Only the callable named, exactly.
        assert_eq!(outcome(&claim("drop", "inplace")), Unknown);
        assert_eq!(outcome(&claim("model.dropp", "x")), Unknown);
    }

    #[test]
    fn undefined_name() {
        let claim = |n: &str| format!(r#"{{"claim": "undefined_name", "name": "{n}"}}"#);
        assert_eq!(outcome(&claim("df")), Refuted);
        assert_eq!(outcome(&claim("ghost")), Confirmed);
        assert_eq!(outcome(&claim("broken")), Unknown);
        assert_eq!(outcome(&claim("elsewhere")), Unknown);
        // A name the target deletes or binds (in a function: UnboundLocalError) is not the
        // kernel's.
        assert_eq!(outcome_in(&claim("df"), "del df\nprint(df)").0, Unknown);
        assert_eq!(
            outcome_in(&claim("df"), "def f():\n    print(df)\n    df = 1\nf()").0,
            Unknown
        );
    }

    #[test]
    fn shape() {
        let claim =
            |o: &str, s: &str| format!(r#"{{"claim": "shape", "object": "{o}", "shape": {s}}}"#);
        assert_eq!(outcome(&claim("X", "[68, 58]")), Confirmed);
        assert_eq!(outcome(&claim("X", "[68, null]")), Confirmed);
        assert_eq!(
            outcome_in(&claim("X", "[68, 57]"), "").1,
            "X has shape (68, 58)"
        );
        assert_eq!(outcome(&claim("X", "[68, 57]")), Refuted);
        assert_eq!(outcome(&claim("X", "[68]")), Refuted);
        assert_eq!(outcome(&claim("y", "[17]")), Confirmed);
        assert_eq!(outcome(&claim("model", "[57]")), Unknown);
        assert_eq!(outcome(&claim("Z", "[1, 2]")), Unknown);
        assert_eq!(
            outcome_in(&claim("X", "[68, 57]"), "X = X[:, 1:]\nm.fit(X)").0,
            Unknown
        );
    }

    #[test]
    fn dtype() {
        let claim = |o: &str, c: &str, d: &str| {
            format!(r#"{{"claim": "dtype", "object": "{o}", "column": {c}, "dtype": "{d}"}}"#)
        };
        assert_eq!(outcome(&claim("df", r#""Sex""#, "object")), Confirmed);
        assert_eq!(outcome(&claim("df", r#""Sex""#, "str")), Confirmed);
        assert_eq!(
            outcome_in(&claim("df", r#""Age""#, "object"), "").1,
            "df['Age'] has dtype float64"
        );
        assert_eq!(outcome(&claim("df", r#""Age""#, "object")), Refuted);
        assert_eq!(outcome(&claim("df", r#""Age""#, "float")), Confirmed);
        assert_eq!(outcome(&claim("df", r#""Age""#, "numeric")), Confirmed);
        assert_eq!(outcome(&claim("df", r#""Sex""#, "numeric")), Refuted);
        assert_eq!(outcome(&claim("df", r#""PassengerId""#, "int")), Confirmed);
        assert_eq!(
            outcome(&claim("df", r#""PassengerId""#, "float64")),
            Refuted
        );
        assert_eq!(outcome(&claim("X", "null", "float32")), Confirmed);
        assert_eq!(outcome(&claim("y", "null", "int64")), Refuted);
        // Spellings we do not know, columns without a dtype: unknown.
        assert_eq!(outcome(&claim("df", r#""Age""#, "mixed")), Unknown);
        assert_eq!(outcome(&claim("df", r#""Fare""#, "object")), Unknown);
        assert_eq!(outcome(&claim("df", "null", "object")), Unknown);
    }

    #[test]
    fn has_nan() {
        let claim =
            |o: &str, c: &str| format!(r#"{{"claim": "has_nan", "object": "{o}", "column": {c}}}"#);
        assert_eq!(outcome(&claim("df", "null")), Confirmed);
        assert_eq!(outcome(&claim("df", r#""Age""#)), Confirmed);
        assert_eq!(
            outcome_in(&claim("df", r#""Sex""#), "").1,
            "df['Sex'] holds no NaN"
        );
        assert_eq!(outcome(&claim("df", r#""Sex""#)), Refuted);
        // Not in the (possibly cut) list of NaN columns and no values summarized: unknown.
        assert_eq!(outcome(&claim("df", r#""PassengerId""#)), Unknown);
        assert_eq!(outcome(&claim("clean", r#""a""#)), Refuted);
        assert_eq!(outcome(&claim("X", "null")), Refuted);
        assert_eq!(outcome(&claim("y", "null")), Confirmed);
        // Sampled values may miss a NaN.
        assert_eq!(outcome(&claim("big", "null")), Unknown);
        assert_eq!(outcome(&claim("odd", "null")), Unknown);
        assert_eq!(
            outcome_in(&claim("X", "null"), "X[0, 0] = float('nan')\nm.fit(X)").0,
            Unknown
        );
    }

    #[test]
    fn not_fitted() {
        let claim = |o: &str| format!(r#"{{"claim": "not_fitted", "object": "{o}"}}"#);
        assert_eq!(outcome(&claim("model")), Refuted);
        assert_eq!(outcome(&claim("raw")), Confirmed);
        assert_eq!(outcome(&claim("odd")), Unknown);
        assert_eq!(outcome(&claim("nobody")), Unknown);
    }

    fn answer(detection: bool, line: Option<u32>, claims: &str) -> String {
        format!(
            r#"{{"reasoning": "Because.", "detection": {detection}, "line": {}, "claims": [{claims}]}}"#,
            line.map_or("null".into(), |l| l.to_string())
        )
    }

    fn judge(answers: &[String], target: &str) -> Judgement {
        let doc = doc();
        judge_answers(
            answers,
            Evidence {
                summaries: Some(&doc),
                signatures: None,
                target: Some(target),
            },
        )
        .unwrap()
    }

    const AGE_MISSING: &str = r#"{"claim": "missing_column", "object": "df", "column": "Age"}"#;
    const FARE_MISSING: &str = r#"{"claim": "missing_column", "object": "df", "column": "Fare"}"#;

    #[test]
    fn each_answer_is_checked_and_votes_after_its_own_claims() {
        let target = "x = 1\ny = df['Age'] + df['Fare']";
        // Two of three crash answers rest on a refuted claim: one crash vote of four is left. The
        // no-crash answer's refuted claim is no reason.
        let j = judge(
            &[
                answer(true, None, AGE_MISSING),
                answer(true, None, FARE_MISSING),
                answer(true, None, AGE_MISSING),
                answer(false, None, r#"{"claim": "not_fitted", "object": "model"}"#),
            ],
            target,
        );
        assert!(j.vote.detection && !j.detection && j.downgraded);
        assert_eq!(
            j.reason.as_deref(),
            Some("The LLM's crash verdict rests on a claim the kernel's facts refute: “df has no column 'Age'”, but df has a column 'Age'.")
        );
        assert_eq!(j.claims.len(), 3);
        // Twin: only one answer's claim is refuted; two crash votes of three stay.
        let j = judge(
            &[
                answer(true, None, FARE_MISSING),
                answer(true, None, FARE_MISSING),
                answer(true, None, AGE_MISSING),
            ],
            target,
        );
        assert!(j.detection && !j.downgraded && j.reason.is_none());
        // The crash line comes from the decisive claim: the line quoting 'Fare'.
        assert_eq!((j.line, j.line_source), (Some(2), Some(LineSource::Claim)));
    }

    #[test]
    fn answers_without_claims_are_never_downgraded() {
        let target = "df['Age']";
        let j = judge(
            &[
                r#"{"reasoning": "df has no column 'Age'", "detection": true}"#.to_string(),
                answer(true, Some(1), ""),
            ],
            target,
        );
        assert!(j.detection && !j.downgraded && j.claims.is_empty());
        assert_eq!((j.line, j.line_source), (Some(1), Some(LineSource::Answer)));
        // A no-crash answer's refuted claim changes nothing.
        let j = judge(&[answer(false, None, AGE_MISSING)], target);
        assert!(!j.detection && !j.downgraded);
        assert_eq!(j.claims[0].outcome, Refuted);
    }

    #[test]
    fn locates_the_line_a_claim_names() {
        let target = "import x\nm = df.mean()  # 'Fare'\nv = df[\"Fare\"]\nmodel.coef_\nf(a, inplce=True)\nprint(X)\nundefined_thing + 1";
        let at = |claim: &str| {
            locate(
                &crate::llm::verdict::read_claims(Some(&serde_json::from_str(claim).unwrap()))[0],
                target,
            )
        };
        assert_eq!(at(FARE_MISSING), Some(3));
        assert_eq!(
            at(r#"{"claim": "missing_attribute", "object": "model", "attribute": "coef_"}"#),
            Some(4)
        );
        assert_eq!(
            at(r#"{"claim": "missing_attribute", "object": "model", "attribute": "coef"}"#),
            None
        );
        assert_eq!(
            at(r#"{"claim": "bad_keyword", "callable": "f", "keyword": "inplce"}"#),
            Some(5)
        );
        assert_eq!(
            at(r#"{"claim": "shape", "object": "X", "shape": [1]}"#),
            Some(6)
        );
        // df is used on two lines: which one crashes is not said.
        assert_eq!(
            at(r#"{"claim": "has_nan", "object": "df", "column": null}"#),
            None
        );
        assert_eq!(
            at(r#"{"claim": "undefined_name", "name": "undefined_thing"}"#),
            Some(7)
        );
        assert_eq!(
            at(r#"{"claim": "undefined_name", "name": "nowhere"}"#),
            None
        );
    }
}
