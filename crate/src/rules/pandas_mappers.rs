//! `bad-arguments`: a mapping pandas looks labels or values up in, or calls on each, given a
//! value that is neither a dict nor a function: `df.rename(columns=['x', 'y'])`,
//! `s.map([1, 2])`, `df.map('x')`: TypeError ('list' object is not callable). A Series'
//! `rename` takes a name too, but only a hashable one: `s.rename(['x'])`: TypeError.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{argument, keyword, Expr};
use crate::semantics::abstract_value::Val;
use crate::walker::state::Walker;

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
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    if w.pandas_extended {
        return;
    }
    let (owner, mappers): (&str, Vec<(&str, Option<&Expr>)>) = match (w.eval(value), attr.as_str())
    {
        (Val::Frame(f), "rename") if f.plain => (
            "DataFrame",
            vec![
                ("mapper", argument(args, keywords, 0, "mapper")),
                ("index", keyword(keywords, "index")),
                ("columns", keyword(keywords, "columns")),
            ],
        ),
        (Val::Frame(f), "map" | "applymap") if f.plain => (
            "DataFrame",
            vec![("func", argument(args, keywords, 0, "func"))],
        ),
        (Val::Series(_), "map") => ("Series", vec![("arg", argument(args, keywords, 0, "arg"))]),
        (Val::Series(_), "rename") => (
            "Series",
            vec![("index", argument(args, keywords, 0, "index"))],
        ),
        _ => return,
    };
    let takes = match (owner, attr.as_str()) {
        ("Series", "rename") => Takes::MappingOrName,
        ("DataFrame", "map" | "applymap") => Takes::Function,
        _ => Takes::Mapping,
    };
    for (param, given) in mappers {
        let Some(given) = given else {
            continue;
        };
        let Some(kind) = takes.refuses(&w.eval(given)) else {
            continue;
        };
        let (what, error) = match takes {
            Takes::MappingOrName => (
                "a dict, a function or a hashable name",
                "Series.name must be a hashable type".to_string(),
            ),
            Takes::Function => (
                "a function",
                "the first argument must be callable".to_string(),
            ),
            Takes::Mapping if matches!(kind, "str" | "int" | "float") && attr == "rename" => (
                "a dict or a function",
                "Index(...) must be called with a collection of some kind".to_string(),
            ),
            Takes::Mapping => (
                "a dict or a function",
                format!("'{kind}' object is not callable"),
            ),
        };
        out.push(Diagnostic::error(
            Rule::BadArguments,
            format!("{owner}.{attr}'s {param} takes {what}, not a {kind}: TypeError: {error}"),
            given.range(),
        ));
        return;
    }
}

/// What a mapper parameter takes.
#[derive(Clone, Copy)]
enum Takes {
    /// A dict-like to look up in, or a function to call.
    Mapping,
    /// A function only (`DataFrame.map`).
    Function,
    /// A mapping, or the new name, any hashable value (`Series.rename`).
    MappingOrName,
}

impl Takes {
    /// The type of a value the parameter refuses, when the value is known to be one.
    fn refuses(self, v: &Val) -> Option<&'static str> {
        let kind = match v {
            Val::Str(_) => "str",
            Val::Int(_) => "int",
            Val::Float(_) => "float",
            Val::Dict { .. } => "dict",
            _ => match v.sized()?.0 {
                "list" => "list",
                "tuple" => "tuple",
                "set" => "set",
                "dict" => "dict",
                _ => return None,
            },
        };
        let refused = match self {
            Takes::Mapping => kind != "dict",
            Takes::Function => true,
            Takes::MappingOrName => matches!(kind, "list" | "set"),
        };
        refused.then_some(kind)
    }
}
