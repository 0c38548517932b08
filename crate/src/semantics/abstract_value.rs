//! Abstract values of names while the rules walk the target cell: what is known for certain about
//! the object a name holds. Everything not listed is `Unknown`, and an unknown value silences the
//! rules.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::Value;

use crate::ir::{Literal, TextRange};
use crate::summary::{Category, ObjectSummary};

#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Unknown,
    /// Python's `None`.
    None,
    /// A module; the dotted import path when known (`matplotlib.pyplot`).
    Module(Option<String>),
    /// A library function or class imported by name: its qualified path (`sklearn.linear_model.LogisticRegression`).
    Lib(String),
    Frame(Frame),
    /// The result of `frame.groupby(...)`: selecting columns from it needs them in the frame.
    GroupBy(Grouped),
    Series(SeriesVal),
    Array(ArrayVal),
    /// Shared: a walk reads an estimator far more often than it changes one.
    Estimator(Rc<Estimator>),
    /// Only the qualified class name is known (`keras.src.models.sequential.Sequential`).
    Typed(String),
    /// A list, tuple or dict of known length.
    Sized {
        type_name: String,
        len: i64,
    },
    /// A list or tuple whose elements are followed one by one (a literal, or `[]` grown by
    /// `append` in this cell); an element the walker cannot follow is `Unknown`.
    Items {
        type_name: String,
        items: Vec<Val>,
    },
    /// A dict literal with str and int keys, in insertion order, and its followed values.
    Dict {
        keys: Vec<DictKey>,
        values: Vec<Val>,
    },
    /// `True` or `False` (an int too, for arithmetic).
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// `sklearn.metrics.confusion_matrix(...)`: a square matrix with at least `classes` rows
    /// (exactly, when `exact`).
    ConfusionMatrix {
        classes: i64,
        exact: bool,
    },
    /// `ConfusionMatrixDisplay(confusion_matrix=..., display_labels=...)`.
    ConfusionDisplay {
        classes: i64,
        exact: bool,
        labels: Option<i64>,
    },
    /// A list, tuple, numpy array or pandas Index of known strings (`['a', 'b']`, `df.columns`).
    Strs {
        type_name: String,
        items: Vec<String>,
    },
    /// A torch tensor whose shape is known in part (`torch_layers::Shape`).
    Tensor(super::torch_layers::Shape),
    /// A torch module whose effect on shapes is known.
    Torch(super::torch_layers::Layer),
    /// A torch loss module.
    Loss(super::torch_objects::Loss),
    /// A `TensorDataset`: the shapes of one sample's tensors, and its length.
    Dataset {
        sample: Vec<super::torch_layers::Shape>,
        len: i64,
    },
    /// An instance of a plain class of the notebook (`notebook_classes`), made in this cell or
    /// bound to a global by an executed one.
    Instance(std::rc::Rc<super::notebook_classes::NotebookClass>),
    /// A torch DataLoader: the shapes of a batch's tensors (the batch axis unknown), and whether
    /// it certainly yields a batch.
    Loader {
        batch: Vec<super::torch_layers::Shape>,
        non_empty: bool,
    },
    /// A scikit-learn `Bunch` (a dict whose keys are attributes too) of which some fields are
    /// known: a toy dataset's `data`, `target`, `frame` and (the digits') `images`.
    Bunch(std::rc::Rc<Vec<(&'static str, Val)>>),
}

/// A key of a dict literal the walker follows.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DictKey {
    Str(String),
    Int(i64),
}

impl DictKey {
    /// The key a value is, when it is a known str or int.
    pub fn of(v: &Val) -> Option<DictKey> {
        match v {
            Val::Str(s) => Some(DictKey::Str(s.clone())),
            Val::Int(i) => Some(DictKey::Int(*i)),
            _ => None,
        }
    }

    pub fn val(&self) -> Val {
        match self {
            DictKey::Str(s) => Val::Str(s.clone()),
            DictKey::Int(i) => Val::Int(*i),
        }
    }
}

/// The keys of a dict when they are all strings (the column names of a frame built from it).
pub fn text_keys(keys: &[DictKey]) -> Option<Vec<String>> {
    keys.iter()
        .map(|k| match k {
            DictKey::Str(s) => Some(s.clone()),
            DictKey::Int(_) => None,
        })
        .collect()
}

/// Values larger than these are not followed (unknown): every walk over a value (clone,
/// comparison, forgetting, drop) recurses as deep as it is nested and visits all it holds, and
/// `x = [x]` or `x.append(list(x))` repeated thousands of times must neither overflow the stack nor
/// grow without bound.
pub const MAX_NESTING: usize = 32;
pub const MAX_ELEMENTS: usize = 1_000;

impl Val {
    /// `self`, or `Unknown` when it nests containers deeper than `MAX_NESTING` or holds more
    /// than `MAX_ELEMENTS` values in all.
    pub fn bounded(self) -> Val {
        fn within(v: &Val, depth: usize, budget: &mut usize) -> bool {
            let items = match v {
                Val::Items { items, .. } | Val::Dict { values: items, .. } => items,
                _ => return true,
            };
            if depth == 0 || items.len() > *budget {
                return false;
            }
            *budget -= items.len();
            items.iter().all(|e| within(e, depth - 1, budget))
        }
        let mut budget = MAX_ELEMENTS;
        if within(&self, MAX_NESTING, &mut budget) {
            self
        } else {
            Val::Unknown
        }
    }

    /// The type name and length of a list, tuple or dict of known length, or of known strings.
    pub fn sized(&self) -> Option<(&str, i64)> {
        match self {
            Val::Sized { type_name, len } => Some((type_name, *len)),
            Val::Strs { type_name, items } => Some((type_name, items.len() as i64)),
            Val::Items { type_name, items } => Some((type_name, items.len() as i64)),
            Val::Dict { keys, .. } => Some(("dict", keys.len() as i64)),
            _ => None,
        }
    }

    /// The values a container holds (its elements; a dict's values).
    pub fn elements_mut(&mut self) -> &mut [Val] {
        match self {
            Val::Items { items, .. } => items,
            Val::Dict { values, .. } => values,
            _ => &mut [],
        }
    }
}

/// The texts `items` hold, when every one is a known string.
pub fn all_strs(items: &[Val]) -> Option<Vec<String>> {
    items
        .iter()
        .map(|v| match v {
            Val::Str(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// A list or tuple of the values `items`; of known strings when they all are.
pub fn sequence_of(type_name: &str, items: Vec<Val>) -> Val {
    match all_strs(&items) {
        Some(strs) if !strs.is_empty() => Val::Strs {
            type_name: type_name.into(),
            items: strs,
        },
        _ => Val::Items {
            type_name: type_name.into(),
            items,
        },
    }
}

/// What is known of a value that is `a` or `b` (the branches of `x if c else y`, of an `if`): all
/// of it when they are equal; an array's kind and shape (and dtype), a list's or tuple's length, a
/// number's or text's type, when both share them; nothing otherwise.
pub fn join(a: &Val, b: &Val) -> Val {
    if a == b {
        return a.clone();
    }
    fn scalar(v: &Val) -> Option<&str> {
        match v {
            Val::Bool(_) => Some("bool"),
            Val::Int(_) => Some("int"),
            Val::Float(_) => Some("float"),
            Val::Str(_) => Some("str"),
            Val::Typed(t) if matches!(t.as_str(), "bool" | "int" | "float" | "str") => {
                Some(t.as_str())
            }
            _ => None,
        }
    }
    if let (Some(x), Some(y)) = (scalar(a), scalar(b)) {
        return if x == y {
            Val::Typed(x.into())
        } else {
            Val::Unknown
        };
    }
    match (a, b) {
        (Val::Array(x), Val::Array(y)) if x.lib == y.lib && x.shape == y.shape => {
            Val::Array(ArrayVal {
                dtype: x.dtype.clone().filter(|_| x.dtype == y.dtype),
                has_nan: x.has_nan.filter(|_| x.has_nan == y.has_nan),
                csv_object_column: None,
                origin: None,
                non_integer: None,
                int_bounds: x.int_bounds.filter(|_| x.int_bounds == y.int_bounds),
                maybe_not_ndarray: x.maybe_not_ndarray || y.maybe_not_ndarray,
                ..x.clone()
            })
        }
        (Val::Items { .. } | Val::Sized { .. } | Val::Strs { .. }, _) => {
            match (a.sized(), b.sized()) {
                (Some((s, n)), Some((t, m)))
                    if s == t && n == m && matches!(s, "list" | "tuple") =>
                {
                    Val::Sized {
                        type_name: s.into(),
                        len: n,
                    }
                }
                _ => Val::Unknown,
            }
        }
        _ => Val::Unknown,
    }
}

/// What is known about one column.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Column {
    /// String example values the summary recorded (an object column).
    pub str_examples: Vec<String>,
    pub has_nan: Option<bool>,
    /// A value the column certainly holds that is not an integer (`non_integer`).
    pub non_integer: Option<f64>,
    /// The column's dtype (`int64`, `object`, ...), when known.
    pub dtype: Option<String>,
    /// `str_examples` holds every value (a list of strings written in the cell).
    pub all_values: bool,
}

impl Column {
    /// What is still known of the column in some (at least one) of its rows: when every value
    /// is text that is no number, so is every value of the rows taken (those strings among
    /// them).
    pub fn in_some_rows(&self) -> Option<Column> {
        let text_only = self.all_values
            && !self.str_examples.is_empty()
            && self.str_examples.iter().all(|s| not_a_float(s));
        text_only.then(|| Column {
            str_examples: self.str_examples.clone(),
            has_nan: Some(false),
            non_integer: None,
            dtype: self.dtype.clone(),
            all_values: false,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// The complete column list, or `None` when it is not known completely.
    pub columns: Option<Vec<String>>,
    pub column_info: BTreeMap<String, Column>,
    pub n_rows: Option<i64>,
    /// The number of columns when known (also when the list of names is not).
    pub width: Option<i64>,
    pub has_nan: Option<bool>,
    /// Where the facts came from (the summarized name), for messages.
    pub origin: Option<String>,
    /// A `pandas.DataFrame` itself, not a subclass (a GeoDataFrame has more attributes).
    pub plain: bool,
    /// The index class the kernel reported (`RangeIndex`, ...), when known.
    pub index_class: Option<String>,
    /// The names of the index's levels (`None` for an unnamed level), when known: an unnamed
    /// RangeIndex (`[None]`) for a frame built from literals, the keys of `set_index` or of a
    /// groupby, which `reset_index()` moves back in front of the columns.
    pub index_names: Option<Vec<Option<String>>>,
    /// Text labels the rows may have, when known (an index of strings written in the cell or
    /// listed by the kernel): every row's label is among them, also in rows taken from it.
    pub index_labels: Option<Vec<String>>,
    /// Columns the frame certainly lacks though its complete list is unknown (a frame read from
    /// a file): those dropped, popped or renamed since, with how each went.
    pub absent_columns: BTreeMap<String, Removal>,
    /// No two columns share a label, though the labels are unknown (a reader that makes
    /// repeated labels unique read the frame): `df['a']`, unless it raises, is a Series.
    pub unique_columns: bool,
    /// Every column label is a str, though the labels are unknown (a CSV file's header row
    /// named them): an integer selects no column.
    pub text_labels: bool,
    /// The row labels are row numbers, when known to be.
    pub row_numbers: Option<RowNumbers>,
    /// The column names hold from this pandas release on, not before: they are the names
    /// `value_counts()` gives its result and its index, which pandas 2.0 changed.
    pub columns_since: Option<super::numpy::Release>,
}

/// Row labels that are row numbers counted from 0 (a fresh RangeIndex: a frame or Series built
/// from literals, `reset_index(drop=True)`): none is negative, and none is past the rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowNumbers {
    /// Every number below the row count labels a row (no row was left out since).
    pub all: bool,
    /// The frame was read from a file without `index_col`: a file whose rows are longer than
    /// its header would have given it its leading fields as labels instead.
    pub read: bool,
}

impl RowNumbers {
    pub const FRESH: RowNumbers = RowNumbers {
        all: true,
        read: false,
    };

    /// The labels of some of the rows.
    pub fn some(self) -> RowNumbers {
        RowNumbers { all: false, ..self }
    }
}

/// How a column left a frame whose other columns are unknown.
#[derive(Clone, Debug, PartialEq)]
pub enum Removal {
    Dropped,
    /// `del df[c]`, `df.pop(c)`.
    Deleted,
    RenamedTo(String),
}

/// `frame.groupby(keys)` with keys that are columns of the frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Grouped {
    pub frame: Frame,
    pub keys: Vec<String>,
    /// `as_index=` (`None`: not a literal).
    pub as_index: Option<bool>,
    /// The columns selected from it: `g[['a', 'b']]`, or `g['a']` (a SeriesGroupBy).
    pub selection: Option<GroupSelection>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GroupSelection {
    Columns(Vec<String>),
    Column(String),
}

impl Frame {
    pub fn has(&self, column: &str) -> Option<bool> {
        match &self.columns {
            Some(cols) => Some(cols.iter().any(|c| c == column)),
            None => self.absent_columns.contains_key(column).then_some(false),
        }
    }

    /// The same frame after `column` left it (by `how`), when its other columns are unknown.
    pub fn without(mut self, column: &str, how: Removal) -> Frame {
        if self.columns.is_none() {
            self.column_info.remove(column);
            self.absent_columns.insert(column.to_string(), how);
        }
        self
    }

    /// The same frame after `column` was assigned anew, when its other columns are unknown: it
    /// has the column, and what was known of its values is gone.
    pub fn with(mut self, column: &str) -> Frame {
        if self.columns.is_none() {
            self.column_info.remove(column);
            self.absent_columns.remove(column);
        }
        self
    }

    pub fn n_columns(&self) -> Option<i64> {
        self.columns.as_ref().map(|c| c.len() as i64).or(self.width)
    }

    /// Keeps the columns in `keep` (in that order) and what is known of them.
    pub fn select(&self, keep: &[String]) -> Frame {
        Frame {
            columns: Some(keep.to_vec()),
            column_info: crate::ordered::map_of(
                keep.iter()
                    .filter_map(|c| Some((c.clone(), self.column_info.get(c)?.clone()))),
            ),
            n_rows: self.n_rows,
            width: Some(keep.len() as i64),
            has_nan: if self.has_nan == Some(false) {
                Some(false)
            } else {
                // A NaN the kernel found in a kept column is still there.
                keep.iter()
                    .any(|c| self.column_info.get(c).and_then(|i| i.has_nan) == Some(true))
                    .then_some(true)
            },
            origin: self.origin.clone(),
            plain: self.plain,
            index_class: self.index_class.clone(),
            index_names: self.index_names.clone(),
            index_labels: self.index_labels.clone(),
            absent_columns: BTreeMap::new(),
            unique_columns: false,
            text_labels: self.text_labels,
            row_numbers: self.row_numbers,
            columns_since: self.columns_since,
        }
    }

    /// Is `name` the name of a level of the frame's index? `None` when its names are unknown.
    pub fn is_index_level(&self, name: &str) -> Option<bool> {
        self.index_names
            .as_ref()
            .map(|names| names.iter().any(|n| n.as_deref() == Some(name)))
    }

    /// The index's level names when every level has one (the keys `reset_index()` brings back).
    pub fn index_keys(&self) -> Option<Vec<String>> {
        self.index_names.as_ref()?.iter().cloned().collect()
    }

    /// Does some column certainly hold strings that are not numbers?
    pub fn non_numeric_column(&self) -> Option<(&str, &str)> {
        let cols = self.columns.as_ref()?;
        cols.iter().find_map(|c| {
            let info = self.column_info.get(c)?;
            let bad = info.str_examples.iter().find(|s| not_a_float(s))?;
            Some((c.as_str(), bad.as_str()))
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeriesVal {
    pub len: Option<i64>,
    /// String values the summary recorded.
    pub str_examples: Vec<String>,
    pub has_nan: Option<bool>,
    pub name: Option<String>,
    /// A value the Series certainly holds that is not an integer (`non_integer`).
    pub non_integer: Option<f64>,
    /// The names of its index levels when each has one (`Frame::index_keys`): the keys of a
    /// groupby, or of `set_index`, which `reset_index()` brings back as columns.
    pub index_keys: Option<Vec<String>>,
    /// The dtype of its values, as pandas names it, when built from literals or a column of
    /// known dtype (`pandas::literal_dtype`).
    pub dtype: Option<String>,
    /// The row labels are row numbers, when known to be.
    pub row_numbers: Option<RowNumbers>,
    /// Its name and its index's name (`index_keys`) hold from this pandas release on, not
    /// before (`value_counts()` names them so since pandas 2.0).
    pub names_since: Option<super::numpy::Release>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayLib {
    Numpy,
    Torch,
    Tensorflow,
}

impl ArrayLib {
    /// What the library raises for operands whose shapes do not fit together.
    pub fn shape_error(self) -> &'static str {
        match self {
            ArrayLib::Numpy => "ValueError",
            ArrayLib::Torch => "RuntimeError",
            ArrayLib::Tensorflow => "InvalidArgumentError",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayVal {
    pub lib: ArrayLib,
    pub shape: Vec<i64>,
    pub dtype: Option<String>,
    pub has_nan: Option<bool>,
    /// An object array of the values of one column of a frame as `read_csv` read it
    /// (`(frame, column)`): read_csv leaves a column as object only when it holds text, or
    /// booleans with missing values. Forgotten with the dtype.
    pub csv_object_column: Option<(String, String)>,
    /// What the array is, for messages, when it is a fitted attribute of an estimator
    /// (`the feature_importances_ of gbr`). Forgotten by anything that derives another array.
    pub origin: Option<String>,
    /// A value a float array certainly holds that is not an integer (`non_integer`). Forgotten
    /// by anything that may leave it out or change it (a part of the array, arithmetic, astype).
    pub non_integer: Option<f64>,
    /// The smallest and the largest element of an integer array all of whose elements were
    /// known when it was made (`np.array([0, 5])`, `np.arange(6)`), or that the kernel read whole:
    /// what an index array or a label array may reach. Kept where the elements are only moved (a reshape, a transpose, a
    /// copy); forgotten by anything that may change or leave out some.
    pub int_bounds: Option<(i64, i64)>,
    /// Followed as an ndarray for its shape, but maybe of another type: `Series.values` (a pandas
    /// array for extension dtypes: categories, nullable integers, pandas 3's strings), a
    /// transformer's output (a DataFrame under `set_output(transform="pandas")`). What an
    /// ndarray lacks, it may have.
    pub maybe_not_ndarray: bool,
}

impl ArrayVal {
    /// An array of `lib` of this shape and dtype, and nothing else known of its values.
    pub fn new(lib: ArrayLib, shape: Vec<i64>, dtype: Option<String>) -> Self {
        ArrayVal {
            lib,
            shape,
            dtype,
            has_nan: None,
            csv_object_column: None,
            origin: None,
            non_integer: None,
            int_bounds: None,
            maybe_not_ndarray: false,
        }
    }

    /// The array `v` (derived from this one by arithmetic, a ufunc or a method), which may not
    /// be an ndarray where this one may not: pandas arrays and frames keep their type through
    /// these.
    pub fn passes_type_on(&self, v: Val) -> Val {
        match v {
            Val::Array(mut out) if self.maybe_not_ndarray => {
                out.maybe_not_ndarray = true;
                Val::Array(out)
            }
            v => v,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimator {
    /// The class name (`LogisticRegression`).
    pub class: String,
    /// The qualified class name (`sklearn.linear_model._logistic.LogisticRegression`).
    pub type_path: String,
    /// The classes of a pipeline's or ensemble's steps (`R.steps`), or of strings such as
    /// `passthrough`.
    pub steps: Vec<String>,
    /// Constructor parameters the kernel reported, as short reprs (`R.params`).
    pub kernel_params: BTreeMap<String, String>,
    pub fitted: Option<bool>,
    /// The name the kernel summarized it under, for messages.
    pub name: Option<String>,
    pub n_features: Option<i64>,
    /// The number of samples `fit` saw, when this cell fitted it on data of known length.
    pub n_samples: Option<i64>,
    /// The number of classes a fitted classifier knows (`classes_`), from the kernel.
    pub n_classes: Option<i64>,
    /// This cell fitted it on one column of targets (a Series, a 1-D array or list): `predict`
    /// gives one value per sample.
    pub one_target_column: bool,
    pub feature_names: Option<Vec<String>>,
    /// Literal keyword arguments of a constructor call seen in this cell.
    pub params: BTreeMap<String, Literal>,
    /// Where it was constructed in this cell.
    pub constructed_at: Option<TextRange>,
    /// The estimators of a pipeline's steps, or a search's estimator, when this cell built them.
    pub inner: Vec<Rc<Estimator>>,
    /// The names of a pipeline's steps (`R.steps`, or as this cell named them); for a search, those
    /// of the pipeline it searches.
    pub step_names: Vec<String>,
    /// A key of a search's parameter grid that its estimator has no parameter for, and the
    /// class of the estimator (or pipeline step) that lacks it: `fit` raises.
    pub invalid_grid_key: Option<(String, String)>,
    /// Column names a ColumnTransformer built in this cell selects (the selections written as
    /// strings or lists of strings; `make_column_selector` and positions are left out).
    pub selected_columns: Vec<String>,
    /// The texts an encoder this cell (or an earlier one) fitted learnt, column by column, when
    /// they were all known strings: a LabelEncoder's one column, a OneHotEncoder's or
    /// OrdinalEncoder's columns (`handle_unknown` and `categories` left to their defaults).
    /// `transform` refuses any other.
    pub labels_seen: Option<Vec<Vec<String>>>,
}

/// `"<class 'a.B'>"` -> `"a.B"`.
pub fn normalize_type(t: &str) -> &str {
    t.strip_prefix("<class '")
        .and_then(|s| s.strip_suffix("'>"))
        .unwrap_or(t)
}

/// A column label that reads as a date or period (`2020-01-01 00:00:00`, `2020-01`, `2020Q1`):
/// the frame's columns are then dates, which pandas also finds by partial strings.
pub fn date_like(label: &str) -> bool {
    let b = label.as_bytes();
    b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && matches!(b[4], b'-' | b'/' | b'Q')
}

/// Python's `int(str)`: optional sign, digits and underscores between digits, spaces around.
pub fn parse_int(s: &str) -> Option<i64> {
    let t = s.trim();
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    if t.is_empty()
        || t.starts_with('_')
        || t.ends_with('_')
        || t.contains("__")
        || !t.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    Some(0)
}

/// Python's `float(str)` (and so pandas/numpy conversions of strings).
pub fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim().replace('_', "");
    let lower = t.to_ascii_lowercase();
    let bare = lower.trim_start_matches(['+', '-']);
    if bare == "nan" {
        return Some(f64::NAN);
    }
    if matches!(bare, "inf" | "infinity") {
        return Some(if lower.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
        return None;
    }
    t.parse::<f64>().ok()
}

/// A recorded example that ends with an ellipsis was cut (by the kernel at 40 characters, by the
/// paper's extractor at 20): only its start is known.
fn cut_example(s: &str) -> Option<&str> {
    s.strip_suffix('…').or_else(|| s.strip_suffix("..."))
}

/// Python also reads non-ASCII digits and spaces as numbers (`int('٣')`): such strings are never
/// claimed not to be numbers.
fn unicode_number_chars(s: &str) -> bool {
    s.chars()
        .any(|c| !c.is_ascii() && (c.is_numeric() || c.is_whitespace()))
}

/// Is the recorded example certainly not a string `int()` accepts?
pub fn not_an_int(s: &str) -> bool {
    if unicode_number_chars(s) {
        return false;
    }
    match cut_example(s) {
        Some(start) => start
            .chars()
            .any(|c| !(c.is_ascii_digit() || c.is_whitespace() || "+-_".contains(c))),
        None => parse_int(s).is_none(),
    }
}

/// Is the recorded example certainly not a string `float()` accepts?
pub fn not_a_float(s: &str) -> bool {
    if unicode_number_chars(s) {
        return false;
    }
    match cut_example(s) {
        // The letters of `nan` and `infinity` may start a number.
        Some(start) => start.chars().any(|c| {
            !(c.is_ascii_digit() || c.is_whitespace() || "+-._eEinfatyINFATY".contains(c))
        }),
        None => parse_float(s).is_none(),
    }
}

fn str_examples(values: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["examples", "example_values", "unique_values"] {
        if let Some(list) = values.get(key).and_then(Value::as_array) {
            out.extend(list.iter().filter_map(|v| v.as_str().map(str::to_string)));
        }
    }
    out
}

/// A value the summarized data certainly holds that is not an integer: a bound of its `range`
/// or one of its `unique_values` (actual values, also when sampled; the kernel's 6 significant
/// digits keep every integer integral, so a fraction is a real one). Only for data whose dtype
/// is a float one, or unknown (the kernel and the paper give number ranges for numeric dtypes
/// only): then scikit-learn's `type_of_target` finds it `continuous`.
fn non_integer(values: &Value, dtype: Option<&str>) -> Option<f64> {
    if dtype.is_some_and(|d| !d.to_ascii_lowercase().starts_with("float")) {
        return None;
    }
    ["range", "unique_values"]
        .iter()
        .filter_map(|key| values.get(*key).and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_f64)
        .find(|v| v.is_finite() && v.fract() != 0.0)
}

/// The smallest and largest element of an integer ndarray the kernel read whole (not sampled):
/// its `range`, which it gives for integers exactly.
fn int_bounds(obj: &ObjectSummary) -> Option<(i64, i64)> {
    let dtype = obj.str_fact(Category::R, "dtype")?;
    if obj.sampled || !(dtype.starts_with("int") || dtype.starts_with("uint")) {
        return None;
    }
    match obj.value.get("range")?.as_array()?.as_slice() {
        [lo, hi] => Some((lo.as_i64()?, hi.as_i64()?)),
        _ => None,
    }
}

/// The abstract value of a summarized object.
pub fn from_summary(name: &str, obj: &ObjectSummary) -> Val {
    if obj.error.is_some() {
        return Val::Unknown;
    }
    let type_name = normalize_type(&obj.type_name).to_string();
    if let Some(v) = super::torch_objects::from_summary(obj, &type_name) {
        return v;
    }
    match obj.kind.as_str() {
        "dataframe" => {
            let columns = obj.complete_columns().and_then(|cols| {
                let n = obj.shape().and_then(|s| s.get(1).copied());
                let consistent = n.is_none_or(|n| n == cols.len() as i64);
                // Tuples (MultiIndex) are not matched by plain strings, and dates match keys
                // that are not their string form (`df['2020-01']`): stay silent.
                let plain = cols.iter().all(|c| !c.starts_with('(') && !date_like(c));
                (consistent && plain).then(|| cols.iter().map(|c| c.to_string()).collect())
            });
            let nan_columns = obj.str_list_fact(Category::V, "nan_columns");
            let mut column_info = BTreeMap::new();
            if let Some(values) = obj.value.get("column_values").and_then(Value::as_object) {
                for (col, v) in values {
                    let has_nan = v
                        .get("has_nan")
                        .and_then(Value::as_bool)
                        .or_else(|| nan_columns.as_ref().map(|n| n.contains(&col.as_str())));
                    let has_nan = if obj.has_nan() == Some(false) {
                        Some(false)
                    } else {
                        has_nan
                    };
                    column_info.insert(
                        col.clone(),
                        Column {
                            str_examples: str_examples(v),
                            has_nan,
                            non_integer: non_integer(v, obj.dtype_of_column(col)),
                            dtype: None,
                            all_values: false,
                        },
                    );
                }
            }
            if let Some(dtypes) = obj.representation.get("dtypes").and_then(Value::as_object) {
                for (col, dtype) in dtypes {
                    if let Some(dtype) = dtype.as_str() {
                        column_info.entry(col.clone()).or_default().dtype = Some(dtype.to_string());
                    }
                }
            }
            Val::Frame(Frame {
                columns,
                column_info,
                n_rows: obj.shape().and_then(|s| s.first().copied()),
                width: obj.shape().and_then(|s| s.get(1).copied()),
                has_nan: obj.has_nan(),
                origin: Some(name.to_string()),
                plain: matches!(
                    type_name.as_str(),
                    "pandas.core.frame.DataFrame" | "pandas.DataFrame"
                ),
                index_class: obj.str_fact(Category::R, "index").map(str::to_string),
                index_names: obj.index_names(),
                index_labels: obj
                    .str_list_fact(Category::R, "index_labels")
                    .map(|labels| labels.into_iter().map(str::to_string).collect()),
                absent_columns: BTreeMap::new(),
                unique_columns: false,
                text_labels: false,
                row_numbers: None,
                columns_since: None,
            })
        }
        "series" => {
            let values = Value::Object(obj.value.clone());
            Val::Series(SeriesVal {
                len: obj.shape().and_then(|s| s.first().copied()),
                str_examples: str_examples(&values),
                has_nan: obj.has_nan(),
                name: obj.str_fact(Category::R, "name").map(str::to_string),
                non_integer: non_integer(&values, obj.str_fact(Category::R, "dtype")),
                index_keys: None,
                dtype: None,
                row_numbers: None,
                names_since: None,
            })
        }
        // Subclasses such as `numpy.matrix` (where `*` is a matrix product) are not followed.
        "ndarray" | "tensor" | "tf_tensor"
            if obj.kind != "ndarray"
                || matches!(type_name.as_str(), "numpy.ndarray" | "ndarray") =>
        {
            let requires_grad = obj.kind == "tensor"
                && obj.representation.get("requires_grad") == Some(&Value::Bool(true));
            match obj.shape() {
                // A tensor autograd tracks (its dtype is floating-point).
                Some(shape) if requires_grad => Val::Tensor(
                    super::torch_layers::Shape::of(shape.into_iter().map(Some).collect())
                        .tracked(true),
                ),
                Some(shape) => Val::Array(ArrayVal {
                    lib: match obj.kind.as_str() {
                        "tensor" => ArrayLib::Torch,
                        "tf_tensor" => ArrayLib::Tensorflow,
                        _ => ArrayLib::Numpy,
                    },
                    shape,
                    dtype: obj.str_fact(Category::R, "dtype").map(str::to_string),
                    has_nan: obj.has_nan(),
                    csv_object_column: None,
                    origin: None,
                    // Only with a known float dtype (a summary without one may be of anything).
                    non_integer: obj
                        .str_fact(Category::R, "dtype")
                        .and_then(|d| non_integer(&Value::Object(obj.value.clone()), Some(d))),
                    int_bounds: (obj.kind == "ndarray").then(|| int_bounds(obj)).flatten(),
                    maybe_not_ndarray: false,
                }),
                None => Val::Typed(type_name),
            }
        }
        "estimator" => Val::Estimator(Rc::new(Estimator {
            class: type_name.rsplit('.').next().unwrap_or("").to_string(),
            steps: obj
                .representation
                .get("steps")
                .and_then(Value::as_array)
                .map(|steps| {
                    steps
                        .iter()
                        .filter_map(|s| s.get(1)?.as_str())
                        .map(|c| c.rsplit('.').next().unwrap_or(c).to_string())
                        .collect()
                })
                .unwrap_or_default(),
            // Named steps of a pipeline only (a ColumnTransformer's entries carry columns).
            step_names: obj
                .representation
                .get("steps")
                .and_then(Value::as_array)
                .filter(|_| type_name.ends_with(".Pipeline"))
                .and_then(|steps| {
                    steps
                        .iter()
                        .map(|s| Some(s.get(0)?.as_str()?.to_string()))
                        .collect::<Option<Vec<_>>>()
                })
                .unwrap_or_default(),
            invalid_grid_key: None,
            selected_columns: Vec::new(),
            labels_seen: None,
            kernel_params: obj
                .representation
                .get("params")
                .and_then(Value::as_object)
                .map(|m| {
                    crate::ordered::map_of(
                        m.iter()
                            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))),
                    )
                })
                .unwrap_or_default(),
            type_path: type_name.clone(),
            fitted: obj.fitted(),
            name: Some(name.to_string()),
            n_features: obj.int_fact(Category::S, "n_features_in"),
            n_samples: None,
            n_classes: obj.int_fact(Category::S, "n_classes"),
            one_target_column: false,
            feature_names: obj
                .str_list_fact(Category::R, "feature_names_in")
                .map(|v| v.into_iter().map(str::to_string).collect()),
            params: BTreeMap::new(),
            constructed_at: None,
            inner: Vec::new(),
        })),
        "class" => match (
            obj.str_fact(Category::R, "module"),
            obj.str_fact(Category::R, "class"),
        ) {
            (Some(m), Some(c)) => Val::Lib(format!("{m}.{c}")),
            _ => Val::Typed(type_name),
        },
        "module" => Val::Module(obj.str_fact(Category::R, "module").map(str::to_string)),
        // Exactly the builtin types (a subclass may answer keys and indexes its own way).
        "dict" if type_name == "dict" => match obj.complete_keys() {
            Some(keys) => Val::Dict {
                values: vec![Val::Unknown; keys.len()],
                keys: keys
                    .into_iter()
                    .map(|k| DictKey::Str(k.to_string()))
                    .collect(),
            },
            None => sized_container(obj, type_name),
        },
        "list" | "tuple" if type_name == obj.kind => match plain_items(obj) {
            Some(items) => match items
                .iter()
                .map(|v| match v {
                    Val::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
            {
                Some(strs) if !strs.is_empty() => Val::Strs {
                    type_name,
                    items: strs,
                },
                _ => Val::Items { type_name, items },
            },
            None => sized_container(obj, type_name),
        },
        "list" | "tuple" | "dict" | "set" => sized_container(obj, type_name),
        // Exactly the builtin type (a subclass may define its own operators and methods), and
        // the whole value (the kernel cuts long strings).
        "none" => Val::None,
        "bool" if type_name == "bool" => match obj.value.get("value").and_then(Value::as_bool) {
            Some(b) => Val::Bool(b),
            None => Val::Typed(type_name),
        },
        "int" if type_name == "int" => match obj.value.get("value").and_then(Value::as_i64) {
            Some(v) => Val::Int(v),
            None => Val::Typed(type_name),
        },
        "float" if type_name == "float" => match obj.value.get("value").and_then(Value::as_f64) {
            Some(v) => Val::Float(v),
            None => Val::Typed(type_name),
        },
        "str" if type_name == "str" => match obj.value.get("value").and_then(Value::as_str) {
            Some(v) if obj.int_fact(Category::S, "length") == Some(v.chars().count() as i64) => {
                Val::Str(v.to_string())
            }
            _ => Val::Typed(type_name),
        },
        _ if !type_name.is_empty() => Val::Typed(type_name),
        _ => Val::Unknown,
    }
}

/// A list, tuple, dict or set of the length the kernel reported.
fn sized_container(obj: &ObjectSummary, type_name: String) -> Val {
    match obj.int_fact(Category::S, "length") {
        Some(len) => Val::Sized { type_name, len },
        None => Val::Typed(type_name),
    }
}

/// The elements the kernel sent of a short list or tuple of plain values, when they are as many
/// as its length.
fn plain_items(obj: &ObjectSummary) -> Option<Vec<Val>> {
    let items = obj.items()?;
    if obj.int_fact(Category::S, "length") != Some(items.len() as i64) {
        return None;
    }
    items
        .iter()
        .map(|v| match v {
            Value::Null => Some(Val::None),
            Value::String(s) => Some(Val::Str(s.clone())),
            v => v.as_i64().map(Val::Int),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_like_python() {
        assert!(parse_int("46").is_some());
        assert!(parse_int(" -3 ").is_some());
        assert!(parse_int("46.0").is_none());
        assert!(parse_int("abc").is_none());
        assert!(parse_float("46.0").is_some());
        assert!(parse_float("1e5").is_some());
        assert!(parse_float("nan").is_some());
        assert!(parse_float("male").is_none());
        assert!(parse_float("").is_none());
        assert!(not_a_float("male") && not_a_float("The rules developed ..."));
        assert!(!not_a_float("1234567890123456789012345678901234567890…"));
        assert!(!not_a_float("1.5e…") && !not_a_float("٣") && !not_a_float("12"));
        assert!(not_an_int("46.0") && not_an_int("46.0…") && !not_an_int("1_000"));
        assert!(date_like("2020-01-01 00:00:00") && date_like("2020Q1") && !date_like("2020"));
    }

    #[test]
    fn non_integer_values_need_a_fraction_and_a_float_dtype() {
        let v = |json: &str| serde_json::from_str::<Value>(json).unwrap();
        assert_eq!(
            non_integer(&v(r#"{"range": [0.42, 80.0]}"#), Some("float64")),
            Some(0.42)
        );
        assert_eq!(non_integer(&v(r#"{"range": [3, 17.5]}"#), None), Some(17.5));
        assert_eq!(
            non_integer(&v(r#"{"unique_values": [0.0, 0.5, 1.0]}"#), Some("float32")),
            Some(0.5)
        );
        // Integers written as floats (also big ones cut to 6 significant digits), infinities,
        // and data of another dtype prove nothing.
        assert_eq!(
            non_integer(&v(r#"{"range": [0.0, 1.0]}"#), Some("float64")),
            None
        );
        assert_eq!(
            non_integer(&v(r#"{"range": [1234570.0, "inf"]}"#), None),
            None
        );
        assert_eq!(
            non_integer(&v(r#"{"range": [0.5, 2.5]}"#), Some("object")),
            None
        );
    }
}
