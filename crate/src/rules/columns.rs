//! `missing-column`: a column key that is not in a frame whose complete column list is known.
//! `df['c']`, `df[['a', 'c']]`, `df.c`, `df.loc[:, 'c']`, `drop(columns=...)`, `sort_values(by=...)`,
//! `groupby(...)`, `set_index`, `dropna(subset=...)`, `astype({...})`, `agg({...})`,
//! `rename(columns=..., errors='raise')`, and a grouped frame's `gb['c']`; `df.at[row, 'c']`, and
//! the column parameters of the methods and functions of `KEY_PARAMETERS` (`pivot_table`, `melt`,
//! `merge`, `drop_duplicates`, `value_counts`, `nlargest`, ...).
//!
//! Not errors, and never flagged: `df['new'] = ...`, `df.get('c')`, `drop(..., errors='ignore')`,
//! `rename` of absent keys (the default `errors='ignore'`), row labels, integer keys, frames whose
//! column list was cut or holds tuples, and `by=` names when an index level could carry the name.

use crate::semantics::pandas::is_frame_attribute;
use std::collections::BTreeMap;

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::ir::{Expr, Keyword, Literal, SeqKind, TextRange};

use super::{list_preview, suggest};
use crate::ir_scan::{str_list, unpacks};
use crate::semantics::abstract_value::{Column, Frame, Val};
use crate::walker::state::Walker;

/// A string key with its place in the cell.
struct Key<'e> {
    name: String,
    range: TextRange,
    literal: Option<&'e Expr>,
}

/// String keys of a literal or of a name holding a known string (a loop over literals).
fn keys<'e>(w: &Walker, e: &'e Expr) -> Option<Vec<Key<'e>>> {
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
        if let Val::Str(s) = w.eval(e) {
            return Some(vec![Key {
                name: s,
                range: *range,
                literal: None,
            }]);
        }
    }
    None
}

fn kw<'e>(keywords: &'e [Keyword], name: &str) -> Option<&'e Expr> {
    keywords
        .iter()
        .find(|k| k.name.as_deref() == Some(name))
        .map(|k| &k.value)
}

fn is_str(e: Option<&Expr>, value: &str) -> bool {
    e.and_then(Expr::as_str_literal) == Some(value)
}

fn axis_is_columns(e: Option<&Expr>) -> Option<bool> {
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

fn frame_name<'s>(w: &'s Walker, e: &Expr, f: &'s Frame) -> &'s str {
    w.shown(e, f.origin.as_deref().unwrap_or("the frame"))
}

fn missing(
    w: &Walker,
    frame_expr: &Expr,
    f: &Frame,
    keys: Vec<Key>,
    what: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(cols) = f.columns.as_ref() else {
        return;
    };
    for key in keys {
        if cols.contains(&key.name) {
            continue;
        }
        let name = frame_name(w, frame_expr, f);
        let mut msg = format!(
            "{what}'{}' is not a column of {name} ({} column{}: {})",
            key.name,
            cols.len(),
            if cols.len() == 1 { "" } else { "s" },
            list_preview(cols, 8)
        );
        // A column known to be dropped gets no "did you mean": another column is no fix.
        let dropped = if w.ctx.ran && w.ctx.cell.dropped.contains(&key.name) {
            msg.push_str("; this cell dropped it when it ran");
            true
        } else if w.ctx.history.dropped.contains(&key.name) {
            msg.push_str("; an earlier cell dropped it");
            true
        } else {
            false
        };
        let suggestion = suggest(&key.name, cols.iter().map(String::as_str)).filter(|_| !dropped);
        let mut d = Diagnostic::error(Rule::MissingColumn, String::new(), key.range);
        if let Some(s) = suggestion {
            msg.push_str(&format!("; did you mean '{s}'?"));
            if let Some(lit) = key.literal {
                let text = w.text(lit.range());
                let quote = if text.ends_with('"') { '"' } else { '\'' };
                if !text.starts_with(['f', 'F', 'r', 'R', 'b', 'B']) {
                    d = d.with_fix(Fix {
                        message: format!("Use column '{s}'"),
                        edits: vec![Edit {
                            range: lit.range(),
                            content: format!("{quote}{s}{quote}"),
                        }],
                        run_cells: vec![],
                    });
                }
            }
        }
        msg.push_str(": KeyError");
        d.message = msg;
        out.push(d);
        return;
    }
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Subscript { value, index, .. } => {
            match w.eval(value) {
                Val::Frame(f) => {
                    if let Some(k) = keys(w, index) {
                        missing(w, value, &f, k, "", out);
                    }
                }
                Val::GroupBy(f) => {
                    if let Some(k) = keys(w, index) {
                        missing(w, value, &f, k, "", out);
                    }
                }
                _ => {}
            }
            // `df.loc[rows, cols]`
            if let Expr::Attribute {
                value: base, attr, ..
            } = &**value
            {
                if attr == "loc" || attr == "at" {
                    if let (
                        Val::Frame(f),
                        Expr::Seq {
                            kind: SeqKind::Tuple,
                            elts,
                            ..
                        },
                    ) = (w.eval(base), &**index)
                    {
                        if elts.len() == 2 {
                            if let Some(k) = keys(w, &elts[1]) {
                                missing(w, base, &f, k, "", out);
                            }
                        }
                    }
                }
            }
        }
        Expr::Attribute { value, attr, range } => {
            if let Val::Frame(f) = w.eval(value) {
                // Subclasses (GeoDataFrame) and libraries that register accessors or methods
                // (`tqdm.pandas()`, pandarallel, hvplot, ...) add attributes.
                if !f.plain || w.pandas_extended || is_extension_attribute(attr) {
                    return;
                }
                if let Some(cols) = &f.columns {
                    if !attr.starts_with('_')
                        && !is_frame_attribute(attr)
                        && !cols.iter().any(|c| c == attr)
                    {
                        let name = frame_name(w, value, &f);
                        let mut msg = format!(
                            "'{attr}' is neither a column of {name} ({} columns: {}) nor a DataFrame attribute",
                            cols.len(),
                            list_preview(cols, 8)
                        );
                        if let Some(s) = suggest(attr, cols.iter().map(String::as_str)) {
                            msg.push_str(&format!("; did you mean '{s}'?"));
                        }
                        msg.push_str(": AttributeError");
                        let start = range.end.saturating_sub(attr.len() as u32);
                        out.push(Diagnostic::error(
                            Rule::MissingColumn,
                            msg,
                            TextRange::new(start, range.end),
                        ));
                    }
                }
            }
        }
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } => {
            if unpacks(args, keywords) {
                return;
            }
            if let Some(path) = w.lib_path(func) {
                let name = path.strip_prefix("pandas.").unwrap_or("");
                let Some((_, first)) = PANDAS_FUNCTIONS.iter().find(|(f, _)| *f == name) else {
                    return;
                };
                if let Some(data) = args.first().or_else(|| kw(keywords, first)) {
                    let rest = args.get(1..).unwrap_or_default();
                    key_parameters(w, name, data, rest, keywords, out);
                }
                return;
            }
            let Expr::Attribute { value, attr, .. } = &**func else {
                return;
            };
            let base = w.eval(value);
            // `get_dummies` is a function of pandas only.
            if attr != "get_dummies" && KEY_PARAMETERS.iter().any(|p| p.method == attr) {
                key_parameters(w, attr, value, args, keywords, out);
                return;
            }
            let f = match &base {
                Val::Frame(f) => f,
                Val::GroupBy(f) if matches!(attr.as_str(), "agg" | "aggregate") => f,
                _ => return,
            };
            let mut check_keys = |e: Option<&Expr>, what: &str| {
                if let Some(k) = e.and_then(|e| keys(w, e)) {
                    missing(w, value, f, k, what, out);
                }
            };
            match attr.as_str() {
                "drop" => {
                    if is_str(kw(keywords, "errors"), "ignore")
                        || kw(keywords, "errors").is_some_and(|e| e.as_str_literal().is_none())
                    {
                        return;
                    }
                    check_keys(kw(keywords, "columns"), "dropped column ");
                    let labels = kw(keywords, "labels").or(args.first());
                    let axis = kw(keywords, "axis").or(args.get(1));
                    if axis_is_columns(axis) == Some(true) {
                        check_keys(labels, "dropped column ");
                    }
                }
                "sort_values" => {
                    if !index_unnamed(w, f) || kw(keywords, "axis").is_some() {
                        return;
                    }
                    check_keys(kw(keywords, "by").or(args.first()), "sort key ");
                }
                "groupby" if matches!(base, Val::Frame(_)) => {
                    if !index_unnamed(w, f)
                        || kw(keywords, "level").is_some()
                        || kw(keywords, "axis").is_some()
                        || args.len() > 1
                    {
                        return;
                    }
                    let by = kw(keywords, "by").or(args.first());
                    if by.is_some_and(|e| may_be_group_values(f, e)) {
                        return;
                    }
                    check_keys(by, "group key ");
                }
                "set_index" => {
                    if kw(keywords, "keys").is_none() && args.is_empty() {
                        return;
                    }
                    check_keys(kw(keywords, "keys").or(args.first()), "index key ");
                }
                "dropna" if axis_is_columns(kw(keywords, "axis")) == Some(false) => {
                    check_keys(kw(keywords, "subset"), "subset column ");
                }
                "astype" | "agg" | "aggregate" | "rename" => {
                    let dict = match attr.as_str() {
                        "rename" => {
                            if !is_str(kw(keywords, "errors"), "raise") {
                                return;
                            }
                            kw(keywords, "columns")
                        }
                        _ => kw(keywords, if attr == "astype" { "dtype" } else { "func" })
                            .or(args.first()),
                    };
                    if let Some(Expr::Dict { keys: dk, .. }) = dict {
                        let lits: Option<Vec<&Expr>> = dk.iter().map(|k| k.as_ref()).collect();
                        if let Some(lits) = lits {
                            let k: Option<Vec<Key>> = lits
                                .iter()
                                .map(|e| {
                                    Some(Key {
                                        name: e.as_str_literal()?.to_string(),
                                        range: e.range(),
                                        literal: Some(*e),
                                    })
                                })
                                .collect();
                            if let Some(k) = k {
                                missing(w, value, f, k, "", out);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The parameters of a DataFrame method that name columns, and their positions (after `self`).
struct KeyParameters {
    method: &'static str,
    params: &'static [(&'static str, Option<usize>)],
    /// Index level names are accepted too (the method groups or joins): silent unless no index
    /// could carry the name.
    levels: bool,
    what: &'static str,
}

/// From the signatures in pandas' reference (1.x to 3.x); each raises KeyError on a name that is
/// not a column.
const KEY_PARAMETERS: &[KeyParameters] = &[
    KeyParameters {
        method: "pivot_table",
        params: &[
            ("values", Some(0)),
            ("index", Some(1)),
            ("columns", Some(2)),
        ],
        levels: true,
        what: "pivot_table key ",
    },
    KeyParameters {
        method: "pivot",
        params: &[("index", None), ("columns", None), ("values", None)],
        levels: true,
        what: "pivot key ",
    },
    KeyParameters {
        method: "value_counts",
        params: &[("subset", Some(0))],
        levels: true,
        what: "value_counts column ",
    },
    KeyParameters {
        method: "merge",
        params: &[("on", None), ("left_on", None)],
        levels: true,
        what: "merge key ",
    },
    KeyParameters {
        method: "drop_duplicates",
        params: &[("subset", Some(0))],
        levels: false,
        what: "subset column ",
    },
    KeyParameters {
        method: "duplicated",
        params: &[("subset", Some(0))],
        levels: false,
        what: "subset column ",
    },
    KeyParameters {
        method: "nlargest",
        params: &[("columns", Some(1))],
        levels: false,
        what: "nlargest column ",
    },
    KeyParameters {
        method: "nsmallest",
        params: &[("columns", Some(1))],
        levels: false,
        what: "nsmallest column ",
    },
    KeyParameters {
        method: "melt",
        params: &[("id_vars", Some(0)), ("value_vars", Some(1))],
        levels: false,
        what: "melt column ",
    },
    KeyParameters {
        method: "explode",
        params: &[("column", Some(0))],
        levels: false,
        what: "exploded column ",
    },
    KeyParameters {
        method: "pop",
        params: &[("item", Some(0))],
        levels: false,
        what: "popped column ",
    },
    KeyParameters {
        method: "get_dummies",
        params: &[("columns", None)],
        levels: false,
        what: "get_dummies column ",
    },
];

/// The pandas functions that take the frame first (`pd.pivot_table(df, ...)`), with the keyword
/// of that parameter; the others are those of the method.
const PANDAS_FUNCTIONS: &[(&str, &str)] = &[
    ("pivot_table", "data"),
    ("pivot", "data"),
    ("melt", "frame"),
    ("merge", "left"),
    ("get_dummies", "data"),
];

/// The column keys `method` of the frame `frame_expr` is given, checked against its columns (and
/// for `merge`, `on`/`right_on` against the right frame's).
fn key_parameters(
    w: &Walker,
    method: &str,
    frame_expr: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    out: &mut Vec<Diagnostic>,
) {
    let Some(spec) = KEY_PARAMETERS.iter().find(|p| p.method == method) else {
        return;
    };
    let Val::Frame(f) = w.eval(frame_expr) else {
        return;
    };
    if spec.levels && !index_unnamed(w, &f) {
        return;
    }
    for (param, at) in spec.params {
        let e = kw(keywords, param).or_else(|| at.and_then(|i| args.get(i)));
        if spec.levels && e.is_some_and(|e| may_be_group_values(&f, e)) {
            return;
        }
        if let Some(k) = e.and_then(|e| keys(w, e)) {
            let before = out.len();
            missing(w, frame_expr, &f, k, spec.what, out);
            if out.len() > before {
                return;
            }
        }
    }
    if method == "merge" {
        let Some(right) = kw(keywords, "right").or(args.first()) else {
            return;
        };
        let Val::Frame(r) = w.eval(right) else {
            return;
        };
        if !index_unnamed(w, &r) {
            return;
        }
        for param in ["on", "right_on"] {
            if let Some(k) = kw(keywords, param).and_then(|e| keys(w, e)) {
                missing(w, right, &r, k, spec.what, out);
            }
        }
    }
}

/// Does pandas' grouping take the list `e` as one value per row rather than as keys? It does
/// when the list is as long as the frame (and its items are not all columns).
fn may_be_group_values(f: &Frame, e: &Expr) -> bool {
    match e {
        Expr::Seq { elts, .. } => f.n_rows.is_none_or(|n| n == elts.len() as i64),
        _ => false,
    }
}

/// Can a `by=` name only be a column: no executed cell could have named an index, and the
/// kernel did not report an index other than a `RangeIndex`?
pub(crate) fn index_unnamed(w: &Walker, f: &Frame) -> bool {
    w.index_unnamed
        && f.index_class
            .as_deref()
            .is_none_or(|class| class == "RangeIndex")
}

/// Attributes that libraries add to every DataFrame: tqdm's `progress_apply`, pandarallel's
/// `parallel_apply`, and common accessors (hvplot, pandas_ta, swifter, cufflinks' iplot, ...).
fn is_extension_attribute(attr: &str) -> bool {
    attr.starts_with("progress_")
        || attr.starts_with("parallel_")
        || matches!(
            attr,
            "hvplot"
                | "ta"
                | "swifter"
                | "iplot"
                | "profile_report"
                | "pa"
                | "ww"
                | "geo"
                | "plot_bokeh"
                | "sparkline"
                | "stb"
                | "pandas_bokeh"
                | "vbt"
                | "pl"
                | "pp"
        )
}

/// `pd.DataFrame({'a': ..., 'b': ...})` or `pd.DataFrame(rows, columns=['a', 'b'])`: a frame whose
/// columns are the dict's keys, or the `columns` given (which select from a dict, or name the rows'
/// fields).
pub fn new_frame(w: &Walker, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    match path {
        "pandas.Series" => return super::frames::new_series(w, args, keywords),
        "pandas.concat" => return concatenated(w, args, keywords),
        _ => {}
    }
    if path != "pandas.DataFrame" || args.len() > 1 || unpacks(args, keywords) {
        return None;
    }
    let data = w.eval(kw(keywords, "data").or(args.first())?);
    let columns = match kw(keywords, "columns") {
        Some(columns) => match w.eval(columns) {
            Val::Strs { items, .. } => items,
            _ => return None,
        },
        None => match &data {
            Val::Dict { keys, values } => {
                let mut frame = dict_frame(keys.clone(), values);
                if kw(keywords, "index").is_none() {
                    frame.index_class = Some("RangeIndex".into());
                }
                if frame.n_rows.is_some() && kw(keywords, "dtype").is_none() {
                    for (col, v) in keys.iter().zip(values) {
                        frame.column_info.entry(col.clone()).or_default().dtype =
                            super::frames::literal_dtype(v).map(str::to_string);
                    }
                }
                return Some(Val::Frame(frame));
            }
            _ => return None,
        },
    };
    Some(Val::Frame(Frame {
        width: Some(columns.len() as i64),
        columns: Some(columns),
        plain: true,
        ..Frame::default()
    }))
}

/// `pd.concat([a, b])` of frames of known columns: rows stacked, the union of the columns
/// (`join='inner'`: those all share); `axis=1`: the columns side by side.
fn concatenated(w: &Walker, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
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
        ..Frame::default()
    }))
}

/// The length and the facts of a column (or Series) given as values written in the cell: a list
/// of strings, or numbers (with NaN) numpy reads as a 1-D array.
pub(super) fn literal_column(value: &Val) -> Option<(i64, Column)> {
    match value {
        Val::Strs { type_name, items } if type_name == "list" => Some((
            items.len() as i64,
            Column {
                str_examples: items.clone(),
                has_nan: Some(false),
                non_integer: None,
                dtype: None,
            },
        )),
        v => {
            let a = crate::semantics::numpy::literal_array(v).filter(|a| a.shape.len() == 1)?;
            Some((
                a.shape[0],
                Column {
                    str_examples: Vec::new(),
                    has_nan: a.has_nan,
                    non_integer: a.non_integer,
                    dtype: None,
                },
            ))
        }
    }
}

/// `pd.DataFrame({'a': [...], ...})`: with lists of strings or numbers written in the cell, the
/// rows, the strings and the NaN of each column are known too.
fn dict_frame(keys: Vec<String>, values: &[Val]) -> Frame {
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

/// The frame a pandas method returns, as far as columns go.
pub fn frame_method_result(
    w: &Walker,
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
            } else if let Val::Str(s) = w.eval(target) {
                removed.push(s);
            } else {
                return Val::Unknown;
            }
            let Some(cols) = &f.columns else {
                return Val::Unknown;
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
        _ if inplace && !matches!(method, "rename" | "set_index") => Val::Unknown,
        // The keys become the index (`drop=True`, the default, removes them from the columns).
        "set_index" if kw(keywords, "drop").is_none() && args.len() <= 1 => {
            let Some(keys) = kw(keywords, "keys")
                .or(args.first())
                .and_then(|k| keys(w, k))
            else {
                return Val::Unknown;
            };
            let Some(cols) = &f.columns else {
                return Val::Unknown;
            };
            if keys.iter().any(|k| !cols.contains(&k.name)) {
                return Val::Unknown;
            }
            let keep: Vec<String> = cols
                .iter()
                .filter(|c| !keys.iter().any(|k| k.name == **c))
                .cloned()
                .collect();
            Val::Frame(Frame {
                index_class: None,
                ..f.select(&keep)
            })
        }
        "head" | "tail" | "sample" | "drop_duplicates" | "nlargest" | "nsmallest" | "query" => {
            same(false, true, false)
        }
        "sort_values" | "sort_index" | "copy" => same(true, true, true),
        "round" | "abs" | "clip" | "infer_objects" | "convert_dtypes" => same(true, false, true),
        "replace" | "fillna" | "ffill" | "bfill" | "interpolate" => same(true, false, false),
        "dropna" => {
            if axis_is_columns(kw(keywords, "axis")) == Some(false) {
                same(false, true, false)
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
                same(true, true, true)
            } else {
                Val::Unknown
            }
        }
        "rename" => {
            if !args.is_empty() || kw(keywords, "mapper").is_some() {
                return Val::Unknown;
            }
            let Some(cols_expr) = kw(keywords, "columns") else {
                return if kw(keywords, "index").is_some() {
                    same(true, true, true)
                } else {
                    Val::Unknown
                };
            };
            let Expr::Dict { keys, values, .. } = cols_expr else {
                return Val::Unknown;
            };
            let Some(cols) = &f.columns else {
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
            Val::Frame(Frame {
                columns: Some(renamed),
                column_info: Default::default(),
                ..f.clone()
            })
        }
        "assign" => {
            if !args.is_empty() {
                return Val::Unknown;
            }
            let Some(cols) = &f.columns else {
                return Val::Unknown;
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
        "join" => super::join::joined(w, f, args, keywords),
        "groupby" => {
            let by = kw(keywords, "by").or(args.first());
            let ok = by
                .and_then(|b| keys(w, b))
                .is_some_and(|k| k.iter().all(|k| f.has(&k.name) == Some(true)));
            if ok
                && args.len() <= 1
                && kw(keywords, "level").is_none()
                && kw(keywords, "axis").is_none()
            {
                Val::GroupBy(f.clone())
            } else {
                Val::Unknown
            }
        }
        _ => Val::Unknown,
    }
}
