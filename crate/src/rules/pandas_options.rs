//! `pandas-unknown-option`: a string option a pandas function or method does not take. pandas
//! checks it before it works: ValueError (KeyError for `rank`'s method). The options are those
//! every release since pandas 1.0 takes; a value one of them took is left alone.
//!
//! Also a function named by a string that misspells a reduction (`df.agg('mena')`,
//! `g.agg({'b': ['sum', 'meen']})`, `pivot_table(aggfunc='sun')`): pandas looks the name up on
//! the object and finds nothing: AttributeError (ValueError for `transform`).

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{argument, keyword, Expr, Keyword};
use crate::semantics::abstract_value::Val;
use crate::semantics::signatures::{keyword_names, library_params, misspelled};
use crate::walker::state::Walker;

/// The callables (methods of frames and Series, or `pandas` functions), the keyword, and the
/// strings it takes.
const OPTIONS: &[(&[&str], &str, &[&str])] = &[
    (
        &["merge", "join"],
        "how",
        &[
            "left",
            "right",
            "outer",
            "inner",
            "cross",
            "left_anti",
            "right_anti",
        ],
    ),
    (&["dropna"], "how", &["any", "all"]),
    (
        &["drop_duplicates", "duplicated"],
        "keep",
        &["first", "last"],
    ),
    (
        &["to_numeric", "to_datetime", "to_timedelta"],
        "errors",
        &["raise", "coerce", "ignore"],
    ),
    (
        &["rank"],
        "method",
        &["average", "min", "max", "first", "dense"],
    ),
    (&["concat"], "join", &["inner", "outer"]),
];

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = expr
    else {
        return;
    };
    if let Some(d) = function_name_problem(w, func, args, keywords) {
        out.push(d);
        return;
    }
    // A method of a frame or Series (its owner's name), or a function of pandas.
    let owner = match &**func {
        Expr::Attribute { value, .. } if !w.pandas_extended => match w.eval(value) {
            Val::Frame(f) if f.plain => Some("DataFrame"),
            Val::Series(_) => Some("Series"),
            _ => None,
        },
        _ => None,
    };
    let name = match (owner, &**func) {
        (Some(_), Expr::Attribute { attr, .. }) => attr.clone(),
        _ => match w
            .lib_path(func)
            .as_deref()
            .and_then(|p| p.strip_prefix("pandas."))
        {
            Some(f) if !f.contains('.') => f.to_string(),
            _ => return,
        },
    };
    if let Some(d) = option_problem(w, &name, keywords) {
        out.push(d);
        return;
    }

    if let Some(owner) = owner {
        out.extend(axis_problem(w, &name, owner, keywords));
    }
}

/// A keyword of `OPTIONS` given a string the callable does not take.
fn option_problem(w: &Walker, name: &str, keywords: &[Keyword]) -> Option<Diagnostic> {
    OPTIONS
        .iter()
        .filter(|(callables, ..)| callables.contains(&name))
        .find_map(|(_, param, allowed)| {
            let value = keyword(keywords, param)?;
            let Val::Str(given) = w.eval(value) else {
                return None;
            };
            (!allowed.contains(&given.as_str())).then(|| {
                let close = crate::did_you_mean::suggest(&given, allowed.iter().copied())
                    .map(|c| format!("; did you mean '{c}'?"))
                    .unwrap_or_default();
                Diagnostic::error(
                    Rule::PandasUnknownOption,
                    format!(
                        "{name}'s {param}= takes {}, not '{given}'{close}: {}",
                        allowed
                            .iter()
                            .map(|a| format!("'{a}'"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        if name == "rank" {
                            "KeyError"
                        } else {
                            "ValueError"
                        }
                    ),
                    value.range(),
                )
            })
        })
}

/// The reductions and other methods notebooks name by a string in `agg` and its siblings: a
/// string that misspells one of them, and that names no DataFrame attribute, names nothing.
const FUNCTION_NAMES: &[&str] = &[
    "all",
    "any",
    "count",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "describe",
    "diff",
    "first",
    "idxmax",
    "idxmin",
    "kurt",
    "last",
    "max",
    "mean",
    "median",
    "min",
    "mode",
    "nth",
    "nunique",
    "ohlc",
    "pct_change",
    "prod",
    "quantile",
    "rank",
    "sem",
    "shift",
    "size",
    "skew",
    "std",
    "sum",
    "unique",
    "var",
];

/// `agg('mena')`, `transform('sun')`, `apply('meen')` of a frame, Series or groupby, or a
/// `pivot_table`'s `aggfunc=`: a string (or one in a list, in a dict's values, in a named
/// aggregation `total=('b', 'sun')`) that misspells a function name.
fn function_name_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    let name = attr.as_str();
    if !matches!(
        name,
        "agg" | "aggregate" | "transform" | "apply" | "pivot_table"
    ) {
        return None;
    }
    let receiver = w.eval(value);
    let grouped = matches!(receiver, Val::GroupBy(_));
    let pandas = grouped
        || matches!(&receiver, Val::Frame(f) if f.plain)
        || matches!(receiver, Val::Series(_));
    if !pandas || w.pandas_extended {
        return None;
    }
    let mut named: Vec<&Expr> = match name {
        // A groupby's apply takes only a callable: any string is a TypeError of its own.
        "apply" if grouped => return None,
        "agg" | "aggregate" | "transform" | "apply" => {
            argument(args, keywords, 0, "func").into_iter().collect()
        }
        "pivot_table" if !grouped => keyword(keywords, "aggfunc").into_iter().collect(),
        _ => return None,
    };
    // A groupby's named aggregations: `total=('b', 'sum')`.
    if grouped && matches!(name, "agg" | "aggregate") {
        named.extend(
            keywords
                .iter()
                .filter(|k| k.name.is_some())
                .filter_map(|k| match &k.value {
                    Expr::Seq { elts, .. } if elts.len() == 2 => elts.get(1),
                    _ => None,
                }),
        );
    }
    let mut strings = Vec::new();
    for e in named {
        function_strings(e, &mut strings);
    }
    strings.into_iter().find_map(|e| {
        let Val::Str(given) = w.eval(e) else {
            return None;
        };
        if FUNCTION_NAMES.contains(&given.as_str())
            || crate::semantics::pandas::is_frame_attribute(&given)
        {
            return None;
        }
        let right = misspelled(&given, FUNCTION_NAMES.iter().copied())?;
        let owner = match &receiver {
            Val::GroupBy(_) => "a groupby",
            Val::Series(_) => "a Series",
            _ => "a DataFrame",
        };
        let error = if name == "transform" {
            "ValueError"
        } else {
            "AttributeError"
        };
        Some(Diagnostic::error(
            Rule::PandasUnknownOption,
            format!(
                "'{given}' names no function of {owner} for {name} (did you mean '{right}'?): {error}"
            ),
            e.range(),
        ))
    })
}

/// The string literals a function argument holds: itself, a list's elements, a dict's values.
fn function_strings<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Seq { elts, .. } => elts.iter().for_each(|x| function_strings(x, out)),
        Expr::Dict { values, .. } => values.iter().for_each(|x| function_strings(x, out)),
        _ => out.push(e),
    }
}

/// `axis=` of a frame's method given a name other than 'index', 'columns' or 'rows', or a
/// number other than 0 and 1; of a Series' method, other than 'index', 'rows' or 0.
fn axis_problem(w: &Walker, name: &str, owner: &str, keywords: &[Keyword]) -> Option<Diagnostic> {
    let value = keyword(keywords, "axis")?;
    // Only a method that has an `axis` parameter raises ValueError (others refuse the keyword).
    let params = library_params(&format!("pandas.{owner}#{name}"))?;
    if !keyword_names(&params).any(|n| n == "axis") {
        return None;
    }
    let names: &[&str] = if owner == "Series" {
        &["index", "rows"]
    } else {
        &["index", "columns", "rows"]
    };
    let numbers = if owner == "Series" { 0..=0 } else { 0..=1 };
    let given = match w.eval(value) {
        Val::Str(s) if !names.contains(&s.as_str()) => s,
        Val::Int(i) if !numbers.contains(&i) => i.to_string(),
        _ => return None,
    };
    Some(Diagnostic::error(
        Rule::PandasUnknownOption,
        format!(
            "a {owner} has no axis named {given} (its axes: {}): ValueError: No axis named {given} for object type {owner}",
            if owner == "Series" {
                "0, 'index'"
            } else {
                "0 or 'index' for rows, 1 or 'columns' for columns"
            }
        ),
        value.range(),
    ))
}
