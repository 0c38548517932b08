//! pandas's contracts: the attributes every DataFrame has, what its constructors, frame methods
//! and joins return, and the calls the history recognises (in-place drops, `read_csv`, extensions
//! of pandas).

use std::collections::BTreeMap;

use crate::ir::{Expr, Keyword, Literal, SeqKind, TextRange};
use crate::ir_scan::{str_list, unpacks};

use super::abstract_value::{
    text_keys, ArrayLib, ArrayVal, Column, Frame, GroupSelection, Grouped, Removal, RowNumbers,
    SeriesVal, Val,
};
use super::eval::Eval;
use super::mutation::INPLACE_FOLLOWED;

/// Public attributes and methods of `pandas.DataFrame`, of the installed pandas and earlier ones
/// (`pandas_tables`): `df.x` with one of these names is not a column access.
pub fn is_frame_attribute(name: &str) -> bool {
    super::listed(super::pandas_tables::FRAME_ATTRIBUTES, name)
}

/// Methods and attributes pandas removed by 2.0 (from its release notes: 0.20, 0.23, 1.0 and 2.0
/// removed what earlier releases had deprecated; each is absent from pandas 3.1 too, as the cases
/// of `built_values.json` run under it show): for each, whether a DataFrame had it,
/// whether a Series had it, and what replaces it. `is_frame_attribute` keeps those pandas 1 or 2
/// still had.
pub const REMOVED_BY_PANDAS_2: &[(&str, bool, bool, &str)] = &[
    ("append", true, true, "pd.concat([this, other])"),
    ("iteritems", true, true, ".items()"),
    ("mad", true, true, "(x - x.mean()).abs().mean()"),
    ("tshift", true, true, ".shift(freq=...)"),
    ("slice_shift", true, true, ".shift()"),
    ("lookup", true, false, ".loc with .melt() or numpy indexing"),
    ("ix", true, false, ".loc (labels) or .iloc (positions)"),
    ("as_matrix", true, false, ".to_numpy()"),
    ("get_values", true, true, ".to_numpy()"),
    ("get_value", true, true, ".at[row, col]"),
    ("set_value", true, true, ".at[row, col] = value"),
    ("get_dtype_counts", true, false, ".dtypes.value_counts()"),
    ("ftypes", true, false, ".dtypes"),
    ("is_monotonic", false, true, ".is_monotonic_increasing"),
    ("valid", false, true, ".dropna()"),
    ("sort", true, true, ".sort_values(...) or .sort_index()"),
    ("order", false, true, ".sort_values()"),
    ("sortlevel", true, true, ".sort_index(level=...)"),
    (
        "convert_objects",
        true,
        true,
        ".infer_objects() or pd.to_numeric",
    ),
    ("reindex_axis", true, true, ".reindex(..., axis=...)"),
    ("irow", true, true, ".iloc[i]"),
    ("icol", true, false, ".iloc[:, j]"),
    ("clip_upper", true, true, ".clip(upper=...)"),
    ("clip_lower", true, true, ".clip(lower=...)"),
    ("to_panel", true, false, ".to_xarray()"),
    ("to_sparse", true, true, ".astype(pd.SparseDtype(...))"),
    ("as_blocks", true, true, "one column at a time"),
    ("compound", true, true, "(1 + x).prod() - 1"),
    ("asobject", false, true, ".astype(object)"),
    ("nonzero", false, true, ".to_numpy().nonzero()"),
    ("reshape", false, true, ".to_numpy().reshape(...)"),
];

/// DataFrame methods and attributes a Series has never had (pandas 0.x to 3.x): on a column
/// selected with `df['a']`, AttributeError.
pub const FRAME_ONLY_ATTRIBUTES: &[&str] = &[
    "assign",
    "boxplot",
    "columns",
    "corrwith",
    "insert",
    "iterrows",
    "itertuples",
    "join",
    "melt",
    "merge",
    "pivot",
    "pivot_table",
    "query",
    "select_dtypes",
    "set_index",
    "stack",
    "style",
    "to_records",
];

/// Keywords that only the DataFrame version of a method takes (they name columns): the
/// Series version raises TypeError: got an unexpected keyword argument.
pub const FRAME_ONLY_KEYWORDS: &[(&str, &str)] = &[
    ("sort_values", "by"),
    ("dropna", "subset"),
    ("drop_duplicates", "subset"),
    ("duplicated", "subset"),
    ("rename", "columns"),
    ("nlargest", "columns"),
    ("nsmallest", "columns"),
    ("value_counts", "subset"),
];

/// pandas methods that return None when given `inplace=True` (their docs: "DataFrame or None").
pub const PANDAS_INPLACE: &[&str] = &[
    "bfill",
    "clip",
    "drop",
    "drop_duplicates",
    "dropna",
    "eval",
    "ffill",
    "fillna",
    "interpolate",
    "mask",
    "query",
    "rename",
    "rename_axis",
    "replace",
    "reset_index",
    "set_index",
    "sort_index",
    "sort_values",
    "where",
];

/// Some rows of a frame: the same columns; what the values of the whole frame showed (example
/// strings, NaN) may lie in the rows left out.
pub fn rows_of(f: &Frame) -> Frame {
    Frame {
        n_rows: None,
        row_numbers: f.row_numbers.map(RowNumbers::some),
        column_info: Default::default(),
        has_nan: if f.has_nan == Some(false) {
            Some(false)
        } else {
            None
        },
        ..f.clone()
    }
}

/// The dtype of the values of a frame's column built from a list of literals: `int64`,
/// `float64`, or `str` (pandas 3; `object` before it, which the accessors treat alike).
pub fn literal_dtype(v: &Val) -> Option<&'static str> {
    match v {
        Val::Strs { type_name, .. } if type_name == "list" => Some("str"),
        Val::Items { type_name, items } if type_name == "list" && !items.is_empty() => {
            if items.iter().all(|i| matches!(i, Val::Int(_))) {
                Some("int64")
            } else if items
                .iter()
                .all(|i| matches!(i, Val::Int(_) | Val::Float(_) | Val::None))
                && items.iter().any(|i| !matches!(i, Val::None))
            {
                // None among numbers is NaN.
                Some("float64")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `pd.Series([...], name='n')` of a list of literals: its length, name, and (values written in
/// the cell) their strings and NaN.
pub fn new_series(w: &dyn Eval, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if args.len() != 1 || keywords.iter().any(|k| k.name.as_deref() != Some("name")) {
        return None;
    }
    let data = w.eval(&args[0]);
    let len = literal_len(&data)?;
    let facts = literal_column(&data).map(|(_, c)| c).unwrap_or_default();
    Some(Val::Series(SeriesVal {
        len: Some(len),
        str_examples: facts.str_examples,
        has_nan: facts.has_nan,
        non_integer: facts.non_integer,
        name: keywords
            .first()
            .and_then(|k| k.value.as_str_literal())
            .map(str::to_string),
        index_keys: None,
        dtype: literal_dtype(&data).map(str::to_string),
        row_numbers: Some(RowNumbers::FRESH),
        names_since: None,
    }))
}

/// What a Series method gives, where certain: `s.rename('n')` holds the same values, named 'n'
/// (a scalar names the Series; a mapping or a function would relabel its index instead);
/// `s.value_counts()` is a Series of counts, whose name depends on the pandas version.
/// Series methods that take or reorder rows, or keep numbers numbers: the dtype stays.
pub const SERIES_METHODS_KEEPING_DTYPE: &[&str] = &[
    "copy",
    "head",
    "tail",
    "sort_values",
    "sort_index",
    "dropna",
    "drop_duplicates",
    "sample",
    "abs",
    "round",
];

pub fn series_method_result(s: SeriesVal, attr: &str, args: &[Expr], keywords: &[Keyword]) -> Val {
    match attr {
        "rename" if keywords.is_empty() => match args {
            [label] => label.as_str_literal().map_or(Val::Unknown, |name| {
                Val::Series(SeriesVal {
                    name: Some(name.to_string()),
                    ..s
                })
            }),
            _ => Val::Unknown,
        },
        // Since pandas 2.0 the counts are named 'count' ('proportion' with `normalize=True`),
        // and their index, of the values counted, takes the Series' name.
        "value_counts" => {
            let name = match kw(keywords, "normalize") {
                None => Some("count"),
                Some(Expr::Literal {
                    value: Literal::Bool(normalize),
                    ..
                }) => Some(if *normalize { "proportion" } else { "count" }),
                Some(_) => None,
            };
            match (name, s.name) {
                (Some(name), Some(counted)) if args.is_empty() => Val::Series(SeriesVal {
                    name: Some(name.to_string()),
                    index_keys: Some(vec![counted]),
                    names_since: Some((2, 0)),
                    ..SeriesVal::default()
                }),
                _ => Val::Series(SeriesVal::default()),
            }
        }
        // `inplace=True` gives None.
        m if SERIES_METHODS_KEEPING_DTYPE.contains(&m)
            && keywords
                .iter()
                .all(|k| k.name.as_deref() != Some("inplace")) =>
        {
            // Each keeps the rows' labels, of some rows (`tail`, `dropna`, ...) or all.
            let all_rows = matches!(
                m,
                "copy" | "head" | "sort_values" | "sort_index" | "abs" | "round"
            );
            Val::Series(SeriesVal {
                name: s.name,
                dtype: s.dtype,
                row_numbers: s.row_numbers.map(|r| if all_rows { r } else { r.some() }),
                index_keys: s.index_keys,
                names_since: s.names_since,
                ..SeriesVal::default()
            })
        }
        // A groupby's Series: its keys, then its values under its name.
        "reset_index" if args.is_empty() && keywords.is_empty() => match (&s.index_keys, &s.name) {
            (Some(keys), Some(name)) => match keys_in_front(keys, std::slice::from_ref(name)) {
                Some(columns) => Val::Frame(Frame {
                    width: Some(columns.len() as i64),
                    columns: Some(columns),
                    n_rows: s.len,
                    plain: true,
                    index_class: Some("RangeIndex".into()),
                    index_names: unnamed_index(),
                    row_numbers: Some(RowNumbers::FRESH),
                    columns_since: s.names_since,
                    ..Frame::default()
                }),
                None => Val::Unknown,
            },
            _ => Val::Unknown,
        },
        // The Series as the one column of a frame, under its name.
        "to_frame" if args.is_empty() && keywords.is_empty() => match s.name {
            Some(name) => Val::Frame(Frame {
                columns: Some(vec![name]),
                width: Some(1),
                n_rows: s.len,
                plain: true,
                index_names: s
                    .index_keys
                    .map(|keys| keys.into_iter().map(Some).collect()),
                row_numbers: s.row_numbers,
                columns_since: s.names_since,
                ..Frame::default()
            }),
            None => Val::Unknown,
        },
        _ => Val::Unknown,
    }
}

/// The number of rows a list of literals gives a column.
pub fn literal_len(v: &Val) -> Option<i64> {
    match v {
        Val::Strs { type_name, items } if type_name == "list" => Some(items.len() as i64),
        Val::Items { type_name, items } if type_name == "list" => Some(items.len() as i64),
        _ => None,
    }
}

/// A `join` whose columns are known: the frame's, `other` (the expression) and its columns.
pub struct Join<'e> {
    pub columns: Vec<String>,
    pub other: &'e Expr,
    pub other_columns: Vec<String>,
    /// The level names of the result's index, when known: the frame's own with `on=` or
    /// `how='left'` (the default), the other's with `how='right'`; otherwise those both share.
    pub index_names: Option<Vec<Option<String>>>,
}

/// `f.join(other, ...)` with only the keywords that leave the columns as they are (`on`, `sort`,
/// `how` other than 'cross'): no suffix, no `**kwargs`.
pub fn known_join<'e>(
    w: &dyn Eval,
    f: &Frame,
    args: &'e [Expr],
    keywords: &'e [Keyword],
) -> Option<Join<'e>> {
    if unpacks(args, keywords) || args.len() > 1 {
        return None;
    }
    let mut other = args.first();
    let mut how = "left";
    for k in keywords {
        match k.name.as_deref() {
            Some("other") if other.is_none() => other = Some(&k.value),
            Some("on" | "sort") => {}
            Some("how") => match k.value.as_str_literal() {
                Some(h @ ("left" | "right" | "inner" | "outer")) => how = h,
                _ => return None,
            },
            _ => return None,
        }
    }
    let other = other?;
    let (other_columns, other_index) = match w.eval(other) {
        Val::Series(s) => (vec![s.name?], None),
        Val::Frame(g) => (g.columns?, g.index_names),
        _ => return None,
    };
    let index_names = match (how, kw(keywords, "on")) {
        ("left", _) | (_, Some(_)) => f.index_names.clone(),
        ("right", None) => other_index,
        _ => other_index.filter(|names| f.index_names.as_ref() == Some(names)),
    };
    Some(Join {
        columns: f.columns.clone()?,
        other,
        other_columns,
        index_names,
    })
}

/// What `f.join(other)` gives when it succeeds: the frame's columns, then those `other` brings.
/// Rows may repeat or go missing, so what was known of them is not kept.
pub fn joined(w: &dyn Eval, f: &Frame, args: &[Expr], keywords: &[Keyword]) -> Val {
    let Some(join) = known_join(w, f, args, keywords) else {
        return Val::Unknown;
    };
    if join.other_columns.iter().any(|c| join.columns.contains(c)) {
        return Val::Unknown;
    }
    let mut columns = join.columns;
    columns.extend(join.other_columns);
    Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        column_info: Default::default(),
        n_rows: None,
        has_nan: None,
        origin: f.origin.clone(),
        plain: f.plain,
        index_class: None,
        index_names: join.index_names,
        index_labels: None,
        absent_columns: Default::default(),
        unique_columns: false,
        text_labels: false,
        row_numbers: None,
        columns_since: None,
    })
}

/// The frame after `del df[column]` or `df.pop(column)`, which raise KeyError when it lacks the
/// column (the frame is then unknown: the code after does not run).
pub fn without_column(f: &Frame, column: &str) -> Val {
    match (&f.columns, f.has(column)) {
        (Some(cols), Some(true)) => {
            let keep: Vec<String> = cols.iter().filter(|c| *c != column).cloned().collect();
            Val::Frame(f.select(&keep))
        }
        (None, None) => Val::Frame(f.clone().without(column, Removal::Deleted)),
        _ => Val::Unknown,
    }
}

/// The level names of a fresh `RangeIndex` (and of any index all of whose levels pandas leaves
/// unnamed): one unnamed level.
pub fn unnamed_index() -> Option<Vec<Option<String>>> {
    Some(vec![None])
}

/// `pd.DataFrame({'a': ..., 'b': ...})` or `pd.DataFrame(rows, columns=['a', 'b'])`: a frame whose
/// columns are the dict's keys, or the `columns` given (which select from a dict, or name the rows'
/// fields).
pub fn new_frame(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    match path {
        "pandas.Series" => return new_series(w, args, keywords),
        "pandas.concat" => return concatenated(w, args, keywords),
        "pandas.get_dummies" => return dummies(w, args, keywords),
        _ if FRAME_READERS.contains(&path) => return read_frame(w, path, args, keywords),
        "pandas.merge" | "pandas.melt" | "pandas.pivot_table" => {
            let data_keyword = match path {
                "pandas.merge" => "left",
                "pandas.melt" => "frame",
                _ => "data",
            };
            let (data, rest) = match args.split_first() {
                Some((data, rest)) => (data, rest),
                None => (kw(keywords, data_keyword)?, args),
            };
            let Val::Frame(f) = w.eval(data) else {
                return None;
            };
            let keywords: Vec<Keyword> = keywords
                .iter()
                .filter(|k| k.name.as_deref() != Some(data_keyword))
                .cloned()
                .collect();
            let method = path.trim_start_matches("pandas.");
            return Some(frame_method_result(w, &f, method, rest, &keywords));
        }
        _ => {}
    }
    if path != "pandas.DataFrame" || args.len() > 1 || unpacks(args, keywords) {
        return None;
    }
    let data = w.eval(kw(keywords, "data").or(args.first())?);
    if keywords.is_empty() {
        if let Some(frame) = records_frame(&data) {
            return Some(Val::Frame(frame));
        }
    }
    // Columns of values written in the cell: their dtypes are pandas' inference from them. A
    // Series among the values would bring its index (and its name).
    let literal_frame = |keys: Vec<String>, values: &[Val]| {
        let mut frame = dict_frame(keys.clone(), values);
        match kw(keywords, "index").map(|i| w.eval(i)) {
            None if values.iter().all(holds_no_index) => {
                frame.index_class = Some("RangeIndex".into());
                frame.index_names = unnamed_index();
                frame.row_numbers = Some(RowNumbers::FRESH);
            }
            // `index=['a', 'b']`: those labels, unnamed.
            Some(Val::Strs { type_name, items }) if type_name == "list" => {
                frame.index_names = unnamed_index();
                frame.index_labels = Some(items);
            }
            _ => {}
        }
        if frame.n_rows.is_some() && kw(keywords, "dtype").is_none() {
            for (col, v) in keys.iter().zip(values) {
                frame.column_info.entry(col.clone()).or_default().dtype =
                    literal_dtype(v).map(str::to_string);
            }
        }
        Val::Frame(frame)
    };
    let columns = match kw(keywords, "columns") {
        Some(columns) => match w.eval(columns) {
            Val::Strs { items, .. } => items,
            _ => return None,
        },
        None => match &data {
            Val::Dict { keys, values } => return Some(literal_frame(text_keys(keys)?, values)),
            _ => return None,
        },
    };
    // `pd.DataFrame([[1, 'a'], [2, 'b']], columns=['n', 's'])`: rows of as many values as there
    // are (distinct) columns.
    let mut seen = std::collections::BTreeSet::new();
    if columns.iter().all(|c| seen.insert(c)) {
        if let Some(values) = row_columns(&data, columns.len()) {
            return Some(literal_frame(columns, &values));
        }
    }
    Some(Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        plain: true,
        index_names: (kw(keywords, "index").is_none() && holds_no_index(&data))
            .then(unnamed_index)
            .flatten(),
        ..Frame::default()
    }))
}

/// Is the value data without an index of its own (a list, a numpy array, a scalar), which a
/// frame built from it labels with a fresh RangeIndex?
fn holds_no_index(v: &Val) -> bool {
    match v {
        Val::Array(a) => a.lib == ArrayLib::Numpy,
        v => matches!(
            v,
            Val::Strs { .. }
                | Val::Items { .. }
                | Val::Int(_)
                | Val::Float(_)
                | Val::Str(_)
                | Val::Bool(_)
        ),
    }
}

/// The columns of a list of rows written in the cell, each a list or tuple of `width` values: for
/// each column, the list of its values.
fn row_columns(data: &Val, width: usize) -> Option<Vec<Val>> {
    let Val::Items { type_name, items } = data else {
        return None;
    };
    if type_name != "list" || items.is_empty() {
        return None;
    }
    let mut columns = vec![Vec::new(); width];
    for row in items {
        let values: Vec<Val> = match row {
            Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
                items.clone()
            }
            Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
                items.iter().cloned().map(Val::Str).collect()
            }
            _ => return None,
        };
        if values.len() != width {
            return None;
        }
        for (column, v) in columns.iter_mut().zip(values) {
            column.push(v);
        }
    }
    Some(
        columns
            .into_iter()
            .map(|items| super::abstract_value::sequence_of("list", items))
            .collect(),
    )
}

/// What is known of a column `df[col] = value` sets: the values of a list written in the cell as
/// long as the frame, or a number or text repeated on every row.
pub fn assigned_column(value: &Val, n_rows: Option<i64>) -> Option<Column> {
    let scalar = match value {
        Val::Int(_) => "int64",
        Val::Float(_) => "float64",
        Val::Str(_) => "str",
        _ => {
            let (len, mut info) = literal_column(value)?;
            if Some(len) != n_rows {
                return None;
            }
            info.dtype = literal_dtype(value).map(str::to_string);
            return Some(info);
        }
    };
    Some(Column {
        dtype: Some(scalar.into()),
        ..Column::default()
    })
}

/// `pd.get_dummies(frame, ...)` of a frame whose text columns were written in the cell (every
/// value known): the other columns, then `{prefix}{prefix_sep}{value}` for each value of each
/// encoded column, sorted (the first left out with `drop_first=True`; `_nan` added with
/// `dummy_na=True`). Encoded are the `columns=` given, or every text column; a column whose
/// values or dtype are not known makes the result unknown.
fn dummies(w: &dyn Eval, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    const KNOWN: &[&str] = &[
        "data",
        "columns",
        "prefix",
        "prefix_sep",
        "drop_first",
        "dummy_na",
        "dtype",
        "sparse",
    ];
    if args.len() > 1
        || keywords
            .iter()
            .any(|k| !k.name.as_deref().is_some_and(|n| KNOWN.contains(&n)))
    {
        return None;
    }
    let Val::Frame(f) = w.eval(args.first().or_else(|| kw(keywords, "data"))?) else {
        return None;
    };
    let columns = f.columns.as_ref()?;
    // A string keyword: `Some(None)` when not given, `None` when not a string literal.
    let text = |name: &str| match kw(keywords, name) {
        None => Some(None),
        Some(e) => e.as_str_literal().map(|s| Some(s.to_string())),
    };
    let (drop_first, dummy_na) = (
        flag(keywords, "drop_first", false)?,
        flag(keywords, "dummy_na", false)?,
    );
    let prefix = text("prefix")?;
    let sep = text("prefix_sep")?.unwrap_or_else(|| "_".to_string());
    // Every value of a text column written in the cell, or `None` (not text, or not known).
    let values_of = |c: &str| {
        let info = f.column_info.get(c)?;
        (info.all_values && info.dtype.as_deref() == Some("str")).then_some(&info.str_examples)
    };
    let encoded: Vec<String> = match kw(keywords, "columns") {
        Some(e) => keys(w, e)?.into_iter().map(|k| k.name).collect(),
        None => {
            let mut encoded = Vec::new();
            for c in columns {
                match f.column_info.get(c).and_then(|i| i.dtype.as_deref()) {
                    Some("str") => encoded.push(c.clone()),
                    Some("int64" | "float64") => {}
                    _ => return None,
                }
            }
            encoded
        }
    };
    let mut out: Vec<String> = columns
        .iter()
        .filter(|c| !encoded.contains(c))
        .cloned()
        .collect();
    for c in &encoded {
        let mut values = values_of(c)?.clone();
        values.sort_unstable();
        values.dedup();
        if drop_first && !values.is_empty() {
            values.remove(0);
        }
        if dummy_na {
            values.push("nan".into());
        }
        let prefix = prefix.as_ref().unwrap_or(c);
        out.extend(values.iter().map(|v| format!("{prefix}{sep}{v}")));
    }
    let mut seen = std::collections::BTreeSet::new();
    if !out.iter().all(|c| seen.insert(c.clone())) {
        return None;
    }
    Some(Val::Frame(Frame {
        width: Some(out.len() as i64),
        columns: Some(out),
        n_rows: f.n_rows,
        plain: true,
        index_class: f.index_class.clone(),
        index_names: f.index_names.clone(),
        ..Frame::default()
    }))
}

/// `pd.DataFrame([{'a': 1}, {'a': 2, 'b': 3}])`: one row per record, the keys of all records as
/// columns, in the order they first appear.
fn records_frame(data: &Val) -> Option<Frame> {
    let Val::Items { type_name, items } = data else {
        return None;
    };
    if type_name != "list" || items.is_empty() {
        return None;
    }
    let mut columns: Vec<String> = Vec::new();
    for item in items {
        let Val::Dict { keys, .. } = item else {
            return None;
        };
        for k in &text_keys(keys)? {
            if !columns.contains(k) {
                columns.push(k.clone());
            }
        }
    }
    Some(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        n_rows: Some(items.len() as i64),
        plain: true,
        index_class: Some("RangeIndex".into()),
        index_names: unnamed_index(),
        row_numbers: Some(RowNumbers::FRESH),
        ..Frame::default()
    })
}

/// `pd.read_csv(path, usecols=[...])` or `names=[...]` written in the cell: the columns are those
/// (`usecols` raises ValueError on a name the file lacks, so a frame that exists has them all).
/// Other keywords that could move a column into the index or add one are not followed.
fn read_frame(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if unpacks(args, keywords) || !reads_one_frame(w, keywords) {
        return None;
    }
    if let Some(frame) = read_columns(w, path, args, keywords) {
        return Some(Val::Frame(frame));
    }
    // Without `index_col` the index is a RangeIndex, or (a row longer than the header) the
    // leading fields, unnamed: no level has a name, counted here as one.
    let numbered = kw(keywords, "index_col").is_none() && CSV_READERS.contains(&path);
    Some(Val::Frame(Frame {
        plain: true,
        index_names: if numbered { unnamed_index() } else { None },
        row_numbers: numbered.then_some(RowNumbers {
            all: true,
            read: true,
        }),
        unique_columns: UNIQUE_LABEL_READERS.contains(&path) && one_header_row(w, keywords),
        // A header row of a text file names every column by text.
        text_labels: CSV_READERS.contains(&path) && one_header_row(w, keywords),
        ..Frame::default()
    }))
}

/// Readers that make repeated column labels unique (`a`, `a.1`).
const UNIQUE_LABEL_READERS: &[&str] = &[
    "pandas.read_csv",
    "pandas.read_table",
    "pandas.read_fwf",
    "pandas.read_excel",
];

/// Is the header one row (the default, or `header=` one row's number)? Several give a MultiIndex
/// of columns, where a label selects a frame.
fn one_header_row(w: &dyn Eval, keywords: &[Keyword]) -> bool {
    kw(keywords, "header").is_none_or(|h| matches!(w.eval(h), Val::Int(_)))
}

/// Readers that return one DataFrame unless the call asks for chunks or for something else
/// (`reads_one_frame`).
const FRAME_READERS: &[&str] = &[
    "pandas.read_csv",
    "pandas.read_table",
    "pandas.read_fwf",
    "pandas.read_excel",
    "pandas.read_json",
    "pandas.read_parquet",
    "pandas.read_feather",
    "pandas.read_orc",
    "pandas.read_sql",
    "pandas.read_sql_query",
    "pandas.read_sql_table",
    "pandas.read_stata",
    "pandas.read_sas",
    "pandas.read_spss",
    "pandas.read_xml",
    "pandas.read_clipboard",
];

/// Does a reader called with these keywords return one DataFrame? Not with `chunksize=` or
/// `iterator=` (a reader object), `squeeze=` (pandas 1 may give a Series), `typ=` of
/// `read_json` (a Series), or a `sheet_name=` of `read_excel` that is not one name or position
/// (`None` or a list give a dict of frames).
fn reads_one_frame(w: &dyn Eval, keywords: &[Keyword]) -> bool {
    keywords.iter().all(|k| match k.name.as_deref() {
        Some("chunksize" | "iterator" | "squeeze" | "typ") => false,
        Some("sheet_name") => matches!(w.eval(&k.value), Val::Str(_) | Val::Int(_)),
        _ => true,
    })
}

/// `read_csv(path, usecols=[...])` or `names=[...]` with keywords that leave the columns so: a
/// frame of those columns.
fn read_columns(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Frame> {
    let plain = CSV_READERS.contains(&path)
        && args.len() <= 1
        && keywords.iter().all(|k| {
            k.name
                .as_deref()
                .is_some_and(|n| n != "index_col" && PLAIN_READ_KEYWORDS.contains(&n))
        });
    if !plain {
        return None;
    }
    let names = |param: &str| match kw(keywords, param).map(|e| w.eval(e)) {
        Some(Val::Strs { items, .. }) => {
            let mut seen = std::collections::BTreeSet::new();
            items.iter().all(|c| seen.insert(c)).then_some(Some(items))
        }
        Some(_) => None,
        None => Some(None),
    };
    let columns = names("usecols")?.or(names("names")?)?;
    Some(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        plain: true,
        index_names: unnamed_index(),
        ..Frame::default()
    })
}

/// The columns `left.merge(right, ...)` gives: keys joined under one name appear once, other
/// names both frames hold get the suffixes (`_x`, `_y`), the left frame's columns first.
/// `None` unless every keyword is one that leaves the columns so and both lists are known.
fn merged_columns(
    w: &dyn Eval,
    left: &[String],
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Vec<String>> {
    if args.len() > 1 {
        return None;
    }
    let right = match args.first().or(kw(keywords, "right")).map(|e| w.eval(e)) {
        Some(Val::Frame(r)) if r.plain => r.columns?,
        _ => return None,
    };
    let mut suffixes = ("_x".to_string(), "_y".to_string());
    for k in keywords {
        match k.name.as_deref()? {
            "right" | "on" | "left_on" | "right_on" | "sort" | "validate" => {}
            "how" => {
                if !matches!(
                    k.value.as_str_literal(),
                    Some("left" | "right" | "inner" | "outer")
                ) {
                    return None;
                }
            }
            "suffixes" => match w.eval(&k.value) {
                Val::Strs { items, .. } if items.len() == 2 => {
                    suffixes = (items[0].clone(), items[1].clone());
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    let names = |param: &str| -> Option<Option<Vec<String>>> {
        match kw(keywords, param) {
            None => Some(None),
            Some(e) => Some(Some(keys(w, e)?.into_iter().map(|k| k.name).collect())),
        }
    };
    let shared: Vec<String> = match (names("on")?, names("left_on")?, names("right_on")?) {
        (Some(on), None, None) => on,
        (None, Some(l), Some(r)) if l.len() == r.len() => l
            .iter()
            .zip(&r)
            .filter(|(a, b)| a == b)
            .map(|(a, _)| a.clone())
            .collect(),
        (None, None, None) => left.iter().filter(|c| right.contains(c)).cloned().collect(),
        _ => return None,
    };
    let overlaps = |c: &String| !shared.contains(c) && left.contains(c) && right.contains(c);
    let mut columns: Vec<String> = left
        .iter()
        .map(|c| {
            if overlaps(c) {
                format!("{c}{}", suffixes.0)
            } else {
                c.clone()
            }
        })
        .collect();
    for c in right.iter().filter(|c| !shared.contains(c)) {
        columns.push(if overlaps(c) {
            format!("{c}{}", suffixes.1)
        } else {
            c.clone()
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    columns.iter().all(|c| seen.insert(c)).then_some(columns)
}

/// Is the dtype (as pandas names it) one `select_dtypes('number')` picks? `None` when unknown.
fn is_number_dtype(dtype: &str) -> Option<bool> {
    let lower = dtype.to_ascii_lowercase();
    if ["int", "uint", "float", "complex", "timedelta"]
        .iter()
        .any(|p| lower.starts_with(p))
        && !lower.starts_with("interval")
    {
        Some(true)
    } else if matches!(
        lower.as_str(),
        "object" | "str" | "string" | "bool" | "boolean" | "category"
    ) || lower.starts_with("datetime64")
    {
        Some(false)
    } else {
        None
    }
}

/// `select_dtypes(include='number')` or `exclude='number'` (or `np.number`) of a frame whose
/// every column's dtype is known: the columns kept.
fn selected_by_dtype(
    w: &dyn Eval,
    f: &Frame,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Vec<String>> {
    if !args.is_empty() || keywords.len() != 1 {
        return None;
    }
    let k = &keywords[0];
    let include = match k.name.as_deref()? {
        "include" => true,
        "exclude" => false,
        _ => return None,
    };
    let is_number = match (&k.value, k.value.as_str_literal()) {
        (_, Some("number")) => true,
        (e, None) => w.lib_path(e).is_some_and(|p| p == "numpy.number"),
        _ => false,
    };
    if !is_number {
        return None;
    }
    let mut kept = Vec::new();
    for c in f.columns.as_ref()? {
        let number = is_number_dtype(f.column_info.get(c)?.dtype.as_deref()?)?;
        if number == include {
            kept.push(c.clone());
        }
    }
    Some(kept)
}

/// The length and the facts of a column (or Series) given as values written in the cell: a list
/// of strings, or numbers (with NaN) numpy reads as a 1-D array.
fn literal_column(value: &Val) -> Option<(i64, Column)> {
    match value {
        Val::Strs { type_name, items } if type_name == "list" => Some((
            items.len() as i64,
            Column {
                str_examples: items.clone(),
                has_nan: Some(false),
                non_integer: None,
                dtype: None,
                all_values: true,
            },
        )),
        // Numbers and None: pandas makes a float column, None becoming NaN.
        Val::Items { type_name, items }
            if type_name == "list"
                && items.iter().any(|i| matches!(i, Val::None))
                && items
                    .iter()
                    .any(|i| matches!(i, Val::Int(_) | Val::Float(_)))
                && items
                    .iter()
                    .all(|i| matches!(i, Val::None | Val::Int(_) | Val::Float(_))) =>
        {
            Some((
                items.len() as i64,
                Column {
                    has_nan: Some(true),
                    ..Column::default()
                },
            ))
        }
        v => {
            let a = super::numpy::literal_array(v).filter(|a| a.shape.len() == 1)?;
            Some((
                a.shape[0],
                Column {
                    str_examples: Vec::new(),
                    has_nan: a.has_nan,
                    non_integer: a.non_integer,
                    dtype: None,
                    all_values: false,
                },
            ))
        }
    }
}

/// `pd.DataFrame({'a': [...], ...})`: with lists of strings or numbers written in the cell, the
/// rows, the strings and the NaN of each column are known too.
pub fn dict_frame(keys: Vec<String>, values: &[Val]) -> Frame {
    let mut column_info = BTreeMap::new();
    let mut lengths = Vec::new();
    let mut all_known = true;
    for (key, value) in keys.iter().zip(values) {
        let Some((len, info)) = literal_column(value) else {
            all_known = false;
            continue;
        };
        lengths.push(len);
        column_info.insert(key.clone(), info);
    }
    let n_rows = (all_known && !lengths.is_empty() && lengths.iter().all(|n| *n == lengths[0]))
        .then(|| lengths[0]);
    Frame {
        width: Some(keys.len() as i64),
        has_nan: n_rows.map(|_| column_info.values().any(|c| c.has_nan == Some(true))),
        n_rows,
        columns: Some(keys),
        column_info,
        plain: true,
        ..Frame::default()
    }
}

/// `pd.concat([a, b])` of frames of known columns: rows stacked, the union of the columns
/// (`join='inner'`: those all share); `axis=1`: the columns side by side.
pub fn concatenated(w: &dyn Eval, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if args.len() != 1
        || keywords.iter().any(|k| {
            !matches!(
                k.name.as_deref(),
                Some("axis" | "join" | "ignore_index" | "sort")
            )
        })
    {
        return None;
    }
    let Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    } = &args[0]
    else {
        return None;
    };
    let frames: Vec<Frame> = elts
        .iter()
        .map(|e| match w.eval(e) {
            Val::Frame(f) if f.plain && f.columns.is_some() => Some(f),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let side_by_side = match axis_is_columns(kw(keywords, "axis"))? {
        true if kw(keywords, "ignore_index").is_some() => return None,
        columns => columns,
    };
    // Rows stacked with `ignore_index=True` are labelled anew; otherwise the index keeps the
    // level names the frames share.
    let index_names = match flag(keywords, "ignore_index", false) {
        Some(true) => unnamed_index(),
        Some(false) => {
            let names: Vec<_> = frames.iter().map(|f| &f.index_names).collect();
            if names.iter().all(|n| *n == names[0]) {
                names[0].clone()
            } else {
                None
            }
        }
        None => None,
    };
    let inner = match kw(keywords, "join") {
        None => false,
        Some(j) => match j.as_str_literal()? {
            "inner" => true,
            "outer" => false,
            _ => return None,
        },
    };
    let lists: Vec<&Vec<String>> = frames.iter().filter_map(|f| f.columns.as_ref()).collect();
    let mut columns: Vec<String> = Vec::new();
    for list in &lists {
        for c in *list {
            let shared = lists.iter().all(|l| l.contains(c));
            if (side_by_side || !columns.contains(c)) && (!inner || side_by_side || shared) {
                columns.push(c.clone());
            }
        }
    }
    Some(Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        plain: true,
        index_names,
        ..Frame::default()
    }))
}

/// How many rows `head(n)`, `tail(n)`, `nlargest(n, ...)` and `nsmallest(n, ...)` keep of a
/// frame of known length: `n` at most (5 by default; a negative `n` of `head` / `tail`, all
/// but that many); `nlargest` with `keep='all'` may keep more.
fn rows_taken(
    w: &dyn Eval,
    f: &Frame,
    method: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<i64> {
    let rows = f.n_rows?;
    let n = match crate::ir::argument(args, keywords, 0, "n") {
        None if matches!(method, "head" | "tail") => 5,
        None => return None,
        Some(e) => match w.eval(e) {
            Val::Int(n) => n,
            _ => return None,
        },
    };
    if matches!(method, "nlargest" | "nsmallest") && kw(keywords, "keep").is_some() {
        return None;
    }
    match method {
        "head" | "tail" if n < 0 => Some((rows + n).max(0)),
        _ if n < 0 => None,
        _ => Some(n.min(rows)),
    }
}

/// The frame a pandas method returns, as far as columns go.
pub fn frame_method_result(
    w: &dyn Eval,
    f: &Frame,
    method: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Val {
    if unpacks(args, keywords) {
        return Val::Unknown;
    }
    let inplace = kw(keywords, "inplace").is_some();
    // The same columns. Rows left out may hold the strings and NaN the frame's values showed,
    // and a method that changes values may remove them: what is known of each column stays only
    // when every row and value is kept.
    let same = |rows_kept: bool, values_kept: bool, nan_kept: bool| {
        Val::Frame(Frame {
            n_rows: if rows_kept { f.n_rows } else { None },
            row_numbers: if rows_kept {
                f.row_numbers
            } else {
                f.row_numbers.map(RowNumbers::some)
            },
            column_info: if rows_kept && values_kept {
                f.column_info.clone()
            } else {
                Default::default()
            },
            has_nan: if f.has_nan == Some(false) || (nan_kept && rows_kept) {
                f.has_nan
            } else {
                None
            },
            ..f.clone()
        })
    };
    match method {
        "drop" => {
            let ignore = is_str(kw(keywords, "errors"), "ignore");
            let mut removed: Vec<String> = Vec::new();
            let cols_kw = kw(keywords, "columns");
            let labels = kw(keywords, "labels").or(args.first());
            let axis = kw(keywords, "axis").or(args.get(1));
            let target = if cols_kw.is_some() {
                cols_kw
            } else {
                match axis_is_columns(axis) {
                    Some(true) => labels,
                    Some(false) => {
                        // Rows: columns unchanged (but the call may fail on unknown labels).
                        return same(false, true, false);
                    }
                    None => return Val::Unknown,
                }
            };
            let Some(target) = target else {
                return Val::Unknown;
            };
            if let Some(s) = target.as_str_literal() {
                removed.push(s.to_string());
            } else if let Some(list) = str_list(target) {
                removed = list;
            } else {
                match w.eval(target) {
                    Val::Str(s) => removed.push(s),
                    Val::Strs { items, .. } => removed = items,
                    _ => return Val::Unknown,
                }
            }
            // (A label the frame lacks raises, unless ignored.)
            if !ignore && removed.iter().any(|r| f.has(r) == Some(false)) {
                return Val::Unknown;
            }
            let Some(cols) = &f.columns else {
                // (NaN the frame held may have gone with the dropped columns.)
                return match same(true, true, false) {
                    Val::Frame(out) => Val::Frame(
                        removed
                            .iter()
                            .fold(out, |out, c| out.without(c, Removal::Dropped)),
                    ),
                    other => other,
                };
            };
            if !ignore && removed.iter().any(|r| !cols.contains(r)) {
                return Val::Unknown;
            }
            let keep: Vec<String> = cols
                .iter()
                .filter(|c| !removed.contains(c))
                .cloned()
                .collect();
            let mut out = f.select(&keep);
            if f.has_nan == Some(false) {
                out.has_nan = Some(false);
            }
            Val::Frame(out)
        }
        _ if inplace && !INPLACE_FOLLOWED.contains(&method) => Val::Unknown,
        // The keys become the index, in place of it or after its levels (`append=True`);
        // `drop=True`, the default, removes them from the columns.
        "set_index" if args.len() <= 1 => {
            let Some(keys) = kw(keywords, "keys")
                .or(args.first())
                .and_then(|k| keys(w, k))
            else {
                return Val::Unknown;
            };
            let Some(cols) = &f.columns else {
                return Val::Unknown;
            };
            let (Some(drop), Some(append)) = (
                flag(keywords, "drop", true),
                flag(keywords, "append", false),
            ) else {
                return Val::Unknown;
            };
            if keys.iter().any(|k| !cols.contains(&k.name)) {
                return Val::Unknown;
            }
            let keep: Vec<String> = cols
                .iter()
                .filter(|c| !drop || !keys.iter().any(|k| k.name == **c))
                .cloned()
                .collect();
            let mut index_names = if append {
                let Some(names) = f.index_names.clone() else {
                    return Val::Unknown;
                };
                names
            } else {
                Vec::new()
            };
            index_names.extend(keys.into_iter().map(|k| Some(k.name)));
            // One column of strings written in the cell: its values label the rows.
            let index_labels = match (append, index_names.as_slice()) {
                (false, [Some(key)]) => f
                    .column_info
                    .get(key)
                    .filter(|c| c.all_values)
                    .map(|c| c.str_examples.clone()),
                _ => None,
            };
            Val::Frame(Frame {
                index_class: None,
                index_names: Some(index_names),
                index_labels,
                ..f.select(&keep)
            })
        }
        // `rename_axis('name')`, `rename_axis(index=['a', 'b'])`: the index's level names, when
        // the call succeeds (a scalar names a single level); `columns=` names the other axis.
        "rename_axis" => {
            let names = match (args, keywords_but_inplace(keywords).as_slice()) {
                ([names], []) => names,
                ([], [k]) if matches!(k.name.as_deref(), Some("mapper" | "index")) => &k.value,
                ([], [k]) if k.name.as_deref() == Some("columns") => return same(true, true, true),
                _ => return Val::Unknown,
            };
            let index_names = match w.eval(names) {
                Val::Str(name) => vec![Some(name)],
                Val::None => match &f.index_names {
                    Some(n) => vec![None; n.len()],
                    None => return Val::Unknown,
                },
                Val::Strs { items, .. } => items.into_iter().map(Some).collect(),
                _ => return Val::Unknown,
            };
            let index_names = Some(index_names);
            match same(true, true, true) {
                Val::Frame(out) => Val::Frame(Frame { index_names, ..out }),
                other => other,
            }
        }
        "head" | "tail" | "nlargest" | "nsmallest" => match (
            same(false, true, false),
            rows_taken(w, f, method, args, keywords),
        ) {
            // `head` keeps the first rows: their numbers are 0 to n - 1.
            (Val::Frame(out), Some(n_rows)) => Val::Frame(Frame {
                n_rows: Some(n_rows),
                row_numbers: if method == "head" {
                    f.row_numbers
                } else {
                    out.row_numbers
                },
                ..out
            }),
            (other, _) => other,
        },
        "query" => same(false, true, false),
        "sample" | "drop_duplicates" => relabelled_if_ignored(same(false, true, false), keywords),
        "copy" => same(true, true, true),
        "sort_values" | "sort_index" => relabelled_if_ignored(same(true, true, true), keywords),
        "round" | "abs" | "clip" | "infer_objects" | "convert_dtypes" | "astype" => {
            same(true, false, true)
        }
        // `add_prefix('x_')`: every column renamed (`axis=` could pick the index instead).
        "add_prefix" | "add_suffix" if keywords.is_empty() => {
            let (
                Some(cols),
                [Expr::Literal {
                    value: Literal::Str(part),
                    ..
                }],
            ) = (&f.columns, args)
            else {
                return Val::Unknown;
            };
            let renamed = cols
                .iter()
                .map(|c| {
                    if method == "add_prefix" {
                        format!("{part}{c}")
                    } else {
                        format!("{c}{part}")
                    }
                })
                .collect();
            Val::Frame(Frame {
                columns: Some(renamed),
                column_info: Default::default(),
                ..f.clone()
            })
        }
        "replace" | "fillna" | "ffill" | "bfill" | "interpolate" => same(true, false, false),
        "dropna" => {
            if axis_is_columns(kw(keywords, "axis")) == Some(false) {
                relabelled_if_ignored(same(false, true, false), keywords)
            } else {
                Val::Unknown
            }
        }
        "reset_index" => {
            let drop = matches!(
                kw(keywords, "drop").or(args.get(1)),
                Some(Expr::Literal {
                    value: Literal::Bool(true),
                    ..
                })
            );
            if drop && args.is_empty() {
                match same(true, true, true) {
                    Val::Frame(f) => Val::Frame(Frame {
                        index_class: Some("RangeIndex".into()),
                        index_names: unnamed_index(),
                        index_labels: None,
                        row_numbers: Some(RowNumbers::FRESH),
                        ..f
                    }),
                    other => other,
                }
            } else if args.is_empty()
                && keywords.iter().all(|k| {
                    k.name.as_deref() == Some("drop")
                        && matches!(
                            k.value,
                            Expr::Literal {
                                value: Literal::Bool(false),
                                ..
                            }
                        )
                })
            {
                index_as_column(f)
            } else {
                Val::Unknown
            }
        }
        "rename" => {
            if !args.is_empty() || kw(keywords, "mapper").is_some() {
                return Val::Unknown;
            }
            // `index=` renames row labels: the index is no longer a RangeIndex.
            let relabelled = |v: Val| match v {
                Val::Frame(f) if kw(keywords, "index").is_some() => Val::Frame(Frame {
                    index_class: None,
                    index_labels: None,
                    ..f
                }),
                v => v,
            };
            let Some(cols_expr) = kw(keywords, "columns") else {
                return if kw(keywords, "index").is_some() {
                    relabelled(same(true, true, true))
                } else {
                    Val::Unknown
                };
            };
            let Expr::Dict { keys, values, .. } = cols_expr else {
                return Val::Unknown;
            };
            let mut map = Vec::new();
            for (k, v) in keys.iter().zip(values) {
                let (Some(k), Some(v)) = (
                    k.as_ref().and_then(|k| k.as_str_literal()),
                    v.as_str_literal(),
                ) else {
                    return Val::Unknown;
                };
                map.push((k.to_string(), v.to_string()));
            }
            let Some(cols) = &f.columns else {
                // Each old name leaves (unless another takes it), each new one comes.
                // (A new name may be one the frame has: two columns would share it.)
                let unrenamed = Frame {
                    unique_columns: false,
                    ..f.clone()
                };
                let renamed = map.iter().fold(unrenamed, |out, (old, new)| {
                    let out = out.with(new);
                    if map.iter().any(|(_, n)| n == old) {
                        out
                    } else {
                        out.without(old, Removal::RenamedTo(new.clone()))
                    }
                });
                return relabelled(Val::Frame(renamed));
            };
            let renamed: Vec<String> = cols
                .iter()
                .map(|c| {
                    map.iter()
                        .find(|(k, _)| k == c)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_else(|| c.clone())
                })
                .collect();
            let mut seen = std::collections::BTreeSet::new();
            if !renamed.iter().all(|c| seen.insert(c.clone())) {
                return Val::Unknown;
            }
            // A renamed column keeps its values.
            let column_info = crate::ordered::map_of(
                cols.iter()
                    .zip(&renamed)
                    .filter_map(|(old, new)| Some((new.clone(), f.column_info.get(old)?.clone()))),
            );
            relabelled(Val::Frame(Frame {
                columns: Some(renamed),
                column_info,
                ..f.clone()
            }))
        }
        "assign" => {
            if !args.is_empty() {
                return Val::Unknown;
            }
            let Some(cols) = &f.columns else {
                let assigned = keywords.iter().fold(f.clone(), |out, k| {
                    out.with(k.name.as_deref().unwrap_or_default())
                });
                return Val::Frame(Frame {
                    has_nan: None,
                    ..assigned
                });
            };
            let mut cols = cols.clone();
            let mut column_info = f.column_info.clone();
            for k in keywords {
                let name = k.name.clone().unwrap_or_default();
                column_info.remove(&name);
                if !cols.contains(&name) {
                    cols.push(name);
                }
            }
            Val::Frame(Frame {
                width: Some(cols.len() as i64),
                columns: Some(cols),
                column_info,
                has_nan: None,
                ..f.clone()
            })
        }
        "join" => joined(w, f, args, keywords),
        // Joined on columns, the result has a fresh RangeIndex; on index levels, which may be
        // kept: unknown.
        "merge" => match f
            .columns
            .as_ref()
            .and_then(|c| merged_columns(w, c, args, keywords))
        {
            Some(columns) if merged_on_columns(w, f, args, keywords) => Val::Frame(Frame {
                width: Some(columns.len() as i64),
                columns: Some(columns),
                plain: true,
                origin: f.origin.clone(),
                index_names: unnamed_index(),
                row_numbers: Some(RowNumbers::FRESH),
                ..Frame::default()
            }),
            _ => Val::Unknown,
        },
        // `filter(items=[...])` keeps the listed names that are columns, in the list's order;
        // `filter(like='x')` the columns whose name holds 'x'.
        "filter" if args.is_empty() && keywords.len() == 1 => {
            let Some(cols) = &f.columns else {
                return Val::Unknown;
            };
            let kept: Vec<String> = match (keywords[0].name.as_deref(), w.eval(&keywords[0].value))
            {
                (Some("items"), Val::Strs { items, .. }) => {
                    items.into_iter().filter(|c| cols.contains(c)).collect()
                }
                (Some("like"), Val::Str(part)) => {
                    cols.iter().filter(|c| c.contains(&part)).cloned().collect()
                }
                _ => return Val::Unknown,
            };
            Val::Frame(f.select(&kept))
        }
        "select_dtypes" => match selected_by_dtype(w, f, args, keywords) {
            Some(kept) => Val::Frame(f.select(&kept)),
            None => Val::Unknown,
        },
        "melt" => melted(w, f, args, keywords),
        "pivot_table" => pivot_table(w, f, args, keywords),
        "groupby" => {
            let by = kw(keywords, "by").or(args.first());
            let Some(keys) = by.and_then(|b| keys(w, b)) else {
                return Val::Unknown;
            };
            if keys.iter().any(|k| f.has(&k.name) != Some(true))
                || args.len() > 1
                || kw(keywords, "level").is_some()
                || kw(keywords, "axis").is_some()
            {
                return Val::Unknown;
            }
            let as_index = match kw(keywords, "as_index") {
                None => Some(true),
                Some(Expr::Literal {
                    value: Literal::Bool(b),
                    ..
                }) => Some(*b),
                Some(_) => None,
            };
            Val::GroupBy(Grouped {
                frame: f.clone(),
                keys: keys.into_iter().map(|k| k.name).collect(),
                as_index,
                selection: None,
            })
        }
        _ => Val::Unknown,
    }
}

/// A keyword that is a bool literal, `default` when not given; `None` when not a literal.
fn flag(keywords: &[Keyword], name: &str, default: bool) -> Option<bool> {
    match kw(keywords, name) {
        None => Some(default),
        Some(Expr::Literal {
            value: Literal::Bool(b),
            ..
        }) => Some(*b),
        Some(_) => None,
    }
}

/// The keywords but `inplace=` (which changes where the result goes, not what it is).
fn keywords_but_inplace(keywords: &[Keyword]) -> Vec<&Keyword> {
    keywords
        .iter()
        .filter(|k| k.name.as_deref() != Some("inplace"))
        .collect()
}

/// The result of a method with `ignore_index=`: `True` labels the rows anew (an unnamed
/// RangeIndex); a value not written as a literal may: unknown.
fn relabelled_if_ignored(v: Val, keywords: &[Keyword]) -> Val {
    match (flag(keywords, "ignore_index", false), v) {
        (Some(true), Val::Frame(f)) => Val::Frame(Frame {
            index_class: Some("RangeIndex".into()),
            index_names: unnamed_index(),
            index_labels: None,
            row_numbers: Some(RowNumbers::FRESH),
            ..f
        }),
        (Some(false), v) => v,
        _ => Val::Unknown,
    }
}

/// Does `left.merge(right, ...)` join on columns of both frames only?
fn merged_on_columns(w: &dyn Eval, left: &Frame, args: &[Expr], keywords: &[Keyword]) -> bool {
    let Some(Val::Frame(right)) = args.first().or(kw(keywords, "right")).map(|e| w.eval(e)) else {
        return false;
    };
    let columns_of = |f: &Frame, params: &[&str]| {
        params.iter().all(|p| match kw(keywords, p) {
            None => true,
            Some(e) => keys(w, e).is_some_and(|k| k.iter().all(|k| f.has(&k.name) == Some(true))),
        })
    };
    !["left_index", "right_index"]
        .iter()
        .any(|p| kw(keywords, p).is_some())
        && columns_of(left, &["on", "left_on"])
        && columns_of(&right, &["on", "right_on"])
}

/// `f.pivot_table(values=[...], index=[...])` without `columns=`: one column per value column
/// (aggregated by one function), the index keys in the index (`reset_index()` brings them back).
/// With `columns=` the column labels come from the data: unknown.
fn pivot_table(w: &dyn Eval, f: &Frame, args: &[Expr], keywords: &[Keyword]) -> Val {
    const PLAIN: &[&str] = &[
        "values",
        "index",
        "aggfunc",
        "fill_value",
        "dropna",
        "sort",
        "observed",
    ];
    let param = |name: &str, at: usize| kw(keywords, name).or(args.get(at));
    if args.len() > 2
        || keywords
            .iter()
            .any(|k| !k.name.as_deref().is_some_and(|n| PLAIN.contains(&n)))
        || param("aggfunc", 3).is_some_and(|a| a.as_str_literal().is_none())
    {
        return Val::Unknown;
    }
    let (Some(values), Some(index)) = (param("values", 0), param("index", 1)) else {
        return Val::Unknown;
    };
    let (Some(values), Some(index)) = (keys(w, values), keys(w, index)) else {
        return Val::Unknown;
    };
    let values: Vec<String> = values.into_iter().map(|k| k.name).collect();
    let index: Vec<String> = index.into_iter().map(|k| k.name).collect();
    let known = |c: &String| f.has(c) == Some(true);
    if !values.iter().all(known) || !index.iter().all(known) {
        return Val::Unknown;
    }
    Val::Frame(Frame {
        width: Some(values.len() as i64),
        columns: Some(values),
        plain: true,
        index_names: Some(index.into_iter().map(Some).collect()),
        ..Frame::default()
    })
}

/// `f.melt(id_vars=[...], ...)`: the id columns, then the variable and value columns. The
/// variable column takes the name of the frame's column axis when `var_name` is not given, so
/// without it only frames built in the cell (origin unknown to the kernel, no axis name) count.
fn melted(w: &dyn Eval, f: &Frame, args: &[Expr], keywords: &[Keyword]) -> Val {
    let param = |name: &str, at: usize| kw(keywords, name).or(args.get(at));
    if args.len() > 2
        || keywords.iter().any(|k| {
            !matches!(
                k.name.as_deref(),
                Some("id_vars" | "value_vars" | "var_name" | "value_name")
            )
        })
    {
        return Val::Unknown;
    }
    let Some(cols) = &f.columns else {
        return Val::Unknown;
    };
    let mut columns: Vec<String> = match param("id_vars", 0) {
        None => Vec::new(),
        Some(e) => match keys(w, e) {
            Some(k) => k.into_iter().map(|k| k.name).collect(),
            None => return Val::Unknown,
        },
    };
    if columns.iter().any(|c| !cols.contains(c)) {
        return Val::Unknown;
    }
    let name = |param: &str| kw(keywords, param).map(|e| e.as_str_literal().map(str::to_string));
    let variable = match name("var_name") {
        Some(Some(v)) => v,
        None if f.origin.is_none() => "variable".to_string(),
        _ => return Val::Unknown,
    };
    let value = match name("value_name") {
        Some(Some(v)) => v,
        None => "value".to_string(),
        _ => return Val::Unknown,
    };
    columns.push(variable);
    columns.push(value);
    Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        plain: true,
        index_names: unnamed_index(),
        ..Frame::default()
    })
}

/// `reset_index()`: the index's levels become the first columns, under their names, or for an
/// unnamed RangeIndex, one column named `index` (`level_0` when `index` is taken).
fn index_as_column(f: &Frame) -> Val {
    let Some(cols) = &f.columns else {
        return Val::Unknown;
    };
    if let Some(keys) = f.index_keys() {
        return match keys_in_front(&keys, cols) {
            Some(columns) => Val::Frame(Frame {
                width: Some(columns.len() as i64),
                columns: Some(columns),
                index_class: Some("RangeIndex".into()),
                index_names: unnamed_index(),
                index_labels: None,
                row_numbers: Some(RowNumbers::FRESH),
                ..f.clone()
            }),
            None => Val::Unknown,
        };
    }
    // (A RangeIndex the kernel reported may have a name, unless it says which.)
    let unnamed = match &f.index_names {
        Some(names) => *names == [None],
        None => f.origin.is_none(),
    };
    if !unnamed || f.index_class.as_deref() != Some("RangeIndex") {
        return Val::Unknown;
    }
    let Some(name) = ["index", "level_0"]
        .into_iter()
        .find(|n| !cols.iter().any(|c| c == n))
    else {
        return Val::Unknown;
    };
    let mut columns = vec![name.to_string()];
    columns.extend(cols.iter().cloned());
    Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        column_info: f.column_info.clone(),
        n_rows: f.n_rows,
        index_class: Some("RangeIndex".into()),
        index_names: unnamed_index(),
        index_labels: None,
        row_numbers: Some(RowNumbers::FRESH),
        ..f.clone()
    })
}

/// The groupby keys in front of `columns`, as `reset_index()` and `as_index=False` put them;
/// `None` when a key is also a column (`reset_index` raises ValueError: already exists).
fn keys_in_front(keys: &[String], columns: &[String]) -> Option<Vec<String>> {
    if keys.iter().any(|k| columns.contains(k)) {
        return None;
    }
    Some(keys.iter().chain(columns).cloned().collect())
}

/// Reductions of a groupby that give one value per group and column (or of the selected
/// column), called without arguments: `mean`, `sum`, `count`, ...
const GROUP_REDUCTIONS: &[&str] = &[
    "sum", "mean", "median", "min", "max", "count", "first", "last", "std", "var", "sem", "prod",
    "any", "all",
];

/// What a method of `df.groupby(keys)` gives, as far as columns go: reductions keep the value
/// columns (those not keys, or those selected); `agg` with a dict of single functions the dict's
/// keys, with named aggregations their names; the keys are the index (`reset_index()` brings
/// them back), or columns in front with `as_index=False`. A list of functions (columns of two
/// levels), arguments or anything else: unknown.
pub fn grouped_result(g: &Grouped, method: &str, args: &[Expr], keywords: &[Keyword]) -> Val {
    let Some(columns) = &g.frame.columns else {
        return Val::Unknown;
    };
    let (values, series) = match &g.selection {
        None => (
            columns
                .iter()
                .filter(|c| !g.keys.contains(c))
                .cloned()
                .collect(),
            None,
        ),
        Some(GroupSelection::Columns(cols)) => (cols.clone(), None),
        Some(GroupSelection::Column(col)) => (vec![col.clone()], Some(col.clone())),
    };
    // (A key selected as well may stay among the columns.)
    if values.iter().any(|c| g.keys.contains(c)) {
        return Val::Unknown;
    }
    let single_function = |e: &Expr| e.as_str_literal().is_some();
    let out: Vec<String> = match (method, args, keywords) {
        (m, [], []) if GROUP_REDUCTIONS.contains(&m) => values,
        ("agg" | "aggregate", [f], []) if single_function(f) => values,
        ("agg" | "aggregate", [Expr::Dict { keys, values, .. }], []) if series.is_none() => {
            if !values.iter().all(single_function) {
                return Val::Unknown;
            }
            let Some(names) = keys
                .iter()
                .map(|k| k.as_ref()?.as_str_literal().map(str::to_string))
                .collect::<Option<Vec<String>>>()
            else {
                return Val::Unknown;
            };
            names
        }
        // Named aggregation: `agg(total=('amount', 'sum'))`, one column per keyword.
        ("agg" | "aggregate", [], kws) if series.is_none() && !kws.is_empty() => {
            let named = kws.iter().all(|k| {
                matches!(&k.value, Expr::Seq { kind: SeqKind::Tuple, elts, .. }
                    if elts.len() == 2 && elts.iter().all(single_function))
            });
            if !named {
                return Val::Unknown;
            }
            kws.iter().filter_map(|k| k.name.clone()).collect()
        }
        _ => return Val::Unknown,
    };
    // A reduction of one selected column is a Series named after it (with `as_index=False`, a
    // frame of the keys and the column).
    if let (Some(name), Some(true)) = (series, g.as_index) {
        return Val::Series(SeriesVal {
            name: Some(name),
            index_keys: Some(g.keys.clone()),
            ..SeriesVal::default()
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    if !out.iter().all(|c| seen.insert(c.clone())) {
        return Val::Unknown;
    }
    let frame = |columns: Vec<String>, index_keys: Option<Vec<String>>| {
        Val::Frame(Frame {
            width: Some(columns.len() as i64),
            columns: Some(columns),
            plain: true,
            index_class: index_keys.is_none().then(|| "RangeIndex".to_string()),
            row_numbers: index_keys.is_none().then_some(RowNumbers::FRESH),
            index_names: match index_keys {
                Some(keys) => Some(keys.into_iter().map(Some).collect()),
                None => unnamed_index(),
            },
            ..Frame::default()
        })
    };
    match g.as_index {
        Some(true) => frame(out, Some(g.keys.clone())),
        Some(false) => match keys_in_front(&g.keys, &out) {
            Some(columns) => frame(columns, None),
            None => Val::Unknown,
        },
        None => Val::Unknown,
    }
}

/// String keys of a literal, or of a name holding a known string (a loop over literals) or a
/// list of known strings.
pub fn keys<'e>(w: &dyn Eval, e: &'e Expr) -> Option<Vec<Key<'e>>> {
    if let Some(s) = e.as_str_literal() {
        return Some(vec![Key {
            name: s.to_string(),
            range: e.range(),
            literal: Some(e),
        }]);
    }
    if let Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    } = e
    {
        let mut out = Vec::new();
        for x in elts {
            out.push(Key {
                name: x.as_str_literal()?.to_string(),
                range: x.range(),
                literal: Some(x),
            });
        }
        return Some(out);
    }
    if let Expr::Name { range, .. } = e {
        let key = |name| Key {
            name,
            range: *range,
            literal: None,
        };
        return match w.eval(e) {
            Val::Str(s) => Some(vec![key(s)]),
            Val::Strs { type_name, items } if type_name == "list" => {
                Some(items.into_iter().map(key).collect())
            }
            _ => None,
        };
    }
    None
}

pub fn kw<'e>(keywords: &'e [Keyword], name: &str) -> Option<&'e Expr> {
    keywords
        .iter()
        .find(|k| k.name.as_deref() == Some(name))
        .map(|k| &k.value)
}

pub fn is_str(e: Option<&Expr>, value: &str) -> bool {
    e.and_then(Expr::as_str_literal) == Some(value)
}

pub fn axis_is_columns(e: Option<&Expr>) -> Option<bool> {
    match e {
        None => Some(false),
        Some(Expr::Literal {
            value: Literal::Int(i),
            ..
        }) => Some(*i == 1),
        Some(x) => match x.as_str_literal() {
            Some("columns") => Some(true),
            Some("index" | "rows") => Some(false),
            _ => None,
        },
    }
}

/// A string key with its place in the cell.
pub struct Key<'e> {
    pub name: String,
    pub range: TextRange,
    pub literal: Option<&'e Expr>,
}

/// A `drop` call with literal labels: `X.drop([10472])`, `X.drop(columns=['a'])`,
/// `X.drop('a', axis=1, inplace=True)`.
#[derive(Clone, Debug, PartialEq)]
pub struct DropSpec {
    /// Column labels (`axis=1`, `columns=`) rather than row labels.
    pub columns: bool,
    /// The labels, as Python reprs (`10472`, `'Age'`).
    pub labels: Vec<String>,
    pub inplace: bool,
    /// Dropped by the target cell itself (the kernel's summary still shows the labels).
    pub in_target: bool,
}

pub fn label_repr(e: &Expr) -> Option<String> {
    match e {
        Expr::Literal {
            value: crate::ir::Literal::Int(i),
            ..
        } => Some(i.to_string()),
        Expr::Literal {
            value: crate::ir::Literal::Str(s),
            ..
        } => Some(format!("'{s}'")),
        _ => None,
    }
}

pub fn labels_of(e: &Expr) -> Option<Vec<String>> {
    match e {
        Expr::Seq { elts, .. } if !elts.is_empty() => elts.iter().map(label_repr).collect(),
        _ => label_repr(e).map(|l| vec![l]),
    }
}

/// The frame name and what `call` drops, when it is `name.drop(...)` with literal labels and
/// none of `level=`, `errors=` or `**kwargs`.
pub fn drop_spec(call: &Expr) -> Option<(&str, DropSpec)> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = call
    else {
        return None;
    };
    let Expr::Attribute { value, attr, .. } = &**func else {
        return None;
    };
    let Expr::Name { id, .. } = &**value else {
        return None;
    };
    if attr != "drop" || args.len() > 1 || args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
        return None;
    }
    let mut labels = args.first().map(labels_of);
    let mut columns = false;
    let mut inplace = false;
    let mut axis_given = false;
    for k in keywords {
        match k.name.as_deref() {
            Some("labels") if labels.is_none() => labels = Some(labels_of(&k.value)),
            Some("index") if labels.is_none() => labels = Some(labels_of(&k.value)),
            Some("columns") if labels.is_none() => {
                labels = Some(labels_of(&k.value));
                columns = true;
            }
            Some("axis") => {
                axis_given = true;
                match &k.value {
                    Expr::Literal {
                        value: crate::ir::Literal::Int(1),
                        ..
                    } => columns = true,
                    Expr::Literal {
                        value: crate::ir::Literal::Int(0),
                        ..
                    } => {}
                    e => match e.as_str_literal() {
                        Some("columns") => columns = true,
                        Some("index" | "rows") => {}
                        _ => return None,
                    },
                }
            }
            Some("inplace") => match &k.value {
                Expr::Literal {
                    value: crate::ir::Literal::Bool(b),
                    ..
                } => inplace = *b,
                _ => return None,
            },
            _ => return None,
        }
    }
    // `axis=` with `index=`/`columns=` is an error of its own; leave it to pandas.
    let by_keyword = keywords
        .iter()
        .any(|k| matches!(k.name.as_deref(), Some("index" | "columns")));
    if axis_given && by_keyword {
        return None;
    }
    Some((
        id,
        DropSpec {
            columns,
            labels: labels??,
            inplace,
            in_target: false,
        },
    ))
}

/// `read_csv` keywords that leave its type inference alone, so that a column it returns as
/// object holds text (or booleans with missing values): `dtype=`, `converters=`, `parse_dates=`,
/// `na_filter=`, `engine=` and the others may leave numbers or other objects in one.
pub const PLAIN_READ_KEYWORDS: &[&str] = &[
    "filepath_or_buffer",
    "sep",
    "delimiter",
    "header",
    "names",
    "index_col",
    "usecols",
    "nrows",
    "skiprows",
    "encoding",
    "encoding_errors",
    "low_memory",
    "na_values",
    "on_bad_lines",
    "quotechar",
    "comment",
    "skipinitialspace",
    "skip_blank_lines",
    "compression",
];

/// The readers `Binding::Reader` stands for, once resolved.
pub const CSV_READERS: &[&str] = &["pandas.read_csv", "pandas.read_table"];

/// `reader(path, <plain keywords>)` where the callee is a name path ending in `read_csv` or
/// `read_table`: that path.
pub fn reader_call(value: &Expr) -> Option<Vec<String>> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = value
    else {
        return None;
    };
    let path = func.dotted_path()?;
    let plain = args.len() <= 1
        && !unpacks(args, keywords)
        && keywords.iter().all(|k| {
            k.name
                .as_deref()
                .is_some_and(|n| PLAIN_READ_KEYWORDS.contains(&n))
        });
    (plain && matches!(path.last(), Some(&("read_csv" | "read_table"))))
        .then(|| path.iter().map(|p| p.to_string()).collect())
}

/// Does evaluating `e` call nothing (so it changes nothing)?
pub fn calls_nothing(e: &Expr) -> bool {
    let mut none = !matches!(e, Expr::Call { .. } | Expr::Walrus { .. });
    e.for_each_child(|c| none &= calls_nothing(c));
    none
}

/// `frame.col.values`, `frame['col'].values`, `frame[['col']].values` or `.to_numpy()` of them,
/// maybe reshaped (`.reshape(-1, 1)`): the frame's name and the column. Evaluating it changes
/// nothing.
pub fn column_values(value: &Expr) -> Option<(String, String)> {
    let mut e = value;
    if let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = e
    {
        if let Expr::Attribute { value, attr, .. } = &**func {
            if attr == "reshape" && keywords.is_empty() && args.iter().all(calls_nothing) {
                e = value;
            }
        }
    }
    let series = match e {
        Expr::Attribute { value, attr, .. } if attr == "values" => value,
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } if args.is_empty() && keywords.is_empty() => match &**func {
            Expr::Attribute { value, attr, .. } if attr == "to_numpy" => value,
            _ => return None,
        },
        _ => return None,
    };
    let (frame, column) = match &**series {
        Expr::Attribute { value, attr, .. } if !is_frame_attribute(attr) => (value, attr.as_str()),
        Expr::Subscript { value, index, .. } => {
            let label = match &**index {
                Expr::Seq {
                    kind: SeqKind::List,
                    elts,
                    ..
                } if elts.len() == 1 => elts[0].as_str_literal(),
                other => other.as_str_literal(),
            };
            (value, label?)
        }
        _ => return None,
    };
    match &**frame {
        Expr::Name { id, .. } => Some((id.clone(), column.to_string())),
        _ => None,
    }
}

/// Modules whose import adds methods or accessors to every DataFrame.
pub const EXTENDS_PANDAS: &[&str] = &[
    "janitor",
    "pyjanitor",
    "pandas_flavor",
    "hvplot",
    "pandas_ta",
    "swifter",
    "cufflinks",
    "pandarallel",
    "pandas_profiling",
    "ydata_profiling",
    "dtale",
    "sidetable",
    "pandas_bokeh",
    "woodwork",
    "pandera",
    "mitosheet",
    "pandasgui",
    "pyspark",
    "modin",
    "vectorbt",
    "plydata",
    "dfply",
    "siuba",
    "datatable",
    "polars",
];

/// `pd.DataFrame`, `pandas.Series`, `DataFrame`.
pub fn is_frame_class(e: &Expr) -> bool {
    e.dotted_path()
        .and_then(|p| p.last().copied())
        .is_some_and(|last| matches!(last, "DataFrame" | "Series"))
}

/// The array `.values` of a frame (rows by columns) or Series (its length) gives, when its size
/// is known; a Series' values may be a pandas array rather than an ndarray.
pub fn values_array(v: &Val) -> Option<ArrayVal> {
    match v {
        Val::Frame(f) => Some(ArrayVal {
            has_nan: f.has_nan,
            ..ArrayVal::new(ArrayLib::Numpy, vec![f.n_rows?, f.n_columns()?], None)
        }),
        Val::Series(s) => Some(ArrayVal {
            maybe_not_ndarray: true,
            ..ArrayVal::new(ArrayLib::Numpy, vec![s.len?], None)
        }),
        _ => None,
    }
}
