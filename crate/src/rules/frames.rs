//! pandas contracts on positions and dtypes of frames and Series whose facts are known (built in
//! the cell from literals, or summarised by the kernel).
//!
//! - `index-out-of-range`: `df.iloc[i]`, `df.iloc[i, j]`, `df.iloc[:, j]`, `df.iloc[[i, k]]`,
//!   `df.iat[i, j]`, `s.iloc[i]` with an integer position past the known number of rows or
//!   columns: IndexError (slices never raise); `s[mask]` of a list of bools or a numpy bool
//!   array of another length than the Series: IndexError.
//! - `frame-length`: `df[mask]` of such a mask of another length than the rows: ValueError
//!   ("Item wrong length").
//! - `missing-attribute`: the `.str` accessor of a Series of numbers or booleans, and the `.dt`
//!   and `.cat` accessors of a Series of numbers, booleans, strings or `object` values (they look
//!   at the dtype only, dates in an `object` column too): AttributeError ("Can only
//!   use .str accessor with string values"); `df.append`, `iteritems` and the other methods
//!   pandas 2 removed, when the kernel's `str` dtype shows it runs pandas 2 or later; the
//!   methods only DataFrames have (`set_index`, `merge`, `iterrows`, ...) on a Series.
//! - `bad-arguments`: the keywords only DataFrame methods take (`sort_values(by=)`,
//!   `dropna(subset=)`, `rename(columns=)`, ...) given to a Series: TypeError.
//! - `frame-length`: `df['c'] = [...]` (a list, tuple or array) of another length than the known
//!   number of rows, `df.columns = [...]` / `df.index = [...]` of another length than the
//!   columns or rows, `pd.DataFrame(array or list of rows, columns=,
//!   index=)` naming another number of columns or rows than the data has, `pd.DataFrame({...})`
//!   of lists of different lengths or of another length than `index=`, `pd.Series(values,
//!   index=)` of another length: ValueError.
//! - `bad-arguments`: `pd.concat(a, b)` of frames not in a list, `pd.concat([a, 1])` of a number
//!   or string element (None is left out): TypeError; `pd.concat(frames)` of a list certainly
//!   empty: ValueError ("No objects to concatenate").
//! - `operand-type`: arithmetic (`+ - / // **`) of a Series of strings with numbers, or of a
//!   Series of numbers with strings: TypeError.
//! - `value-conversion`: numeric reductions (`mean`, `std`, `quantile`, `diff`, ...) of a Series
//!   of strings, and of a kernel frame or its groups holding a `str` column, and `corr`/`cov` of
//!   such a frame, without `numeric_only=True`: TypeError / ValueError. Frame-wide ones (also
//!   `agg('mean')` and those of groups) are certain for the `str` dtype the kernel reports, or a
//!   text column the code wrote when the kernel runs pandas 2 or later; likely when the kernel's
//!   pandas is not known: pandas 1 left text columns out silently.
//! - `join-overlap`: `df.insert(loc, 'c', v)` of a column the frame has, `reindex` of a frame
//!   whose index repeats a label, `pivot` of repeated pairs (ValueError); `frame-length`:
//!   `df.insert` / `df.assign(c=[...])` of values of another length than the rows, `set_axis`
//!   of another number of labels than the axis; `index-out-of-range`: `df.insert` past the
//!   columns.
//! - `value-conversion`: numeric work on a Series of text (`nlargest`, `abs`, `clip`, `np.log`
//!   and kin, window aggregations, `interpolate` from pandas 3), `corrwith` of a frame with a
//!   text column; `pd.to_datetime` / `pd.Timestamp` of literal text that is no date or that a
//!   literal format cannot read.

use super::{kernel_release_within, KernelRelease};
use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{argument, Expr, Keyword, SeqKind, TextRange};
use crate::semantics::pandas::{
    axis_is_columns, kw, literal_dtype, literal_len, FRAME_ONLY_ATTRIBUTES, FRAME_ONLY_KEYWORDS,
    REMOVED_BY_PANDAS_2,
};

use crate::semantics::abstract_value::{not_a_float, text_keys, Frame, GroupSelection, Val};
use crate::semantics::eval::int_of;
use crate::summary::tuple_text;
use crate::walker::state::Walker;

/// The dtype of the Series `e` holds, when certain: a column of a frame whose column dtypes are
/// known (`df['a']`, `df.a`), or a Series the kernel summarised that the cell has not rebound.
fn series_dtype(w: &Walker, e: &Expr) -> Option<String> {
    if let Val::Series(s) = w.eval(e) {
        if s.dtype.is_some() {
            return s.dtype;
        }
    }
    let column_of = |frame: &Expr, col: &str| match w.eval(frame) {
        Val::Frame(f) if f.has(col) == Some(true) && f.plain => {
            f.column_info.get(col)?.dtype.clone()
        }
        _ => None,
    };
    match e {
        Expr::Subscript { value, index, .. } => match w.eval(index) {
            Val::Str(col) => column_of(value, &col),
            _ => None,
        },
        Expr::Attribute { value, attr, .. }
            if !crate::semantics::pandas::is_frame_attribute(attr) =>
        {
            column_of(value, attr)
        }
        // `pd.Series([1, 2])`
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } if w.lib_path(func).as_deref() == Some("pandas.Series")
            && args.len() == 1
            && keywords.is_empty() =>
        {
            literal_dtype(&w.eval(&args[0])).map(str::to_string)
        }
        Expr::Name { id, .. } if !w.bound_here.contains(id) => {
            if !matches!(w.get(id), Val::Series(_)) {
                return None;
            }
            let obj = w.ctx.summaries?.objects.get(id)?;
            let type_name = crate::semantics::abstract_value::normalize_type(&obj.type_name);
            (obj.kind == "series" && obj.error.is_none() && type_name.ends_with(".Series"))
                .then(|| obj.str_fact(crate::summary::Category::R, "dtype"))??
                .to_string()
                .into()
        }
        _ => None,
    }
}

/// Is `dtype` one of numbers or booleans (numpy's, and pandas' nullable ones)?
fn numeric(dtype: &str) -> bool {
    let d = dtype.to_ascii_lowercase();
    ["int", "uint", "float", "bool", "complex"]
        .iter()
        .any(|p| d.starts_with(p))
}

/// The accessors that need a dtype the Series lacks, and what they need.
fn accessor_problem(attr: &str, dtype: &str) -> Option<&'static str> {
    // `.dt` and `.cat` look at the dtype only: an `object` column fails even when it holds
    // dates (`.str` looks at the values and takes text in `object` columns).
    let strings = matches!(dtype, "str" | "string" | "object");
    match attr {
        "str" if numeric(dtype) => Some("string values"),
        "dt" if numeric(dtype) || strings => Some("datetimelike values"),
        "cat" if numeric(dtype) || strings => Some("a 'category' dtype"),
        _ => None,
    }
}

/// What an operand of arithmetic is, when certain: a non-empty Series of text or of numbers,
/// or a Python number or string.
#[derive(Clone, Copy, PartialEq)]
enum Operand {
    TextSeries,
    NumberSeries,
    Text,
    Number,
}

fn operand(w: &Walker, e: &Expr) -> Option<Operand> {
    match w.eval(e) {
        Val::Int(_) | Val::Float(_) => return Some(Operand::Number),
        Val::Str(_) => return Some(Operand::Text),
        Val::Series(s) if s.len.is_some_and(|n| n > 0) => {}
        _ => return None,
    }
    let dtype = series_dtype(w, e)?;
    let d = dtype.to_ascii_lowercase();
    if matches!(d.as_str(), "str" | "string") {
        Some(Operand::TextSeries)
    } else if ["int", "uint", "float"].iter().any(|p| d.starts_with(p)) {
        Some(Operand::NumberSeries)
    } else {
        None
    }
}

/// `s + 1` of a Series of text, `s - 'a'` of a Series of numbers, and the other arithmetic that
/// mixes text and numbers (`*` aside, which repeats text): TypeError.
/// The ordering comparisons (`<`, `>=`, ...) of the same mix raise TypeError too (`==` and `!=`
/// do not: they compare every value as unequal).
fn arithmetic_problem(w: &Walker, op: &str, left: &Expr, right: &Expr) -> Option<String> {
    let verb = match op {
        "+" | "-" | "/" | "//" | "**" => "combine",
        "<" | ">" | "<=" | ">=" => "compare",
        _ => return None,
    };
    let (l, r) = (operand(w, left)?, operand(w, right)?);
    let text = |o| matches!(o, Operand::Text | Operand::TextSeries);
    let series = |o| matches!(o, Operand::TextSeries | Operand::NumberSeries);
    if !(series(l) || series(r)) || text(l) == text(r) {
        return None;
    }
    // Two Series align on their index first (rows of one missing from the other become NaN):
    // columns of one frame only.
    if series(l) && series(r) {
        let frame_of = |e: &Expr| match e {
            Expr::Subscript { value, .. } | Expr::Attribute { value, .. } => {
                Some(w.text(value.range()))
            }
            _ => None,
        };
        if frame_of(left).is_none() || frame_of(left) != frame_of(right) {
            return None;
        }
    }
    let described = |e: &Expr, o| {
        let what = match o {
            Operand::TextSeries => "a Series of strings",
            Operand::NumberSeries => "a Series of numbers",
            Operand::Text => "a string",
            Operand::Number => "a number",
        };
        format!("{} is {what}", w.shown(e, "an operand"))
    };
    Some(format!(
        "{} and {}: '{op}' does not {verb} strings and numbers; convert one side first (astype, pd.to_numeric): TypeError",
        described(left, l),
        described(right, r)
    ))
}

/// The number of values of a list, tuple or 1-D numpy array (not a Series, which aligns on
/// its index).
fn values_len(v: &Val) -> Option<i64> {
    match v {
        Val::Array(a)
            if a.lib == crate::semantics::abstract_value::ArrayLib::Numpy && a.shape.len() == 1 =>
        {
            Some(a.shape[0])
        }
        Val::Strs { type_name, .. }
        | Val::Items { type_name, .. }
        | Val::Sized { type_name, .. }
            if matches!(type_name.as_str(), "list" | "tuple") =>
        {
            v.sized().map(|(_, n)| n)
        }
        _ => None,
    }
}

/// `df['c'] = values` and `df.columns = names` of another length than the frame's rows or
/// columns.
pub fn check_stmt(w: &Walker, stmt: &crate::ir::Stmt, out: &mut Vec<Diagnostic>) {
    let crate::ir::Stmt::Assign {
        targets,
        op: crate::ir::AssignOp::Plain,
        value: Some(value),
        ..
    } = stmt
    else {
        return;
    };
    let [crate::ir::Target::Store { expr, .. }] = targets.as_slice() else {
        return;
    };
    let Some(n) = values_len(&w.eval(value)) else {
        return;
    };
    let (frame, expected, what) = match expr {
        Expr::Subscript {
            value: frame,
            index,
            ..
        } if index.as_str_literal().is_some() => {
            match w.eval(frame) {
                // An empty frame takes its index from the first column assigned.
                Val::Frame(f) if f.plain && f.n_rows.is_some_and(|r| r > 0) => {
                    (frame, f.n_rows, "rows")
                }
                _ => return,
            }
        }
        Expr::Attribute {
            value: frame, attr, ..
        } if attr == "columns" => match w.eval(frame) {
            Val::Frame(f) if f.plain => (frame, f.n_columns(), "columns"),
            _ => return,
        },
        // A frame with no columns takes any index.
        Expr::Attribute {
            value: frame, attr, ..
        } if attr == "index" => match w.eval(frame) {
            Val::Frame(f) if f.plain && f.n_columns().is_some_and(|c| c > 0) => {
                (frame, f.n_rows, "index labels")
            }
            Val::Series(s) => (frame, s.len, "index labels"),
            _ => return,
        },
        _ => return,
    };
    let Some(expected) = expected.filter(|&e| e != n) else {
        return;
    };
    out.push(Diagnostic::error(
        Rule::FrameLength,
        length_mismatch(w, frame, expected, what, value, n),
        value.range(),
    ));
}

/// "df has 3 rows, but [1, 2] holds 2 values: ValueError: ...": new values for the rows (a
/// column) or for the labels of an axis (`index`, `columns`).
fn length_mismatch(
    w: &Walker,
    frame: &Expr,
    expected: i64,
    what: &str,
    values: &Expr,
    n: i64,
) -> String {
    format!(
        "{} has {expected} {what}, but {} holds {n} value{}: ValueError: {}",
        w.shown(frame, "the frame"),
        w.shown(values, "the right side"),
        if n == 1 { "" } else { "s" },
        if what == "rows" {
            format!("Length of values ({n}) does not match length of index ({expected})")
        } else {
            format!("Length mismatch: Expected axis has {expected} elements, new values have {n} elements")
        }
    )
}

/// Reductions and transforms that compute with numbers: pandas raises TypeError on text
/// ("Cannot perform reduction 'mean' with string dtype"). `sum`, `min`, `max` and `cumsum` work
/// on text (they concatenate or compare) and are not here.
const NUMERIC_REDUCTIONS: &[&str] = &[
    "mean",
    "median",
    "std",
    "var",
    "sem",
    "skew",
    "kurt",
    "kurtosis",
    "prod",
    "product",
    "quantile",
    "cumprod",
    "diff",
    "pct_change",
];

/// The first column of `f` (a plain frame) whose dtype is text, among those `keep` accepts: the
/// kernel reported `str`, or the code wrote a list of strings with one that is no number (pandas
/// 2 keeps text in `object` columns, whose reductions may still convert numbers written as text).
fn text_column(f: &Frame, keep: impl Fn(&str) -> bool) -> Option<&str> {
    if !f.plain {
        return None;
    }
    f.columns.as_ref()?.iter().map(String::as_str).find(|c| {
        keep(c)
            && f.column_info.get(*c).is_some_and(|i| {
                i.dtype.as_deref() == Some("str")
                    && (f.origin.is_some() || i.str_examples.iter().any(|s| not_a_float(s)))
            })
    })
}

/// A frame-wide numeric reduction of a frame holding a text column raises since pandas 2.0
/// (`numeric_only` defaults to False); pandas 1 left such columns out. A kernel frame's `str`
/// dtype proves pandas 2 or later; for a frame the code built, the kernel's pandas version
/// decides: pandas 1 is silence, an unknown version a likely crash.
fn since_pandas_2(
    w: &Walker,
    kernel_frame: bool,
    message: String,
    range: TextRange,
) -> Option<Diagnostic> {
    let mut d = Diagnostic::error(Rule::ValueConversion, message, range);
    if kernel_frame {
        return Some(d);
    }
    match kernel_release_within(w, "pandas", (2, 0), None) {
        KernelRelease::Within(..) => {}
        KernelRelease::Outside => return None,
        KernelRelease::Unknown => d.make_likely(
            "the kernel's pandas version is not known; pandas 1 left text columns out",
        ),
    }
    Some(d)
}

/// The reduction a call makes: `df.mean()`, or `df.agg('mean')` of one named reduction.
fn reduction_of<'a>(attr: &'a str, args: &'a [Expr]) -> Option<(&'a str, &'a [Expr])> {
    match (attr, args) {
        ("agg" | "aggregate", [name]) => Some((name.as_str_literal()?, &[])),
        _ => Some((attr, args)),
    }
}

/// `s.mean()` of a Series of strings; `df.mean()`, `df.corr()` or `df.groupby(key).mean()` of a
/// frame with a text column outside the keys, with no `numeric_only=True`.
fn text_reduction(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    let (method, args) = reduction_of(attr, args)?;
    let frame_wide = matches!(method, "corr" | "cov");
    if !(NUMERIC_REDUCTIONS.contains(&method) || frame_wide)
        || keywords
            .iter()
            .any(|k| !matches!(k.name.as_deref(), Some("axis" | "skipna")))
        || args.len() > usize::from(matches!(method, "quantile"))
    {
        return None;
    }
    let fix =
        "pass numeric_only=True, or select the numeric columns first (select_dtypes('number'))";
    let call = format!("{}.{attr}()", w.shown(value, "the frame"));
    match w.eval(value) {
        Val::Series(s) if !frame_wide && s.len != Some(0) => {
            let dtype = series_dtype(w, value)?;
            matches!(dtype.as_str(), "str" | "string").then(|| {
                Diagnostic::error(Rule::ValueConversion, format!(
                    "{} holds {dtype} values: .{method}() computes with numbers and raises TypeError: Cannot perform reduction '{method}' with string dtype; convert it first (pd.to_numeric) or pick a numeric column",
                    w.shown(value, "the Series")
                ), range)
            })
        }
        Val::Frame(f) if f.n_rows != Some(0) => {
            let column = text_column(&f, |_| true)?;
            // `diff`, `pct_change` and `cumprod` take no `numeric_only`.
            let fix = if matches!(method, "cumprod" | "diff" | "pct_change") {
                "select the numeric columns first (select_dtypes('number'))"
            } else {
                fix
            };
            let error: &str = if frame_wide {
                "ValueError: could not convert string to float"
            } else if matches!(method, "quantile" | "cumprod" | "diff" | "pct_change") {
                // Not reductions: they fail on the text's arithmetic.
                "TypeError"
            } else {
                &format!("TypeError: Cannot perform reduction '{method}' with string dtype")
            };
            since_pandas_2(
                w,
                f.origin.is_some(),
                format!(
                    "column '{column}' of {} holds text (str): {call} raises {error}; {fix}",
                    w.shown(value, "the frame"),
                ),
                range,
            )
        }
        Val::GroupBy(g) if !frame_wide && g.frame.n_rows != Some(0) => {
            // `df.groupby(keys).mean()`: the key columns are left out of what is averaged, and
            // `groupby(keys)[cols]` averages those columns only.
            let averaged = |c: &str| match &g.selection {
                None => !g.keys.iter().any(|k| k == c),
                Some(GroupSelection::Columns(cols)) => cols.iter().any(|s| s == c),
                Some(GroupSelection::Column(col)) => col == c,
            };
            let column = text_column(&g.frame, averaged)?;
            let frame = g.frame.origin.as_deref().unwrap_or("the frame");
            since_pandas_2(
                w,
                g.frame.origin.is_some(),
                format!(
                    "column '{column}' of {frame} holds text (str) and is not a group key: .{method}() of the groups raises TypeError: dtype 'str' does not support operation '{method}'; pass numeric_only=True, or select the numeric columns after groupby (groupby(...)[['a', 'b']])",
                ),
                range,
            )
        }
        _ => None,
    }
}

/// `df.insert(loc, column, value)` of a column the frame has (ValueError: cannot insert c,
/// already exists), of values of another length than its rows, or at a position past its
/// columns (IndexError); `df.assign(c=values)` of values of another length than the rows;
/// `df.set_axis(labels)` / `s.set_axis(labels)` of another number of labels than the axis has.
fn frame_method_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    let arg = |i: usize, name: &str| argument(args, keywords, i, name);
    let length = |expected: i64, what: &str, values: &Expr, n: i64| {
        Diagnostic::error(
            Rule::FrameLength,
            length_mismatch(w, value, expected, what, values, n),
            range,
        )
    };
    let receiver = w.eval(value);
    let frame = match &receiver {
        Val::Frame(f) if f.plain => Some(f),
        _ => None,
    };
    match attr.as_str() {
        "insert" => {
            let f = frame?;
            let (loc, column, values) = (arg(0, "loc")?, arg(1, "column")?, arg(2, "value")?);
            if let Val::Str(c) = w.eval(column) {
                if f.has(&c) == Some(true) && kw(keywords, "allow_duplicates").is_none() {
                    return Some(Diagnostic::error(
                        Rule::JoinOverlap,
                        format!(
                            "{} already has a column '{c}': ValueError: cannot insert {c}, already exists; assign {}['{c}'] = ... to replace it, or pass allow_duplicates=True",
                            w.shown(value, "the frame"),
                            w.shown(value, "df")
                        ),
                        range,
                    ));
                }
            }
            // pandas checks the values' length before the position.
            let n = values_len(&w.eval(values));
            if let (Some(n), Some(rows)) = (n, f.n_rows.filter(|&r| r > 0)) {
                if n != rows {
                    return Some(length(rows, "rows", values, n));
                }
            }
            let (i, c) = (int_of(w, loc)?, f.n_columns()?);
            (i > c || i < -c).then(|| {
                Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "position {i} is past the {c} column{} of {}: IndexError: loc must be an integer between -{c} and {c}",
                        if c == 1 { "" } else { "s" },
                        w.shown(value, "the frame")
                    ),
                    loc.range(),
                )
            })
        }
        "assign" => {
            let rows = frame?.n_rows.filter(|&r| r > 0)?;
            keywords.iter().find_map(|k| {
                let n = values_len(&w.eval(&k.value))?;
                (n != rows).then(|| length(rows, "rows", &k.value, n))
            })
        }
        // pandas 1 took the axis second: only `axis=` is read.
        "set_axis" if args.len() <= 1 => {
            let labels = arg(0, "labels")?;
            let n = values_len(&w.eval(labels))?;
            let columns = axis_is_columns(kw(keywords, "axis"))?;
            let (expected, what) = match (&receiver, frame) {
                (_, Some(f)) if columns => (f.n_columns(), "columns"),
                // A frame with no columns takes any index.
                (_, Some(f)) if f.n_columns().is_some_and(|c| c > 0) => (f.n_rows, "index labels"),
                (Val::Series(s), _) if !columns => (s.len, "index labels"),
                _ => return None,
            };
            let expected = expected.filter(|&e| e != n)?;
            Some(length(expected, what, labels, n))
        }
        _ => None,
    }
}

/// The number of distinct values a text column of `f` holds, when every value is known.
fn distinct_texts(f: &Frame, column: &str) -> Option<usize> {
    let info = f.column_info.get(column)?;
    if !info.all_values || info.dtype.as_deref() != Some("str") {
        return None;
    }
    Some(crate::ordered::set_of(&info.str_examples).len())
}

/// Labels that certainly repeat: more rows than the distinct labels (or pairs of values) they
/// are drawn from. `df.reindex(labels)` of a frame whose index repeats one, to labels that are
/// not its own: ValueError: cannot reindex on an axis with duplicate labels;
/// `df.pivot(index='k', columns='c')` of more rows than pairs of the two text columns' values:
/// ValueError: Index contains duplicate entries, cannot reshape.
fn repeated_labels(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let (frame, method, args) = match w.lib_path(func).as_deref() {
        Some("pandas.pivot") => (
            argument(args, keywords, 0, "data")?,
            "pivot",
            args.get(1..)?,
        ),
        Some(_) => return None,
        None => match func {
            Expr::Attribute { value, attr, .. } => (&**value, attr.as_str(), args),
            _ => return None,
        },
    };
    let Val::Frame(f) = w.eval(frame) else {
        return None;
    };
    let rows = f.n_rows.filter(|_| f.plain)?;
    let shown = w.shown(frame, "the frame");
    let message = match method {
        "reindex" if kw(keywords, "axis").is_none() => {
            let target = kw(keywords, "index").or(args.first())?;
            let Val::Strs { type_name, items } = w.eval(target) else {
                return None;
            };
            let labels = f.index_labels.as_ref()?;
            let distinct = crate::ordered::set_of(labels);
            // pandas lets a target equal to the index through.
            let other = items.len() as i64 != rows || items.iter().any(|l| !distinct.contains(l));
            if type_name != "list" || rows <= distinct.len() as i64 || !other {
                return None;
            }
            format!(
                "{shown} has {rows} rows and only {} distinct row label{}, so one repeats: ValueError: cannot reindex on an axis with duplicate labels; drop the repeats first ({shown}[~{shown}.index.duplicated()])",
                distinct.len(),
                if distinct.len() == 1 { "" } else { "s" }
            )
        }
        "pivot" => {
            let (index, columns) = (kw(keywords, "index")?, kw(keywords, "columns")?);
            let (Val::Str(index), Val::Str(columns)) = (w.eval(index), w.eval(columns)) else {
                return None;
            };
            let pairs = distinct_texts(&f, &index)? * distinct_texts(&f, &columns)?;
            if rows <= pairs as i64 {
                return None;
            }
            format!(
                "{shown} has {rows} rows but only {pairs} pair{} of '{index}' and '{columns}' values, so a pair repeats: ValueError: Index contains duplicate entries, cannot reshape; aggregate the repeats with pivot_table(index='{index}', columns='{columns}', aggfunc=...)",
                if pairs == 1 { "" } else { "s" }
            )
        }
        _ => return None,
    };
    Some(Diagnostic::error(Rule::JoinOverlap, message, range))
}

/// Is `dtype` text (pandas' `str`, or its `string` extension dtype)?
fn text_dtype(dtype: &str) -> bool {
    matches!(dtype, "str" | "string")
}

/// What windows (`s.rolling(3)`, `s.expanding()`, `s.ewm(span=3)`) compute with numbers only.
const WINDOW_AGGREGATIONS: &[&str] = &[
    "mean", "sum", "std", "var", "median", "min", "max", "skew", "kurt", "sem", "quantile",
];

/// Computing with numbers on a non-empty Series of text: `s.nlargest(n)` (also of `object`
/// values: TypeError), `s.abs()`, `s.clip(0, 1)`, `np.log(s)` (TypeError), `s.rolling(3).mean()`
/// (DataError: No numeric types to aggregate), `s.interpolate()` (TypeError from pandas 3;
/// pandas 2 only warned), and `df.corrwith(s)` of a frame with a text column (as `corr`).
fn text_numeric_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    // A Series of text holding a text value (one of NaN only passes through `abs` and
    // windows), and one that is no number (windows convert text that reads as numbers).
    let text_series = |e: &Expr, no_number: bool| match w.eval(e) {
        Val::Series(s)
            if s.len.is_some_and(|n| n > 0)
                && s.str_examples.iter().any(|t| !no_number || not_a_float(t)) =>
        {
            series_dtype(w, e).filter(|d| text_dtype(d))
        }
        _ => None,
    };
    let error = |series: &Expr, dtype: &str, what: String| {
        Diagnostic::error(
            Rule::ValueConversion,
            format!(
                "{} holds {dtype} values: {what}; convert it first (pd.to_numeric) or pick a numeric column",
                w.shown(series, "the Series")
            ),
            range,
        )
    };
    if let Some(path) = w.lib_path(func) {
        let name = path.strip_prefix("numpy.")?;
        let [series] = args else { return None };
        if !crate::semantics::numpy::MATH_REFUSING_TEXT.contains(&name) || !keywords.is_empty() {
            return None;
        }
        let dtype = text_series(series, false)?;
        return Some(error(
            series,
            &dtype,
            format!("np.{name}() computes with numbers: TypeError"),
        ));
    }
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    match attr.as_str() {
        "nlargest" | "nsmallest" if matches!(w.eval(value), Val::Series(_)) => {
            let dtype = series_dtype(w, value).filter(|d| text_dtype(d) || d == "object")?;
            Some(error(
                value,
                &dtype,
                format!("TypeError: Cannot use method '{attr}' with dtype {dtype}"),
            ))
        }
        "abs" if args.is_empty() && keywords.is_empty() => {
            let dtype = text_series(value, false)?;
            Some(error(
                value,
                &dtype,
                "TypeError: bad operand type for abs(): 'str'".into(),
            ))
        }
        "clip" => {
            let dtype = text_series(value, false)?;
            let number = |e: &Expr| matches!(w.eval(e), Val::Int(_) | Val::Float(_));
            let bounds = [
                argument(args, keywords, 0, "lower"),
                argument(args, keywords, 1, "upper"),
            ];
            bounds.iter().flatten().any(|b| number(b)).then(|| {
                error(
                    value,
                    &dtype,
                    "clip() compares the text with numbers: TypeError: '>=' not supported between instances of 'str' and 'int'".into(),
                )
            })
        }
        "interpolate" => {
            let dtype = series_dtype(w, value).filter(|d| text_dtype(d))?;
            if !matches!(w.eval(value), Val::Series(s) if s.len.is_some_and(|n| n > 0)) {
                return None;
            }
            let mut d = error(
                value,
                &dtype,
                format!("TypeError: Cannot interpolate with {dtype} dtype (pandas 3 and later)"),
            );
            match kernel_release_within(w, "pandas", (3, 0), None) {
                KernelRelease::Within(..) => {}
                KernelRelease::Outside => return None,
                KernelRelease::Unknown => {
                    d.make_likely("the kernel's pandas version is not known; pandas 2 only warned")
                }
            }
            Some(d)
        }
        "corrwith" if kw(keywords, "numeric_only").is_none() => {
            let Val::Frame(f) = w.eval(value) else {
                return None;
            };
            if f.n_rows == Some(0)
                || !matches!(
                    w.eval(argument(args, keywords, 0, "other")?),
                    Val::Series(_)
                )
            {
                return None;
            }
            let column = text_column(&f, |_| true)?;
            since_pandas_2(
                w,
                f.origin.is_some(),
                format!(
                    "column '{column}' of {} holds text (str): {}.corrwith() raises ValueError: could not convert string to float; pass numeric_only=True, or select the numeric columns first (select_dtypes('number'))",
                    w.shown(value, "the frame"),
                    w.shown(value, "the frame"),
                ),
                range,
            )
        }
        method if WINDOW_AGGREGATIONS.contains(&method) => {
            let Expr::Call { func: window, .. } = &**value else {
                return None;
            };
            let Expr::Attribute {
                value: series,
                attr: kind,
                ..
            } = &**window
            else {
                return None;
            };
            if !matches!(kind.as_str(), "rolling" | "expanding" | "ewm") {
                return None;
            }
            let dtype = text_series(series, true)?;
            Some(error(
                series,
                &dtype,
                format!(".{kind}(...).{method}() computes with numbers: pandas.errors.DataError: No numeric types to aggregate"),
            ))
        }
        _ => None,
    }
}

/// `pd.to_datetime('2020-13-45')`, `pd.Timestamp(...)`: a text written as a date (YYYY-MM-DD)
/// that is none (DateParseError); `pd.to_datetime(texts, format='%d/%m/%Y')` of a literal text
/// the literal format cannot read (ValueError: time data ... doesn't match format). Texts with
/// no digit are left alone: pandas reads 'NaT', 'nan', '' and 'now' its own way.
fn unreadable_date(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    if !matches!(path.as_str(), "pandas.to_datetime" | "pandas.Timestamp")
        || keywords
            .iter()
            .any(|k| !matches!(k.name.as_deref(), Some("format" | "arg" | "ts_input")))
        || args.len() > 1
    {
        return None;
    }
    let texts = match w.eval(argument(args, keywords, 0, "arg").or(kw(keywords, "ts_input"))?) {
        Val::Str(t) => vec![t],
        Val::Strs { type_name, items }
            if path == "pandas.to_datetime" && matches!(type_name.as_str(), "list" | "tuple") =>
        {
            items
        }
        _ => return None,
    };
    let format = match kw(keywords, "format").map(|f| w.eval(f)) {
        None => None,
        Some(Val::Str(f))
            if path == "pandas.to_datetime" && !matches!(f.as_str(), "mixed" | "ISO8601") =>
        {
            Some(f)
        }
        Some(_) => return None,
    };
    let coerce = if path == "pandas.to_datetime" {
        "; fix the text or the format, or pass errors='coerce' to make such texts NaT"
    } else {
        ""
    };
    let dated = |t: &&String| t.bytes().any(|b| b.is_ascii_digit());
    let message = match &format {
        Some(f) => {
            let t = texts
                .iter()
                .filter(dated)
                .find(|t| crate::semantics::stdlib_values::strptime_mismatch(t, f) == Some(true))?;
            format!("'{t}' does not read as the format '{f}' (pandas reads the whole text with it): ValueError{coerce}")
        }
        None => texts.iter().find_map(|t| {
            let fields: Vec<&str> = t.split('-').collect();
            let [y, m, d] = fields[..] else { return None };
            if [4, 2, 2] != [y.len(), m.len(), d.len()]
                || !t.bytes().all(|b| b.is_ascii_digit() || b == b'-')
            {
                return None;
            }
            // pandas 3 reads year 0 (its dates are no longer nanoseconds only).
            let year = y.parse().ok().filter(|&y| y > 0)?;
            let why = crate::semantics::stdlib_values::date_field_error(
                year,
                m.parse().ok()?,
                d.parse().ok()?,
            )?;
            Some(format!("'{t}' is no date ({why}): ValueError{coerce}"))
        })?,
    };
    Some(Diagnostic::error(Rule::ValueConversion, message, range))
}

/// The labels of `drop`, `rename` and `reindex` say their axis once: by `index=` / `columns=`, or
/// by the labels (the mapper) and `axis=`. Given both: `df.rename(columns={...}, axis=1)`,
/// `df.reindex(columns=[...], axis=1)` (TypeError, pandas 0.21 on), `df.drop('a',
/// columns=['b'])` (ValueError), and `df.drop(columns=['a'], axis=1)` (ValueError since pandas
/// 3.0, which checks a literal `axis=1`).
fn axis_given_twice(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    if !matches!(attr.as_str(), "drop" | "rename" | "reindex") {
        return None;
    }
    let Val::Frame(f) = w.eval(value) else {
        return None;
    };
    if !f.plain || crate::ir_scan::unpacks(args, keywords) {
        return None;
    }
    // A value that is not None (the default of each): not None itself, nor a name the walker
    // does not follow, which may hold None.
    let given = |e: &Expr| match w.eval(e) {
        Val::None => false,
        Val::Unknown => !matches!(e, Expr::Name { .. }),
        _ => true,
    };
    let named = |name: &str| {
        keywords
            .iter()
            .find(|k| k.name.as_deref() == Some(name))
            .map(|k| &k.value)
    };
    let by_axis = ["index", "columns"]
        .into_iter()
        .find(|n| named(n).is_some_and(given))?;
    let shown = w.shown(value, "the frame");
    if attr != "drop" {
        if !named("axis").is_some_and(given) {
            return None;
        }
        return Some(Diagnostic::error(
            Rule::BadArguments,
            format!("{shown}.{attr}() is given both {by_axis}= and axis=, which say the same: TypeError: Cannot specify both 'axis' and any of 'index' or 'columns'; drop axis="),
            range,
        ));
    }
    if args.first().or(named("labels")).is_some_and(given) {
        return Some(Diagnostic::error(
            Rule::BadArguments,
            format!("{shown}.drop() is given both labels and {by_axis}=: ValueError: Cannot specify both 'labels' and 'index'/'columns'; pass the labels as {by_axis}=[...]"),
            range,
        ));
    }
    let Some(Val::Int(1)) = named("axis").map(|e| w.eval(e)) else {
        return None;
    };
    let mut d = Diagnostic::error(
        Rule::BadArguments,
        format!("{shown}.drop() is given both {by_axis}= and axis=1: ValueError: Cannot specify both 'axis' and 'index'/'columns'; drop axis=1"),
        range,
    );
    match kernel_release_within(w, "pandas", (3, 0), None) {
        KernelRelease::Within(why) => d.message = format!("{} ({why})", d.message),
        KernelRelease::Outside => return None,
        KernelRelease::Unknown => {
            d.make_likely("the kernel's pandas version is not known; pandas 2 ignored axis= here")
        }
    }
    Some(d)
}

/// `df['a'].set_index(...)`: a method only DataFrames have, on a Series.
fn frame_only_attribute(w: &Walker, value: &Expr, attr: &str) -> Option<String> {
    if !FRAME_ONLY_ATTRIBUTES.contains(&attr) || w.pandas_extended {
        return None;
    }
    let Val::Series(_) = w.eval(value) else {
        return None;
    };
    let shown = w.shown(value, "the Series");
    Some(format!(
        "{shown} is a Series, and .{attr} belongs to DataFrames: AttributeError: 'Series' object has no attribute '{attr}'{}",
        column_selection_hint(w, value)
    ))
}

/// Methods of `str` that Series and DataFrames lack: pandas puts them under the `.str` accessor
/// of a Series (`s.str.lower()`), which a DataFrame does not have.
const TEXT_METHODS: &[&str] = &[
    "lower",
    "upper",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "rsplit",
    "startswith",
    "endswith",
    "find",
    "title",
    "capitalize",
    "isdigit",
    "isnumeric",
    "isalpha",
    "isalnum",
    "zfill",
    "contains",
    "len",
    "encode",
    "decode",
    "partition",
    "center",
    "ljust",
    "rjust",
    "isupper",
    "islower",
    "swapcase",
    "casefold",
];

/// `s.lower()` of a Series (`s.str.lower()`), `df.str` and `df.lower()` of a DataFrame.
fn text_method_without_accessor(
    w: &Walker,
    value: &Expr,
    attr: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    if w.pandas_extended {
        return None;
    }
    let shown = w.shown(value, "the object");
    match w.eval(value) {
        Val::Series(_) if TEXT_METHODS.contains(&attr) || attr == "join" => {
            let at = range.end - attr.len() as u32;
            Some(
                Diagnostic::error(
                    Rule::MissingAttribute,
                    format!("{shown} is a Series, and text methods are under its .str accessor: AttributeError: 'Series' object has no attribute '{attr}'; use {shown}.str.{attr}"),
                    range,
                )
                .with_fix(Fix::replace(format!("Use .str.{attr}"), TextRange::new(at, at), "str.")),
            )
        }
        Val::Frame(f) if f.plain && (attr == "str" || TEXT_METHODS.contains(&attr)) => {
            Some(Diagnostic::error(
                Rule::MissingAttribute,
                format!("{shown} is a DataFrame, which has no text methods: AttributeError: 'DataFrame' object has no attribute '{attr}'; apply it to a column ({shown}['col'].str...) or to each column (.apply)"),
                range,
            ))
        }
        _ => None,
    }
}

/// `df['a'].sort_values(by='a')`: a keyword of the DataFrame method, given to the Series one.
fn frame_only_keyword(w: &Walker, func: &Expr, keywords: &[Keyword]) -> Option<String> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    let keyword = keywords
        .iter()
        .filter_map(|k| k.name.as_deref())
        .find(|k| FRAME_ONLY_KEYWORDS.contains(&(attr.as_str(), *k)))?;
    let Val::Series(_) = w.eval(value) else {
        return None;
    };
    Some(format!(
        "{} is a Series, whose .{attr}() has no {keyword}= (that is the DataFrame method's): TypeError: Series.{attr}() got an unexpected keyword argument '{keyword}'{}",
        w.shown(value, "the Series"),
        column_selection_hint(w, value)
    ))
}

/// `; select a DataFrame with df[['a']]` for a column picked with `df['a']`.
fn column_selection_hint(w: &Walker, value: &Expr) -> String {
    match value {
        Expr::Subscript {
            value: frame,
            index,
            ..
        } if index.as_str_literal().is_some() => format!(
            "; select a DataFrame with {}[[{}]]",
            w.text(frame.range()),
            w.text(index.range())
        ),
        _ => String::new(),
    }
}

/// `df.append(...)`, `s.iteritems()`, ... of a frame or Series, which pandas 2 removed:
/// AttributeError when the kernel runs pandas 2 or later, likely when it did not say which.
/// `called`: the attribute of a frame whose columns are unknown, called (`df.append(row)`): a
/// column of that name would not be callable either.
fn removed_attribute(
    w: &Walker,
    value: &Expr,
    attr: &str,
    range: TextRange,
    called: bool,
) -> Option<Diagnostic> {
    let (_, frame_had, series_had, instead) = REMOVED_BY_PANDAS_2
        .iter()
        .find(|(name, ..)| *name == attr)?;
    let (class, had) = match w.eval(value) {
        // A column of that name is what the attribute gives; a name pandas 1 lacks too is the
        // column rules' (`missing-column`).
        Val::Frame(f)
            if f.plain
                && crate::semantics::pandas::is_frame_attribute(attr)
                && if called {
                    f.has(attr).is_none()
                } else {
                    f.has(attr) == Some(false)
                } =>
        {
            ("DataFrame", *frame_had)
        }
        Val::Series(_) if called => return None,
        Val::Series(_) => ("Series", *series_had),
        _ => return None,
    };
    if !had || w.pandas_extended {
        return None;
    }
    let message = |kernel: &str| {
        format!(
            "{class}.{attr} was removed by pandas 2.0{kernel}: AttributeError: '{class}' object has no attribute '{attr}'; use {instead}",
        )
    };
    match kernel_release_within(w, "pandas", (2, 0), None) {
        KernelRelease::Within(kernel) => Some(Diagnostic::error(
            Rule::MissingAttribute,
            message(&format!(", and {kernel}")),
            range,
        )),
        KernelRelease::Outside => None,
        KernelRelease::Unknown => {
            let mut d = Diagnostic::error(Rule::MissingAttribute, message(""), range);
            d.make_likely("the kernel's pandas version is not known; earlier releases have it");
            Some(d)
        }
    }
}

/// `pd.concat(a, b)` (frames not in a list) and `pd.concat([a, 1])` (an element that is not
/// a pandas object): TypeError; `pd.concat([])`: ValueError.
fn concat_problem(w: &Walker, func: &Expr, args: &[Expr]) -> Option<String> {
    if w.lib_path(func)? != "pandas.concat" {
        return None;
    }
    let first = args.first()?;
    let pandas = |v: &Val| matches!(v, Val::Frame(f) if f.plain) || matches!(v, Val::Series(_));
    if pandas(&w.eval(first)) {
        return Some(format!(
            "pd.concat takes a list of pandas objects, but {} is passed alone{}: TypeError",
            w.shown(first, "the first argument"),
            if args.len() > 1 {
                " (the others are not positional parameters); write pd.concat([a, b])"
            } else {
                ""
            }
        ));
    }
    if w.eval(first)
        .sized()
        .is_some_and(|(t, n)| matches!(t, "list" | "tuple") && n == 0)
    {
        return Some(format!(
            "{} is empty: pd.concat has nothing to join: ValueError: No objects to concatenate",
            w.shown(first, "the list")
        ));
    }
    let Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    } = first
    else {
        return None;
    };
    let bad = elts
        .iter()
        .find(|e| matches!(w.eval(e), Val::Int(_) | Val::Float(_) | Val::Str(_)))?;
    Some(format!(
        "pd.concat joins Series and DataFrames only, but {} is not one: TypeError: cannot concatenate object of that type",
        w.shown(bad, "an element")
    ))
}

/// The number of rows and columns of a list of rows that are lists or tuples of one length.
fn rows_shape(v: &Val) -> Option<(i64, i64)> {
    let Val::Items { type_name, items } = v else {
        return None;
    };
    if type_name != "list" || items.is_empty() {
        return None;
    }
    let widths: Vec<i64> = items
        .iter()
        .map(|row| match row.sized()? {
            ("list" | "tuple", n) => Some(n),
            _ => None,
        })
        .collect::<Option<_>>()?;
    widths
        .iter()
        .all(|&n| n == widths[0] && n > 0)
        .then_some((items.len() as i64, widths[0]))
}

/// `pd.DataFrame(array, columns=[...], index=[...])` naming another number of columns or rows
/// than a 2-D array or a list of rows has, `pd.DataFrame({...})` of lists of different lengths
/// or of another length than `index=`, and `pd.Series(values, index=[...])` of another length.
fn constructor_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<String> {
    let path = w.lib_path(func)?;
    if !matches!(path.as_str(), "pandas.DataFrame" | "pandas.Series")
        || args.len() > 1
        || crate::ir_scan::unpacks(args, keywords)
    {
        return None;
    }
    let keyword = |name: &str| {
        keywords
            .iter()
            .find(|k| k.name.as_deref() == Some(name))
            .map(|k| &k.value)
    };
    let data = keyword("data").or(args.first())?;
    // The length `index=` / `columns=` names: `Some(None)` when absent, `None` when not known.
    let named = |name: &str| match keyword(name) {
        None => Some(None),
        Some(e) => values_len(&w.eval(e)).map(Some),
    };
    let (index, columns) = (named("index")?, named("columns")?);
    let index_mismatch = |what: &str, n: i64| {
        let labels = index.filter(|&l| l != n)?;
        Some(format!(
            "{what} holds {n} values but index= names {labels}: ValueError: Length of values ({n}) does not match length of index ({labels})"
        ))
    };
    if path == "pandas.Series" {
        return index_mismatch(w.shown(data, "the data"), values_len(&w.eval(data))?);
    }
    match w.eval(data) {
        Val::Array(a)
            if a.lib == crate::semantics::abstract_value::ArrayLib::Numpy && a.shape.len() == 2 =>
        {
            let implied = (index.unwrap_or(a.shape[0]), columns.unwrap_or(a.shape[1]));
            (implied != (a.shape[0], a.shape[1])).then(|| {
                let shape = tuple_text(&a.shape);
                format!(
                    "{} has shape {shape}: ValueError: Shape of passed values is {shape}, indices imply ({}, {})",
                    w.shown(data, "the array"),
                    implied.0,
                    implied.1,
                )
            })
        }
        Val::Array(a)
            if a.lib == crate::semantics::abstract_value::ArrayLib::Numpy && a.shape.len() > 2 =>
        {
            Some(format!(
                "{} has {} dimensions, and a DataFrame holds rows and columns: ValueError: Must pass 2-d input. shape={}",
                w.shown(data, "the array"),
                a.shape.len(),
                tuple_text(&a.shape),
            ))
        }
        rows @ Val::Items { .. } => {
            let (n_rows, width) = rows_shape(&rows)?;
            if let Some(named) = columns.filter(|&c| c != width) {
                return Some(format!(
                    "each row of {} holds {width} values but columns= names {named}: ValueError: {named} columns passed, passed data had {width} columns",
                    w.shown(data, "the data"),
                ));
            }
            index_mismatch(w.shown(data, "the data"), n_rows)
        }
        Val::Dict { keys, values }
            if columns.is_none()
                && keywords
                    .iter()
                    .all(|k| matches!(k.name.as_deref(), Some("dtype" | "index"))) =>
        {
            let single = |v: &Val| {
                matches!(
                    v,
                    Val::Int(_) | Val::Float(_) | Val::Str(_) | Val::Bool(_) | Val::None
                )
            };
            if !values.is_empty() && values.iter().all(single) && keyword("index").is_none() {
                return Some(format!(
                    "each column of {} is given one value, not a list of values, and no index= says how many rows: ValueError: If using all scalar values, you must pass an index; put each value in a list, or pass index=[0]",
                    w.shown(data, "the dict"),
                ));
            }
            let keys = text_keys(&keys)?;
            let lens: Vec<i64> = values.iter().map(literal_len).collect::<Option<_>>()?;
            if let Some(at) = lens.iter().position(|&l| l != lens[0]) {
                return Some(format!(
                    "column '{}' has {} values and column '{}' {}: ValueError: All arrays must be of the same length",
                    keys[0], lens[0], keys[at], lens[at]
                ));
            }
            index_mismatch(&format!("column '{}'", keys.first()?), *lens.first()?)
        }
        _ => None,
    }
}

/// `df.sample(n)` / `s.sample(n)` of more rows than there are, or `frac=` above 1, without
/// `replace=True`: ValueError.
fn sample_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    if attr != "sample" || w.pandas_extended || kw(keywords, "replace").is_some() {
        return None;
    }
    let (rows, unit) = match w.eval(value) {
        Val::Frame(f) if f.plain => (f.n_rows?, "rows"),
        Val::Series(s) => (s.len?, "values"),
        _ => return None,
    };
    if let Some(n) = argument(args, keywords, 0, "n") {
        let Val::Int(k) = w.eval(n) else {
            return None;
        };
        return (k > rows).then(|| {
            Diagnostic::error(
                Rule::FrameLength,
                format!(
                    "{} has {rows} {unit}, and a sample of {k} without replace=True is asked: ValueError: Cannot take a larger sample than population when 'replace=False'",
                    w.shown(value, "the object")
                ),
                n.range(),
            )
        });
    }
    let frac = kw(keywords, "frac")?;
    let fraction = match w.eval(frac) {
        Val::Float(f) => f,
        Val::Int(i) => i as f64,
        _ => return None,
    };
    (fraction > 1.0).then(|| {
        Diagnostic::error(
            Rule::FrameLength,
            format!("a sample of frac={fraction} (more rows than there are) needs replace=True: ValueError: Replace has to be set to `True` when upsampling the population `frac` > 1."),
            frac.range(),
        )
    })
}

/// `df[mask]` / `s[mask]` with a list of bools or a numpy bool array of another length than the
/// rows: pandas takes it position by position (a bool Series aligns by its index instead).
fn mask_length_problem(w: &Walker, value: &Expr, index: &Expr) -> Option<Diagnostic> {
    let [n] = crate::semantics::numpy::bool_mask(&w.eval(index))?.shape[..] else {
        return None;
    };
    let (rule, rows, unit, exception) = match w.eval(value) {
        Val::Frame(f) => (
            Rule::FrameLength,
            f.n_rows?,
            "rows",
            format!(
                "ValueError: Item wrong length {n} instead of {}.",
                f.n_rows?
            ),
        ),
        Val::Series(s) => (
            Rule::IndexOutOfRange,
            s.len?,
            "values",
            format!(
                "IndexError: Boolean index has wrong length: {n} instead of {}",
                s.len?
            ),
        ),
        _ => return None,
    };
    (n != rows).then(|| {
        Diagnostic::error(
            rule,
            format!(
                "{} has {rows} {unit} and the mask {} has {n} values: {exception}",
                w.shown(value, "the object"),
                w.shown(index, "")
            ),
            index.range(),
        )
    })
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } => {
            if let Some(message) = constructor_problem(w, func, args, keywords) {
                out.push(Diagnostic::error(Rule::FrameLength, message, *range));
            }
            if let Some(message) = concat_problem(w, func, args) {
                out.push(Diagnostic::error(Rule::BadArguments, message, *range));
            }
            if let Some(message) = frame_only_keyword(w, func, keywords) {
                out.push(Diagnostic::error(Rule::BadArguments, message, *range));
            }
            out.extend(axis_given_twice(w, func, args, keywords, *range));
            out.extend(text_reduction(w, func, args, keywords, *range));
            out.extend(sample_problem(w, func, args, keywords));
            if let Expr::Attribute { value, attr, range } = &**func {
                out.extend(removed_attribute(w, value, attr, *range, true));
            }
            if !crate::ir_scan::unpacks(args, keywords) {
                out.extend(frame_method_problem(w, func, args, keywords, *range));
                out.extend(text_numeric_problem(w, func, args, keywords, *range));
                out.extend(unreadable_date(w, func, args, keywords, *range));
                out.extend(repeated_labels(w, func, args, keywords, *range));
            }
        }
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } => {
            if let Some(message) = arithmetic_problem(w, op, left, right) {
                out.push(Diagnostic::error(Rule::OperandType, message, *range));
            }
        }
        Expr::Other { range, .. } => {
            if let Some((left, op, right)) = w.comparison(expr) {
                if let Some(message) = arithmetic_problem(w, op, left, right) {
                    out.push(Diagnostic::error(Rule::OperandType, message, *range));
                }
            }
        }
        Expr::Attribute { value, attr, range } => {
            if let Some(message) = frame_only_attribute(w, value, attr) {
                out.push(Diagnostic::error(Rule::MissingAttribute, message, *range));
                return;
            }
            if let Some(d) = text_method_without_accessor(w, value, attr, *range) {
                out.push(d);
                return;
            }
            if let Some(d) = removed_attribute(w, value, attr, *range, false) {
                out.push(d);
                return;
            }
            let Some(dtype) = series_dtype(w, value) else {
                return;
            };
            if let Some(need) = accessor_problem(attr, &dtype) {
                out.push(Diagnostic::error(
                    Rule::MissingAttribute,
                    format!(
                        "{} holds {dtype} values: AttributeError: Can only use .{attr} accessor with {need}{}",
                        w.shown(value, "the Series"),
                        if attr == "dt" && !numeric(&dtype) {
                            "; convert it first with pd.to_datetime"
                        } else {
                            ""
                        }
                    ),
                    *range,
                ));
            }
        }
        Expr::Subscript { value, index, .. } => {
            if let Some(d) = mask_length_problem(w, value, index) {
                out.push(d);
                return;
            }
            let Expr::Attribute {
                value: obj, attr, ..
            } = &**value
            else {
                return;
            };
            if !matches!(attr.as_str(), "iloc" | "iat") {
                return;
            }
            let (rows, columns) = match w.eval(obj) {
                Val::Frame(f) if f.plain => (f.n_rows, f.n_columns()),
                Val::Series(s) => (s.len, None),
                _ => return,
            };
            let parts: Vec<&Expr> = match &**index {
                Expr::Seq {
                    kind: SeqKind::Tuple,
                    elts,
                    ..
                } => elts.iter().collect(),
                one => vec![one],
            };
            let series = columns.is_none() && matches!(w.eval(obj), Val::Series(_));
            if parts.len() > if series { 1 } else { 2 } {
                return;
            }
            for (axis, (part, size)) in parts.iter().zip([rows, columns]).enumerate() {
                let Some(size) = size else { continue };
                let Some(bad) = out_of_bounds(w, part, size) else {
                    continue;
                };
                let what = if axis == 0 { "row" } else { "column" };
                out.push(Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "position {bad} is out of bounds: {} has {size} {what}{}: IndexError: {}",
                        w.shown(obj, "the frame"),
                        if size == 1 { "" } else { "s" },
                        match (attr.as_str(), part) {
                            ("iat", _) => "index out of bounds",
                            (_, Expr::Seq { .. }) => "positional indexers are out-of-bounds",
                            _ => "single positional indexer is out-of-bounds",
                        }
                    ),
                    part.range(),
                ));
                return;
            }
        }
        _ => {}
    }
}

/// The first integer position of `e` (an int, or a list of ints) outside `[-size, size)`.
fn out_of_bounds(w: &Walker, e: &Expr, size: i64) -> Option<i64> {
    let positions: Vec<i64> = match e {
        Expr::Seq {
            kind: SeqKind::List,
            elts,
            ..
        } => elts.iter().map(|x| int_of(w, x)).collect::<Option<_>>()?,
        _ => vec![int_of(w, e)?],
    };
    positions.into_iter().find(|&i| i >= size || i < -size)
}
