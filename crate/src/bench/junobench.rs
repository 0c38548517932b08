//! The JunoBench harness: reads cases in the format of `shared/junobench/dev.jsonl`, converts the
//! paper's runtime summaries into cellguard's summary schema, analyzes each version's target cell
//! and scores the predictions (a version is predicted to crash when any error is reported).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::check::CellReport;
use crate::diagnostic::{Severities, Severity};
use crate::semantics::abstract_value::normalize_type;
use crate::summary::{ObjectSummary, SummaryDoc, SCHEMA_VERSION};

#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    pub id: String,
    pub instance: String,
    pub library_group: String,
    #[serde(default)]
    pub version: String,
    pub crash: bool,
    pub executed_cells: Vec<String>,
    pub target_cell: String,
    #[serde(default)]
    pub runtime_info: Value,
    #[serde(default)]
    pub diagnosis_label: Option<String>,
}

/// The kind of an object from its type name (the paper writes `numpy.ndarray` or `<class 'list'>`).
fn kind_of(type_name: &str, obj: &Map<String, Value>) -> &'static str {
    let t = type_name;
    let last = t.rsplit('.').next().unwrap_or(t);
    if t == "pandas.core.frame.DataFrame" {
        "dataframe"
    } else if t == "pandas.core.series.Series" {
        "series"
    } else if t == "numpy.ndarray" {
        "ndarray"
    } else if t == "torch.Tensor" {
        "tensor"
    } else if t == "tensorflow.python.framework.ops.EagerTensor" {
        "tf_tensor"
    } else if t == "sklearn.preprocessing._label.LabelEncoder" {
        "label_encoder"
    } else if t.starts_with("sklearn.") && obj.contains_key("is_fitted") {
        "estimator"
    } else if t.starts_with("keras.") && matches!(last, "Sequential" | "Functional" | "Model") {
        "keras_model"
    } else if matches!(
        last,
        "DataFrameIterator" | "DirectoryIterator" | "NumpyArrayIterator"
    ) {
        "keras_iterator"
    } else if t.starts_with("tensorflow.") && t.contains("Dataset") {
        "tf_dataset"
    } else if t == "torch.utils.data.dataloader.DataLoader" {
        "dataloader"
    } else if torch_module_class(t) {
        "torch_module"
    } else {
        match t {
            "list" | "tuple" | "set" | "dict" | "str" | "int" | "float" | "bool" => {
                // Leak-free: match returns a &'static str from the literal patterns.
                match t {
                    "list" => "list",
                    "tuple" => "tuple",
                    "set" => "set",
                    "dict" => "dict",
                    "str" => "str",
                    "int" => "int",
                    "float" => "float",
                    _ => "bool",
                }
            }
            "NoneType" => "none",
            "module" => "module",
            "type" | "abc.ABCMeta" => "class",
            "function" | "builtin_function_or_method" | "method" => "callable",
            _ => "object",
        }
    }
}

/// Classes that are certainly `torch.nn.Module`s: those of `torch.nn.modules`, and the PyTorch
/// models of transformers (`transformers.models.bert.modeling_bert.BertModel`; the TensorFlow and
/// Flax ones live in `modeling_tf_*` and `modeling_flax_*`, the output dataclasses end in `Output`).
fn torch_module_class(t: &str) -> bool {
    let Some((module, class)) = t.rsplit_once('.') else {
        return false;
    };
    let public_class = class.starts_with(|c: char| c.is_ascii_uppercase());
    if module.starts_with("torch.nn.modules.") {
        return public_class;
    }
    let Some(file) = module
        .strip_prefix("transformers.models.")
        .and_then(|m| m.split('.').nth(1))
    else {
        return false;
    };
    file.starts_with("modeling_")
        && !file.starts_with("modeling_tf_")
        && !file.starts_with("modeling_flax_")
        && public_class
        && (class.ends_with("Model") || class.contains("For"))
        && !class.ends_with("Output")
}

/// The shapes of a dict's TensorFlow tensors, from the paper's preview of its items
/// (`{"key": "input_ids", "value_repr": "<tf.Tensor: shape=(8, 172), dtype=int32, ..."}`).
fn value_shapes(preview: &Value) -> Option<Value> {
    let mut shapes = Map::new();
    for item in preview.as_array()? {
        let (Some(key), Some(repr)) = (
            item.get("key").and_then(Value::as_str),
            item.get("value_repr").and_then(Value::as_str),
        ) else {
            continue;
        };
        let Some(dims) = repr
            .strip_prefix("<tf.Tensor: shape=(")
            .and_then(|r| r.split_once(')'))
            .map(|(dims, _)| dims)
        else {
            continue;
        };
        let dims: Option<Vec<Value>> = dims
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(|d| match d {
                "None" => Some(Value::Null),
                _ => d.parse::<i64>().ok().map(Value::from),
            })
            .collect();
        if let Some(dims) = dims {
            shapes.insert(key.to_string(), Value::Array(dims));
        }
    }
    (!shapes.is_empty()).then_some(Value::Object(shapes))
}

/// Per-column facts of the paper (`type`, `num_unique`, `value_range`, `example_values`,
/// `unique_values`) in our `values` form.
fn column_values(paper: &Value) -> Value {
    let mut v = Map::new();
    if let Some(k) = paper.get("type").or_else(|| paper.get("value_type")) {
        v.insert("kind".into(), k.clone());
    }
    if let Some(n) = paper.get("num_unique") {
        v.insert("unique".into(), n.clone());
    }
    if let Some(r) = paper.get("value_range").filter(|r| r.is_array()) {
        v.insert("range".into(), r.clone());
    }
    let mut examples = Vec::new();
    for key in ["example_values", "unique_values"] {
        if let Some(list) = paper.get(key).and_then(Value::as_array) {
            examples.extend(list.iter().cloned());
        }
    }
    if !examples.is_empty() {
        v.insert("examples".into(), Value::Array(examples));
    }
    Value::Object(v)
}

/// One object of the paper's runtime summary, in cellguard's schema. Only facts the paper recorded
/// are carried over.
pub fn convert_object(paper: &Map<String, Value>) -> ObjectSummary {
    let raw_type = paper.get("type").and_then(Value::as_str).unwrap_or("");
    let type_name = normalize_type(raw_type).to_string();
    let kind = kind_of(&type_name, paper).to_string();
    let mut o = ObjectSummary {
        type_name,
        kind: kind.clone(),
        ..Default::default()
    };
    let get = |k: &str| paper.get(k).cloned();
    match kind.as_str() {
        "dataframe" => {
            if let Some(s) = get("shape") {
                o.structural.insert("shape".into(), s);
            }
            if let Some(pc) = paper.get("per_column").and_then(Value::as_object) {
                let cols: Vec<Value> = pc.keys().map(|k| Value::String(k.clone())).collect();
                let n = paper
                    .get("shape")
                    .and_then(|s| s.get(1))
                    .and_then(Value::as_i64);
                o.representation.insert(
                    "columns_complete".into(),
                    Value::Bool(n == Some(cols.len() as i64)),
                );
                o.representation
                    .insert("columns".into(), Value::Array(cols));
                let values: Map<String, Value> = pc
                    .iter()
                    .map(|(k, v)| (k.clone(), column_values(v)))
                    .collect();
                o.value
                    .insert("column_values".into(), Value::Object(values));
            }
            if let Some(d) = get("dtypes") {
                // The paper lists the distinct dtypes, not one per column.
                o.representation.insert("dtype_set".into(), d);
            }
            if let Some(h) = get("has_nan").filter(Value::is_boolean) {
                o.value.insert("has_nan".into(), h);
            }
        }
        "series" => {
            if let Some(vi) = paper.get("value_info") {
                if let Value::Object(m) = column_values(vi) {
                    o.value.extend(m);
                }
            }
            if let Some(h) = get("has_nan").filter(Value::is_boolean) {
                o.value.insert("has_nan".into(), h);
            }
        }
        "ndarray" | "tensor" | "tf_tensor" => {
            if let Some(s) = get("shape") {
                o.structural.insert("shape".into(), s);
            }
            for k in ["dtype", "device"] {
                if let Some(v) = get(k) {
                    o.representation.insert(k.into(), v);
                }
            }
            if let Some(h) = get("has_nan").filter(Value::is_boolean) {
                o.value.insert("has_nan".into(), h);
            }
            if let Some(r) = get("value_range").filter(Value::is_array) {
                o.value.insert("range".into(), r);
            }
            if let Some(vi) = paper.get("value_info") {
                if let Some(n) = vi.get("num_unique").filter(|v| v.is_i64()) {
                    o.value.insert("unique".into(), n.clone());
                }
                if let Some(u) = vi.get("unique_values").filter(|v| v.is_array()) {
                    o.value.insert("unique_values".into(), u.clone());
                }
            }
        }
        "estimator" | "label_encoder" => {
            if let Some(fa) = paper.get("fitted_attributes").and_then(Value::as_object) {
                if let Some(n) = fa.get("n_features_in_").filter(|v| v.is_i64()) {
                    o.structural.insert("n_features_in".into(), n.clone());
                }
                if let Some(n) = fa.get("n_outputs_").filter(|v| v.is_i64()) {
                    o.structural.insert("n_outputs".into(), n.clone());
                }
            }
            if let Some(f) = get("is_fitted").filter(Value::is_boolean) {
                o.value.insert("fitted".into(), f);
            }
            if let Some(n) = get("n_classes") {
                o.structural.insert("n_classes".into(), n);
            }
            if let Some(d) = get("classes_dtype") {
                o.representation.insert("classes_dtype".into(), d);
            }
        }
        "keras_iterator" => {
            for k in ["samples", "batch_size", "image_shape"] {
                if let Some(v) = get(k) {
                    o.structural.insert(k.into(), v);
                }
            }
            if let Some(v) = get("class_mode") {
                o.representation.insert("class_mode".into(), v);
            }
            if let Some(v) = get("num_classes") {
                o.value.insert("num_classes".into(), v);
            }
        }
        "tf_dataset" => {
            if let Some(v) = get("element_spec") {
                o.representation.insert("element_spec".into(), v);
            }
        }
        "dataloader" => {
            for (from, to) in [
                ("batch_size", "batch_size"),
                ("num_batches", "num_batches"),
                ("num_examples", "num_examples"),
            ] {
                if let Some(v) = get(from) {
                    o.structural.insert(to.into(), v);
                }
            }
            // The paper collated a few (input, label) samples with the loader: `batch[0]` the
            // inputs, `batch[1]` the labels (an error there leaves no shapes). Kept when the
            // inputs are the samples' inputs stacked.
            let dataset = paper.get("dataset");
            let shapes = dataset
                .and_then(|d| d.get("batch_shapes"))
                .and_then(Value::as_object);
            let inputs = dataset
                .and_then(|d| d.get("sample_shapes"))
                .and_then(|s| s.get("input"))
                .and_then(Value::as_array);
            if let (Some(shapes), Some(inputs)) = (shapes, inputs) {
                let pair = (shapes.len() == 2)
                    .then(|| Some((shapes.get("batch[0]")?, shapes.get("batch[1]")?)))
                    .flatten();
                let stacked = pair.is_some_and(|(x, _)| {
                    x.as_array().is_some_and(|d| {
                        d.len() > 1
                            && inputs
                                .iter()
                                .any(|i| i.as_array() == Some(&d[1..].to_vec()))
                    })
                });
                if let (Some((x, y)), true) = (pair, stacked) {
                    o.structural.insert(
                        "batch_shapes".into(),
                        Value::Array(vec![x.clone(), y.clone()]),
                    );
                }
            }
        }
        "list" | "tuple" | "set" | "dict" => {
            if let Some(v) = get("length") {
                o.structural.insert("length".into(), v);
            }
            if let Some(shapes) = paper.get("preview").and_then(value_shapes) {
                o.structural.insert("value_shapes".into(), shapes);
            }
            if let Some(v) = get("preview") {
                o.value.insert("preview".into(), v);
            }
        }
        "str" | "int" | "float" | "bool" => {
            if let Some(v) = get("value") {
                o.value.insert("value".into(), v);
            }
        }
        _ => {}
    }
    o
}

/// The paper's whole runtime summary; `__method__*` entries (types of looked-up attributes) are
/// left out.
pub fn convert_runtime_info(info: &Value) -> SummaryDoc {
    let mut doc = SummaryDoc {
        schema: SCHEMA_VERSION,
        partial: false,
        objects: Default::default(),
    };
    if let Some(map) = info.as_object() {
        for (name, obj) in map {
            if name.starts_with("__method__") {
                continue;
            }
            if let Some(obj) = obj.as_object() {
                doc.objects.insert(name.clone(), convert_object(obj));
            }
        }
    }
    doc
}

/// The report on one version of a case: the executed cells are the history, the kernel names are
/// those the executed cells define plus the summarized ones.
pub fn analyze_case(case: &Case) -> CellReport {
    let summaries = convert_runtime_info(&case.runtime_info);
    analyze(&case.executed_cells, &case.target_cell, &summaries)
}

/// The report on one version of a case with no kernel to ask (its runtime summaries left out),
/// as `cellguard check` sees a saved notebook: the executed cells' code is all there is.
pub fn analyze_offline(case: &Case) -> CellReport {
    let severities = Severities::new();
    let input =
        crate::check::CheckInput::offline(&case.executed_cells, &case.target_cell, &severities);
    crate::check::check_cell(&input)
}

/// Runs `check_cell` (the extension's entry point) on a target cell: the executed cells are both the
/// notebook and the history; the kernel names are those the executed cells define plus the
/// summarized ones (unknown after a star import, `%run`, `exec`, ...).
pub fn analyze(executed: &[String], target: &str, summaries: &SummaryDoc) -> CellReport {
    let mut cache = crate::check::CellCache::default();
    let mut namespace = crate::order::Namespace::default();
    for cell in executed {
        let analysed = cache.analyse(cell);
        let cell = analysed.as_run(&namespace);
        namespace.run(&cell.facts, cell.rule_facts().binds_unseen_names);
    }
    let names: Option<Vec<String>> = namespace.names().map(|defined| {
        let summarized = summaries
            .objects
            .iter()
            .filter(|(_, o)| o.error.is_none())
            .map(|(n, _)| n);
        defined
            .iter()
            .chain(summarized)
            .cloned()
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect()
    });
    let input = crate::check::CheckInput {
        cells: executed,
        target_source: target,
        target_index: None,
        history: executed,
        history_raised: &[],
        kernel_names: names.as_deref(),
        summaries: Some(summaries),
        severities: &Severities::new(),
    };
    crate::check::check_cell(&input)
}

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counts {
    pub tp: u32,
    pub fp: u32,
    #[serde(rename = "fn")]
    pub fn_: u32,
    pub tn: u32,
}

impl Counts {
    pub fn add(&mut self, crash: bool, predicted: bool) {
        match (crash, predicted) {
            (true, true) => self.tp += 1,
            (false, true) => self.fp += 1,
            (true, false) => self.fn_ += 1,
            (false, false) => self.tn += 1,
        }
    }

    fn ratio(a: u32, b: u32) -> f64 {
        if b == 0 {
            0.0
        } else {
            a as f64 / b as f64
        }
    }

    pub fn to_json(&self) -> Value {
        let p = Self::ratio(self.tp, self.tp + self.fp);
        let r = Self::ratio(self.tp, self.tp + self.fn_);
        let f1 = if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        };
        let acc = Self::ratio(self.tp + self.tn, self.tp + self.tn + self.fp + self.fn_);
        json!({"tp": self.tp, "fp": self.fp, "fn": self.fn_, "tn": self.tn,
               "precision": p, "recall": r, "f1": f1, "accuracy": acc})
    }
}

pub struct BenchResult {
    pub overall: Counts,
    pub by_group: BTreeMap<String, Counts>,
    pub cases: Vec<(Case, CellReport)>,
}

/// Scores the rules on `cases`, with the kernel's summaries, or `offline` without them.
pub fn run(cases: Vec<Case>, offline: bool) -> BenchResult {
    let mut overall = Counts::default();
    let mut by_group: BTreeMap<String, Counts> = BTreeMap::new();
    let mut out = Vec::new();
    for case in cases {
        let report = if offline {
            analyze_offline(&case)
        } else {
            analyze_case(&case)
        };
        let p = report.crash_predicted;
        overall.add(case.crash, p);
        by_group
            .entry(case.library_group.clone())
            .or_default()
            .add(case.crash, p);
        out.push((case, report));
    }
    BenchResult {
        overall,
        by_group,
        cases: out,
    }
}

impl BenchResult {
    /// `{"overall": {...}, "by_group": {...}, "cases": [{"instance", "crash", "predicted", "diagnostics"}]}`
    pub fn to_json(&self) -> Value {
        json!({
            "overall": self.overall.to_json(),
            "by_group": self.by_group.iter().map(|(g, c)| (g.clone(), c.to_json())).collect::<Map<String, Value>>(),
            "cases": self.cases.iter().map(|(c, report)| json!({
                "instance": c.instance,
                "crash": c.crash,
                "predicted": report.crash_predicted,
                "diagnostics": report.diagnostics,
            })).collect::<Vec<_>>(),
        })
    }

    pub fn report(&self) -> String {
        let mut s = String::new();
        let line = |name: &str, c: &Counts| {
            let j = c.to_json();
            format!(
                "{name:<12} TP {:>3}  FP {:>3}  FN {:>3}  TN {:>3}  precision {:>5.1}%  recall {:>5.1}%  F1 {:>5.1}%  accuracy {:>5.1}%\n",
                c.tp,
                c.fp,
                c.fn_,
                c.tn,
                j["precision"].as_f64().unwrap_or(0.0) * 100.0,
                j["recall"].as_f64().unwrap_or(0.0) * 100.0,
                j["f1"].as_f64().unwrap_or(0.0) * 100.0,
                j["accuracy"].as_f64().unwrap_or(0.0) * 100.0
            )
        };
        s.push_str(&line("overall", &self.overall));
        for (g, c) in &self.by_group {
            s.push_str(&line(g, c));
        }
        s.push_str("\nWrong predictions:\n");
        for (case, report) in &self.cases {
            let p = report.crash_predicted;
            if p == case.crash {
                continue;
            }
            s.push_str(&format!(
                "  {} {} ({})\n",
                if p { "FP" } else { "FN" },
                case.instance,
                case.library_group
            ));
            for d in report
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
            {
                s.push_str(&format!("      [{}] {}\n", d.code, d.message));
            }
        }
        s
    }
}

pub fn read_cases(text: &str) -> Result<Vec<Case>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// `cellguard bench CASES.jsonl [--json OUT]`: the rules' scores; 2 when a file cannot be read or
/// written.
pub fn cli(path: &str, json_out: Option<&str>, offline: bool) -> u8 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return 2;
        }
    };
    let cases = match read_cases(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{path}: {e}");
            return 2;
        }
    };
    let result = run(cases, offline);
    out!("{}", result.report());
    if let Some(out) = json_out {
        let body = serde_json::to_string_pretty(&result.to_json()).unwrap_or_default();
        if let Err(e) = std::fs::write(out, body) {
            eprintln!("cannot write {out}: {e}");
            return 2;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_a_frame_with_its_complete_columns() {
        let info: Value = serde_json::from_str(
            r#"{"df": {"has_nan": false, "per_column": {"Age": {"num_unique": 66, "type": "continuous", "value_range": [1, 80]},
                        "Sex": {"num_unique": 2, "type": "categorical", "unique_values": ["male", "female"]}},
                        "shape": [891, 2], "type": "pandas.core.frame.DataFrame"},
                "cut": {"per_column": {"a": {"type": "continuous"}}, "shape": [3, 40], "type": "pandas.core.frame.DataFrame"},
                "__method__df_drop": {"type": "<class 'method'>"},
                "np": {"type": "<class 'module'>"},
                "y": {"type": "<class 'pandas.core.series.Series'>", "value_info": {"num_unique": 2, "unique_values": ["No", "Yes"], "value_type": "categorical or object"}},
                "rf": {"class_name": "RandomForestRegressor", "fitted_attributes": {"n_features_in_": 109, "n_outputs_": 1}, "is_fitted": true, "module": "sklearn.ensemble._forest", "type": "<class 'sklearn.ensemble._forest.RandomForestRegressor'>"},
                "x": {"dtype": "int64", "has_nan": false, "shape": [0, 1], "type": "numpy.ndarray", "value_range": "empty array"}}"#,
        )
        .unwrap();
        let doc = convert_runtime_info(&info);
        assert!(!doc.objects.contains_key("__method__df_drop"));
        let df = &doc.objects["df"];
        assert_eq!(df.kind, "dataframe");
        assert_eq!(df.complete_columns(), Some(vec!["Age", "Sex"]));
        assert_eq!(df.has_nan(), Some(false));
        assert_eq!(
            df.column_values("Sex").unwrap()["examples"],
            json!(["male", "female"])
        );
        assert_eq!(doc.objects["cut"].complete_columns(), None);
        assert_eq!(doc.objects["np"].kind, "module");
        assert_eq!(doc.objects["y"].kind, "series");
        assert_eq!(doc.objects["y"].value["examples"], json!(["No", "Yes"]));
        let rf = &doc.objects["rf"];
        assert_eq!(rf.kind, "estimator");
        assert_eq!(
            rf.type_name,
            "sklearn.ensemble._forest.RandomForestRegressor"
        );
        assert_eq!(rf.fitted(), Some(true));
        assert_eq!(
            rf.int_fact(crate::summary::Category::S, "n_features_in"),
            Some(109)
        );
        let x = &doc.objects["x"];
        assert_eq!(x.shape(), Some(vec![0, 1]));
        assert!(!x.value.contains_key("range"));
    }

    #[test]
    fn reads_the_shapes_of_a_dicts_tensors() {
        let info: Value = serde_json::from_str(
            r#"{"inputs": {"length": 3, "type": "<class 'dict'>", "preview": [
                {"key": "ids", "key_type": "<class 'str'>", "value_repr": "<tf.Tensor: shape=(8, 172), dtype=int32, numpy=\nar...", "value_type": "<class 'tensorflow.python.framework.ops.EagerTensor'>"},
                {"key": "flat", "value_repr": "<tf.Tensor: shape=(8,), dtype=int32, numpy=..."},
                {"key": "n", "value_repr": "3", "value_type": "<class 'int'>"}]}}"#,
        )
        .unwrap();
        let doc = convert_runtime_info(&info);
        assert_eq!(
            doc.objects["inputs"].structural["value_shapes"],
            json!({"ids": [8, 172], "flat": [8]})
        );
    }

    #[test]
    fn carries_the_value_ranges_that_prove_non_integer_values() {
        use crate::semantics::abstract_value::{from_summary, Val};
        let info: Value = serde_json::from_str(
            r#"{"y": {"type": "<class 'pandas.core.series.Series'>", "value_info": {"value_range": [0.07, 0.9], "value_type": "continuous"}},
                "p": {"dtype": "float64", "shape": [68], "type": "numpy.ndarray", "value_range": [0.5, 3.0]},
                "n": {"dtype": "float64", "shape": [68], "type": "numpy.ndarray", "value_range": [0.0, 1.0]}}"#,
        )
        .unwrap();
        let doc = convert_runtime_info(&info);
        let non_integer = |name: &str| match from_summary(name, &doc.objects[name]) {
            Val::Series(s) => s.non_integer,
            Val::Array(a) => a.non_integer,
            _ => None,
        };
        assert_eq!(non_integer("y"), Some(0.07));
        assert_eq!(non_integer("p"), Some(0.5));
        assert_eq!(non_integer("n"), None);
    }

    #[test]
    fn reads_the_batches_a_dataloader_collated() {
        // (The inputs of `other` are not the samples' inputs stacked.)
        let info: Value = serde_json::from_str(
            r#"{"ok": {"batch_size": 32, "num_batches": 13, "type": "torch.utils.data.dataloader.DataLoader",
                       "dataset": {"batch_shapes": {"batch[0]": [10, 3, 8, 8], "batch[1]": [10]},
                                   "sample_shapes": {"input": [[3, 8, 8]], "label": ["int"]}}},
                "other": {"batch_size": 32, "type": "torch.utils.data.dataloader.DataLoader",
                          "dataset": {"batch_shapes": {"batch[0]": [3, 8, 8], "batch[1]": [3, 8, 8]},
                                      "sample_shapes": {"input": [[3, 8, 8]], "label": ["int"]}}},
                "ragged": {"batch_size": 32, "type": "torch.utils.data.dataloader.DataLoader",
                           "dataset": {"batch_shapes": {"error": "collate_fn failed: stack expects each tensor to be equal size"}}}}"#,
        )
        .unwrap();
        let doc = convert_runtime_info(&info);
        assert_eq!(
            doc.objects["ok"].structural["batch_shapes"],
            json!([[10, 3, 8, 8], [10]])
        );
        assert_eq!(doc.objects["ok"].structural["num_batches"], json!(13));
        for name in ["other", "ragged"] {
            assert!(!doc.objects[name].structural.contains_key("batch_shapes"));
        }
    }

    #[test]
    fn knows_pytorch_modules_by_their_class() {
        for t in [
            "transformers.models.bert.modeling_bert.BertModel",
            "transformers.models.bert.modeling_bert.BertForSequenceClassification",
            "torch.nn.modules.linear.Linear",
        ] {
            assert_eq!(kind_of(t, &Map::new()), "torch_module", "{t}");
        }
        for t in [
            "transformers.models.bert.modeling_tf_bert.TFBertModel",
            "transformers.models.bert.modeling_flax_bert.FlaxBertModel",
            "transformers.models.bert.modeling_bert.BertForPreTrainingOutput",
            "transformers.models.bert.tokenization_bert.BertTokenizer",
            "torch.nn.modules.module._IncompatibleKeys",
        ] {
            assert_ne!(kind_of(t, &Map::new()), "torch_module", "{t}");
        }
    }

    #[test]
    fn scores_predictions() {
        let mut c = Counts::default();
        c.add(true, true);
        c.add(true, false);
        c.add(false, false);
        c.add(false, true);
        let j = c.to_json();
        assert_eq!(j["precision"], 0.5);
        assert_eq!(j["accuracy"], 0.5);
    }
}
