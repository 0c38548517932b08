//! `pandas-unknown-option`: a string option a pandas function or method does not take. pandas
//! checks it before it works: ValueError (KeyError for `rank`'s method). The options are those
//! every release since pandas 1.0 takes; a value one of them took is left alone.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{keyword, Expr, Keyword};
use crate::semantics::abstract_value::Val;
use crate::semantics::signatures::{keyword_names, library_params};
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
    let Expr::Call { func, keywords, .. } = expr else {
        return;
    };
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
