//! `missing-column`: a column key that is not in a frame whose complete column list is known;
//! a text label read with `.loc`/`.at`/`.xs` or dropped without `axis=1` from a frame whose index holds
//! numbers, or whose text labels are known and lack it.
//! `df['c']`, `df[['a', 'c']]`, `df.c`, `df.loc[:, 'c']`, `df.xs('c', axis=1)`, `drop(columns=...)`, `sort_values(by=...)`,
//! `groupby(...)`, `set_index`, `dropna(subset=...)`, `astype({...})`, `agg({...})`, named
//! aggregations (`agg(total=('c', 'sum'))`, `pd.NamedAgg`),
//! `rename(columns=..., errors='raise')`, and a grouped frame's `gb['c']`; `df.at[row, 'c']`, and
//! the column parameters of the methods and functions of `KEY_PARAMETERS` (`pivot_table`, `melt`,
//! `merge`, `drop_duplicates`, `value_counts`, `nlargest`, ...).
//!
//! Not errors, and never flagged: `df['new'] = ...`, `df.get('c')`, `drop(..., errors='ignore')`,
//! `rename` of absent keys (the default `errors='ignore'`), row labels, integer keys of frames whose
//! labels may be numbers (an integer key of text labels is flagged), frames whose
//! column list was cut or holds tuples, and `by=` names that are a level of that frame's index
//! (or may be: names unknown).

use crate::semantics::pandas::is_frame_attribute;
use crate::semantics::pandas::{axis_is_columns, is_str, keys, kw, Key};

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{Expr, Keyword, SeqKind, TextRange};

use super::{list_preview, suggest};
use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{Frame, Removal, Val};
use crate::walker::state::Walker;

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
        removed(w, frame_expr, f, keys, what, out);
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
        } else if f.is_index_level(&key.name) == Some(true) {
            // A key of set_index, groupby or pivot_table: another column is no fix.
            msg.push_str(&format!(
                "; it is a level of its index: {name}.reset_index() brings it back as a column"
            ));
            true
        } else {
            false
        };
        let suggestion = suggest(&key.name, cols.iter().map(String::as_str)).filter(|_| !dropped);
        let mut d = Diagnostic::error(Rule::MissingColumn, String::new(), key.range);
        if let Some(s) = suggestion {
            msg.push_str(&format!("; did you mean '{s}'?"));
            d.fix = use_column(w, &key, s);
        }
        let release = f
            .columns_since
            .map(|since| super::kernel_release_within(w, "pandas", since, None));
        if let Some(release) = &release {
            msg.push_str("; value_counts() names its counts 'count' (or 'proportion') and its index after the values counted");
            match release {
                super::KernelRelease::Within(kernel) => {
                    msg.push_str(&format!(", as {kernel} does"))
                }
                super::KernelRelease::Outside => return,
                super::KernelRelease::Unknown => {}
            }
        }
        msg.push_str(": KeyError");
        d.message = msg;
        if let Some(super::KernelRelease::Unknown) = release {
            d.make_likely(
                "pandas 2.0 and later name them so; the kernel's pandas version is not known",
            );
        }
        out.push(d);
        return;
    }
}

/// Integers given as column labels (`df[0]`, `df[[0, 1]]`, `df.loc[:, 0]`) to a frame whose
/// labels are all text: `[]` and `.loc` select by label, and no text equals a number.
fn integer_keys(
    w: &Walker,
    frame_expr: &Expr,
    f: &Frame,
    index: &Expr,
    selector: &str,
) -> Option<Diagnostic> {
    let labelled_by = match &f.columns {
        // (The kernel shows a label 0, or 0.0 or True, which a 0 or a 1 also selects, as text.)
        Some(cols) if !cols.iter().any(|c| may_be_a_number(c)) => match cols.len() {
            1 => format!("its column is labelled by text ({})", list_preview(cols, 8)),
            n => format!(
                "its {n} columns are labelled by text ({})",
                list_preview(cols, 8)
            ),
        },
        None if f.text_labels => {
            "its columns are labelled by the text of its file's header row".to_string()
        }
        _ => return None,
    };
    let keys = integer_key_values(w, index)?;
    let name = frame_name(w, frame_expr, f);
    let (what, raised) = match keys.as_slice() {
        [k] => (format!("{k} is not a column label"), k.to_string()),
        _ => {
            let listed = format!("{keys:?}");
            (
                format!("none of {listed} is a column label"),
                format!("None of [Index({listed}, dtype='int64')] are in the [columns]"),
            )
        }
    };
    Some(Diagnostic::error(
        Rule::MissingColumn,
        format!("{what} of {name}: {labelled_by}, and {selector} selects columns by label, not by position: KeyError: {raised}"),
        index.range(),
    ))
}

/// An integer (`0`, a name holding one) or a list of them (written, or held by a name).
fn integer_key_values(w: &Walker, index: &Expr) -> Option<Vec<i64>> {
    match index {
        Expr::Seq {
            kind: SeqKind::List,
            elts,
            ..
        } if !elts.is_empty() => elts
            .iter()
            .map(|e| crate::semantics::eval::int_of(w, e))
            .collect(),
        _ => match w.eval(index) {
            Val::Int(k) => Some(vec![k]),
            Val::Items { type_name, items } if type_name == "list" && !items.is_empty() => items
                .iter()
                .map(|v| match v {
                    Val::Int(k) => Some(*k),
                    _ => None,
                })
                .collect(),
            _ => None,
        },
    }
}

/// Could the label shown as `text` be a number (or a bool, which equals 0 or 1)?
fn may_be_a_number(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c))
        || matches!(text, "True" | "False")
}

/// A key a frame of unknown columns certainly lacks: dropped or renamed since it was read.
fn removed(
    w: &Walker,
    frame_expr: &Expr,
    f: &Frame,
    keys: Vec<Key>,
    what: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some((key, how)) = keys
        .into_iter()
        .find_map(|k| f.absent_columns.get(&k.name).map(|how| (k, how)))
    else {
        return;
    };
    let name = frame_name(w, frame_expr, f);
    let mut d = Diagnostic::error(Rule::MissingColumn, String::new(), key.range);
    if let Removal::RenamedTo(new) = how {
        d.fix = use_column(w, &key, new);
    }
    let how = match how {
        Removal::Dropped if w.ctx.ran && w.ctx.cell.dropped.contains(&key.name) => {
            "this cell dropped it when it ran".to_string()
        }
        Removal::Dropped if w.ctx.history.dropped.contains(&key.name) => {
            "an earlier cell dropped it".to_string()
        }
        _ => said(how),
    };
    d.message = format!(
        "{what}'{}' is no longer a column of {name}: {how}: KeyError",
        key.name
    );
    out.push(d);
}

/// How a column left a frame, for messages.
fn said(how: &Removal) -> String {
    match how {
        Removal::Dropped => "it was dropped".to_string(),
        Removal::Deleted => "it was removed (del or pop)".to_string(),
        Removal::RenamedTo(new) => format!("it was renamed to '{new}'"),
    }
}

/// The fix that writes column `column` in place of the string literal of `key`.
fn use_column(w: &Walker, key: &Key, column: &str) -> Option<Fix> {
    let lit = key.literal?;
    let text = w.text(lit.range());
    let quote = if text.ends_with('"') { '"' } else { '\'' };
    (!text.starts_with(['f', 'F', 'r', 'R', 'b', 'B'])).then(|| {
        Fix::replace(
            format!("Use column '{column}'"),
            lit.range(),
            format!("{quote}{column}{quote}"),
        )
    })
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Subscript { value, index, .. } => {
            match w.eval(value) {
                Val::Frame(f) => {
                    if let Some(k) = keys(w, index) {
                        missing(w, value, &f, k, "", out);
                    } else if let Some(mut d) = integer_keys(w, value, &f, index, "[]") {
                        d.fix = Some(Fix::replace(
                            "Select by position with .iloc",
                            expr.range(),
                            format!(
                                "{}.iloc[:, {}]",
                                w.text(value.range()),
                                w.text(index.range())
                            ),
                        ));
                        out.push(d);
                    }
                }
                Val::GroupBy(g) => {
                    if let Some(k) = keys(w, index) {
                        missing(w, value, &g.frame, k, "", out);
                    } else if let Some(d) = integer_keys(w, value, &g.frame, index, "[]") {
                        out.push(d);
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
                    if let Some(d) = absent_row_label(w, base, attr, index) {
                        out.push(d);
                        return;
                    }
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
                            } else if attr == "loc" {
                                out.extend(integer_keys(w, base, &f, &elts[1], ".loc"));
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
                if is_frame_attribute(attr) || attr.starts_with('_') {
                    return;
                }
                if let Some(how) = f.absent_columns.get(attr) {
                    let name = frame_name(w, value, &f);
                    let how = said(how);
                    let start = range.end.saturating_sub(attr.len() as u32);
                    out.push(Diagnostic::error(
                        Rule::MissingColumn,
                        format!("'{attr}' is no longer a column of {name} ({how}), nor is it a DataFrame attribute: AttributeError"),
                        TextRange::new(start, range.end),
                    ));
                }
                if let Some(cols) = &f.columns {
                    if !cols.iter().any(|c| c == attr) {
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
                Val::GroupBy(g) if matches!(attr.as_str(), "agg" | "aggregate") => &g.frame,
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
                    } else if axis_is_columns(axis) == Some(false)
                        && kw(keywords, "index").is_none()
                        && kw(keywords, "columns").is_none()
                    {
                        let positional = axis.is_none() && kw(keywords, "labels").is_none();
                        if let Some(d) =
                            labels.and_then(|l| text_row_label(w, value, f, l, positional))
                        {
                            out.push(d);
                        }
                    }
                }
                "sort_values" => {
                    if kw(keywords, "axis").is_some() {
                        return;
                    }
                    if let Some(k) = kw(keywords, "by").or(args.first()).and_then(|e| keys(w, e)) {
                        missing(w, value, f, not_index_levels(w, f, k), "sort key ", out);
                    }
                }
                "groupby" if matches!(base, Val::Frame(_)) => {
                    if kw(keywords, "level").is_some()
                        || kw(keywords, "axis").is_some()
                        || args.len() > 1
                    {
                        return;
                    }
                    let by = kw(keywords, "by").or(args.first());
                    if by.is_some_and(|e| may_be_group_values(f, e)) {
                        return;
                    }
                    if let Some(k) = by.and_then(|e| keys(w, e)) {
                        missing(w, value, f, not_index_levels(w, f, k), "group key ", out);
                    }
                }
                "set_index" => {
                    if kw(keywords, "keys").is_none() && args.is_empty() {
                        return;
                    }
                    check_keys(kw(keywords, "keys").or(args.first()), "index key ");
                }
                // `df.xs('c', axis=1)` reads a column; `df.xs('r')` a row label (a tuple key
                // reads levels of a MultiIndex).
                "xs" if kw(keywords, "level").is_none() && args.len() <= 2 => {
                    let Some(key) = kw(keywords, "key").or(args.first()) else {
                        return;
                    };
                    if !matches!(w.eval(key), Val::Str(_)) {
                        return;
                    }
                    match axis_is_columns(kw(keywords, "axis").or(args.get(1))) {
                        Some(true) => check_keys(Some(key), ""),
                        Some(false) => out.extend(absent_row_label(w, value, "xs", key)),
                        None => {}
                    }
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
                    if matches!(attr.as_str(), "agg" | "aggregate") {
                        let named: Vec<Key> = keywords
                            .iter()
                            .filter_map(|k| named_aggregation_column(w, &k.value))
                            .collect();
                        missing(w, value, f, named, "aggregated column ", out);
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The column of a named aggregation, `total=('b', 'sum')` or `pd.NamedAgg(column='b', ...)`.
fn named_aggregation_column<'e>(w: &Walker, e: &'e Expr) -> Option<Key<'e>> {
    let column = match e {
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } if elts.len() == 2 => &elts[0],
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } if w.lib_path(func).as_deref() == Some("pandas.NamedAgg") => {
            kw(keywords, "column").or(args.first())?
        }
        _ => return None,
    };
    Some(Key {
        name: column.as_str_literal()?.to_string(),
        range: column.range(),
        literal: Some(column),
    })
}

/// `df.loc['Alice']`, `df.loc['Alice', 'age']`, `df.at['Alice', 'age']` (and `df.loc[['Al', 'Bo']]`)
/// read from a frame whose row labels are known not to hold the label: KeyError. An index of
/// numbers (a RangeIndex, or rows of one) holds no text label; an index of known text labels (a
/// column of strings written in the cell made the index, `index=[...]`, or the kernel's list)
/// holds only those. Slices (which need not match a label of a sorted index) are not labels.
fn absent_row_label(
    w: &Walker,
    frame_expr: &Expr,
    accessor: &str,
    index: &Expr,
) -> Option<Diagnostic> {
    let Val::Frame(f) = w.eval(frame_expr) else {
        return None;
    };
    if !f.plain {
        return None;
    }
    let rows = match index {
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } if elts.len() == 2 => &elts[0],
        Expr::Seq {
            kind: SeqKind::Tuple,
            ..
        } => return None,
        rows => rows,
    };
    let (labels, one) = match w.eval(rows) {
        Val::Str(s) => (vec![s], true),
        Val::Strs { type_name, items } if type_name == "list" && accessor == "loc" => {
            (items, false)
        }
        _ => return None,
    };
    let name = frame_name(w, frame_expr, &f);
    if f.index_class.as_deref() == Some("RangeIndex") && one {
        let label = &labels[0];
        let hint = if f.has(label) == Some(true) {
            format!("'{label}' is a column: select it with {name}['{label}']")
        } else {
            format!("set a text index first ({name}.set_index(...)), or select rows with a mask")
        };
        return Some(Diagnostic::error(
            Rule::MissingColumn,
            format!(
                "'{label}' is no row label of {name}, whose row labels are numbers only (a RangeIndex): KeyError: '{label}'; {hint}"
            ),
            rows.range(),
        ));
    }
    let known = f.index_labels.as_ref()?;
    let absent: Vec<&String> = labels.iter().filter(|l| !known.contains(l)).collect();
    let first = absent.first()?;
    let error = if one {
        format!("KeyError: '{first}'")
    } else {
        let quoted: Vec<String> = absent.iter().map(|l| format!("'{l}'")).collect();
        format!("KeyError: \"[{}] not in index\"", quoted.join(", "))
    };
    let hint = suggest(first, known.iter().map(String::as_str))
        .map(|s| format!("; did you mean '{s}'?"))
        .unwrap_or_default();
    Some(Diagnostic::error(
        Rule::MissingColumn,
        format!(
            "'{first}' is no row label of {name} (its row labels are among {}){hint}: {error}",
            labels_preview(known)
        ),
        rows.range(),
    ))
}

/// The first distinct labels of an index, for messages.
fn labels_preview(labels: &[String]) -> String {
    let mut distinct: Vec<String> = Vec::new();
    for l in labels {
        if !distinct.contains(l) {
            distinct.push(l.clone());
        }
    }
    list_preview(&distinct, 8)
}

/// `df.drop('Survived')`: without `axis=1` drop looks for the label among the rows, and an index
/// of numbers (a `RangeIndex`, or rows selected from one) has no text label, an index of known
/// text labels only those: KeyError.
/// `positional`: the label is the first argument and no axis is given, so `columns=` fixes it.
fn text_row_label(
    w: &Walker,
    frame_expr: &Expr,
    f: &Frame,
    labels: &Expr,
    positional: bool,
) -> Option<Diagnostic> {
    if !f.plain {
        return None;
    }
    let name = frame_name(w, frame_expr, f);
    let (key, rows) = if f.index_class.as_deref() == Some("RangeIndex") {
        (
            keys(w, labels)?.into_iter().next()?,
            "whose index holds numbers".to_string(),
        )
    } else {
        let known = f.index_labels.as_ref()?;
        let absent = keys(w, labels)?
            .into_iter()
            .find(|k| !known.contains(&k.name))?;
        (
            absent,
            format!("whose row labels are among {}", labels_preview(known)),
        )
    };
    let is_column = f.has(&key.name) == Some(true);
    if !is_column && f.index_class.as_deref() != Some("RangeIndex") {
        return Some(Diagnostic::error(
            Rule::MissingColumn,
            format!(
                "'{}' is no row label of {name}, {rows}: KeyError: \"['{}'] not found in axis\"",
                key.name, key.name,
            ),
            labels.range(),
        ));
    }
    let mut d = Diagnostic::error(
        Rule::MissingColumn,
        format!(
            "'{}' is {}, but drop() without axis=1 looks for it among the rows of {name}, {rows}: KeyError: \"['{}'] not found in axis\"; drop columns with columns=[...] or axis=1",
            key.name,
            if is_column { format!("a column of {name}") } else { "no row label".to_string() },
            key.name,
        ),
        labels.range(),
    );
    if positional && is_column {
        d = d.with_fix(Fix::replace(
            "Drop it as a column (columns=)",
            TextRange::new(labels.range().start, labels.range().start),
            "columns=",
        ));
    }
    Some(d)
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
    for (param, at) in spec.params {
        let e = kw(keywords, param).or_else(|| at.and_then(|i| args.get(i)));
        if spec.levels && e.is_some_and(|e| may_be_group_values(&f, e)) {
            return;
        }
        if let Some(k) = e.and_then(|e| keys(w, e)) {
            let k = if spec.levels {
                not_index_levels(w, &f, k)
            } else {
                k
            };
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
        for param in ["on", "right_on"] {
            if let Some(k) = kw(keywords, param).and_then(|e| keys(w, e)) {
                missing(w, right, &r, not_index_levels(w, &r, k), spec.what, out);
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

/// The keys that can only name columns of `f`, not levels of its index (which `by=`, `on=` and
/// seaborn's names accept too).
fn not_index_levels<'e>(w: &Walker, f: &Frame, keys: Vec<Key<'e>>) -> Vec<Key<'e>> {
    keys.into_iter()
        .filter(|k| not_an_index_level(w, f, &k.name))
        .collect()
}

/// Can `name` only be a column of `f`, not a level of its index? Its own level names say, when
/// known. A frame the kernel summarized without them (an older kernel), with a `RangeIndex` or
/// no index class, only when no executed cell could have named an index.
pub(crate) fn not_an_index_level(w: &Walker, f: &Frame, name: &str) -> bool {
    match f.is_index_level(name) {
        Some(level) => !level,
        None => {
            w.index_unnamed
                && f.origin.is_some()
                && f.index_class
                    .as_deref()
                    .is_none_or(|class| class == "RangeIndex")
        }
    }
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
