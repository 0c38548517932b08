//! Python's own semantics on builtin values the walker knows for certain (from literals, from the
//! cell's code, or from the kernel's summaries of objects of exactly that builtin type):
//!
//! - `operand-type`: binary operators between types that do not combine (`"n = " + 3`,
//!   `[1] + (2,)`, `None + 1`, `"a" * 2.0`).
//! - `builtin-argument`: `len`, `int`, `float`, `abs`, `range` given a value they reject.
//! - `not-callable`: calling None, a number, a string or a container.
//! - `not-iterable`: loops, comprehensions, unpacking and iterating builtins over None or a number.
//! - `not-subscriptable`: subscripts of None, a number or a set.
//! - `unpack-count`: unpacking a value of known length into another number of targets.
//! - `missing-attribute`: attributes the builtin types lack (`[].shape`, `"s".append`).
//!
//! A value is one of these types only when that is certain: `Unknown` is silence, and so are
//! subclasses (the kernel's summaries name them by their own class).

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::ir::{Expr, Keyword, Literal, Stmt, Target, TextRange};

use super::abstract_value::{not_a_float, not_an_int, Val};
use super::flow::Walker;

/// The builtin type of a value, when certain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    None,
    Int,
    Float,
    Str,
    List,
    Tuple,
    Dict,
    Set,
}

impl Builtin {
    /// The type's name as Python's messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::None => "NoneType",
            Builtin::Int => "int",
            Builtin::Float => "float",
            Builtin::Str => "str",
            Builtin::List => "list",
            Builtin::Tuple => "tuple",
            Builtin::Dict => "dict",
            Builtin::Set => "set",
        }
    }

    /// "None", "an int", "a str", ... for messages.
    pub fn described(self) -> &'static str {
        match self {
            Builtin::None => "None",
            Builtin::Int => "an int",
            Builtin::Float => "a float",
            Builtin::Str => "a str",
            Builtin::List => "a list",
            Builtin::Tuple => "a tuple",
            Builtin::Dict => "a dict",
            Builtin::Set => "a set",
        }
    }

    fn of_name(type_name: &str) -> Option<Builtin> {
        match type_name {
            "list" => Some(Builtin::List),
            "tuple" => Some(Builtin::Tuple),
            "dict" => Some(Builtin::Dict),
            "set" => Some(Builtin::Set),
            _ => None,
        }
    }

    fn number(self) -> bool {
        matches!(self, Builtin::Int | Builtin::Float)
    }

    fn sequence(self) -> bool {
        matches!(self, Builtin::Str | Builtin::List | Builtin::Tuple)
    }

    /// The attributes of the type that are not dunders, in every Python from 3.8 to 3.14.
    fn attributes(self) -> &'static [&'static str] {
        match self {
            Builtin::None => &[],
            Builtin::Int => &[
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

/// The builtin type of an abstract value, when certain.
pub fn builtin_of(v: &Val) -> Option<Builtin> {
    match v {
        Val::None => Some(Builtin::None),
        Val::Int(_) => Some(Builtin::Int),
        Val::Float(_) => Some(Builtin::Float),
        Val::Str(_) => Some(Builtin::Str),
        Val::Dict { .. } => Some(Builtin::Dict),
        // Only the type is known: a builtin's result, or a kernel value it did not send whole
        // (the kernel names builtin types by their bare name, any other class by its module).
        Val::Typed(t) => match t.as_str() {
            "NoneType" => Some(Builtin::None),
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

/// The number of elements iterating the value gives, when certain.
fn iterated_len(v: &Val) -> Option<i64> {
    match v {
        Val::Str(s) => Some(s.chars().count() as i64),
        _ => {
            builtin_of(v)?;
            v.sized().map(|(_, n)| n)
        }
    }
}

/// Is `name` certainly Python's builtin of that name here: bound by no cell, no star import or
/// `exec` anywhere that may have bound it?
fn builtin_name(w: &Walker, name: &str) -> bool {
    let history = w.ctx.history;
    w.is_builtin(name)
        && !w.rebound_all
        && !w.ctx.facts.star_import
        && !history.binds_unknown_names
        && !history.bound_globals.contains(name)
        && !history.global_names.contains(name)
        && !w.ctx.cell.global_names.contains(name)
}

/// pandas methods that return None when given `inplace=True` (their docs: "DataFrame or None").
const PANDAS_INPLACE: &[&str] = &[
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

/// What a call returns when Python's semantics say it is None: `print(...)`, the in-place methods
/// of a known list, dict or set, and pandas methods given `inplace=True`.
pub fn call_result(w: &Walker, func: &Expr, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let typed = |name: &str| Some(Val::Typed(name.to_string()));
    match func {
        Expr::Name { id, .. } if builtin_name(w, id) => {
            let known = |e: &Expr| builtin_of(&w.eval(e));
            match (id.as_str(), args) {
                ("print", _) => Some(Val::None),
                // `len` returns an int or raises, `input` the line typed.
                ("len", [x]) => Some(
                    iterated_len(&w.eval(x)).map_or_else(|| Val::Typed("int".into()), Val::Int),
                ),
                ("input", [] | [_]) if keywords.is_empty() => typed("str"),
                // Conversions of builtin values give exactly that type (a user's class may
                // return a subclass from `__str__` or `__int__`).
                ("str", [x]) if known(x).is_some() => typed("str"),
                ("int" | "round", [x])
                    if known(x).is_some_and(|t| t.number() || t == Builtin::Str) =>
                {
                    typed("int")
                }
                ("float", [x]) if known(x).is_some_and(|t| t.number() || t == Builtin::Str) => {
                    typed("float")
                }
                _ => None,
            }
        }
        _ => None,
    }
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
    let in_place = match builtin_of(receiver)? {
        Builtin::List => &[
            "append", "extend", "insert", "remove", "sort", "reverse", "clear",
        ][..],
        // Views, not lists (Python 2 gave lists).
        Builtin::Dict if args.is_empty() && matches!(attr, "keys" | "values" | "items") => {
            return Some(Val::Typed(format!("dict_{attr}")));
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
        // `"a b".split()` of a known text: the walker counts the words.
        Builtin::Str if attr == "split" && args.is_empty() && matches!(receiver, Val::Str(_)) => {
            return None;
        }
        Builtin::Str => return str_method_result(attr),
        _ => &[][..],
    };
    in_place.contains(&attr).then_some(Val::None)
}

/// What a method of an exact str returns (an exact str, int or list), when that is certain.
fn str_method_result(attr: &str) -> Option<Val> {
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

/// The value of `l op r` on builtin values, as Python computes it, when the walker can: numbers
/// (an int result only when it fits), texts joined or repeated (up to 10,000 characters), lists
/// and tuples joined. A division by zero, or a type error, is no value.
pub fn binop_value(op: &str, l: &Val, r: &Val) -> Option<Val> {
    let number = |v: &Val| match v {
        Val::Int(i) => Some(*i as f64),
        Val::Float(f) => Some(*f),
        _ => None,
    };
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
        _ => {
            // Only the types are known: Python's result type.
            let (a, b) = (builtin_of(l)?, builtin_of(r)?);
            // `%` may format a str, `**` may give a float or a complex.
            if operand_error(op, a, b).is_some() || matches!(op, "%" | "**") {
                return None;
            }
            let name = match (a, b) {
                (Builtin::Int, Builtin::Int) if op == "/" => "float",
                (Builtin::Int, Builtin::Int) => "int",
                (Builtin::Float, _) | (_, Builtin::Float) if a.number() && b.number() => "float",
                (Builtin::Str, _) | (_, Builtin::Str) => "str",
                _ => return None,
            };
            Some(Val::Typed(name.into()))
        }
    }
}

/// The rules on one expression the walker will certainly evaluate.
pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } => {
            let (l, r) = (w.eval(left), w.eval(right));
            if let (Some(a), Some(b)) = (builtin_of(&l), builtin_of(&r)) {
                if let Some(message) = operand_error(op, a, b) {
                    let mut d = Diagnostic::error(
                        Rule::OperandType,
                        format!("{message}: TypeError"),
                        *range,
                    );
                    // `"n = " + 3`: the number wanted as text.
                    if *op == "+" && a == Builtin::Str && b.number() {
                        d = d.with_fix(wrap_in_str(w, right));
                    }
                    out.push(d);
                }
            }
        }
        Expr::Call {
            func,
            args,
            range,
            keywords,
            ..
        } => {
            let callee = w.eval(func);
            if let Some(t) = builtin_of(&callee) {
                out.push(Diagnostic::error(
                    Rule::NotCallable,
                    format!(
                        "{} is {}, not a function: TypeError: '{}' object is not callable",
                        w.shown(func, "the callee"),
                        t.described(),
                        t.name()
                    ),
                    func.range(),
                ));
                return;
            }
            let Expr::Name { id, .. } = &**func else {
                return;
            };
            if !keywords.is_empty() || args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
                return;
            }
            if !builtin_name(w, id) {
                return;
            }
            builtin_call(w, id, args, *range, out);
        }
        Expr::Subscript { value, range, .. } => {
            let base = w.eval(value);
            let view = match &base {
                Val::Typed(t) => t.as_str(),
                _ => "",
            };
            if let Some(method) = view.strip_prefix("dict_") {
                out.push(Diagnostic::error(
                    Rule::NotSubscriptable,
                    format!(
                        "{} is a view of the dict's {method}, not a list (as in Python 2); use list({})[...]: TypeError: '{view}' object is not subscriptable",
                        w.shown(value, "the value"),
                        w.shown(value, "...")
                    ),
                    *range,
                ));
                return;
            }
            if let Some(t @ (Builtin::None | Builtin::Int | Builtin::Float | Builtin::Set)) =
                builtin_of(&base)
            {
                out.push(Diagnostic::error(
                    Rule::NotSubscriptable,
                    format!(
                        "{} is {}: TypeError: '{}' object is not subscriptable",
                        w.shown(value, "the value"),
                        t.described(),
                        t.name()
                    ),
                    *range,
                ));
            }
        }
        Expr::Attribute { value, attr, range } => {
            if w.speculating() || (attr.starts_with("__") && attr.ends_with("__")) {
                return;
            }
            let Some(t) = builtin_of(&w.eval(value)) else {
                return;
            };
            if t.attributes().contains(&attr.as_str()) {
                return;
            }
            let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
            let (hint, fix) = attribute_hint(t, attr, attr_range);
            let mut d = Diagnostic::error(
                Rule::MissingAttribute,
                format!(
                    "'{}' object has no attribute '{attr}' ({} is {}){hint}: AttributeError",
                    t.name(),
                    w.shown(value, "the value"),
                    t.described()
                ),
                attr_range,
            );
            if let Some(fix) = fix {
                d = d.with_fix(fix);
            }
            out.push(d);
        }
        Expr::Comprehension { generators, .. } => {
            // The first iterable is evaluated and iterated when the comprehension is built.
            if let Some(g) = generators.first() {
                not_iterable(w, &g.iter, "iterated", out);
            }
        }
        _ => {}
    }
}

/// The rules on a statement before it runs: what it iterates or unpacks.
pub fn check_stmt(w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
    match stmt {
        Stmt::For { iter, .. } => not_iterable(w, iter, "looped over", out),
        Stmt::Assign {
            targets,
            op,
            value: Some(value),
            range,
        } => match op {
            crate::ir::AssignOp::Augmented(aug) => {
                let [Target::Name { id, .. }] = targets.as_slice() else {
                    return;
                };
                let (Some(a), Some(b)) = (builtin_of(&w.get(id)), builtin_of(&w.eval(value)))
                else {
                    return;
                };
                if let Some(message) = augmented_error(aug.trim_end_matches('='), a, b) {
                    out.push(Diagnostic::error(
                        Rule::OperandType,
                        format!("{id} is {}: TypeError: {message}", a.described()),
                        *range,
                    ));
                }
            }
            _ => {
                for target in targets {
                    unpack(w, target, value, out);
                }
            }
        },
        _ => {}
    }
}

/// `a, b = value`: the value's length must be the number of targets.
fn unpack(w: &Walker, target: &Target, value: &Expr, out: &mut Vec<Diagnostic>) {
    let Target::Unpack { elts, range } = target else {
        return;
    };
    let val = w.eval(value);
    let Some(t) = builtin_of(&val) else {
        return;
    };
    if matches!(t, Builtin::None | Builtin::Int | Builtin::Float) {
        out.push(Diagnostic::error(
            Rule::NotIterable,
            format!(
                "{} is {}: TypeError: cannot unpack non-iterable {} object",
                w.shown(value, "the value"),
                t.described(),
                t.name()
            ),
            value.range(),
        ));
        return;
    }
    let Some(n) = iterated_len(&val) else {
        return;
    };
    let starred = elts.iter().any(|e| matches!(e, Target::Starred { .. }));
    let wanted = elts.len() as i64 - i64::from(starred);
    let message = if starred {
        (n < wanted)
            .then(|| format!("not enough values to unpack (expected at least {wanted}, got {n})"))
    } else if n > wanted {
        Some(format!("too many values to unpack (expected {wanted})"))
    } else if n < wanted {
        Some(format!(
            "not enough values to unpack (expected {wanted}, got {n})"
        ))
    } else {
        None
    };
    if let Some(message) = message {
        let what = match t {
            Builtin::Str => format!("a string of length {n}"),
            _ => format!("{} of length {n}", t.described()),
        };
        out.push(Diagnostic::error(
            Rule::UnpackCount,
            format!(
                "{} is {what}: ValueError: {message}",
                w.shown(value, "the value")
            ),
            *range,
        ));
    }
}

fn not_iterable(w: &Walker, iter: &Expr, how: &str, out: &mut Vec<Diagnostic>) {
    if let Some(t @ (Builtin::None | Builtin::Int | Builtin::Float)) = builtin_of(&w.eval(iter)) {
        let hint = if t == Builtin::Int {
            "; to count, loop over range(n)"
        } else {
            ""
        };
        out.push(Diagnostic::error(
            Rule::NotIterable,
            format!(
                "{} is {} and cannot be {how}{hint}: TypeError: '{}' object is not iterable",
                w.shown(iter, "the value"),
                t.described(),
                t.name()
            ),
            iter.range(),
        ));
    }
}

/// Calls of builtins with one argument they certainly reject.
fn builtin_call(
    w: &Walker,
    name: &str,
    args: &[Expr],
    range: TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let arg_type = |e: &Expr| builtin_of(&w.eval(e));
    let push = |out: &mut Vec<Diagnostic>, rule: Rule, message: String| {
        out.push(Diagnostic::error(rule, message, range));
    };
    match (name, args) {
        ("len", [arg]) => {
            if let Some(t @ (Builtin::None | Builtin::Int | Builtin::Float)) = arg_type(arg) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}: TypeError: object of type '{}' has no len()",
                        w.shown(arg, "the argument"),
                        t.described(),
                        t.name()
                    ),
                );
            }
        }
        ("int" | "float", [arg]) => match (arg_type(arg), w.eval(arg)) {
            (Some(Builtin::Str), Val::Str(s)) => {
                let bad = if name == "int" {
                    not_an_int(&s)
                } else {
                    not_a_float(&s)
                };
                if bad {
                    let why = if name == "int" {
                        format!("invalid literal for int() with base 10: {}", py_repr(&s))
                    } else {
                        format!("could not convert string to float: {}", py_repr(&s))
                    };
                    push(out, Rule::BuiltinArgument, format!("ValueError: {why}"));
                }
            }
            (
                Some(
                    t @ (Builtin::None
                    | Builtin::List
                    | Builtin::Tuple
                    | Builtin::Dict
                    | Builtin::Set),
                ),
                _,
            ) => {
                let accepts = if name == "int" {
                    "a string, a bytes-like object or a real number"
                } else {
                    "a string or a real number"
                };
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}: TypeError: {name}() argument must be {accepts}, not '{}'",
                        w.shown(arg, "the argument"),
                        t.described(),
                        t.name()
                    ),
                );
            }
            _ => {}
        },
        ("abs", [arg]) => {
            if let Some(t) = arg_type(arg).filter(|t| !t.number()) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}: TypeError: bad operand type for abs(): '{}'",
                        w.shown(arg, "the argument"),
                        t.described(),
                        t.name()
                    ),
                );
            }
        }
        ("range", [_, ..]) if args.len() <= 3 => {
            for arg in args {
                if let Some(t) = arg_type(arg).filter(|t| *t != Builtin::Int) {
                    push(
                        out,
                        Rule::BuiltinArgument,
                        format!(
                            "{} is {}: TypeError: '{}' object cannot be interpreted as an integer",
                            w.shown(arg, "the argument"),
                            t.described(),
                            t.name()
                        ),
                    );
                    return;
                }
            }
        }
        (
            "list" | "tuple" | "set" | "sorted" | "sum" | "enumerate" | "iter" | "reversed"
            | "frozenset" | "dict",
            [arg],
        )
        | ("zip" | "map" | "filter", [_, arg]) => not_iterable(w, arg, "iterated", out),
        ("max" | "min" | "any" | "all", [arg]) => not_iterable(w, arg, "iterated", out),
        _ => {}
    }
}

/// Python's repr of a str, as its error messages show it.
fn py_repr(s: &str) -> String {
    if s.contains('\'') && !s.contains('"') {
        format!("\"{s}\"")
    } else {
        format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// Why `x op= y` raises TypeError, in Python's words; None when it is defined or may be.
fn augmented_error(op: &str, a: Builtin, b: Builtin) -> Option<String> {
    match (a, op) {
        // `d |= pairs` updates from any iterable of pairs.
        (Builtin::Dict, "|") => None,
        // `lst += iterable` extends the list.
        (Builtin::List, "+") => matches!(b, Builtin::None | Builtin::Int | Builtin::Float)
            .then(|| format!("'{}' object is not iterable", b.name())),
        // `x *= "ab"`: CPython's message depends on x's type (not the crash); left alone.
        (_, "*") if !a.sequence() && b.sequence() => None,
        _ => binary_error(op, &format!("{op}="), a, b),
    }
}

/// Why `a op b` raises TypeError, in Python's words; None when the operation is defined (or may
/// be: `%` formatting of a str).
fn operand_error(op: &str, a: Builtin, b: Builtin) -> Option<String> {
    binary_error(op, if op == "**" { "** or pow()" } else { op }, a, b)
}

/// `operand_error`, with `shown` the operator as the message names it.
fn binary_error(op: &str, shown: &str, a: Builtin, b: Builtin) -> Option<String> {
    let defined = match op {
        "+" => (a.number() && b.number()) || (a.sequence() && a == b),
        "*" => {
            (a.number() && b.number())
                || (a.sequence() && b == Builtin::Int)
                || (a == Builtin::Int && b.sequence())
        }
        "-" => (a.number() && b.number()) || (a == Builtin::Set && b == Builtin::Set),
        "/" | "//" | "**" => a.number() && b.number(),
        "%" => (a.number() && b.number()) || a == Builtin::Str,
        "@" => false,
        "&" | "|" | "^" => {
            (a == Builtin::Int && b == Builtin::Int)
                || (a == Builtin::Set && b == Builtin::Set)
                || (op == "|" && a == Builtin::Dict && b == Builtin::Dict)
        }
        "<<" | ">>" => a == Builtin::Int && b == Builtin::Int,
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

/// A fix wrapping `e` in `str(...)`.
fn wrap_in_str(w: &Walker, e: &Expr) -> Fix {
    let text = w.text(e.range());
    Fix {
        message: format!("Convert {text} to text with str({text})"),
        edits: vec![Edit {
            range: e.range(),
            content: format!("str({text})"),
        }],
        run_cells: vec![],
    }
}

/// What the programmer likely meant: Python 2's dict methods, numpy's `.shape` on a list, a
/// method of another builtin type, or a close name.
fn attribute_hint(t: Builtin, attr: &str, attr_range: TextRange) -> (String, Option<Fix>) {
    let replace = |with: &str| Fix {
        message: format!("Use .{with}"),
        edits: vec![Edit {
            range: attr_range,
            content: with.to_string(),
        }],
        run_cells: vec![],
    };
    let py2 = match (t, attr) {
        (Builtin::Dict, "iteritems") => Some("items"),
        (Builtin::Dict, "iterkeys") => Some("keys"),
        (Builtin::Dict, "itervalues") => Some("values"),
        _ => None,
    };
    if let Some(new) = py2 {
        return (
            format!("; Python 3 renamed it to '{new}'"),
            Some(replace(new)),
        );
    }
    if matches!(t, Builtin::List | Builtin::Tuple)
        && matches!(
            attr,
            "shape" | "size" | "ndim" | "dtype" | "reshape" | "mean" | "sum" | "max" | "min"
        )
    {
        return (
            format!("; it is not a numpy array: use len() or np.array(...).{attr}"),
            None,
        );
    }
    if t == Builtin::Str && matches!(attr, "append" | "extend" | "insert") {
        return (
            "; strings are immutable: build a new one with + or ''.join(...)".into(),
            None,
        );
    }
    if t == Builtin::Tuple && matches!(attr, "append" | "extend" | "insert" | "remove" | "sort") {
        return ("; tuples are immutable: use a list".into(), None);
    }
    match super::suggest(attr, t.attributes().iter().copied()) {
        Some(close) => (format!("; did you mean '{close}'?"), Some(replace(close))),
        None => (String::new(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_follow_python() {
        assert_eq!(
            operand_error("+", Builtin::Str, Builtin::Int).as_deref(),
            Some("can only concatenate str (not \"int\") to str")
        );
        assert_eq!(
            operand_error("+", Builtin::Int, Builtin::Str).as_deref(),
            Some("unsupported operand type(s) for +: 'int' and 'str'")
        );
        assert_eq!(
            operand_error("*", Builtin::Str, Builtin::Float).as_deref(),
            Some("can't multiply sequence by non-int of type 'float'")
        );
        assert_eq!(
            operand_error("*", Builtin::List, Builtin::List).as_deref(),
            Some("can't multiply sequence by non-int of type 'list'")
        );
        for (op, a, b) in [
            ("+", Builtin::Str, Builtin::Str),
            ("*", Builtin::Int, Builtin::Str),
            ("*", Builtin::Tuple, Builtin::Int),
            ("%", Builtin::Str, Builtin::List),
            ("|", Builtin::Dict, Builtin::Dict),
            ("-", Builtin::Set, Builtin::Set),
            ("**", Builtin::Float, Builtin::Int),
        ] {
            assert_eq!(operand_error(op, a, b), None, "{op} {a:?} {b:?}");
        }
    }

    /// The table agrees with CPython (tests/fixtures/pytypes/operators.txt, written by
    /// operators.py there): where it finds an error, CPython raises TypeError with that message;
    /// where CPython succeeds, it finds none.
    #[test]
    fn operators_agree_with_cpython() {
        let all = [
            Builtin::None,
            Builtin::Int,
            Builtin::Float,
            Builtin::Str,
            Builtin::List,
            Builtin::Tuple,
            Builtin::Dict,
            Builtin::Set,
        ];
        let by_name = |n: &str| all.into_iter().find(|b| b.name() == n).unwrap();
        let table = include_str!("../../tests/fixtures/pytypes/operators.txt");
        let (mut errors, mut silent) = (0, 0);
        for line in table.lines() {
            let (case, outcome) = line.split_once(" => ").unwrap();
            let [a, op, b] = case.split(' ').collect::<Vec<_>>()[..] else {
                panic!("{line}")
            };
            let (a, b) = (by_name(a), by_name(b));
            let found = match op.strip_suffix('=') {
                Some(op) => augmented_error(op, a, b),
                None => operand_error(op, a, b),
            };
            match (found, outcome) {
                (None, "ok") => {}
                (None, _) => silent += 1,
                (Some(m), _) => {
                    assert_eq!(outcome, format!("TypeError: {m}"), "{case}");
                    errors += 1;
                }
            }
        }
        // Left to CPython (31 errors): `%` formatting of a str, `|=` of a dict (it takes
        // pairs), `x *= "ab"` of a non-sequence.
        assert_eq!((silent, errors), (31, 1531));
    }

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
    fn reprs_quote_like_python() {
        assert_eq!(py_repr("abc"), "'abc'");
        assert_eq!(py_repr("it's"), "\"it's\"");
    }
}
