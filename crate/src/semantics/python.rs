//! Python's own semantics on known values: the builtin types and their attributes, operators,
//! comprehensions, what builtins and methods of the builtin types return, and how a call binds
//! its arguments to a function's parameters.

use crate::did_you_mean::suggest;
use crate::ir::{Expr, Keyword, Literal, Params};

use super::abstract_value::{ArrayLib, DictKey, Val};
use super::eval::Eval;
use super::pandas::PANDAS_INPLACE;

/// The value of `l op r` on builtin values, as Python computes it, when the walker can: numbers
/// (an int result only when it fits), texts joined or repeated (up to 10,000 characters), lists
/// and tuples joined. A division by zero, or a type error, is no value.
pub fn binop_value(op: &str, l: &Val, r: &Val) -> Option<Val> {
    let number = |v: &Val| match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    };
    // A bool is the int 0 or 1 in arithmetic; `&`, `|` and `^` of two bools give a bool.
    match (l, r) {
        (Val::Bool(a), Val::Bool(b)) if matches!(op, "&" | "|" | "^") => {
            return Some(Val::Bool(match op {
                "&" => a & b,
                "|" => a | b,
                _ => a ^ b,
            }))
        }
        (Val::Bool(_), _) | (_, Val::Bool(_)) => {
            let int = |v: &Val| match v {
                Val::Bool(b) => Val::Int(i64::from(*b)),
                v => v.clone(),
            };
            return binop_value(op, &int(l), &int(r));
        }
        _ => {}
    }
    match (l, r) {
        (Val::Int(a), Val::Int(b)) => match op {
            "+" => a.checked_add(*b).map(Val::Int),
            "-" => a.checked_sub(*b).map(Val::Int),
            "*" => a.checked_mul(*b).map(Val::Int),
            // Python rounds the quotient down, and the remainder takes the divisor's sign.
            "//" => {
                let (q, r) = (a.checked_div(*b)?, a.checked_rem(*b)?);
                Some(Val::Int(if r != 0 && (r < 0) != (*b < 0) {
                    q - 1
                } else {
                    q
                }))
            }
            "%" => {
                let r = a.checked_rem(*b)?;
                Some(Val::Int(if r != 0 && (r < 0) != (*b < 0) {
                    r + b
                } else {
                    r
                }))
            }
            "/" if *b != 0 => Some(Val::Float(*a as f64 / *b as f64)),
            _ => None,
        },
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => {
            let (a, b) = (number(l)?, number(r)?);
            match op {
                "+" => Some(Val::Float(a + b)),
                "-" => Some(Val::Float(a - b)),
                "*" => Some(Val::Float(a * b)),
                "/" if b != 0.0 => Some(Val::Float(a / b)),
                _ => None,
            }
        }
        (Val::Str(a), Val::Str(b)) if op == "+" && a.len() + b.len() <= 10_000 => {
            Some(Val::Str(format!("{a}{b}")))
        }
        (Val::Str(s), Val::Int(n)) | (Val::Int(n), Val::Str(s)) if op == "*" => {
            let n = usize::try_from(*n).unwrap_or(0);
            (s.len().saturating_mul(n) <= 10_000).then(|| Val::Str(s.repeat(n)))
        }
        (
            Val::Items {
                type_name: a,
                items: x,
            },
            Val::Items {
                type_name: b,
                items: y,
            },
        ) if op == "+" && a == b && matches!(a.as_str(), "list" | "tuple") => Some(Val::Items {
            type_name: a.clone(),
            items: x.iter().chain(y).cloned().collect(),
        }),
        (
            Val::Strs {
                type_name: a,
                items: x,
            },
            Val::Strs {
                type_name: b,
                items: y,
            },
        ) if op == "+" && a == b && matches!(a.as_str(), "list" | "tuple") => Some(Val::Strs {
            type_name: a.clone(),
            items: x.iter().chain(y).cloned().collect(),
        }),
        // `d | other` (Python 3.9): the keys of both, the right one's values winning.
        (Val::Dict { keys, values }, Val::Dict { .. }) if op == "|" => {
            let (mut keys, mut values) = (keys.clone(), values.clone());
            let Val::Dict {
                keys: more,
                values: more_values,
            } = r
            else {
                return None;
            };
            for (k, v) in more.iter().zip(more_values) {
                match keys.iter().position(|x| x == k) {
                    Some(i) => values[i] = v.clone(),
                    None => {
                        keys.push(k.clone());
                        values.push(v.clone());
                    }
                }
            }
            Some(Val::Dict { keys, values })
        }
        // `[0] * n`: the elements repeated (a negative count gives an empty sequence).
        (Val::Items { type_name, items }, Val::Int(n))
        | (Val::Int(n), Val::Items { type_name, items })
            if op == "*" && matches!(type_name.as_str(), "list" | "tuple") =>
        {
            let n = usize::try_from(*n).unwrap_or(0);
            (items.len().saturating_mul(n) <= 10_000).then(|| Val::Items {
                type_name: type_name.clone(),
                items: (0..n).flat_map(|_| items.iter().cloned()).collect(),
            })
        }
        _ => {
            // Only the types are known: Python's result type.
            let (a, b) = (builtin_of(l)?, builtin_of(r)?);
            // `%` may format a str, `**` may give a float or a complex.
            if operand_error(op, a, b).is_some() || matches!(op, "%" | "**") {
                return None;
            }
            let name = match (a, b) {
                (Builtin::Bool, Builtin::Bool) if matches!(op, "&" | "|" | "^") => "bool",
                _ if a.integer() && b.integer() && op == "/" => "float",
                _ if a.integer() && b.integer() => "int",
                (Builtin::Float, _) | (_, Builtin::Float) if a.number() && b.number() => "float",
                (Builtin::Str, _) | (_, Builtin::Str) => "str",
                _ => return None,
            };
            Some(Val::Typed(name.into()))
        }
    }
}

/// The value of a comprehension, from its source text: `[...]` builds a list, `{x: y ...}` a
/// dict, `{x ...}` a set, `(...)` a generator.
pub fn comprehension_value(text: &str, elements: usize) -> Val {
    let type_name = match (text.as_bytes().first(), elements) {
        (Some(b'['), 1) => "list",
        (Some(b'{'), 1) => "set",
        (Some(b'{'), 2) => "dict",
        (Some(b'('), 1) => "generator",
        _ => return Val::Unknown,
    };
    Val::Typed(type_name.into())
}

/// Python's truth value of a builtin value, when known: false for `False`, zero, empty texts and
/// containers, `None`.
pub fn truth(v: &Val) -> Option<bool> {
    match v {
        Val::Bool(b) => Some(*b),
        Val::Int(i) => Some(*i != 0),
        Val::Float(f) => Some(*f != 0.0),
        Val::Str(s) => Some(!s.is_empty()),
        Val::None => Some(false),
        Val::Dict { keys, .. } => Some(!keys.is_empty()),
        // An array (of Axes) has no truth value of its own.
        Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            Some(!items.is_empty())
        }
        Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            Some(!items.is_empty())
        }
        Val::Sized { type_name, len }
            if matches!(type_name.as_str(), "list" | "tuple" | "dict" | "set") =>
        {
            Some(*len != 0)
        }
        _ => None,
    }
}

/// `l op r` for a comparison operator (`==`, `<`, `is`, ...) of builtin values, when known:
/// numbers with numbers, texts with texts; `==` and `!=` of values of other types (never equal);
/// `is None`.
pub fn compared(op: &str, l: &Val, r: &Val) -> Option<bool> {
    // Ints past 2**53 have no exact float: Python compares them exactly.
    let number = |v: &Val| match v {
        Val::Bool(b) => Some(f64::from(u8::from(*b))),
        Val::Int(i) if i.unsigned_abs() <= 1 << 53 => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    };
    let order = match (l, r) {
        (Val::Int(a), Val::Int(b)) => Some(a.cmp(b)),
        (Val::Str(a), Val::Str(b)) => Some(a.cmp(b)),
        _ => match (number(l), number(r)) {
            (Some(a), Some(b)) => {
                if a.is_nan() || b.is_nan() {
                    // NaN is neither equal to, less than nor greater than anything.
                    return match op {
                        "!=" => Some(true),
                        "==" | "<" | ">" | "<=" | ">=" => Some(false),
                        _ => None,
                    };
                }
                a.partial_cmp(&b)
            }
            _ => None,
        },
    };
    if let Some(order) = order {
        return match op {
            "==" => Some(order.is_eq()),
            "!=" => Some(order.is_ne()),
            "<" => Some(order.is_lt()),
            ">" => Some(order.is_gt()),
            "<=" => Some(order.is_le()),
            ">=" => Some(order.is_ge()),
            _ => None,
        };
    }
    // Builtin values of different kinds (numbers, texts, None, lists, tuples, dicts) are never
    // equal; only `None` is `None`.
    let kind = |v: &Val| match builtin_of(v)? {
        t if t.number() => Some("number"),
        t => Some(t.name()),
    };
    let exact = |v: &Val| match v {
        Val::Strs { type_name, .. } | Val::Items { type_name, .. } => {
            matches!(type_name.as_str(), "list" | "tuple")
        }
        Val::Bool(_) | Val::Int(_) | Val::Float(_) | Val::Str(_) | Val::None => true,
        Val::Dict { .. } => true,
        _ => false,
    };
    let none = |v: &Val| matches!(v, Val::None);
    match op {
        "is" | "is not" if none(l) || none(r) => {
            let other = if none(l) { r } else { l };
            // Every value the walker knows but None is certainly not None (an array, a
            // frame, an estimator, ...); an object known only by its type may be.
            let is = match other {
                Val::None => true,
                Val::Unknown => return None,
                Val::Typed(t) if t == "NoneType" => true,
                _ => false,
            };
            Some(is == (op == "is"))
        }
        "==" | "!=" if exact(l) && exact(r) && kind(l)? != kind(r)? => Some(op == "!="),
        _ => None,
    }
}

/// `isinstance(value, name)` for a value of a builtin type the walker knows exactly and a
/// builtin class, when known.
pub fn is_instance(value: &Val, class: &str) -> Option<bool> {
    let exact = match value {
        Val::Bool(_) => "bool",
        Val::Int(_) => "int",
        Val::Float(_) => "float",
        Val::Str(_) => "str",
        Val::Dict { .. } => "dict",
        Val::Items { type_name, .. } | Val::Strs { type_name, .. }
            if matches!(type_name.as_str(), "list" | "tuple") =>
        {
            type_name
        }
        _ => return None,
    };
    match class {
        "object" => Some(true),
        "int" => Some(matches!(exact, "int" | "bool")),
        "bool" | "float" | "str" | "dict" | "list" | "tuple" | "set" | "frozenset" | "bytes"
        | "complex" | "type" => Some(exact == class),
        _ => None,
    }
}

/// The class of a file `open` gives in text mode.
pub const TEXT_FILE: &str = "_io.TextIOWrapper";

/// What `with` binds after `with value as name`: the value itself, for the classes whose
/// `__enter__` returns the object (files); `None` when not known.
pub fn entered(value: Val) -> Option<Val> {
    matches!(&value, Val::Typed(t) if t == TEXT_FILE).then_some(value)
}

/// What method `attr` of an already evaluated `receiver` returns, when that is certain: `None`
/// from the in-place methods of exact builtin containers (and of a plain DataFrame with
/// `inplace=True`), the types of str methods, dict views. The walker evaluates the receiver once
/// (a chain of calls stays linear).
pub fn method_result(
    receiver: &Val,
    attr: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Val> {
    // A pandas.DataFrame itself (a subclass may override the method).
    if matches!(&receiver, Val::Frame(f) if f.plain) {
        let inplace = keywords.iter().any(|k| {
            k.name.as_deref() == Some("inplace")
                && matches!(
                    k.value,
                    Expr::Literal {
                        value: Literal::Bool(true),
                        ..
                    }
                )
        });
        return (inplace && PANDAS_INPLACE.contains(&attr)).then_some(Val::None);
    }
    // A text file: what it reads is text.
    if matches!(receiver, Val::Typed(t) if t == TEXT_FILE) {
        return match (attr, args, keywords) {
            ("read" | "readline", [] | [_], []) => Some(Val::Typed("str".into())),
            ("readlines", [] | [_], []) => Some(Val::Typed("list".into())),
            ("write", [_], []) => Some(Val::Typed("int".into())),
            _ => None,
        };
    }
    let in_place = match builtin_of(receiver)? {
        // A new container holding the same.
        Builtin::List | Builtin::Dict
            if attr == "copy" && args.is_empty() && keywords.is_empty() =>
        {
            return super::containers::copied(receiver)
                .or(Some(Val::Typed(builtin_of(receiver)?.name().into())));
        }
        Builtin::List => &[
            "append", "extend", "insert", "remove", "sort", "reverse", "clear",
        ][..],
        // Views, not lists (Python 2 gave lists).
        Builtin::Dict if args.is_empty() && matches!(attr, "keys" | "values" | "items") => {
            return Some(Val::Typed(format!("dict_{attr}")));
        }
        // `d.get(key)` of a literal key: its value, or None when a dict literal lacks it.
        Builtin::Dict if attr == "get" && args.len() == 1 && keywords.is_empty() => {
            let Val::Dict { keys, values } = receiver else {
                return None;
            };
            let key = match &args[0] {
                Expr::Literal {
                    value: Literal::Str(s),
                    ..
                } => DictKey::Str(s.clone()),
                Expr::Literal {
                    value: Literal::Int(i),
                    ..
                } => DictKey::Int(*i),
                _ => return None,
            };
            return Some(match keys.iter().position(|k| *k == key) {
                Some(i) => values[i].clone(),
                None => Val::None,
            });
        }
        Builtin::Dict => &["update", "clear"][..],
        Builtin::Set => &[
            "add",
            "discard",
            "remove",
            "clear",
            "update",
            "difference_update",
            "intersection_update",
            "symmetric_difference_update",
        ][..],
        // Always three parts: before, separator, after.
        Builtin::Str if matches!(attr, "partition" | "rpartition") && args.len() == 1 => {
            return Some(Val::Sized {
                type_name: "tuple".into(),
                len: 3,
            });
        }
        Builtin::Str => {
            if let Val::Str(text) = receiver {
                if let Some(parts) = split_text(text, attr, args, keywords) {
                    return Some(Val::Strs {
                        type_name: "list".into(),
                        items: parts,
                    });
                }
            }
            return str_method_result(attr);
        }
        _ => &[][..],
    };
    in_place.contains(&attr).then_some(Val::None)
}

/// Does a call of a function defined by a plain `def` fit its parameters? The message when not.
pub fn user_call_problem(
    name: &str,
    p: &Params,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<String> {
    let n = args.len();
    if n > p.positional && !p.vararg {
        return Some(format!(
            "{name}() takes {} positional argument{} but {n} were given",
            p.positional,
            if p.positional == 1 { "" } else { "s" }
        ));
    }
    let kw_start = p.positional + usize::from(p.vararg);
    let kw_only = p
        .names
        .get(kw_start..kw_start + p.keyword_only_required.len())
        .unwrap_or(&[]);
    let given: Vec<&str> = keywords.iter().filter_map(|k| k.name.as_deref()).collect();
    for k in &given {
        match p.names[..p.positional].iter().position(|x| x == k) {
            Some(i) if i < p.posonly => {
                if !p.kwarg {
                    return Some(format!(
                        "{name}() got a positional-only argument '{k}' passed as keyword"
                    ));
                }
            }
            Some(i) if i < n => {
                return Some(format!("{name}() got multiple values for argument '{k}'"))
            }
            Some(_) => {}
            None if kw_only.iter().any(|x| x == k) || p.kwarg => {}
            None => {
                let keywords = p.names[p.posonly..p.positional].iter().chain(kw_only);
                let hint = suggest(k, keywords.map(String::as_str))
                    .map(|s| format!(" (did you mean '{s}'?)"))
                    .unwrap_or_default();
                return Some(format!(
                    "{name}() got an unexpected keyword argument '{k}'{hint}"
                ));
            }
        }
    }
    let required = p.positional - p.positional_defaults.min(p.positional);
    let missing: Vec<&String> = p.names[..required]
        .iter()
        .enumerate()
        .filter(|(i, x)| *i >= n && !given.contains(&x.as_str()))
        .map(|(_, x)| x)
        .chain(
            kw_only
                .iter()
                .zip(&p.keyword_only_required)
                .filter(|(x, req)| **req && !given.contains(&x.as_str()))
                .map(|(x, _)| x),
        )
        .collect();
    if missing.is_empty() {
        return None;
    }
    let shown: Vec<String> = missing.iter().map(|m| format!("'{m}'")).collect();
    Some(format!(
        "{name}() is missing {} required argument{}: {}",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" },
        shown.join(", ")
    ))
}

/// The builtin type of an abstract value, when certain.
pub fn builtin_of(v: &Val) -> Option<Builtin> {
    match v {
        Val::None => Some(Builtin::None),
        Val::Bool(_) => Some(Builtin::Bool),
        Val::Int(_) => Some(Builtin::Int),
        Val::Float(_) => Some(Builtin::Float),
        Val::Str(_) => Some(Builtin::Str),
        Val::Dict { .. } => Some(Builtin::Dict),
        // Only the type is known: a builtin's result, or a kernel value it did not send whole
        // (the kernel names builtin types by their bare name, any other class by its module).
        Val::Typed(t) => match t.as_str() {
            "NoneType" => Some(Builtin::None),
            "bool" => Some(Builtin::Bool),
            "int" => Some(Builtin::Int),
            "float" => Some(Builtin::Float),
            "str" => Some(Builtin::Str),
            other => Builtin::of_name(other),
        },
        // A DataLoader's batch is followed as a list of tensors, whatever its `collate_fn` makes.
        Val::Items { items, .. } if items.iter().any(|v| matches!(v, Val::Tensor(_))) => None,
        Val::Items { type_name, .. }
        | Val::Sized { type_name, .. }
        | Val::Strs { type_name, .. } => Builtin::of_name(type_name),
        _ => None,
    }
}

/// Why `a op b` raises TypeError, in Python's words; None when the operation is defined (or may
/// be: `%` formatting of a str).
pub fn operand_error(op: &str, a: Builtin, b: Builtin) -> Option<String> {
    binary_error(op, if op == "**" { "** or pow()" } else { op }, a, b)
}

/// `text.split(...)` / `text.rsplit(...)` of a known text, with literal arguments: the parts, as
/// Python gives them. Splitting on whitespace only for ASCII texts (Python also splits on a few
/// control characters that Rust does not count as whitespace).
pub fn split_text(
    text: &str,
    attr: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Vec<String>> {
    if !matches!(attr, "split" | "rsplit") || !keywords.is_empty() {
        return None;
    }
    let sep = match args.first() {
        None
        | Some(Expr::Literal {
            value: Literal::None,
            ..
        }) => None,
        Some(e) => Some(e.as_str_literal().filter(|s| !s.is_empty())?),
    };
    let max = match args.get(1) {
        None => None,
        Some(Expr::Literal {
            value: Literal::Int(n),
            ..
        }) => usize::try_from(*n).ok(),
        Some(_) => return None,
    };
    if args.len() > 2 || (max.is_some() && sep.is_none()) {
        return None;
    }
    let parts: Vec<String> = match (sep, max) {
        (None, _) if text.is_ascii() && !text.bytes().any(|b| (0x1c..=0x1f).contains(&b)) => {
            text.split_ascii_whitespace().map(str::to_string).collect()
        }
        (None, _) => return None,
        (Some(sep), None) => text.split(sep).map(str::to_string).collect(),
        (Some(sep), Some(n)) if attr == "split" => {
            text.splitn(n + 1, sep).map(str::to_string).collect()
        }
        (Some(sep), Some(n)) => {
            let mut parts: Vec<String> = text.rsplitn(n + 1, sep).map(str::to_string).collect();
            parts.reverse();
            parts
        }
    };
    Some(parts)
}

/// What a method of an exact str returns (an exact str, int or list), when that is certain.
pub fn str_method_result(attr: &str) -> Option<Val> {
    let type_name = match attr {
        "capitalize" | "casefold" | "center" | "expandtabs" | "format" | "format_map" | "join"
        | "ljust" | "lower" | "lstrip" | "removeprefix" | "removesuffix" | "replace" | "rjust"
        | "rstrip" | "strip" | "swapcase" | "title" | "translate" | "upper" | "zfill" => "str",
        "count" | "find" | "index" | "rfind" | "rindex" => "int",
        "split" | "rsplit" | "splitlines" => "list",
        _ => return None,
    };
    Some(Val::Typed(type_name.into()))
}

/// Iterables with no arithmetic: range objects, dict views, the lazy iterators, generators.
/// Only `dict_keys` and `dict_items` take the set operators (with any iterable, on either side).
const ITERABLE_OBJECTS: &[&str] = &[
    "range",
    "dict_keys",
    "dict_values",
    "dict_items",
    "map",
    "filter",
    "zip",
    "enumerate",
    "generator",
];

/// Why `l op r` raises TypeError when one side is certainly such an iterable
/// (`range(5) + [1]`) and the other's type is known, in Python's words (`shown`: the operator as
/// the message names it; `+=` extends a list with any iterable).
pub fn iterable_operand_error(op: &str, shown: &str, l: &Val, r: &Val) -> Option<String> {
    let iterable = |v: &Val| match v {
        Val::Typed(t) => ITERABLE_OBJECTS.iter().copied().find(|i| i == t),
        _ => None,
    };
    let (a, b) = (iterable(l), iterable(r));
    if a.is_none() && b.is_none() {
        return None;
    }
    let name = |v: &Val, it: Option<&'static str>| it.or_else(|| builtin_of(v).map(Builtin::name));
    let (x, y) = (name(l, a)?, name(r, b)?);
    let set_like = |t: Option<&str>| matches!(t, Some("dict_keys" | "dict_items"));
    let sequence = |v: &Val| builtin_of(v).is_some_and(Builtin::sequence);
    match op {
        "&" | "|" | "^" | "-" if set_like(a) || set_like(b) => None,
        "+" if shown == "+=" && builtin_of(l) == Some(Builtin::List) => None,
        // `"%s" % r` formats it.
        "%" if builtin_of(l) == Some(Builtin::Str) => None,
        "+" if sequence(l) => Some(format!("can only concatenate {x} (not \"{y}\") to {x}")),
        "*" if sequence(l) || sequence(r) => Some(format!(
            "can't multiply sequence by non-int of type '{}'",
            if sequence(l) { y } else { x }
        )),
        "+" | "-" | "*" | "/" | "//" | "%" | "**" | "@" | "&" | "|" | "^" | "<<" | ">>" => Some(
            format!("unsupported operand type(s) for {shown}: '{x}' and '{y}'"),
        ),
        _ => None,
    }
}

/// `operand_error`, with `shown` the operator as the message names it.
pub fn binary_error(op: &str, shown: &str, a: Builtin, b: Builtin) -> Option<String> {
    let defined = match op {
        "+" => (a.number() && b.number()) || (a.sequence() && a == b),
        "*" => {
            (a.number() && b.number())
                || (a.sequence() && b.integer())
                || (a.integer() && b.sequence())
        }
        "-" => (a.number() && b.number()) || (a == Builtin::Set && b == Builtin::Set),
        "/" | "//" | "**" => a.number() && b.number(),
        "%" => (a.number() && b.number()) || a == Builtin::Str,
        "@" => false,
        "&" | "|" | "^" => {
            (a.integer() && b.integer())
                || (a == Builtin::Set && b == Builtin::Set)
                || (op == "|" && a == Builtin::Dict && b == Builtin::Dict)
        }
        "<<" | ">>" => a.integer() && b.integer(),
        _ => return None,
    };
    if defined {
        return None;
    }
    Some(match (op, a, b) {
        ("+", Builtin::Str | Builtin::List | Builtin::Tuple, _) => format!(
            "can only concatenate {} (not \"{}\") to {}",
            a.name(),
            b.name(),
            a.name()
        ),
        ("*", _, _) if a.sequence() || b.sequence() => {
            let other = if a.sequence() { b } else { a };
            format!(
                "can't multiply sequence by non-int of type '{}'",
                other.name()
            )
        }
        _ => format!(
            "unsupported operand type(s) for {shown}: '{}' and '{}'",
            a.name(),
            b.name()
        ),
    })
}

/// The builtin type of a value, when certain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    None,
    /// An int too (`True + 1 == 2`): `integer()` says so.
    Bool,
    Int,
    Float,
    Str,
    List,
    Tuple,
    Dict,
    Set,
    /// A bound method of a Python-defined class (pandas' `df.head`, not called).
    Method,
    /// A bound method of a class written in C (numpy's `arr.mean`, not called).
    BuiltinMethod,
}

impl Builtin {
    /// The type's name as Python's messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::None => "NoneType",
            Builtin::Bool => "bool",
            Builtin::Int => "int",
            Builtin::Float => "float",
            Builtin::Str => "str",
            Builtin::List => "list",
            Builtin::Tuple => "tuple",
            Builtin::Dict => "dict",
            Builtin::Set => "set",
            Builtin::Method => "method",
            Builtin::BuiltinMethod => "builtin_function_or_method",
        }
    }

    /// The type an AttributeError names: a bound method looks its attributes up on its
    /// function.
    pub fn attribute_owner(self) -> &'static str {
        match self {
            Builtin::Method => "function",
            t => t.name(),
        }
    }

    pub fn callable(self) -> bool {
        matches!(self, Builtin::Method | Builtin::BuiltinMethod)
    }

    /// Neither iterable, nor sized, nor a container: None, numbers, and functions.
    pub fn scalar(self) -> bool {
        matches!(
            self,
            Builtin::None
                | Builtin::Bool
                | Builtin::Int
                | Builtin::Float
                | Builtin::Method
                | Builtin::BuiltinMethod
        )
    }

    /// "None", "an int", "a str", ... for messages.
    pub fn described(self) -> &'static str {
        match self {
            Builtin::None => "None",
            Builtin::Bool => "a bool",
            Builtin::Int => "an int",
            Builtin::Float => "a float",
            Builtin::Str => "a str",
            Builtin::List => "a list",
            Builtin::Tuple => "a tuple",
            Builtin::Dict => "a dict",
            Builtin::Set => "a set",
            Builtin::Method | Builtin::BuiltinMethod => "a method, not called",
        }
    }

    pub fn of_name(type_name: &str) -> Option<Builtin> {
        match type_name {
            "list" => Some(Builtin::List),
            "tuple" => Some(Builtin::Tuple),
            "dict" => Some(Builtin::Dict),
            "set" => Some(Builtin::Set),
            "method" => Some(Builtin::Method),
            "builtin_function_or_method" => Some(Builtin::BuiltinMethod),
            _ => None,
        }
    }

    pub fn number(self) -> bool {
        matches!(self, Builtin::Bool | Builtin::Int | Builtin::Float)
    }

    /// An int: `bool` is a subclass of `int`, accepted wherever an int is.
    pub fn integer(self) -> bool {
        matches!(self, Builtin::Bool | Builtin::Int)
    }

    /// Mutable, so unhashable: no dict key or set item.
    pub fn mutable(self) -> bool {
        matches!(self, Builtin::List | Builtin::Dict | Builtin::Set)
    }

    pub fn sequence(self) -> bool {
        matches!(self, Builtin::Str | Builtin::List | Builtin::Tuple)
    }

    /// The attributes of the type that are not dunders, in every Python from 3.8 to 3.14.
    pub fn attributes(self) -> &'static [&'static str] {
        match self {
            // (A Python function may hold attributes in its `__dict__`: pandas' decorators give
            // some private ones.)
            Builtin::None | Builtin::Method | Builtin::BuiltinMethod => &[],
            Builtin::Bool | Builtin::Int => &[
                "as_integer_ratio",
                "bit_count",
                "bit_length",
                "conjugate",
                "denominator",
                "from_bytes",
                "imag",
                "is_integer",
                "numerator",
                "real",
                "to_bytes",
            ],
            Builtin::Float => &[
                "as_integer_ratio",
                "conjugate",
                "from_number",
                "fromhex",
                "hex",
                "imag",
                "is_integer",
                "real",
            ],
            Builtin::Str => &[
                "capitalize",
                "casefold",
                "center",
                "count",
                "encode",
                "endswith",
                "expandtabs",
                "find",
                "format",
                "format_map",
                "index",
                "isalnum",
                "isalpha",
                "isascii",
                "isdecimal",
                "isdigit",
                "isidentifier",
                "islower",
                "isnumeric",
                "isprintable",
                "isspace",
                "istitle",
                "isupper",
                "join",
                "ljust",
                "lower",
                "lstrip",
                "maketrans",
                "partition",
                "removeprefix",
                "removesuffix",
                "replace",
                "rfind",
                "rindex",
                "rjust",
                "rpartition",
                "rsplit",
                "rstrip",
                "split",
                "splitlines",
                "startswith",
                "strip",
                "swapcase",
                "title",
                "translate",
                "upper",
                "zfill",
            ],
            Builtin::List => &[
                "append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove",
                "reverse", "sort",
            ],
            Builtin::Tuple => &["count", "index"],
            Builtin::Dict => &[
                "clear",
                "copy",
                "fromkeys",
                "get",
                "items",
                "keys",
                "pop",
                "popitem",
                "setdefault",
                "update",
                "values",
            ],
            Builtin::Set => &[
                "add",
                "clear",
                "copy",
                "difference",
                "difference_update",
                "discard",
                "intersection",
                "intersection_update",
                "isdisjoint",
                "issubset",
                "issuperset",
                "pop",
                "remove",
                "symmetric_difference",
                "symmetric_difference_update",
                "union",
                "update",
            ],
        }
    }
}

/// What a call returns when Python's semantics say it is None: `print(...)`, the in-place methods
/// of a known list, dict or set, and pandas methods given `inplace=True`.
/// The functions of `math` that convert each argument to a float (the math module's reference):
/// a numpy array of more than one element cannot be (TypeError).
pub const MATH_OF_FLOATS: &[&str] = &[
    "exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "pow", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "degrees",
    "radians", "fabs", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite", "erf", "erfc",
    "gamma", "lgamma", "hypot", "copysign", "fmod",
];

/// The builtins that return a lazy iterator of their own type in Python 3 (Python 2 gave
/// lists): neither subscriptable nor sized.
pub const LAZY_ITERATORS: &[&str] = &["map", "zip", "filter", "enumerate"];

/// The builtin iterator type a value certainly is (`map`, `zip`, ..., or a generator
/// expression's `generator`).
pub fn lazy_iterator(v: &Val) -> Option<&'static str> {
    match v {
        Val::Typed(t) => LAZY_ITERATORS
            .iter()
            .chain(&["generator"])
            .copied()
            .find(|l| l == t),
        _ => None,
    }
}

/// Why formatting a value of type `t` with the format spec `spec` (`f"{x:spec}"`,
/// `format(x, spec)`, `"{:spec}".format(x)`) raises, as Python says it (exception included);
/// None when it may not. None, lists, tuples, dicts and sets take no spec at all (their
/// `__format__` is object's); for ints, floats and texts only the presentation type, the spec's
/// last character when it is a letter or `%`, is read (a fill character is always followed by
/// an alignment, so a final letter is the type).
pub fn format_spec_error(t: Builtin, spec: &str) -> Option<String> {
    if spec.is_empty() {
        return None;
    }
    let allowed = match t {
        Builtin::Bool | Builtin::Int => "bcdoxXneEfFgG%",
        Builtin::Float => "eEfFgGn%",
        Builtin::Str => "s",
        _ => {
            return Some(format!(
                "TypeError: unsupported format string passed to {}.__format__",
                t.name()
            ))
        }
    };
    let code = spec
        .chars()
        .last()
        .filter(|c| c.is_ascii_alphabetic() || *c == '%')?;
    (!allowed.contains(code)).then(|| {
        format!(
            "ValueError: Unknown format code '{code}' for object of type '{}'",
            t.name()
        )
    })
}

/// How many positional arguments builtins take (least, most; `usize::MAX` for any number), in
/// every Python from 3.8 to 3.14; those whose count is free or depends on the form (`print`,
/// `max`, `type`, `open`) are not listed.
pub const BUILTIN_ARITY: &[(&str, usize, usize)] = &[
    ("abs", 1, 1),
    ("all", 1, 1),
    ("any", 1, 1),
    ("ascii", 1, 1),
    ("bin", 1, 1),
    ("bool", 0, 1),
    ("callable", 1, 1),
    ("chr", 1, 1),
    ("complex", 0, 2),
    ("delattr", 2, 2),
    ("dict", 0, 1),
    ("dir", 0, 1),
    ("divmod", 2, 2),
    ("enumerate", 1, 2),
    ("filter", 2, 2),
    ("float", 0, 1),
    ("format", 1, 2),
    ("frozenset", 0, 1),
    ("getattr", 2, 3),
    ("hasattr", 2, 2),
    ("hash", 1, 1),
    ("hex", 1, 1),
    ("id", 1, 1),
    ("input", 0, 1),
    ("int", 0, 2),
    ("isinstance", 2, 2),
    ("issubclass", 2, 2),
    ("iter", 1, 2),
    ("len", 1, 1),
    ("list", 0, 1),
    ("map", 2, usize::MAX),
    ("next", 1, 2),
    ("oct", 1, 1),
    ("ord", 1, 1),
    ("pow", 2, 3),
    ("range", 1, 3),
    ("repr", 1, 1),
    ("reversed", 1, 1),
    ("round", 1, 2),
    ("set", 0, 1),
    ("setattr", 3, 3),
    ("slice", 1, 3),
    ("sorted", 1, 1),
    ("str", 0, 3),
    ("sum", 1, 2),
    ("tuple", 0, 1),
    ("vars", 0, 1),
];

/// Names Python 3 removed from standard modules that cannot be shadowed in a notebook (built into
/// the interpreter, or imported at its start), absent from every Python since 3.8: the module,
/// the name, and what replaces it.
pub const REMOVED_MODULE_ATTRIBUTES: &[(&str, &str, &str)] = &[
    ("itertools", "ifilter", "the builtin filter"),
    ("itertools", "ifilterfalse", "itertools.filterfalse"),
    ("itertools", "imap", "the builtin map"),
    ("itertools", "izip", "the builtin zip"),
    ("itertools", "izip_longest", "itertools.zip_longest"),
    ("os", "getcwdu", "os.getcwd"),
    ("string", "letters", "string.ascii_letters"),
    ("string", "lowercase", "string.ascii_lowercase"),
    ("string", "maketrans", "str.maketrans"),
    ("string", "uppercase", "string.ascii_uppercase"),
    ("sys", "maxint", "sys.maxsize"),
    (
        "sys",
        "setdefaultencoding",
        "nothing: Python 3 texts are Unicode",
    ),
    ("time", "clock", "time.perf_counter or time.process_time"),
];

/// Why `math.name(x)` of a known number raises ValueError (the argument is outside the
/// function's domain); None when it is inside or not read here.
pub fn math_domain_error(name: &str, x: f64) -> Option<&'static str> {
    let outside = match name {
        "sqrt" => x < 0.0,
        "log" | "log2" | "log10" => x <= 0.0,
        "log1p" => x <= -1.0,
        "asin" | "acos" => !(-1.0..=1.0).contains(&x),
        "acosh" => x < 1.0,
        "atanh" => x <= -1.0 || x >= 1.0,
        _ => false,
    };
    outside.then_some(match name {
        "sqrt" => "the square root of a negative number",
        "log" | "log2" | "log10" | "log1p" => "the logarithm of a number not above zero",
        _ => "a number outside the function's domain",
    })
}

/// The value of an f-string (`f"..."`, `rf'...'`) from its source text: a str.
pub fn fstring_value(text: &str) -> Option<Val> {
    let prefix = &text[..text.find(['"', '\''])?];
    (!prefix.is_empty()
        && prefix.len() <= 2
        && prefix.chars().any(|c| c == 'f' || c == 'F')
        && prefix.chars().all(|c| matches!(c, 'f' | 'F' | 'r' | 'R')))
    .then(|| Val::Typed("str".into()))
}

/// `range(...)` of the builtin `range` with known int arguments: its first number, its step and
/// how many numbers it holds (in i128: the bounds may be any i64).
pub struct RangeOf {
    pub start: i128,
    pub step: i128,
    pub count: i128,
}

impl RangeOf {
    /// The number at position `k` (`0 <= k < count`).
    pub fn at(&self, k: i128) -> Val {
        Val::Int((self.start + k * self.step) as i64)
    }
}

/// What `e` is when it is a call of the builtin `range` (certainly the builtin: not rebound by
/// any cell) with known int arguments.
pub fn range_of(w: &dyn Eval, e: &Expr) -> Option<RangeOf> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = e
    else {
        return None;
    };
    if !keywords.is_empty()
        || !matches!(&**func, Expr::Name { id, .. } if id == "range" && w.certainly_builtin(id))
    {
        return None;
    }
    let ints: Vec<i64> = args
        .iter()
        .map(|a| match w.eval(a) {
            Val::Int(i) => Some(i),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] if *step != 0 => (*start, *stop, *step),
        _ => return None,
    };
    let (start, stop, step) = (i128::from(start), i128::from(stop), i128::from(step));
    let count = if step > 0 {
        (stop - start + step - 1).div_euclid(step)
    } else {
        (start - stop - step - 1).div_euclid(-step)
    }
    .max(0);
    Some(RangeOf { start, step, count })
}

/// `map(f, xs)` / `filter(f, xs)` of the builtins over one iterable the walker knows: the list
/// iterating it gives (`list(map(lambda x: x * 2, [1, 2]))` is `[2, 4]`).
pub fn lazy_list(w: &dyn Eval, e: &Expr) -> Option<Val> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = e
    else {
        return None;
    };
    let Expr::Name { id, .. } = &**func else {
        return None;
    };
    if !keywords.is_empty() || !w.certainly_builtin(id) {
        return None;
    }
    match (id.as_str(), args.as_slice()) {
        ("map", [f, xs]) => super::containers::mapped(&iterable(w, xs), |x| {
            w.call_value(f, std::slice::from_ref(x))
        }),
        // `filter(None, xs)` keeps the true elements.
        (
            "filter",
            [Expr::Literal {
                value: Literal::None,
                ..
            }, xs],
        ) => super::containers::filtered(&iterable(w, xs), truth),
        ("filter", [f, xs]) => super::containers::filtered(&iterable(w, xs), |x| {
            truth(&w.call_value(f, std::slice::from_ref(x))?)
        }),
        _ => None,
    }
}

/// What iterating `e` gives, as far as known: the numbers of a `range` with known bounds as a
/// list, the value of `e` otherwise.
fn iterable(w: &dyn Eval, e: &Expr) -> Val {
    match range_numbers(w, e) {
        Some(numbers) => super::abstract_value::sequence_of("list", numbers),
        None => w.eval(e),
    }
}

/// The numbers of `range(...)` with known int bounds (at most 10,000 of them).
fn range_numbers(w: &dyn Eval, e: &Expr) -> Option<Vec<Val>> {
    let range = range_of(w, e)?;
    (range.count <= 10_000).then(|| (0..range.count).map(|k| range.at(k)).collect())
}

/// The positions `seq[lower:upper:step]` takes from a sequence of length `n`, as
/// `slice.indices` gives them (bounds past either end clamped); None for a zero step.
pub fn slice_positions(
    n: i64,
    lower: Option<i64>,
    upper: Option<i64>,
    step: Option<i64>,
) -> Option<Vec<usize>> {
    let step = step.unwrap_or(1);
    if step == 0 || n > 100_000 {
        return None;
    }
    // A negative step counts down from the end, and may stop before position 0 (at -1).
    let (low, high) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let bound = |b: Option<i64>, default: i64| match b {
        None => default,
        Some(i) if i < 0 => (i + n).max(low),
        Some(i) => i.min(high),
    };
    let (mut at, stop) = if step > 0 {
        (bound(lower, 0), bound(upper, n))
    } else {
        (bound(lower, n - 1), bound(upper, -1))
    };
    let mut out = Vec::new();
    while (step > 0 && at < stop) || (step < 0 && at > stop) {
        out.push(usize::try_from(at).ok()?);
        at += step;
    }
    Some(out)
}

/// `seq[lower:upper:step]` of a str, list or tuple known in full (or a list or tuple of known
/// length) and int bounds: the same type, with what it takes.
pub fn sliced(
    base: &Val,
    lower: Option<i64>,
    upper: Option<i64>,
    step: Option<i64>,
) -> Option<Val> {
    let n = iterated_len(base)?;
    let taken = slice_positions(n, lower, upper, step)?;
    Some(match base {
        Val::Str(text) => {
            let chars: Vec<char> = text.chars().collect();
            Val::Str(taken.iter().map(|&i| chars[i]).collect())
        }
        Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            Val::Items {
                type_name: type_name.clone(),
                items: taken.iter().map(|&i| items[i].clone()).collect(),
            }
        }
        Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            Val::Strs {
                type_name: type_name.clone(),
                items: taken.iter().map(|&i| items[i].clone()).collect(),
            }
        }
        Val::Sized { type_name, .. } if matches!(type_name.as_str(), "list" | "tuple") => {
            Val::Sized {
                type_name: type_name.clone(),
                len: taken.len() as i64,
            }
        }
        _ => return None,
    })
}

/// `sum`, `max`, `min` of known numbers: of one iterable, or (`max`, `min`) of several numbers.
fn reduced_call(w: &dyn Eval, name: &str, args: &[Expr]) -> Option<Val> {
    match (name, args) {
        ("sum" | "max" | "min", [x]) => super::containers::reduced_numbers(name, &iterable(w, x)),
        ("max" | "min", [_, _, ..]) => super::containers::reduced_numbers(
            name,
            &super::abstract_value::sequence_of("list", args.iter().map(|a| w.eval(a)).collect()),
        ),
        _ => None,
    }
}

/// `dict(zip(keys, values))` of known keys and at least as many values: zip stops at the
/// shorter, so every key is there.
fn zipped_dict(w: &dyn Eval, name: &str, args: &[Expr]) -> Option<Val> {
    let (
        "dict",
        [Expr::Call {
            func,
            args: zipped,
            keywords,
            ..
        }],
    ) = (name, args)
    else {
        return None;
    };
    let (Expr::Name { id, .. }, [keys, values], []) =
        (&**func, zipped.as_slice(), keywords.as_slice())
    else {
        return None;
    };
    if id != "zip" || !w.certainly_builtin(id) {
        return None;
    }
    let (keys, values) = (iterable(w, keys), iterable(w, values));
    let n = super::containers::iterated_count(&keys)?;
    if super::containers::iterated_count(&values)? < n {
        return None;
    }
    super::containers::dict_of_keys(&keys)
}

pub fn call_result(w: &dyn Eval, func: &Expr, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let typed = |name: &str| Some(Val::Typed(name.to_string()));
    match func {
        Expr::Name { id, .. } if w.certainly_builtin(id) => {
            let known = |e: &Expr| builtin_of(&w.eval(e));
            if let Some(v) = keywords
                .is_empty()
                .then(|| reduced_call(w, id, args).or_else(|| zipped_dict(w, id, args)))
                .flatten()
            {
                return Some(v);
            }
            match (id.as_str(), args) {
                ("print", _) => Some(Val::None),
                // `len` returns an int or raises, `input` the line typed.
                // (A frame iterates over its columns, but its length is its rows'.)
                ("len", [x]) => {
                    let n = match w.eval(x) {
                        Val::Frame(f) => f.n_rows,
                        Val::Series(s) => s.len,
                        v => iterated_len(&v),
                    };
                    Some(n.map_or_else(|| Val::Typed("int".into()), Val::Int))
                }
                // `sum` of nothing is its start, 0.
                ("sum", [x]) if keywords.is_empty() && iterated_len(&w.eval(x)) == Some(0) => {
                    Some(Val::Int(0))
                }
                ("input", [] | [_]) if keywords.is_empty() => typed("str"),
                ("bool", [x]) if keywords.is_empty() => truth(&w.eval(x)).map(Val::Bool),
                ("isinstance", [x, classes]) if keywords.is_empty() => {
                    let value = w.eval(x);
                    let names = match classes {
                        Expr::Seq {
                            kind: crate::ir::SeqKind::Tuple,
                            elts,
                            ..
                        } => elts.iter().collect(),
                        class => vec![class],
                    };
                    let mut any = false;
                    for class in names {
                        let Expr::Name { id, .. } = class else {
                            return None;
                        };
                        if !w.certainly_builtin(id) {
                            return None;
                        }
                        any |= is_instance(&value, id)?;
                    }
                    Some(Val::Bool(any))
                }
                // A file opened in text mode (`'r'` when no mode is given).
                ("open", [_, ..]) => {
                    let mode = match (
                        args.get(1),
                        keywords.iter().find(|k| k.name.as_deref() == Some("mode")),
                    ) {
                        (Some(m), None) | (None, Some(Keyword { value: m, .. })) => w.eval(m),
                        (None, None) => Val::Str("r".into()),
                        (Some(_), Some(_)) => return None,
                    };
                    match mode {
                        Val::Str(mode) if !mode.contains('b') => typed(TEXT_FILE),
                        _ => None,
                    }
                }
                // `list(range(3))`: the numbers.
                ("list" | "tuple", [x]) if keywords.is_empty() && range_numbers(w, x).is_some() => {
                    Some(super::abstract_value::sequence_of(id, range_numbers(w, x)?))
                }
                // A new container of the elements the walker knows (`list(df.columns)`: the
                // strings, in order).
                ("list" | "tuple", [x]) if keywords.is_empty() => {
                    let v = lazy_list(w, x).unwrap_or_else(|| w.eval(x));
                    match v {
                        Val::Strs { items, .. } => Some(Val::Strs {
                            type_name: id.clone(),
                            items,
                        }),
                        v => super::containers::sequence_from(id, &v).or(typed(id)),
                    }
                }
                ("sorted", [x])
                    if keywords
                        .iter()
                        .all(|k| matches!(k.name.as_deref(), Some("key" | "reverse"))) =>
                {
                    let keyword =
                        |name: &str| keywords.iter().find(|k| k.name.as_deref() == Some(name));
                    let keyed = keyword("key").is_some_and(|k| {
                        !matches!(
                            k.value,
                            Expr::Literal {
                                value: Literal::None,
                                ..
                            }
                        )
                    });
                    let reverse = match keyword("reverse") {
                        None => Some(false),
                        Some(k) => truth(&w.eval(&k.value)),
                    };
                    let v = lazy_list(w, x).unwrap_or_else(|| iterable(w, x));
                    super::containers::sorted(&v, keyed, reverse).or(typed("list"))
                }
                ("dict", [] | [_]) if keywords.iter().all(|k| k.name.is_some()) => {
                    let named: Vec<(Option<String>, Val)> = keywords
                        .iter()
                        .map(|k| (k.name.clone(), w.eval(&k.value)))
                        .collect();
                    let arg = args.first().map(|a| w.eval(a));
                    super::containers::dict_from(arg.as_ref(), &named).or(typed("dict"))
                }
                // The constructors give their exact type, whatever they are given (or raise).
                ("list" | "sorted", _) => typed("list"),
                (lazy, _) if LAZY_ITERATORS.contains(&lazy) => typed(lazy),
                ("range", [_, ..]) if args.len() <= 3 && keywords.is_empty() => typed("range"),
                ("set", []) if keywords.is_empty() => Some(Val::Sized {
                    type_name: "set".into(),
                    len: 0,
                }),
                ("tuple" | "dict" | "set", _) => typed(id),
                // Conversions of builtin values give exactly that type (a user's class may
                // return a subclass from `__str__` or `__int__`).
                ("str", [x]) if known(x).is_some() => typed("str"),
                ("int" | "round", [x])
                    if known(x).is_some_and(|t| t.number() || t == Builtin::Str) =>
                {
                    typed("int")
                }
                // `float('nan')`, `float('inf')`, `float('2.5')`: the number.
                ("float", [x]) if known(x) == Some(Builtin::Str) => match w.eval(x) {
                    Val::Str(s) => super::abstract_value::parse_float(&s)
                        .map(Val::Float)
                        .or_else(|| typed("float")),
                    _ => typed("float"),
                },
                ("float", [x]) if known(x).is_some_and(|t| t.number()) => typed("float"),
                _ => None,
            }
        }
        _ => {
            let path = w.lib_path(func)?;
            // Both shuffle in place and return None.
            if matches!(path.as_str(), "random.shuffle" | "numpy.random.shuffle") {
                return Some(Val::None);
            }
            let all_str = args
                .iter()
                .all(|a| builtin_of(&w.eval(a)) == Some(Builtin::Str));
            let type_name = match path.as_str() {
                p if STDLIB_RESULTS.iter().any(|(f, _)| *f == p) => {
                    STDLIB_RESULTS.iter().find(|(f, _)| *f == p)?.1
                }
                // The functions of `math` that compute on floats give a float.
                p if p.strip_prefix("math.").is_some_and(|f| {
                    MATH_OF_FLOATS.contains(&f)
                        && !matches!(
                            f,
                            "floor" | "ceil" | "trunc" | "isnan" | "isinf" | "isfinite"
                        )
                }) =>
                {
                    "float"
                }
                // Texts in, a text out (bytes or path objects would give their own kind).
                "os.path.join" | "os.path.basename" | "os.path.dirname" | "os.path.abspath"
                    if !args.is_empty() && all_str && keywords.is_empty() =>
                {
                    "str"
                }
                _ => return None,
            };
            Some(Val::Typed(type_name.into()))
        }
    }
}

/// Standard functions whose result is always of one builtin type, whatever their arguments (or
/// they raise).
const STDLIB_RESULTS: &[(&str, &str)] = &[
    ("glob.glob", "list"),
    ("json.dumps", "str"),
    ("os.getcwd", "str"),
    ("os.listdir", "list"),
    ("random.randint", "int"),
    ("random.random", "float"),
    ("time.monotonic", "float"),
    ("time.perf_counter", "float"),
    ("time.process_time", "float"),
    ("time.time", "float"),
];

/// The number of elements iterating the value gives, when certain.
pub fn iterated_len(v: &Val) -> Option<i64> {
    match v {
        Val::Str(s) => Some(s.chars().count() as i64),
        // A numpy array iterates over its first axis.
        Val::Array(a) if a.lib == ArrayLib::Numpy => a.shape.first().copied(),
        _ => {
            builtin_of(v)?;
            v.sized().map(|(_, n)| n)
        }
    }
}

/// Submodules that `from package import name` binds (the package's `__init__` defines no other
/// object of that name), so calling the name calls a module (`from PIL import Image;
/// Image(...)`, `from IPython import display; display(df)`): TypeError.
pub const IMPORTED_SUBMODULES: &[(&str, &str)] = &[
    ("IPython", "display"),
    ("PIL", "Image"),
    ("PIL", "ImageDraw"),
    ("PIL", "ImageEnhance"),
    ("PIL", "ImageFilter"),
    ("PIL", "ImageFont"),
    ("PIL", "ImageOps"),
    ("concurrent", "futures"),
    ("matplotlib", "pyplot"),
    ("os", "path"),
    ("tqdm", "auto"),
    ("tqdm", "notebook"),
    ("urllib", "parse"),
    ("urllib", "request"),
    ("xml.etree", "ElementTree"),
];

/// Modules often called by mistake for the function or class they are used for (most share its
/// name): what to call instead.
pub const MODULE_MAIN_MEMBER: &[(&str, &str)] = &[
    ("IPython.display", "display"),
    ("PIL.Image", "open"),
    ("array", "array"),
    ("copy", "copy"),
    ("datetime", "datetime"),
    ("decimal", "Decimal"),
    ("fractions", "Fraction"),
    ("glob", "glob"),
    ("os.path", "join"),
    ("pprint", "pprint"),
    ("random", "random"),
    ("socket", "socket"),
    ("time", "time"),
    ("timeit", "timeit"),
    ("tqdm", "tqdm"),
    ("tqdm.auto", "tqdm"),
    ("tqdm.notebook", "tqdm"),
    ("xml.etree.ElementTree", "ElementTree"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_arithmetic_rounds_like_python() {
        let int = |v: Option<Val>| match v {
            Some(Val::Int(i)) => i,
            other => panic!("{other:?}"),
        };
        // python3 -c "print(7 // -2, -7 // 2, 7 % -2, -7 % 2, 6 // 3, -6 % 3)"
        let cases = [
            (7, -2, "//", -4),
            (-7, 2, "//", -4),
            (7, -2, "%", -1),
            (-7, 2, "%", 1),
            (6, 3, "//", 2),
            (-6, 3, "%", 0),
        ];
        for (a, b, op, want) in cases {
            assert_eq!(
                int(binop_value(op, &Val::Int(a), &Val::Int(b))),
                want,
                "{a} {op} {b}"
            );
        }
        assert_eq!(binop_value("//", &Val::Int(1), &Val::Int(0)), None);
        assert_eq!(
            binop_value("/", &Val::Int(7), &Val::Int(2)),
            Some(Val::Float(3.5))
        );
        assert_eq!(
            binop_value("*", &Val::Str("ab".into()), &Val::Int(2)),
            Some(Val::Str("abab".into()))
        );
    }

    #[test]
    fn bools_compare_and_count_as_python_does() {
        let (t, f) = (Val::Bool(true), Val::Bool(false));
        assert_eq!(binop_value("+", &t, &Val::Int(1)), Some(Val::Int(2)));
        assert_eq!(binop_value("&", &t, &f), Some(f.clone()));
        assert_eq!(compared("==", &t, &Val::Int(1)), Some(true));
        assert_eq!(compared("<", &Val::Int(2), &Val::Float(2.5)), Some(true));
        assert_eq!(
            compared("==", &Val::Float(f64::NAN), &Val::Float(f64::NAN)),
            Some(false)
        );
        assert_eq!(
            compared("<", &Val::Str("a".into()), &Val::Str("b".into())),
            Some(true)
        );
        assert_eq!(
            compared("==", &Val::Str("1".into()), &Val::Int(1)),
            Some(false)
        );
        assert_eq!(compared("<", &Val::Str("1".into()), &Val::Int(1)), None);
        assert_eq!(compared("is", &Val::None, &Val::None), Some(true));
        assert_eq!(compared("is not", &Val::Int(0), &Val::None), Some(true));
        assert_eq!(compared("==", &Val::Int(1 << 60), &Val::Float(0.5)), None);
        assert_eq!(truth(&Val::Float(f64::NAN)), Some(true));
        assert_eq!(truth(&Val::Str(String::new())), Some(false));
        let axes = Val::Items {
            type_name: "ndarray".into(),
            items: vec![Val::Unknown; 2],
        };
        assert_eq!(truth(&axes), None);
        assert_eq!(compared("==", &axes, &Val::Int(1)), None);
        assert_eq!(is_instance(&t, "int"), Some(true));
        assert_eq!(is_instance(&Val::Int(1), "bool"), Some(false));
        assert_eq!(is_instance(&Val::Int(1), "Number"), None);
    }
}
