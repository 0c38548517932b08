//! Kernel summaries of live objects, as documented in `docs/summary-schema.md`.
//!
//! Facts stay loosely typed (JSON values grouped by the paper's S / R / V categories) because the
//! kernel may add facts at any time; the accessors below read the ones the rules rely on and answer
//! `None` whenever a fact is missing or has an unexpected shape, so a rule stays silent.

use std::collections::BTreeMap;
use std::fmt::Display;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryDoc {
    #[serde(default)]
    pub schema: u32,
    /// The kernel ran out of time: names missing from `objects` were not summarized.
    #[serde(default)]
    pub partial: bool,
    #[serde(default)]
    pub objects: BTreeMap<String, ObjectSummary>,
}

/// The paper's categories of runtime facts (CRANE-LLM §3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Category {
    /// Structural: shapes, lengths, counts.
    S,
    /// Representation and type: dtypes, schemas, classes.
    R,
    /// Value semantics: NaN presence, ranges, examples, fitted state.
    V,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ObjectSummary {
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(rename = "S", default, skip_serializing_if = "Map::is_empty")]
    pub structural: Map<String, Value>,
    #[serde(rename = "R", default, skip_serializing_if = "Map::is_empty")]
    pub representation: Map<String, Value>,
    #[serde(rename = "V", default, skip_serializing_if = "Map::is_empty")]
    pub value: Map<String, Value>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sampled: bool,
    /// Why there is no summary: a code (`undefined`, `no_attribute`, ...), with `failure`'s fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(flatten)]
    pub failure: FailureFields,
}

/// The fields that come with a kernel error code (docs/summary-schema.md, "Errors"); the kernel
/// sends codes and fields, sentences are made here.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FailureFields {
    /// `module 'numpy'`, `'DataFrame' object`, `type object 'SVC'`: what the lookup was on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<String>,
    /// The library's own word on a removed attribute (numpy's "Use `np.nan` instead.").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// `not_evaluated`: `dynamic` (a `__getattr__`) or the descriptor's class (`property`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `raised`: the exception's class and, when it was a plain string, its message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl FailureFields {
    /// The fields of a kernel answer given as JSON (a `signature` answer); defaults when absent.
    pub fn of(answer: &Value) -> FailureFields {
        serde_json::from_value(answer.clone()).unwrap_or_default()
    }

    /// Python's own message when error `code` says looking `attr` up certainly failed
    /// (`module 'numpy' has no attribute 'float': <numpy's hint>`); not for `not_loaded` (a
    /// module `__getattr__` that was not called may provide it) nor `not_evaluated`.
    pub fn certain_missing(&self, code: &str, attr: &str) -> Option<String> {
        if code != "no_attribute" || self.attribute.as_deref() != Some(attr) {
            return None;
        }
        let owner = self.owner.as_deref()?;
        let mut message = format!("{owner} has no attribute '{attr}'");
        if let Some(hint) = &self.hint {
            message.push_str(&format!(": {hint}"));
        }
        Some(message)
    }

    /// A sentence for people (and prompts) for error `code`.
    pub fn sentence(&self, code: &str) -> String {
        let owner = self.owner.as_deref().unwrap_or("the object");
        let attribute = self.attribute.as_deref().unwrap_or("?");
        match code {
            "undefined" => "not defined in the kernel".into(),
            "no_attribute" => match self.certain_missing(code, attribute) {
                Some(message) => format!("AttributeError: {message}"),
                None => format!("AttributeError: {owner} has no attribute '{attribute}'"),
            },
            "not_loaded" => format!(
                "{owner} has no loaded attribute '{attribute}' (its module __getattr__ was not called)"
            ),
            "not_evaluated" => format!(
                "{owner}.{attribute} was not evaluated (a {}: user code)",
                self.reason.as_deref().unwrap_or("dynamic attribute")
            ),
            "raised" => match (&self.exception, &self.message) {
                (Some(exception), Some(message)) => format!("{exception}: {message}"),
                (Some(exception), None) => format!("{exception} raised"),
                _ => "summarizing it raised an exception".into(),
            },
            "deadline" => "not summarized: the kernel's time budget ran out".into(),
            other => other.to_string(),
        }
    }
}

impl ObjectSummary {
    pub fn facts(&self, category: Category) -> &Map<String, Value> {
        match category {
            Category::S => &self.structural,
            Category::R => &self.representation,
            Category::V => &self.value,
        }
    }

    pub fn facts_mut(&mut self, category: Category) -> &mut Map<String, Value> {
        match category {
            Category::S => &mut self.structural,
            Category::R => &mut self.representation,
            Category::V => &mut self.value,
        }
    }

    pub fn is_kind(&self, kind: &str) -> bool {
        self.kind == kind
    }

    pub fn shape(&self) -> Option<Vec<i64>> {
        self.structural
            .get("shape")?
            .as_array()?
            .iter()
            .map(Value::as_i64)
            .collect()
    }

    /// The complete column list of a frame; `None` when unknown or cut to fit the size cap.
    pub fn complete_columns(&self) -> Option<Vec<&str>> {
        if self.representation.get("columns_complete") == Some(&Value::Bool(false)) {
            return None;
        }
        self.representation
            .get("columns")?
            .as_array()?
            .iter()
            .map(Value::as_str)
            .collect()
    }

    /// The names of a frame's index levels (`index_names`: each a str, or null for an unnamed
    /// level); `None` when not reported (older summaries, a name that is no str).
    pub fn index_names(&self) -> Option<Vec<Option<String>>> {
        self.representation
            .get("index_names")?
            .as_array()?
            .iter()
            .map(|n| match n {
                Value::Null => Some(None),
                Value::String(s) => Some(Some(s.clone())),
                _ => None,
            })
            .collect()
    }

    /// The whole key set of a dict, every key a str (`keys` with `keys_complete`).
    pub fn complete_keys(&self) -> Option<Vec<&str>> {
        if self.representation.get("keys_complete") != Some(&Value::Bool(true)) {
            return None;
        }
        self.str_list_fact(Category::R, "keys")
    }

    /// The elements of a short list or tuple of plain values (`items`: str, int or null).
    pub fn items(&self) -> Option<&Vec<Value>> {
        self.value.get("items")?.as_array()
    }

    pub fn dtype_of_column(&self, column: &str) -> Option<&str> {
        self.representation.get("dtypes")?.get(column)?.as_str()
    }

    pub fn column_values(&self, column: &str) -> Option<&Map<String, Value>> {
        self.value.get("column_values")?.get(column)?.as_object()
    }

    pub fn has_nan(&self) -> Option<bool> {
        self.value.get("has_nan")?.as_bool()
    }

    pub fn fitted(&self) -> Option<bool> {
        self.value.get("fitted")?.as_bool()
    }

    /// Python's message when looking `attr` up (the end of this object's path) certainly
    /// failed; not when a module `__getattr__` the kernel did not call, or a user class's dynamic
    /// attribute it did not evaluate, may still provide it.
    pub fn missing_attribute(&self, attr: &str) -> Option<String> {
        self.failure.certain_missing(self.error.as_deref()?, attr)
    }

    /// The error as a sentence, when there is one.
    pub fn error_sentence(&self) -> Option<String> {
        Some(self.failure.sentence(self.error.as_deref()?))
    }

    pub fn int_fact(&self, category: Category, key: &str) -> Option<i64> {
        self.facts(category).get(key)?.as_i64()
    }

    pub fn str_fact(&self, category: Category, key: &str) -> Option<&str> {
        self.facts(category).get(key)?.as_str()
    }

    pub fn str_list_fact(&self, category: Category, key: &str) -> Option<Vec<&str>> {
        self.facts(category)
            .get(key)?
            .as_array()?
            .iter()
            .map(Value::as_str)
            .collect()
    }
}

/// How a parameter binds arguments (`inspect.Parameter.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    PositionalOnly,
    PositionalOrKeyword,
    VarPositional,
    KeywordOnly,
    VarKeyword,
}

/// One entry of a `parameters` list: a callable's `R` facts or a `signature` answer
/// (docs/summary-schema.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter<'a> {
    pub name: &'a str,
    pub kind: ParameterKind,
    pub has_default: bool,
}

/// Reads a `parameters` list; `None` when any entry is not as the schema says.
pub fn parameters(list: &Value) -> Option<Vec<Parameter<'_>>> {
    list.as_array()?
        .iter()
        .map(|param| {
            let kind = match param.get("kind")?.as_str()? {
                "POSITIONAL_ONLY" => ParameterKind::PositionalOnly,
                "POSITIONAL_OR_KEYWORD" => ParameterKind::PositionalOrKeyword,
                "VAR_POSITIONAL" => ParameterKind::VarPositional,
                "KEYWORD_ONLY" => ParameterKind::KeywordOnly,
                "VAR_KEYWORD" => ParameterKind::VarKeyword,
                _ => return None,
            };
            Some(Parameter {
                name: param.get("name")?.as_str()?,
                kind,
                has_default: param.get("default").is_some(),
            })
        })
        .collect()
}

/// Python's text of a tuple, as shapes print: `(891, 12)`, `(3,)`, `()`.
pub fn tuple_text<T: Display>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|item| item.to_string()).collect();
    match items.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// A shape whose unknown dimensions print as `?`: `(?, 3)`.
pub fn shape_text(dims: &[Option<i64>]) -> String {
    tuple_text(
        dims.iter()
            .map(|d| d.map_or("?".to_string(), |d| d.to_string())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_example() {
        let doc: SummaryDoc = serde_json::from_str(
            r#"{"schema": 1, "partial": false, "objects": {
                "df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
                       "S": {"shape": [891, 12]},
                       "R": {"columns": ["Age", "Sex"], "dtypes": {"Age": "float64"}},
                       "V": {"has_nan": true, "column_values": {"Age": {"kind": "continuous"}}}},
                "ghost": {"error": "undefined"}}}"#,
        )
        .unwrap();
        let df = &doc.objects["df"];
        assert_eq!(df.shape(), Some(vec![891, 12]));
        assert_eq!(df.complete_columns(), Some(vec!["Age", "Sex"]));
        assert_eq!(df.dtype_of_column("Age"), Some("float64"));
        assert_eq!(df.has_nan(), Some(true));
        assert_eq!(df.column_values("Age").unwrap()["kind"], "continuous");
        assert_eq!(doc.objects["ghost"].error.as_deref(), Some("undefined"));
    }

    #[test]
    fn errors_are_codes_with_fields() {
        let doc: SummaryDoc = serde_json::from_str(
            r#"{"schema": 1, "objects": {
                "np.NaN": {"error": "no_attribute", "owner": "module 'numpy'", "attribute": "NaN",
                           "hint": "Use `np.nan` instead."},
                "np.nope": {"error": "not_loaded", "owner": "module 'numpy'", "attribute": "nope"},
                "obj.x": {"error": "not_evaluated", "owner": "'Holder' object", "attribute": "x",
                          "reason": "property"},
                "bad": {"type": "torch.Tensor", "error": "raised", "exception": "ZeroDivisionError",
                        "message": "division by zero"}}}"#,
        )
        .unwrap();
        let nan = &doc.objects["np.NaN"];
        assert_eq!(
            nan.missing_attribute("NaN").as_deref(),
            Some("module 'numpy' has no attribute 'NaN': Use `np.nan` instead.")
        );
        assert_eq!(nan.missing_attribute("nan"), None);
        assert_eq!(doc.objects["np.nope"].missing_attribute("nope"), None);
        assert_eq!(doc.objects["obj.x"].missing_attribute("x"), None);
        assert_eq!(
            doc.objects["obj.x"].error_sentence().as_deref(),
            Some("'Holder' object.x was not evaluated (a property: user code)")
        );
        assert_eq!(
            doc.objects["bad"].error_sentence().as_deref(),
            Some("ZeroDivisionError: division by zero")
        );
        let answer = serde_json::json!({"error": "no_attribute", "owner": "'DataFrame' object",
                                        "attribute": "dropp"});
        assert_eq!(
            FailureFields::of(&answer)
                .certain_missing("no_attribute", "dropp")
                .as_deref(),
            Some("'DataFrame' object has no attribute 'dropp'")
        );
    }

    #[test]
    fn a_cut_column_list_is_not_complete() {
        let df: ObjectSummary = serde_json::from_str(
            r#"{"kind": "dataframe", "R": {"columns": ["a"], "columns_complete": false}}"#,
        )
        .unwrap();
        assert_eq!(df.complete_columns(), None);
    }
}
