//! Python's own semantics on builtin values the walker knows for certain (from literals, from the
//! cell's code, from the notebook's functions, or from the kernel's summaries of objects of exactly
//! that builtin type):
//!
//! - `operand-type`: binary operators, augmented assignments, ordering comparisons and unary
//!   operators between types that do not combine (`"n = " + 3`, `[1] + (2,)`, `None + 1`,
//!   `"3" < 2`, `-"5"`), as CPython's table says (tests/fixtures/pytypes/operators.txt).
//! - `builtin-argument`: builtins (`len`, `int`, `float`, `abs`, `round`, `range`, `sum`,
//!   `sorted`, `max`, `min`, `next`, `ord`, `chr`, `hex`, `divmod`, `pow`, `isinstance`,
//!   `format`) and methods of str/list/tuple/dict/set values (counts and types of their
//!   positional arguments, `sep.join` of non-strings, `str.format` without the arguments its
//!   fields need) given what they reject; format specs the value's type rejects (f-strings,
//!   `str.format`, `format`); `math` functions given what is no number, or a known number outside
//!   their domain (ValueError); builtins given another number of arguments than they take;
//!   `open` modes, `os.path.join` of what is no path, `random.randint` / `random.sample` of
//!   impossible ranges; `xs.index(v)`, `xs.remove(v)`, `text.index(sub)` of a value a
//!   known list, tuple or text does not hold (ValueError); standard functions given known values
//!   they refuse (`datetime.strptime` of a text its format cannot read, dates out of range,
//!   `dict` of items not pairs, `zip(..., strict=True)` of other lengths;
//!   `semantics::stdlib_values` says which).
//! - `item-assignment`: `x[i] = v` or `del x[i]` where `x` is a tuple, a str, None, a number or
//!   a set.
//! - `not-callable`: calling None, a number, a string or a container.
//! - `not-iterable`: loops, comprehensions, unpacking and iterating builtins (`zip`, `map` ...
//!   included) over None, a number, a function (a method of a builtin value not called:
//!   `d.items`), or an instance of a plain class of the notebook without `__iter__` and
//!   `__getitem__` (`len` of one without `__len__` is a `builtin-argument`).
//! - `not-subscriptable`: subscripts of None, a number, a set, a dict view, a lazy iterator
//!   (`map`, `zip`, a generator expression), a function, or an instance of a plain class of the
//!   notebook without `__getitem__`.
//! - `index-type`: sequences indexed by non-integers or sliced by floats, dicts keyed by
//!   unhashable values (in literals, `set(...)`, `hash(...)`, `in` tests, dict and set methods).
//! - `missing-key`: str or int keys a dict the cell built lacks (any key of an empty one), read,
//!   updated (`d[k] += 1`), popped or deleted; `remove` / `pop` of an empty set, `popitem` of an
//!   empty dict.
//! - `index-out-of-range` (also in `value_checks`): `pop` or `del` of an empty list or past its
//!   end, `random.choice` of an empty sequence.
//! - `unpack-count`: unpacking a value of known length into another number of targets, and the
//!   first item of a loop (`enumerate`, `zip`, `dict.items()`, a dict's keys, known lists).
//! - `missing-attribute`: attributes the builtin types (and dict views) lack (`[].shape`,
//!   `"s".append`, `d.keys().append`), and names Python 3 removed from standard modules
//!   (`string.letters`, `sys.maxint`).
//!
//! What Python's semantics say calls return is in `semantics::python`: None from in-place
//! methods, from `print`, `random.shuffle` and functions that end without `return`; the exact
//! builtin type of `list(...)`, `sorted(...)`, comprehensions, str methods; the parts of a known
//! text split.
//!
//! A value is one of these types only when that is certain: `Unknown` is silence, and so are
//! subclasses (the kernel's summaries name them by their own class).

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{Expr, Keyword, Stmt, Target, TextRange};
use crate::semantics::python::{binary_error, builtin_of, operand_error, Builtin};
use crate::semantics::python::{
    format_spec_error, fstring_value, iterated_len, lazy_iterator, math_domain_error,
    BUILTIN_ARITY, MATH_OF_FLOATS,
};
use crate::summary::tuple_text;

use crate::semantics::abstract_value::{not_a_float, not_an_int, ArrayLib, DictKey, Val};
use crate::semantics::properties::{not_callable, property, value_classes};
use crate::walker::state::Walker;

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
            } else if let Some(message) = crate::semantics::python::iterable_operand_error(
                op,
                if *op == "**" { "** or pow()" } else { op },
                &l,
                &r,
            ) {
                out.push(Diagnostic::error(
                    Rule::OperandType,
                    format!("{message}: TypeError"),
                    *range,
                ));
            }
            if let (true, Val::Str(text)) = (*op == "%", &l) {
                if let Some(message) = percent_format_error(text, &r) {
                    out.push(Diagnostic::error(
                        Rule::OperandType,
                        format!("{message}: TypeError"),
                        *range,
                    ));
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
            if let Some(d) = library_value_called(w, func, &callee, *range) {
                out.push(d);
                return;
            }
            if let Some(t) = builtin_of(&callee).filter(|t| !t.callable()) {
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
            if args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
                return;
            }
            if let Expr::Attribute { value, attr, .. } = &**func {
                if attr == "format" {
                    if let Val::Str(text) = w.eval(value) {
                        format_call(w, &text, args, keywords, *range, out);
                    }
                }
            }
            if let Some(d) = file_object_call(w, func, args, keywords, *range) {
                out.push(d);
                return;
            }
            if let Some(d) = known_value_call(w, func, args, keywords, *range) {
                out.push(d);
                return;
            }
            if !keywords.is_empty() {
                return;
            }
            if let Some(d) = array_as_number(w, func, args, *range) {
                out.push(d);
                return;
            }
            if let Some(d) = math_call(w, func, args, *range) {
                out.push(d);
                return;
            }
            if let Some(d) = stdlib_call(w, func, args, *range) {
                out.push(d);
                return;
            }
            match &**func {
                Expr::Name { id, .. } if w.certainly_builtin(id) => {
                    builtin_call(w, id, args, *range, out)
                }
                Expr::Attribute { value, attr, .. } => {
                    method_call(w, value, attr, args, *range, out);
                    out.extend(value_not_found(w, value, attr, args, *range));
                    out.extend(container_method(w, value, attr, args, *range));
                }
                _ => {}
            }
        }
        Expr::Subscript {
            value,
            index,
            range,
        } => {
            let base = w.eval(value);
            if let Some(d) = missing_key(w, value, index, "", *range) {
                out.push(d);
                return;
            }
            // `()`, `...` and `None` index a single number; an integer or a slice does not.
            let position =
                matches!(&**index, Expr::Slice { .. }) || matches!(w.eval(index), Val::Int(_));
            if let (Some(what), true) = (zero_dimensional(&base), position) {
                out.push(Diagnostic::error(
                    Rule::IndexOutOfRange,
                    format!(
                        "{} is {what}, with no axis to index; use {}.item() or leave out the index: IndexError",
                        w.shown(value, "the value"),
                        w.shown(value, "x")
                    ),
                    *range,
                ));
                return;
            }
            if let Expr::Slice {
                lower, upper, step, ..
            } = &**index
            {
                let sliceable = match &base {
                    Val::Array(a) => a.lib == ArrayLib::Numpy,
                    v => builtin_of(v).is_some_and(Builtin::sequence),
                };
                let bound = [lower, upper, step].into_iter().flatten().find_map(|b| {
                    let t = builtin_of(&w.eval(b))?;
                    (!(t.integer() || t == Builtin::None)).then_some((b, t))
                });
                if let (true, Some((b, t))) = (sliceable, bound) {
                    let hint = if matches!(&**b, Expr::BinOp { op: "/", .. }) {
                        "; / always gives a float, // an int"
                    } else {
                        ""
                    };
                    out.push(Diagnostic::error(
                        Rule::IndexType,
                        format!(
                            "{} is {}{hint}: TypeError: slice indices must be integers or None or have an __index__ method",
                            w.shown(b, "the slice bound"),
                            t.described()
                        ),
                        *range,
                    ));
                    return;
                }
            }
            if let Some(message) = builtin_of(&base)
                .zip(builtin_of(&w.eval(index)))
                .and_then(|(t, i)| index_error(t, i))
            {
                out.push(Diagnostic::error(
                    Rule::IndexType,
                    format!(
                        "{} is {} and {} is {}: TypeError: {message}",
                        w.shown(value, "the value"),
                        builtin_of(&base).map_or("", Builtin::described),
                        w.shown(index, "the index"),
                        builtin_of(&w.eval(index)).map_or("", Builtin::described),
                    ),
                    *range,
                ));
                return;
            }
            if let Some(kind) = function_kind(w, value) {
                out.push(Diagnostic::error(
                    Rule::NotSubscriptable,
                    format!(
                        "{} is a function, not a container (call it with parentheses): TypeError: '{kind}' object is not subscriptable",
                        w.shown(value, "the value")
                    ),
                    *range,
                ));
                return;
            }
            if let Some(class) = instance_without(w, value, &["__getitem__"]) {
                out.push(Diagnostic::error(
                    Rule::NotSubscriptable,
                    format!(
                        "{} is an instance of the class {class}, which defines no __getitem__: TypeError: '{class}' object is not subscriptable",
                        w.shown(value, "the value")
                    ),
                    *range,
                ));
                return;
            }
            let view = match &base {
                Val::Typed(t) => t.as_str(),
                _ => "",
            };
            if lazy_iterator(&base).is_some() {
                out.push(Diagnostic::error(
                    Rule::NotSubscriptable,
                    format!(
                        "{} is {} {view} object, {}; use list({})[...]: TypeError: '{view}' object is not subscriptable",
                        w.shown(value, "the value"),
                        article(view),
                        iterator_note(view),
                        w.shown(value, "...")
                    ),
                    *range,
                ));
                return;
            }
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
            if let Some(
                t @ (Builtin::None | Builtin::Bool | Builtin::Int | Builtin::Float | Builtin::Set),
            ) = builtin_of(&base)
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
            let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
            let receiver = w.eval(value);
            // A module's names are `module_attributes`'.
            if let Val::Module(Some(_)) = &receiver {
                return;
            }
            if let Val::Typed(view) = &receiver {
                if view.starts_with("dict_") {
                    dict_view_attribute(w, value, view, attr, attr_range, out);
                    return;
                }
            }
            let Some(t) = builtin_of(&receiver) else {
                return;
            };
            if t.attributes().contains(&attr.as_str()) {
                return;
            }
            let (hint, fix) = match t {
                Builtin::Method | Builtin::BuiltinMethod => {
                    if attr.starts_with('_') {
                        return;
                    }
                    call_first(w, value)
                }
                _ => attribute_hint(t, attr, attr_range),
            };
            let mut d = Diagnostic::error(
                Rule::MissingAttribute,
                format!(
                    "'{}' object has no attribute '{attr}' ({} is {}){hint}: AttributeError",
                    t.attribute_owner(),
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
        Expr::Other { children, range } => {
            other_operator(w, children, *range, out);
            fstring_specs(w, children, *range, out);
        }
        // `{[1, 2]: "a"}`, `{[1, 2]}`: keys and set items are hashed.
        Expr::Dict { keys, .. } => {
            for key in keys.iter().flatten() {
                unhashable(w, key, out);
            }
        }
        Expr::Seq {
            kind: crate::ir::SeqKind::Set,
            elts,
            ..
        } => {
            for e in elts {
                unhashable(w, e, out);
            }
        }
        Expr::Comprehension { generators, .. } => {
            // The first iterable is evaluated and iterated when the comprehension is built.
            if let Some(g) = generators.first() {
                not_iterable(w, &g.iter, "iterated", out);
                unpack_items(w, &g.target, &g.iter, out);
            }
        }
        _ => {}
    }
}

/// `f"{x:.2f}"`: the format spec of each replacement field whose value's builtin type is
/// known (a conversion, `!r`, `!s` or `!a`, makes it a str).
fn fstring_specs(w: &Walker, children: &[Expr], range: TextRange, out: &mut Vec<Diagnostic>) {
    if fstring_value(w.text(range)).is_none() {
        return;
    }
    for child in children {
        let after = w.text(TextRange::new(child.range().end, range.end));
        let Some((converted, spec)) = field_tail(after) else {
            continue;
        };
        if let Some(message) = spec_problem(w, child, converted, &spec, "the value", "its") {
            out.push(Diagnostic::error(
                Rule::BuiltinArgument,
                message,
                child.range(),
            ));
        }
    }
}

/// What is wrong with formatting `value` (made a str first when `converted`) with `spec`, said
/// of `whose` spec, when its builtin type is known and rejects the spec.
fn spec_problem(
    w: &Walker,
    value: &Expr,
    converted: bool,
    spec: &str,
    fallback: &str,
    whose: &str,
) -> Option<String> {
    let t = if converted {
        Builtin::Str
    } else {
        builtin_of(&w.eval(value))?
    };
    let why = format_spec_error(t, spec)?;
    Some(format!(
        "{} is {} and {whose} format spec is '{spec}': {why}",
        w.shown(value, fallback),
        t.described()
    ))
}

/// What follows a replacement field's expression in an f-string, up to its closing brace:
/// whether a conversion (`!r`) makes the value a str, and the format spec (empty when none).
/// None when the text is no such tail (the expression goes on) or the spec nests fields.
fn field_tail(after: &str) -> Option<(bool, String)> {
    let mut rest = after.trim_start();
    // `f"{x=}"`, `f"{x = :.2f}"`: the text of the expression is shown too.
    if let Some(r) = rest.strip_prefix('=') {
        if !r.starts_with('=') {
            rest = r.trim_start();
        }
    }
    let mut converted = false;
    if let Some(r) = rest.strip_prefix('!') {
        let mut chars = r.chars();
        if !matches!(chars.next(), Some('r' | 's' | 'a')) {
            return None;
        }
        converted = true;
        rest = chars.as_str();
    }
    if rest.starts_with('}') {
        return Some((converted, String::new()));
    }
    let spec: String = rest
        .strip_prefix(':')?
        .chars()
        .take_while(|c| *c != '}')
        .collect();
    (!spec.contains(['{', '\n'])).then_some((converted, spec))
}

/// What a zero-dimensional numpy value or torch tensor is, for messages: a single number, which
/// has no length, no element and no axis (a full reduction such as `x.sum()` gives one).
fn zero_dimensional(v: &Val) -> Option<&'static str> {
    match v {
        Val::Array(a) if a.shape.is_empty() => match a.lib {
            ArrayLib::Numpy => Some("a zero-dimensional numpy value (one number)"),
            ArrayLib::Torch => Some("a 0-d tensor (one number)"),
            ArrayLib::Tensorflow => None,
        },
        Val::Tensor(s) if s.dims.as_ref().is_some_and(Vec::is_empty) => {
            Some("a 0-d tensor (one number)")
        }
        _ => None,
    }
}

/// `Some(true)` for NaN, `Some(false)` for an infinity: a float `int()` and `round()` refuse.
fn non_finite(v: &Val) -> Option<bool> {
    match v {
        Val::Float(f) if !f.is_finite() => Some(f.is_nan()),
        Val::Lib(p) if matches!(p.as_str(), "numpy.nan" | "math.nan") => Some(true),
        Val::Lib(p) if matches!(p.as_str(), "numpy.inf" | "math.inf") => Some(false),
        _ => None,
    }
}

/// `a < b` (the first comparison of a chain, which always runs) and `-a`, `+a`, `~a`: the IR
/// keeps them as `Expr::Other`, the operator the only text outside the operands.
fn other_operator(w: &Walker, children: &[Expr], range: TextRange, out: &mut Vec<Diagnostic>) {
    let Some(first) = children.first() else {
        return;
    };
    let head = w
        .text(TextRange::new(range.start, first.range().start))
        .trim();
    let push = |out: &mut Vec<Diagnostic>, message: String| {
        out.push(Diagnostic::error(Rule::OperandType, message, range));
    };
    match children {
        [operand]
            if matches!(head, "-" | "+" | "~")
                && w.text(TextRange::new(operand.range().end, range.end))
                    .trim()
                    .is_empty() =>
        {
            let Some(t) = builtin_of(&w.eval(operand)) else {
                return;
            };
            if let Some(message) = unary_error(head, t) {
                push(
                    out,
                    format!(
                        "{} is {}: TypeError: {message}",
                        w.shown(operand, "the operand"),
                        t.described()
                    ),
                );
            }
        }
        [left, right, ..] if head.is_empty() => {
            let op = w
                .text(TextRange::new(left.range().end, right.range().start))
                .trim();
            if matches!(op, "in" | "not in") {
                let (Some(a), Some(b)) = (builtin_of(&w.eval(left)), builtin_of(&w.eval(right)))
                else {
                    return;
                };
                if a.mutable() && matches!(b, Builtin::Dict | Builtin::Set) {
                    out.push(Diagnostic::error(
                        Rule::IndexType,
                        format!(
                            "{} is {}, and {} looks it up by its hash: TypeError: unhashable type: '{}'",
                            w.shown(left, "the left side"),
                            a.described(),
                            b.described(),
                            a.name()
                        ),
                        range,
                    ));
                }
                return;
            }
            if !matches!(op, "<" | "<=" | ">" | ">=") {
                return;
            }
            let (Some(a), Some(b)) = (builtin_of(&w.eval(left)), builtin_of(&w.eval(right))) else {
                return;
            };
            if let Some(message) = compare_error(op, a, b) {
                push(
                    out,
                    format!(
                        "{} is {} and {} is {}: TypeError: {message}",
                        w.shown(left, "the left side"),
                        a.described(),
                        w.shown(right, "the right side"),
                        b.described()
                    ),
                );
            }
        }
        _ => {}
    }
}

/// Why the ordering comparison `a op b` raises TypeError, in Python's words; None when it is
/// defined (numbers with numbers, sequences of one type, sets) or `op` is no ordering.
fn compare_error(op: &str, a: Builtin, b: Builtin) -> Option<String> {
    if !matches!(op, "<" | "<=" | ">" | ">=") {
        return None;
    }
    let defined = (a.number() && b.number())
        || (a == b
            && matches!(
                a,
                Builtin::Str | Builtin::List | Builtin::Tuple | Builtin::Set
            ));
    (!defined).then(|| {
        format!(
            "'{op}' not supported between instances of '{}' and '{}'",
            a.name(),
            b.name()
        )
    })
}

/// Why the unary operator `op` on a value of type `t` raises TypeError; None when defined.
fn unary_error(op: &str, t: Builtin) -> Option<String> {
    let defined = match op {
        "-" | "+" => t.number(),
        "~" => t.integer(),
        _ => return None,
    };
    (!defined).then(|| format!("bad operand type for unary {op}: '{}'", t.name()))
}

/// Why `container[index]` raises TypeError for the index's type, in Python's words: sequences
/// take integers (and slices), dicts hashable keys.
fn index_error(container: Builtin, index: Builtin) -> Option<String> {
    let unhashable = matches!(index, Builtin::List | Builtin::Dict | Builtin::Set);
    match container {
        Builtin::List | Builtin::Tuple if !index.integer() => Some(format!(
            "{} indices must be integers or slices, not {}",
            container.name(),
            index.name()
        )),
        Builtin::Str if !index.integer() => Some(format!(
            "string indices must be integers, not '{}'",
            index.name()
        )),
        Builtin::Dict if unhashable => Some(format!("unhashable type: '{}'", index.name())),
        _ => None,
    }
}

/// A dict key or set item that is a list, dict or set: TypeError, unhashable.
fn unhashable(w: &Walker, e: &Expr, out: &mut Vec<Diagnostic>) {
    if let Some(t @ (Builtin::List | Builtin::Dict | Builtin::Set)) = builtin_of(&w.eval(e)) {
        let hint = if t == Builtin::List {
            "; use a tuple"
        } else {
            ""
        };
        out.push(Diagnostic::error(
            Rule::IndexType,
            format!(
                "{} is {}, which cannot be a dict key or set item{hint}: TypeError: unhashable type: '{}'",
                w.shown(e, "the key"),
                t.described(),
                t.name()
            ),
            e.range(),
        ));
    }
}

/// The builtin functions (not classes: `list[int]` is a type hint) that are certainly not
/// subscriptable.
const BUILTIN_FUNCTIONS: &[&str] = &[
    "abs",
    "all",
    "any",
    "callable",
    "divmod",
    "getattr",
    "hasattr",
    "id",
    "input",
    "isinstance",
    "len",
    "max",
    "min",
    "next",
    "open",
    "print",
    "round",
    "sorted",
    "sum",
];

/// `'function'` when `e` names a function of the notebook, `'builtin_function_or_method'` when
/// it names one of Python's builtin functions or a method of a str, list, tuple, dict or set,
/// not called (`d.items`: every attribute of those types is a method).
fn function_kind(w: &Walker, e: &Expr) -> Option<&'static str> {
    match e {
        Expr::Name { id, .. } => {
            if w.certainly_builtin(id) && BUILTIN_FUNCTIONS.contains(&id.as_str()) {
                return Some("builtin_function_or_method");
            }
            w.user_function(id).is_some().then_some("function")
        }
        Expr::Attribute { value, attr, .. } => builtin_of(&w.eval(value))
            .filter(|t| {
                matches!(
                    t,
                    Builtin::Str | Builtin::List | Builtin::Tuple | Builtin::Dict | Builtin::Set
                ) && t.attributes().contains(&attr.as_str())
            })
            .map(|_| "builtin_function_or_method"),
        _ => None,
    }
}

/// The name of the plain class of the notebook `e` is an instance of, when the class body binds
/// none of `dunders` (Python looks special methods up on the class, never on the instance).
fn instance_without(w: &Walker, e: &Expr, dunders: &[&str]) -> Option<String> {
    match w.eval(e) {
        // A cell may have given the class the method since (`Box.__len__ = ...`, `setattr`).
        Val::Instance(class)
            if !dunders
                .iter()
                .any(|d| class.binds(d) || w.attribute_rewired(d)) =>
        {
            Some(class.name.clone())
        }
        _ => None,
    }
}

/// Attributes of the dict views `d.keys()`, `d.values()`, `d.items()` (no list methods).
fn dict_view_attribute(
    w: &Walker,
    value: &Expr,
    view: &str,
    attr: &str,
    attr_range: TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let attributes: &[&str] = match view {
        "dict_keys" | "dict_items" => &["isdisjoint", "mapping"],
        "dict_values" => &["mapping"],
        _ => return,
    };
    if attributes.contains(&attr) {
        return;
    }
    out.push(Diagnostic::error(
        Rule::MissingAttribute,
        format!(
            "'{view}' object has no attribute '{attr}' ({} is a view of the dict, not a list; use list(...) for a list): AttributeError",
            w.shown(value, "the value")
        ),
        attr_range,
    ));
}

/// The rules on a statement before it runs: what it iterates or unpacks.
pub fn check_stmt(w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
    if let Stmt::Assign {
        targets,
        value: Some(_),
        ..
    } = stmt
    {
        for target in targets {
            item_assignment(w, target, out);
        }
    }
    match stmt {
        Stmt::Delete { targets, .. } => {
            for target in targets {
                if let Target::Store {
                    expr:
                        Expr::Subscript {
                            value,
                            index,
                            range,
                        },
                    ..
                } = target
                {
                    out.extend(missing_key(w, value, index, " to delete", *range));
                    out.extend(deleted_item(w, value, index, *range));
                }
            }
        }
        Stmt::For {
            iter, target, body, ..
        } => {
            // The loop reads the zip whole unless its body may leave it.
            if !crate::ir_scan::contains_jump(body) {
                out.extend(zip_strict_error(w, iter));
            }
            not_iterable(w, iter, "looped over", out);
            unpack_items(w, target, iter, out);
        }
        Stmt::Assign {
            targets,
            op,
            value: Some(value),
            range,
        } => match op {
            crate::ir::AssignOp::Augmented(aug) => {
                // `counts[k] += 1` reads `counts[k]` first.
                if let [Target::Store {
                    expr:
                        Expr::Subscript {
                            value,
                            index,
                            range,
                        },
                    ..
                }] = targets.as_slice()
                {
                    out.extend(missing_key(w, value, index, " to update", *range));
                }
                let [Target::Name { id, .. }] = targets.as_slice() else {
                    return;
                };
                let op = aug.trim_end_matches('=');
                let (before, operand) = (w.get(id), w.eval(value));
                if let Some(message) =
                    crate::semantics::python::iterable_operand_error(op, aug, &before, &operand)
                {
                    out.push(Diagnostic::error(
                        Rule::OperandType,
                        format!("{message}: TypeError"),
                        *range,
                    ));
                }
                let (Some(a), Some(b)) = (builtin_of(&before), builtin_of(&operand)) else {
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

/// `x[i] = v` (or `x[i] += v`) where `x` is of a builtin type without item assignment.
fn item_assignment(w: &Walker, target: &Target, out: &mut Vec<Diagnostic>) {
    let Target::Store {
        expr: Expr::Subscript { value, range, .. },
        ..
    } = target
    else {
        if let Target::Unpack { elts, .. } = target {
            elts.iter().for_each(|t| item_assignment(w, t, out));
        }
        return;
    };
    let container = w.eval(value);
    if let Val::Array(a) = &container {
        // TensorFlow's tensors and variables cannot change in place; numpy's and torch's can.
        if a.lib == ArrayLib::Tensorflow {
            out.push(Diagnostic::error(
                Rule::ItemAssignment,
                format!(
                    "{} is a TensorFlow tensor, which cannot change in place (build a new one \
                     with tf.tensor_scatter_nd_update or tf.where, or use a tf.Variable's assign): \
                     TypeError: the tensor's type does not support item assignment",
                    w.shown(value, "the value")
                ),
                *range,
            ));
        }
        return;
    }
    let Some(t) = builtin_of(&container) else {
        return;
    };
    let hint = match t {
        Builtin::List | Builtin::Dict => return,
        Builtin::Tuple => "; tuples cannot change: build a list (list(...)) or a new tuple",
        Builtin::Str => {
            "; strings cannot change: build a new one (s[:i] + c + s[i + 1:], or replace)"
        }
        _ => "",
    };
    out.push(Diagnostic::error(
        Rule::ItemAssignment,
        format!(
            "{} is {}{hint}: TypeError: '{}' object does not support item assignment",
            w.shown(value, "the value"),
            t.described(),
            t.name()
        ),
        *range,
    ));
}

/// `del xs[i]` of a list of known length without that position (IndexError), or of an item of
/// a tuple, a str, None, a number or a set, which have no item deletion (TypeError).
fn deleted_item(w: &Walker, value: &Expr, index: &Expr, range: TextRange) -> Option<Diagnostic> {
    let container = w.eval(value);
    let t = builtin_of(&container)?;
    let shown = w.shown(value, "the value");
    if t == Builtin::List {
        let (n, Val::Int(i)) = (iterated_len(&container)?, w.eval(index)) else {
            return None;
        };
        return (i >= n || i < -n).then(|| {
            Diagnostic::error(
                Rule::IndexOutOfRange,
                format!("{shown} is a list of length {n}, with no item {i}: IndexError: list assignment index out of range"),
                range,
            )
        });
    }
    if t == Builtin::Dict {
        return None;
    }
    Some(Diagnostic::error(
        Rule::ItemAssignment,
        format!(
            "{shown} is {}: TypeError: '{}' object doesn't support item deletion",
            t.described(),
            t.name()
        ),
        range,
    ))
}

/// `a, b = value`: the value's length must be the number of targets.
fn unpack(w: &Walker, target: &Target, value: &Expr, out: &mut Vec<Diagnostic>) {
    let Target::Unpack { elts, range } = target else {
        return;
    };
    let val = w.eval(value);
    // `a, b = map(f, xs)`: the values iterating it gives, when known.
    let lazy = lazy_iterator(&val);
    let val = lazy
        .and_then(|_| crate::semantics::python::lazy_list(w, value))
        .unwrap_or(val);
    let Some(t) = builtin_of(&val) else {
        return;
    };
    if t.scalar() {
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
    if let Some(message) = count_error(elts, n) {
        let what = match (lazy, t) {
            (Some(lazy), _) => format!("a {lazy} object giving {n} values"),
            (None, Builtin::Str) => format!("a string of length {n}"),
            (None, _) => format!("{} of length {n}", t.described()),
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

/// Why unpacking `n` values into the targets `elts` raises ValueError; None when they fit.
fn count_error(elts: &[Target], n: i64) -> Option<String> {
    let starred = elts.iter().any(|e| matches!(e, Target::Starred { .. }));
    let wanted = elts.len() as i64 - i64::from(starred);
    if starred {
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
    }
}

/// The first item iterating `iter` gives, when the iteration certainly gives one: what it is
/// (for messages), and its value or its length.
enum FirstItem {
    Value(Box<Val>),
    Len(i64, &'static str),
}

fn first_item(w: &Walker, iter: &Expr) -> Option<FirstItem> {
    if let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = iter
    {
        if !keywords.is_empty() || args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
            return None;
        }
        return match &**func {
            Expr::Name { id, .. } if w.certainly_builtin(id) => {
                match (id.as_str(), args.as_slice()) {
                    ("enumerate", [x] | [x, _]) if w.non_empty(x) => {
                        Some(FirstItem::Len(2, "an (index, item) pair"))
                    }
                    // `for i, x in range(len(xs))`: each item is one int.
                    ("range", [_, ..]) if args.len() <= 3 && w.non_empty(iter) => {
                        Some(FirstItem::Value(Box::new(Val::Typed("int".into()))))
                    }
                    ("zip", [_, ..]) if args.iter().all(|a| w.non_empty(a)) => {
                        Some(FirstItem::Len(
                            args.len() as i64,
                            "a tuple with one item of each iterable zipped",
                        ))
                    }
                    _ => None,
                }
            }
            Expr::Attribute { value, attr, .. } if attr == "keys" && args.is_empty() => {
                match w.eval(value) {
                    Val::Dict { keys, .. } => {
                        keys.first().map(|k| FirstItem::Value(Box::new(k.val())))
                    }
                    _ => None,
                }
            }
            Expr::Attribute { value, attr, .. } if attr == "items" && args.is_empty() => {
                let d = w.eval(value);
                (builtin_of(&d) == Some(Builtin::Dict) && d.sized().is_some_and(|(_, n)| n > 0))
                    .then_some(FirstItem::Len(2, "a (key, value) pair"))
            }
            _ => None,
        };
    }
    match w.eval(iter) {
        Val::Items { type_name, items } if Builtin::of_name(&type_name).is_some() => items
            .into_iter()
            .next()
            .map(|v| FirstItem::Value(Box::new(v))),
        Val::Strs { type_name, items } if Builtin::of_name(&type_name).is_some() => items
            .into_iter()
            .next()
            .map(|s| FirstItem::Value(Box::new(Val::Str(s)))),
        // Iterating a dict gives its keys.
        Val::Dict { keys, .. } => keys.first().map(|k| FirstItem::Value(Box::new(k.val()))),
        _ => None,
    }
}

/// `for a, b in iterable` (and comprehensions): the first item is unpacked into the targets.
fn unpack_items(w: &Walker, target: &Target, iter: &Expr, out: &mut Vec<Diagnostic>) {
    let Target::Unpack { elts, range } = target else {
        return;
    };
    let Some(first) = first_item(w, iter) else {
        return;
    };
    let (n, what) = match first {
        FirstItem::Len(n, what) => (n, what.to_string()),
        FirstItem::Value(v) => {
            let v = *v;
            let Some(t) = builtin_of(&v) else {
                return;
            };
            if t.scalar() {
                let hint = match iter {
                    Expr::Call { func, .. } if matches!(&**func, Expr::Name { id, .. } if id == "range") => {
                        "; for (index, item) pairs loop over enumerate(...)"
                    }
                    _ => "",
                };
                out.push(Diagnostic::error(
                    Rule::NotIterable,
                    format!(
                        "the first item of {} is {}{hint}: TypeError: cannot unpack non-iterable {} object",
                        w.shown(iter, "the iterable"),
                        t.described(),
                        t.name()
                    ),
                    *range,
                ));
                return;
            }
            let Some(n) = iterated_len(&v) else {
                return;
            };
            let what = match (&v, builtin_of(&w.eval(iter))) {
                (Val::Str(s), Some(Builtin::Dict)) => format!(
                    "the key {} (iterating a dict gives its keys; use .items() for pairs)",
                    py_repr(s)
                ),
                (Val::Str(s), _) => format!("the string {}", py_repr(s)),
                _ => format!("{} of length {n}", t.described()),
            };
            (n, what)
        }
    };
    if let Some(message) = count_error(elts, n) {
        out.push(Diagnostic::error(
            Rule::UnpackCount,
            format!(
                "the first item of {} is {what}: ValueError: {message}",
                w.shown(iter, "the iterable")
            ),
            *range,
        ));
    }
}

fn not_iterable(w: &Walker, iter: &Expr, how: &str, out: &mut Vec<Diagnostic>) {
    // `for x in load:`, `for k, v in d.items:`: the function, not what it returns.
    if let Some(kind) = function_kind(w, iter) {
        let f = w.shown(iter, "the value");
        out.push(Diagnostic::error(
            Rule::NotIterable,
            format!(
                "{f} is a function and cannot be {how}; call it: {f}(...): TypeError: '{kind}' object is not iterable"
            ),
            iter.range(),
        ));
        return;
    }
    if let Some(class) = instance_without(w, iter, &["__iter__", "__getitem__"]) {
        out.push(Diagnostic::error(
            Rule::NotIterable,
            format!(
                "{} is an instance of the class {class}, which defines neither __iter__ nor __getitem__, and cannot be {how}: TypeError: '{class}' object is not iterable",
                w.shown(iter, "the value")
            ),
            iter.range(),
        ));
        return;
    }
    if let Some(what) = zero_dimensional(&w.eval(iter)) {
        out.push(Diagnostic::error(
            Rule::NotIterable,
            format!(
                "{} is {what} and cannot be {how}: TypeError (iteration over a 0-d array or tensor)",
                w.shown(iter, "the value")
            ),
            iter.range(),
        ));
        return;
    }
    if let Some(t) = builtin_of(&w.eval(iter)).filter(|t| t.scalar()) {
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

/// `float(a)`, `int(a)`, `math.exp(a)` and the other functions that convert their argument to
/// one number, given a numpy array or a torch tensor of more than one element (TypeError,
/// ValueError), and `a.item()` of one of other than one element (ValueError, RuntimeError).
fn array_as_number(w: &Walker, func: &Expr, args: &[Expr], range: TextRange) -> Option<Diagnostic> {
    if let (Expr::Attribute { value, attr, .. }, []) = (func, args) {
        if attr != "item" {
            return None;
        }
        let (lib, shape) = known_array(&w.eval(value))?;
        let size: i64 = shape.iter().product();
        let error = match lib {
            ArrayLib::Numpy => {
                "ValueError: can only convert an array of size 1 to a Python scalar".to_string()
            }
            ArrayLib::Torch => {
                format!("RuntimeError: a Tensor with {size} elements cannot be converted to Scalar")
            }
            _ => return None,
        };
        return (size != 1).then(|| {
            Diagnostic::error(
                Rule::BuiltinArgument,
                format!(
                    "{} has shape {} ({size} elements), but .item() takes the one element of a single-element {}; index one element first (`[0]`): {error}",
                    w.shown(value, "the array"),
                    tuple_text(&shape),
                    lib_noun(lib)
                ),
                range,
            )
        });
    }
    // The builtin's name, or the math function's (`None` for a builtin).
    let (name, math) = match func {
        Expr::Name { id, .. }
            if matches!(id.as_str(), "int" | "float" | "complex") && w.certainly_builtin(id) =>
        {
            (id.clone(), None)
        }
        _ => {
            let path = w.lib_path(func)?;
            let f = path.strip_prefix("math.")?;
            if !MATH_OF_FLOATS.contains(&f) {
                return None;
            }
            (path.to_string(), Some(f.to_string()))
        }
    };
    // A Series of several values: pandas never converts it (pandas 3 no longer converts one of
    // a single value either).
    if let Some((arg, n)) = args.iter().find_map(|e| match w.eval(e) {
        Val::Series(s) => s.len.filter(|&n| n > 1).map(|n| (e, n)),
        _ => None,
    }) {
        let shown = w.shown(arg, "the argument");
        let hint = match &math {
            None => format!("take one value ({shown}.iloc[0]) or convert the whole Series ({shown}.astype(...))"),
            Some(f) => format!("np.{f}({shown}) works elementwise"),
        };
        return Some(Diagnostic::error(
            Rule::BuiltinArgument,
            format!("{shown} is a Series of {n} values, but {name}() takes one number; {hint}: TypeError (cannot convert the series)"),
            range,
        ));
    }
    let (arg, lib, shape) = args.iter().find_map(|e| {
        let (lib, shape) = known_array(&w.eval(e))?;
        (shape.iter().product::<i64>() > 1).then_some((e, lib, shape))
    })?;
    let (hint, error) = match (lib, math) {
        (ArrayLib::Numpy, None) => ("take one element (a[0], a.item()) or convert the whole array with a.astype(...)".to_string(), "TypeError: only length-1 arrays (numpy 2: 0-dimensional arrays) can be converted to Python scalars"),
        (ArrayLib::Numpy, Some(f)) => (format!("np.{f} works elementwise"), "TypeError: only length-1 arrays (numpy 2: 0-dimensional arrays) can be converted to Python scalars"),
        (ArrayLib::Torch, None) => ("take one element (t[0].item()) or convert the whole tensor with t.float() / t.long()".to_string(), "ValueError: only one element tensors can be converted to Python scalars"),
        (ArrayLib::Torch, Some(f)) => (format!("torch.{f} works elementwise"), "ValueError: only one element tensors can be converted to Python scalars"),
        _ => return None,
    };
    Some(Diagnostic::error(
        Rule::BuiltinArgument,
        format!(
            "{} is a {} of shape {}, but {name}() takes one number; {hint}: {error}",
            w.shown(arg, "the argument"),
            lib_noun(lib),
            tuple_text(&shape)
        ),
        range,
    ))
}

/// A numpy array or torch tensor whose whole shape is known: its library and shape.
fn known_array(v: &Val) -> Option<(ArrayLib, Vec<i64>)> {
    match crate::rules::torch::known_array(v.clone()) {
        // What may be a pandas extension array has other methods and conversions.
        Val::Array(a)
            if matches!(a.lib, ArrayLib::Numpy | ArrayLib::Torch) && !a.maybe_not_ndarray =>
        {
            Some((a.lib, a.shape))
        }
        _ => None,
    }
}

fn lib_noun(lib: ArrayLib) -> &'static str {
    match lib {
        ArrayLib::Torch => "torch tensor",
        _ => "numpy array",
    }
}

/// `math.sqrt(-1)`, `math.log(0)`, `math.floor("3")`: a function of `math` given a known number
/// outside its domain (ValueError), or a builtin value that is no number (TypeError).
fn math_call(w: &Walker, func: &Expr, args: &[Expr], range: TextRange) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let f = path.strip_prefix("math.")?;
    if !MATH_OF_FLOATS.contains(&f) && f != "factorial" {
        return None;
    }
    if let Some((arg, t)) = args
        .iter()
        .find_map(|a| Some((a, builtin_of(&w.eval(a)).filter(|t| !t.number())?)))
    {
        return Some(Diagnostic::error(
            Rule::BuiltinArgument,
            format!(
                "{} is {}, but {path}() takes numbers: TypeError: must be real number, not {}",
                w.shown(arg, "the argument"),
                t.described(),
                t.name()
            ),
            range,
        ));
    }
    let x = args.first()?;
    let (value, shown) = match w.eval(x) {
        Val::Int(i) => (i as f64, i.to_string()),
        Val::Float(v) => (v, w.shown(x, "the argument").to_string()),
        _ => return None,
    };
    let (why, python) = if f == "factorial" {
        (
            (value < 0.0).then_some("the factorial of a negative number")?,
            "factorial() not defined for negative values",
        )
    } else {
        (math_domain_error(f, value)?, "math domain error")
    };
    Some(Diagnostic::error(
        Rule::BuiltinArgument,
        format!("{path}({shown}) asks for {why}: ValueError: {python}"),
        range,
    ))
}

/// What an iterator of this builtin type is, for messages.
fn iterator_note(kind: &str) -> &'static str {
    if kind == "generator" {
        "an iterator made by a generator expression (in parentheses), not a list"
    } else {
        "an iterator (Python 3 no longer gives a list)"
    }
}

/// Why `open(path, mode)` refuses the mode, as Python says it (the mode is read before the
/// path); None when it is valid, or holds Python 2's `U`, which Python 3.11 removed.
fn open_mode_error(mode: &str) -> Option<String> {
    if mode.contains('U') {
        return None;
    }
    let mut seen = String::new();
    for c in mode.chars() {
        if !"rwxabt+".contains(c) || seen.contains(c) {
            return Some(format!("invalid mode: {}", py_repr(mode)));
        }
        seen.push(c);
    }
    let kinds = mode.chars().filter(|c| "rwxa".contains(*c)).count();
    if mode.contains('t') && mode.contains('b') {
        return Some("can't have text and binary mode at once".into());
    }
    match kinds {
        1 => None,
        0 => Some(
            "Must have exactly one of create/read/write/append mode and at most one plus".into(),
        ),
        _ => Some("must have exactly one of create/read/write/append mode".into()),
    }
}

/// `json` and `pickle` `load`/`dump` given a path (or another builtin value) where the file object
/// goes: they read and write through the file's methods, which no builtin value has.
fn file_object_call(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    if let ("json.loads", [text, ..]) = (path.as_str(), args) {
        return json_text_call(w, text, range);
    }
    if let ("json.dump" | "json.dumps", [obj, ..]) = (path.as_str(), args) {
        if let Some(d) = not_json(w, obj, keywords, range) {
            return Some(d);
        }
    }
    let file = match (path.as_str(), args) {
        ("json.load" | "pickle.load", [file, ..])
        | ("json.dump" | "pickle.dump", [_, file, ..]) => file,
        _ => return None,
    };
    let t = builtin_of(&w.eval(file))?;
    let reads = path.ends_with(".load");
    let pickle = path.starts_with("pickle.");
    let (rule, exception) = match (pickle, reads) {
        (false, _) => (
            Rule::MissingAttribute,
            format!(
                "AttributeError: '{}' object has no attribute '{}'",
                t.name(),
                if reads { "read" } else { "write" }
            ),
        ),
        (true, true) => (
            Rule::BuiltinArgument,
            "TypeError: file must have 'read' and 'readline' attributes".to_string(),
        ),
        (true, false) => (
            Rule::BuiltinArgument,
            "TypeError: file must have a 'write' attribute".to_string(),
        ),
    };
    let shown = w.shown(file, "the file argument");
    let hint = match (t, reads) {
        (Builtin::Str, true) => format!(
            "; open the file first (with open({shown}{}) as f: ... {path}(f)){}",
            if pickle { ", 'rb'" } else { "" },
            if pickle {
                ""
            } else {
                ", or use json.loads for JSON text"
            }
        ),
        (Builtin::Str, false) => format!(
            "; open the file for writing first (with open({shown}, '{}') as f: ...)",
            if pickle { "wb" } else { "w" }
        ),
        _ => String::new(),
    };
    Some(Diagnostic::error(
        rule,
        format!(
            "{path} {} a file object, but {shown} is {}{hint}: {exception}",
            if reads { "reads from" } else { "writes to" },
            t.described()
        ),
        range,
    ))
}

/// `json.dump(s)` of a value holding what JSON has no form for (an array, a frame, a set, a
/// tensor, an estimator), with no `default=` or `cls=` to convert it: TypeError.
fn not_json(w: &Walker, obj: &Expr, keywords: &[Keyword], range: TextRange) -> Option<Diagnostic> {
    if keywords
        .iter()
        .any(|k| matches!(k.name.as_deref(), None | Some("default" | "cls")))
    {
        return None;
    }
    fn unserializable(v: &Val) -> Option<String> {
        match v {
            Val::Array(a) if !a.shape.is_empty() && !a.maybe_not_ndarray => Some(
                match a.lib {
                    ArrayLib::Numpy => "ndarray",
                    ArrayLib::Torch => "Tensor",
                    ArrayLib::Tensorflow => "EagerTensor",
                }
                .to_string(),
            ),
            Val::Strs { type_name, .. } if type_name == "ndarray" => Some("ndarray".into()),
            Val::Tensor(_) => Some("Tensor".into()),
            Val::Frame(f) if f.plain => Some("DataFrame".into()),
            Val::Series(_) => Some("Series".into()),
            Val::Estimator(e) if e.is_sklearn() => Some(e.class.clone()),
            Val::Sized { type_name, .. } | Val::Items { type_name, .. } | Val::Typed(type_name)
                if type_name == "set" =>
            {
                Some("set".into())
            }
            Val::Items { items, .. } => items.iter().find_map(unserializable),
            Val::Dict { values, .. } => values.iter().find_map(unserializable),
            _ => None,
        }
    }
    let value = w.eval(obj);
    let class = unserializable(&value)?;
    let is = if matches!(value, Val::Items { .. } | Val::Dict { .. }) {
        "holds"
    } else {
        "is"
    };
    Some(Diagnostic::error(
        Rule::BuiltinArgument,
        format!(
            "{} {is} {} {class}, which JSON has no form for: TypeError: Object of type {class} is not JSON serializable; convert it first (.tolist(), .to_dict(), list(...)) or pass default=",
            w.shown(obj, "the value"),
            // "an ndarray", as it is read.
            if class == "ndarray" { "an" } else { article(&class) }
        ),
        range,
    ))
}

/// `json.loads` given what is no JSON text: a file object (the mirror of `json.load(path)`),
/// None, a number or a container.
fn json_text_call(w: &Walker, text: &Expr, range: TextRange) -> Option<Diagnostic> {
    let shown = w.shown(text, "the argument");
    let (described, class, hint) = match w.eval(text) {
        Val::Typed(t) if t == crate::semantics::python::TEXT_FILE => (
            "a file object",
            "TextIOWrapper",
            format!("; use json.load({shown}) to read the file"),
        ),
        v => {
            let t = builtin_of(&v).filter(|t| *t != Builtin::Str)?;
            (t.described(), t.name(), String::new())
        }
    };
    Some(Diagnostic::error(
        Rule::BuiltinArgument,
        format!(
            "json.loads parses JSON text, but {shown} is {described}{hint}: TypeError: the JSON object must be str, bytes or bytearray, not {class}"
        ),
        range,
    ))
}

/// Standard functions given values they refuse: `os.path.join` given what is no path (a number,
/// None, a container: TypeError), `random.choice` of an empty sequence (IndexError),
/// `random.randint(a, b)` with `a > b` and `random.sample` of more items than there are
/// (ValueError).
fn stdlib_call(w: &Walker, func: &Expr, args: &[Expr], range: TextRange) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let error = |rule: Rule, message: String| Some(Diagnostic::error(rule, message, range));
    match (path.as_str(), args) {
        ("os.path.join" | "posixpath.join" | "ntpath.join", [_, ..]) => {
            let (arg, t) = args.iter().find_map(|a| {
                builtin_of(&w.eval(a))
                    .filter(|t| *t != Builtin::Str)
                    .map(|t| (a, t))
            })?;
            let hint = if t.number() {
                "; convert it with str(...)"
            } else {
                ""
            };
            error(
                Rule::BuiltinArgument,
                format!(
                    "{} is {}, not a path{hint}: TypeError: join() argument must be str, bytes, or os.PathLike object, not '{}'",
                    w.shown(arg, "the argument"),
                    t.described(),
                    t.name()
                ),
            )
        }
        ("random.choice", [seq]) => {
            let v = w.eval(seq);
            builtin_of(&v).filter(|t| t.sequence())?;
            (iterated_len(&v)? == 0).then_some(())?;
            error(
                Rule::IndexOutOfRange,
                format!(
                    "{} is empty: IndexError: Cannot choose from an empty sequence",
                    w.shown(seq, "the sequence")
                ),
            )
        }
        ("random.randint", [a, b]) => match (w.eval(a), w.eval(b)) {
            (Val::Int(a), Val::Int(b)) if a > b => error(
                Rule::BuiltinArgument,
                format!("randint({a}, {b}) has no number from {a} up to {b}: ValueError: empty range for randrange()"),
            ),
            _ => None,
        },
        ("random.sample", [population, k]) => {
            let v = w.eval(population);
            // A set is refused since Python 3.11, and only warned about before.
            let n = match crate::semantics::python::range_of(w, population) {
                Some(range) => i64::try_from(range.count).ok()?,
                None => {
                    builtin_of(&v).filter(|t| t.sequence())?;
                    iterated_len(&v)?
                }
            };
            let Val::Int(k) = w.eval(k) else {
                return None;
            };
            (k > n || k < 0).then_some(())?;
            error(
                Rule::BuiltinArgument,
                format!(
                    "{} has {n} items, and a sample of {k} is asked: ValueError: Sample larger than population or is negative",
                    w.shown(population, "the population")
                ),
            )
        }
        (function, [data]) if function.starts_with("statistics.") => {
            let name = &function["statistics.".len()..];
            let needs = match name {
                "stdev" | "variance" => 2,
                "mean" | "fmean" | "median" | "median_low" | "median_high" | "median_grouped"
                | "mode" | "geometric_mean" | "harmonic_mean" | "pstdev" | "pvariance" => 1,
                _ => return None,
            };
            let n = match crate::semantics::python::range_of(w, data) {
                Some(range) => i64::try_from(range.count).ok()?,
                None => iterated_len(&w.eval(data))?,
            };
            (n < needs).then_some(())?;
            error(
                Rule::BuiltinArgument,
                format!(
                    "{} has {n} data point{}, and statistics.{name} needs at least {needs}: StatisticsError (a ValueError)",
                    w.shown(data, "the data"),
                    if n == 1 { "" } else { "s" }
                ),
            )
        }
        _ => None,
    }
}

/// Standard functions and builtins given known values they refuse (ValueError unless said):
/// `datetime.strptime` of a text its format cannot read, `date` / `datetime` of a field out of
/// range, `dict(pairs)` of an item not a pair (or TypeError),
/// `zip(..., strict=True)` of known lengths that differ, read whole.
fn known_value_call(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    use crate::semantics::stdlib_values::date_field_error;
    let error = |rule: Rule, message: String| Some(Diagnostic::error(rule, message, range));
    let int = |e: &Expr| match w.eval(e) {
        Val::Int(i) => Some(i),
        _ => None,
    };
    let text = |e: &Expr| match w.eval(e) {
        Val::Str(s) => Some(s),
        _ => None,
    };
    let builtin = match func {
        Expr::Name { id, .. } if w.certainly_builtin(id) => Some(id.as_str()),
        _ => None,
    };
    if let Some(id) = builtin {
        if let ("list" | "tuple" | "set" | "dict" | "sorted", [whole]) = (id, args) {
            if let Some(d) = zip_strict_error(w, whole) {
                return Some(d);
            }
        }
        return match (id, args) {
            ("dict", [pairs]) if keywords.is_empty() => pairs_error(w, pairs, range),
            _ => None,
        };
    }
    let path = w.lib_path(func)?;
    match (path.as_str(), args) {
        ("datetime.datetime.strptime", [value, format]) if keywords.is_empty() => {
            let (t, f) = (text(value)?, text(format)?);
            crate::semantics::stdlib_values::strptime_mismatch(&t, &f)?.then_some(())?;
            error(
                Rule::BuiltinArgument,
                format!(
                    "the text does not read as the format: ValueError: time data {} does not match format {}",
                    py_repr(&t),
                    py_repr(&f)
                ),
            )
        }
        ("datetime.date" | "datetime.datetime", [_, _, _, ..]) if keywords.is_empty() => {
            let most = if path == "datetime.date" { 3 } else { 6 };
            let (Some(y), Some(m), Some(d)) = (int(&args[0]), int(&args[1]), int(&args[2])) else {
                return None;
            };
            let why = date_field_error(y, m, d).filter(|_| args.len() <= most)?;
            error(
                Rule::BuiltinArgument,
                format!("year {y}, month {m}, day {d}: ValueError: {why}"),
            )
        }
        _ => None,
    }
}

/// `dict(pairs)`: the first item of a known list or tuple that is no pair (a text, list or tuple
/// of another length: ValueError; a number or None: TypeError), when every item before it is
/// known.
fn pairs_error(w: &Walker, pairs: &Expr, range: TextRange) -> Option<Diagnostic> {
    let items = match w.eval(pairs) {
        Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => items,
        Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            items.into_iter().map(Val::Str).collect()
        }
        _ => return None,
    };
    for (i, item) in items.iter().enumerate() {
        let t = builtin_of(item)?;
        let message = if t.sequence() {
            match iterated_len(item)? {
                2 => continue,
                n => format!("ValueError: dictionary update sequence element #{i} has length {n}; 2 is required"),
            }
        } else if t.scalar() {
            format!(
                "TypeError: cannot convert dictionary update sequence element #{i} to a sequence"
            )
        } else {
            return None;
        };
        return Some(Diagnostic::error(
            Rule::BuiltinArgument,
            format!(
                "item {i} of {} is no (key, value) pair: {message}",
                w.shown(pairs, "the pairs")
            ),
            range,
        ));
    }
    None
}

/// `list(zip(a, b, strict=True))`: zip raises once the shortest of known lengths runs out, when
/// the whole is read.
fn zip_strict_error(w: &Walker, zipped: &Expr) -> Option<Diagnostic> {
    let Expr::Call {
        func,
        args,
        keywords,
        range,
        ..
    } = zipped
    else {
        return None;
    };
    let Expr::Name { id, .. } = &**func else {
        return None;
    };
    let strict = matches!(keywords.as_slice(), [k] if k.name.as_deref() == Some("strict") && w.eval(&k.value) == Val::Bool(true));
    if id != "zip" || !w.certainly_builtin(id) || !strict || args.len() < 2 {
        return None;
    }
    let lens = args
        .iter()
        .map(|a| {
            let v = w.eval(a);
            builtin_of(&v)?;
            iterated_len(&v)
        })
        .collect::<Option<Vec<i64>>>()?;
    let (i, n) = lens.iter().enumerate().find(|(_, n)| **n != lens[0])?;
    let relation = if *n < lens[0] { "shorter" } else { "longer" };
    let plural = if i == 1 { "" } else { "s" };
    let before = if i == 1 { "" } else { "-" };
    Some(Diagnostic::error(
        Rule::BuiltinArgument,
        format!(
            "{} has {} items and {} has {n}: ValueError: zip() argument {} is {relation} than argument{plural} 1{before}{}",
            w.shown(&args[0], "the first argument"),
            lens[0],
            w.shown(&args[i], "another argument"),
            i + 1,
            if i == 1 { String::new() } else { i.to_string() }
        ),
        *range,
    ))
}

/// "a" or "an" before a type's name.
fn article(name: &str) -> &'static str {
    if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
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
    if let Some((_, least, most)) = BUILTIN_ARITY.iter().find(|(n, ..)| *n == name) {
        if args.len() < *least || args.len() > *most {
            let takes = match (*least, *most) {
                (1, 1) => "exactly one argument".to_string(),
                (l, m) if l == m => format!("exactly {l} arguments"),
                (l, usize::MAX) => format!("at least {l} arguments"),
                (0, m) => format!("at most {m} argument{}", if m == 1 { "" } else { "s" }),
                (l, m) => format!("from {l} to {m} arguments"),
            };
            push(
                out,
                Rule::BuiltinArgument,
                format!("{name}() takes {takes} ({} given): TypeError", args.len()),
            );
            return;
        }
    }
    match (name, args) {
        ("len", [arg]) => {
            if let Some(kind) = function_kind(w, arg) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is a function; call it first: TypeError: object of type '{kind}' has no len()",
                        w.shown(arg, "the argument")
                    ),
                );
            } else if let Some(lazy) = lazy_iterator(&w.eval(arg)) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {} {lazy} object, {}; use len(list(...)): TypeError: object of type '{lazy}' has no len()",
                        w.shown(arg, "the argument"),
                        article(lazy),
                        iterator_note(lazy)
                    ),
                );
            } else if let Some(what) = zero_dimensional(&w.eval(arg)) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {what}, which has no length: TypeError (len() of a 0-d array or tensor)",
                        w.shown(arg, "the argument")
                    ),
                );
            } else if let Some(class) = instance_without(w, arg, &["__len__"]) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is an instance of the class {class}, which defines no __len__: TypeError: object of type '{class}' has no len()",
                        w.shown(arg, "the argument")
                    ),
                );
            } else if let Some(t) = arg_type(arg).filter(|t| t.scalar()) {
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
        // A base is for parsing text only.
        ("int", [arg, _]) => {
            if let Some(t) = arg_type(arg).filter(|t| *t != Builtin::Str) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}, and a base is only for text: TypeError: int() can't convert non-string with explicit base",
                        w.shown(arg, "the argument"),
                        t.described()
                    ),
                );
            }
        }
        ("int" | "round", [arg]) if non_finite(&w.eval(arg)).is_some() => {
            let (error, what) = match non_finite(&w.eval(arg)) {
                Some(true) => ("ValueError", "NaN"),
                _ => ("OverflowError", "infinity"),
            };
            push(
                out,
                Rule::BuiltinArgument,
                format!(
                    "{} is {what}, which has no integer: {error}: cannot convert float {what} to integer",
                    w.shown(arg, "the argument")
                ),
            );
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
                if let Some(t) = arg_type(arg).filter(|t| !t.integer()) {
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
            if let [_, _, step] = args {
                if matches!(w.eval(step), Val::Int(0)) {
                    push(
                        out,
                        Rule::BuiltinArgument,
                        "range() counts by its third argument, which is 0: ValueError: range() arg 3 must not be zero".to_string(),
                    );
                }
            }
        }
        ("open", [_, mode, ..]) => {
            let why = match w.eval(mode) {
                Val::Str(mode) => open_mode_error(&mode),
                _ => None,
            };
            if let Some(why) = why {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is no file mode: ValueError: {why}",
                        w.shown(mode, "the mode")
                    ),
                );
            }
        }
        (
            "list" | "tuple" | "set" | "sorted" | "sum" | "enumerate" | "iter" | "reversed"
            | "frozenset" | "dict",
            [arg],
        )
        | ("sum", [arg, _]) => not_iterable(w, arg, "iterated", out),
        // Each iterable is iterated when the zip, map or filter object is made.
        ("zip", _) | ("map" | "filter", [_, _, ..]) => {
            let iterables = if name == "zip" { args } else { &args[1..] };
            for arg in iterables {
                let before = out.len();
                not_iterable(w, arg, "iterated", out);
                if out.len() > before {
                    return;
                }
            }
        }
        ("max" | "min" | "any" | "all", [arg]) => not_iterable(w, arg, "iterated", out),
        ("max" | "min", [_, _, ..]) => {
            let types: Option<Vec<Builtin>> = args.iter().map(arg_type).collect();
            if let Some(message) = types.and_then(|types| compared_error(name, &types)) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!("the arguments of {name}() are {message}"),
                );
            }
        }
        ("next", [arg]) => {
            if let Some(t) = arg_type(arg) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}, which is iterable but not an iterator; use next(iter({})) or {}[0]: TypeError: '{}' object is not an iterator",
                        w.shown(arg, "the argument"),
                        t.described(),
                        w.shown(arg, "..."),
                        w.shown(arg, "..."),
                        t.name()
                    ),
                );
            }
        }
        ("ord", [arg]) => {
            let why = match (arg_type(arg), w.eval(arg)) {
                (_, Val::Str(s)) if s.chars().count() != 1 => format!(
                    "ord() expected a character, but string of length {} found",
                    s.chars().count()
                ),
                (Some(t), _) if t != Builtin::Str => {
                    format!("ord() expected string of length 1, but {} found", t.name())
                }
                _ => return,
            };
            push(
                out,
                Rule::BuiltinArgument,
                format!(
                    "{} takes one character: TypeError: {why}",
                    w.shown(arg, "the argument")
                ),
            );
        }
        ("chr" | "hex" | "bin" | "oct", [arg]) => {
            if let Some(t) = arg_type(arg).filter(|t| !t.integer()) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}, but {name}() takes an int: TypeError: '{}' object cannot be interpreted as an integer",
                        w.shown(arg, "the argument"),
                        t.described(),
                        t.name()
                    ),
                );
            }
        }
        ("divmod" | "pow", [a, b]) => {
            let (Some(ta), Some(tb)) = (arg_type(a), arg_type(b)) else {
                return;
            };
            let (op, shown) = if name == "pow" {
                ("**", "** or pow()")
            } else {
                ("//", "divmod()")
            };
            if let Some(message) = binary_error(op, shown, ta, tb) {
                push(out, Rule::BuiltinArgument, format!("TypeError: {message}"));
            }
        }
        ("hash", [arg]) => unhashable(w, arg, out),
        ("isinstance" | "issubclass", [_, classes]) => {
            if let Some(t) = arg_type(classes).filter(|t| *t != Builtin::Tuple) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}, not a class (write the class itself, as in {name}(x, int)): TypeError: {name}() arg 2 must be a type, a tuple of types, or a union",
                        w.shown(classes, "the second argument"),
                        t.described()
                    ),
                );
            }
        }
        ("format", [value, spec]) => {
            if let (Some(t), Val::Str(spec)) = (arg_type(value), w.eval(spec)) {
                if let Some(why) = format_spec_error(t, &spec) {
                    push(
                        out,
                        Rule::BuiltinArgument,
                        format!(
                            "{} is {} and the format is {}: {why}",
                            w.shown(value, "the value"),
                            t.described(),
                            py_repr(&spec)
                        ),
                    );
                }
            }
        }
        ("round", [arg, ..]) if args.len() <= 2 => {
            if let Some(t) = arg_type(arg).filter(|t| !t.number()) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!(
                        "{} is {}: TypeError: type {} doesn't define __round__ method",
                        w.shown(arg, "the argument"),
                        t.described(),
                        t.name()
                    ),
                );
            }
        }
        _ => {}
    }
    if let ("set" | "frozenset", [arg]) = (name, args) {
        if let Val::Items { items, .. } = w.eval(arg) {
            if let Some(t) = items
                .iter()
                .find_map(|v| builtin_of(v).filter(|t| t.mutable()))
            {
                push(
                    out,
                    Rule::IndexType,
                    format!(
                        "{} holds {}, which cannot be a set item: TypeError: unhashable type: '{}'",
                        w.shown(arg, "the argument"),
                        t.described(),
                        t.name()
                    ),
                );
            }
        }
    }
    let start = match args {
        [_, start] if name == "sum" => arg_type(start),
        _ => Some(Builtin::Int),
    };
    if let ([arg] | [arg, _], Some(start)) = (args, start) {
        if matches!(name, "sum" | "sorted" | "max" | "min") && (name == "sum" || args.len() == 1) {
            if let Some(message) = items_error(name, start, &w.eval(arg)) {
                push(
                    out,
                    Rule::BuiltinArgument,
                    format!("{} {message}", w.shown(arg, "the argument")),
                );
            }
        }
    }
}

/// Why `sum`, `sorted`, `max` or `min` of the known items `v` raises: `sum` adds the first item
/// to 0; sorting, and the maximum and minimum, compare items of different types (each item meets
/// at least one of another type when they hold both numbers and texts, or any None beside
/// another item); `max` and `min` of nothing have no answer.
fn items_error(name: &str, start: Builtin, v: &Val) -> Option<String> {
    let types: Vec<Option<Builtin>> = match v {
        Val::Items { type_name, items } if Builtin::of_name(type_name).is_some() => {
            items.iter().map(builtin_of).collect()
        }
        Val::Strs { type_name, items } if Builtin::of_name(type_name).is_some() => {
            vec![Some(Builtin::Str); items.len()]
        }
        _ => return None,
    };
    if name == "sum" {
        return sum_error(start, &types);
    }
    let types: Vec<Builtin> = types.into_iter().collect::<Option<_>>()?;
    if types.is_empty() && name != "sorted" {
        return Some(format!(
            "is empty: ValueError: {name}() arg is an empty sequence"
        ));
    }
    compared_error(name, &types).map(|m| format!("holds {m}"))
}

/// Why `sum(items, start)` raises: a str start is refused, and each item is added to the total
/// so far, in order (the items up to the failing one must be known).
fn sum_error(start: Builtin, types: &[Option<Builtin>]) -> Option<String> {
    if start == Builtin::Str {
        return Some(
            "is summed from a str: TypeError: sum() can't sum strings [use ''.join(seq) instead]"
                .into(),
        );
    }
    let mut total = start;
    for (i, t) in types.iter().enumerate() {
        let t = (*t)?;
        if let Some(why) = operand_error("+", total, t) {
            let hint = if t == Builtin::Str {
                "; to join texts use ''.join(...)"
            } else {
                ""
            };
            let to = if i == 0 && start == Builtin::Int {
                "0".to_string()
            } else {
                format!("the total so far ({})", total.described())
            };
            return Some(format!(
                "holds {} at position {i}: sum adds it to {to}{hint}: TypeError: {why}",
                t.described()
            ));
        }
        total = match (total, t) {
            (a, b) if a.integer() && b.integer() => Builtin::Int,
            (a, b) if a.number() && b.number() => Builtin::Float,
            (a, _) => a,
        };
    }
    None
}

/// Why `sorted`, `max` or `min` of values of these types raises: they compare values of
/// different types (each meets at least one of another type when they hold both numbers and
/// texts, or any None beside another value).
fn compared_error(name: &str, types: &[Builtin]) -> Option<String> {
    if types.len() < 2 {
        return None;
    }
    // Values order only with values of their own kind (numbers with numbers); None and dicts
    // with nothing. Sorting, or finding the largest, compares each value with at least one
    // other, so a value of another kind meets one it cannot be compared with.
    let kind = |t: &Builtin| match t {
        Builtin::Bool | Builtin::Int | Builtin::Float => Some(Builtin::Int),
        Builtin::None | Builtin::Dict | Builtin::Method | Builtin::BuiltinMethod => None,
        t => Some(*t),
    };
    let mixed = if types.contains(&Builtin::Dict) {
        "a dict (dicts have no order)".to_string()
    } else if types.contains(&Builtin::None) {
        "None beside other items".to_string()
    } else {
        let mut kinds: Vec<Builtin> = types.iter().filter_map(kind).collect();
        kinds.dedup();
        let (Some(a), Some(b)) = (kinds.first(), kinds.iter().find(|k| *k != &kinds[0])) else {
            return None;
        };
        match (a, b) {
            (Builtin::Int, Builtin::Str) | (Builtin::Str, Builtin::Int) => {
                "numbers and texts".to_string()
            }
            _ => format!("{} beside {}", plural(*a), plural(*b)),
        }
    };
    // max() asks whether each value is greater than the largest so far; the others ask `<`.
    let op = if name == "max" { ">" } else { "<" };
    Some(format!(
        "{mixed}, which {name}() must compare: TypeError: '{op}' not supported between them"
    ))
}

/// "numbers", "texts", "lists", ... for messages.
fn plural(t: Builtin) -> &'static str {
    match t {
        Builtin::Bool | Builtin::Int | Builtin::Float => "numbers",
        Builtin::Str => "texts",
        Builtin::List => "lists",
        Builtin::Tuple => "tuples",
        Builtin::Set => "sets",
        Builtin::Dict => "dicts",
        Builtin::None => "None",
        Builtin::Method | Builtin::BuiltinMethod => "methods",
    }
}

/// What a positional argument of a method of a builtin type must be.
#[derive(Clone, Copy)]
enum Param {
    Any,
    Str,
    StrOrNone,
    StrOrTuple,
    Int,
    IntOrNone,
    Iterable,
}

impl Param {
    /// Why a value of type `t` is rejected, in Python's words; None when it may be accepted.
    fn rejects(self, t: Builtin) -> Option<String> {
        let accepted = match self {
            Param::Any => true,
            Param::Str => t == Builtin::Str,
            Param::StrOrNone => matches!(t, Builtin::Str | Builtin::None),
            Param::StrOrTuple => matches!(t, Builtin::Str | Builtin::Tuple),
            Param::Int => t.integer(),
            Param::IntOrNone => t.integer() || t == Builtin::None,
            Param::Iterable => !t.scalar(),
        };
        if accepted {
            return None;
        }
        Some(match self {
            Param::Str => format!("must be str, not {}", t.name()),
            Param::StrOrNone => format!("must be str or None, not {}", t.name()),
            Param::StrOrTuple => format!("must be str or a tuple of str, not {}", t.name()),
            Param::Iterable => format!("'{}' object is not iterable", t.name()),
            _ => format!("'{}' object cannot be interpreted as an integer", t.name()),
        })
    }
}

/// The positional parameters of a method of a builtin type (`required` of them required), for
/// the methods that take no keywords or whose keywords are left alone here (the documentation of
/// the built-in types; the same from Python 3.8 to 3.14). Methods that take any number of
/// arguments (`str.format`, `set.union`) are not listed.
fn method_params(t: Builtin, method: &str) -> Option<(usize, &'static [Param])> {
    use Param::*;
    const NONE: &[Param] = &[];
    let table: (usize, &'static [Param]) = match (t, method) {
        (Builtin::List, "append" | "remove" | "count") => (1, &[Any]),
        (Builtin::List, "extend") => (1, &[Iterable]),
        // `set.update` takes any number of iterables.
        (Builtin::Dict, "update") => (0, &[Iterable]),
        (Builtin::List, "insert") => (2, &[Int, Any]),
        (Builtin::List | Builtin::Tuple, "index") => (1, &[Any, Int, Int]),
        (Builtin::List, "pop") => (0, &[Int]),
        (Builtin::List, "clear" | "copy" | "reverse" | "sort") => (0, NONE),
        (Builtin::Tuple, "count") => (1, &[Any]),
        (Builtin::Dict, "get" | "pop" | "setdefault") => (1, &[Any, Any]),
        (Builtin::Dict, "keys" | "values" | "items" | "popitem" | "clear" | "copy") => (0, NONE),
        (Builtin::Set, "add" | "remove" | "discard") => (1, &[Any]),
        (
            Builtin::Set,
            "issubset"
            | "issuperset"
            | "isdisjoint"
            | "symmetric_difference"
            | "symmetric_difference_update",
        ) => (1, &[Iterable]),
        (Builtin::Set, "pop" | "clear" | "copy") => (0, NONE),
        (
            Builtin::Str,
            "lower" | "upper" | "title" | "capitalize" | "casefold" | "swapcase" | "isdigit"
            | "isalpha" | "isalnum" | "isspace" | "islower" | "isupper" | "istitle" | "isnumeric"
            | "isdecimal" | "isidentifier" | "isprintable" | "isascii",
        ) => (0, NONE),
        (Builtin::Str, "strip" | "lstrip" | "rstrip") => (0, &[StrOrNone]),
        (Builtin::Str, "split" | "rsplit") => (0, &[StrOrNone, Int]),
        (Builtin::Str, "join") => (1, &[Any]),
        (Builtin::Str, "replace") => (2, &[Str, Str, Int]),
        (Builtin::Str, "startswith" | "endswith") => (1, &[StrOrTuple, IntOrNone, IntOrNone]),
        (Builtin::Str, "find" | "rfind" | "index" | "rindex" | "count") => {
            (1, &[Str, IntOrNone, IntOrNone])
        }
        (Builtin::Str, "center" | "ljust" | "rjust") => (1, &[Int, Str]),
        (Builtin::Str, "zfill") => (1, &[Int]),
        (Builtin::Str, "partition" | "rpartition" | "removeprefix" | "removesuffix") => (1, &[Str]),
        _ => return None,
    };
    Some(table)
}

/// Calls of a method of a known builtin value with a number or a type of positional arguments
/// it rejects, and `sep.join(items)` of items that are not all strings.
fn method_call(
    w: &Walker,
    receiver: &Expr,
    method: &str,
    args: &[Expr],
    range: TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let Some(t) = builtin_of(&w.eval(receiver)) else {
        return;
    };
    // `s.union(a, b, ...)`: any number of arguments, each iterated.
    let any_number = t == Builtin::Set
        && matches!(
            method,
            "union"
                | "intersection"
                | "difference"
                | "update"
                | "intersection_update"
                | "difference_update"
        );
    let iterables = vec![Param::Iterable; args.len()];
    let Some((required, params)) = (if any_number {
        Some((0, &iterables[..]))
    } else {
        method_params(t, method)
    }) else {
        return;
    };
    let callee = format!("{}.{method}()", t.name());
    let shown = w.shown(receiver, "the value");
    let push = |out: &mut Vec<Diagnostic>, message: String| {
        out.push(Diagnostic::error(
            Rule::BuiltinArgument,
            format!("{shown} is {}: {message}: TypeError", t.described()),
            range,
        ));
    };
    if args.len() < required || args.len() > params.len() {
        let takes = match (required, params.len()) {
            (0, 0) => "no arguments".to_string(),
            (1, 1) => "exactly one argument".to_string(),
            (r, n) if r == n => format!("exactly {n} arguments"),
            (r, n) if r + 1 == n => format!("{r} or {n} arguments"),
            (r, n) => format!("from {r} to {n} arguments"),
        };
        push(
            out,
            format!("{callee} takes {takes} ({} given)", args.len()),
        );
        return;
    }
    for (i, (arg, param)) in args.iter().zip(params).enumerate() {
        if let Some(why) = builtin_of(&w.eval(arg)).and_then(|a| param.rejects(a)) {
            push(
                out,
                format!(
                    "{callee} argument {} ({}): {why}",
                    i + 1,
                    w.shown(arg, "the argument")
                ),
            );
            return;
        }
    }
    if (t, method) == (Builtin::Str, "join") {
        join_items(w, &args[0], range, out);
    }
    if let (Builtin::Str, "center" | "ljust" | "rjust", Some(Val::Str(fill))) =
        (t, method, args.get(1).map(|a| w.eval(a)))
    {
        if fill.chars().count() != 1 {
            push(
                out,
                format!("{callee} pads with one character, and {} is {} long: The fill character must be exactly one character long", py_repr(&fill), fill.chars().count()),
            );
        }
    }
    if let (Builtin::Str, "split" | "rsplit", Some(Val::Str(sep))) =
        (t, method, args.first().map(|a| w.eval(a)))
    {
        if sep.is_empty() {
            out.push(Diagnostic::error(
                Rule::BuiltinArgument,
                format!("{callee} cannot split on an empty text (list(text) gives the characters): ValueError: empty separator"),
                range,
            ));
        }
    }
}

/// Methods of containers whose contents are known: `d.pop(key)` of a key a dict literal lacks
/// (KeyError), a list, dict or set given to a dict's or set's method as a key or item (TypeError,
/// unhashable), `xs.pop(i)` of a list of known length without that position (IndexError),
/// `xs.sort()` of a list of values that do not compare (TypeError).
fn container_method(
    w: &Walker,
    receiver: &Expr,
    method: &str,
    args: &[Expr],
    range: TextRange,
) -> Option<Diagnostic> {
    let container = w.eval(receiver);
    let t = builtin_of(&container)?;
    match (t, method, args) {
        (Builtin::Set, "remove", [_])
        | (Builtin::Set, "pop", [])
        | (Builtin::Dict, "popitem", [])
            if iterated_len(&container) == Some(0)
                && !args
                    .iter()
                    .any(|k| builtin_of(&w.eval(k)).is_some_and(Builtin::mutable)) =>
        {
            let error = match (method, args) {
                ("remove", [key]) => w.shown(key, "the item").to_string(),
                ("pop", _) => "'pop from an empty set'".to_string(),
                _ => "'popitem(): dictionary is empty'".to_string(),
            };
            Some(Diagnostic::error(
                Rule::MissingKey,
                format!(
                    "{} is empty: KeyError: {error}",
                    w.shown(receiver, "the container")
                ),
                range,
            ))
        }
        (Builtin::Dict, "get" | "pop" | "setdefault", [key, ..])
        | (Builtin::Set, "add" | "remove" | "discard", [key]) => {
            if let Some(k) = builtin_of(&w.eval(key)).filter(|k| k.mutable()) {
                return Some(Diagnostic::error(
                    Rule::IndexType,
                    format!(
                        "{} is {}, which cannot be a {}: TypeError: unhashable type: '{}'",
                        w.shown(key, "the key"),
                        k.described(),
                        if t == Builtin::Set {
                            "set item"
                        } else {
                            "dict key"
                        },
                        k.name()
                    ),
                    range,
                ));
            }
            if let (Builtin::Dict, "pop", [key]) = (t, method, args) {
                return missing_key(w, receiver, key, " to pop", range);
            }
            None
        }
        (Builtin::List, "sort", []) => {
            let types = match container {
                Val::Items { items, .. } => {
                    items.iter().map(builtin_of).collect::<Option<Vec<_>>>()?
                }
                _ => return None,
            };
            let why = compared_error("sort", &types)?;
            Some(Diagnostic::error(
                Rule::BuiltinArgument,
                format!("{} holds {why}", w.shown(receiver, "the list")),
                range,
            ))
        }
        (Builtin::List, "pop", [] | [_]) => {
            let n = iterated_len(&container)?;
            let why = match args.first().map(|i| w.eval(i)) {
                None if n == 0 => "pop from empty list".to_string(),
                Some(Val::Int(i)) if i >= n || i < -n => {
                    format!("pop index out of range (it has {n} elements, and {i} is no position)")
                }
                _ => return None,
            };
            Some(Diagnostic::error(
                Rule::IndexOutOfRange,
                format!(
                    "{} is a list of length {n}: IndexError: {why}",
                    w.shown(receiver, "the list")
                ),
                range,
            ))
        }
        _ => None,
    }
}

/// A known value looked up in a list or tuple whose elements are all known numbers and texts,
/// or a known text looked up in a known text, where it is not: `xs.index(v)`, `xs.remove(v)`,
/// `text.index(sub)`: ValueError. Numbers are compared as numbers (`1 == 1.0`).
fn value_not_found(
    w: &Walker,
    receiver: &Expr,
    method: &str,
    args: &[Expr],
    range: TextRange,
) -> Option<Diagnostic> {
    let [x] = args else { return None };
    let (container, wanted) = (w.eval(receiver), w.eval(x));
    let shown = w.shown(receiver, "the value");
    let message = match (&container, &wanted, method) {
        (Val::Str(text), Val::Str(sub), "index" | "rindex") => (!text.contains(sub.as_str()))
            .then(|| {
                format!(
                    "{shown} does not contain {}: ValueError: substring not found",
                    py_repr(sub)
                )
            })?,
        (Val::Items { type_name, items }, _, "index" | "remove")
            if type_name == "list" || (type_name == "tuple" && method == "index") =>
        {
            let key = |v: &Val| match v {
                Val::Int(i) => Some(Ok(*i as f64)),
                Val::Float(f) => Some(Ok(*f)),
                Val::Str(s) => Some(Err(s.clone())),
                _ => None,
            };
            let wanted_key = key(&wanted)?;
            let keys: Vec<_> = items.iter().map(key).collect::<Option<_>>()?;
            if keys.contains(&wanted_key) {
                return None;
            }
            let shown_x = w.text(x.range());
            let python = match (method, type_name.as_str()) {
                ("remove", _) => "list.remove(x): x not in list".to_string(),
                (_, "tuple") => "tuple.index(x): x not in tuple".to_string(),
                _ => format!("{shown_x} is not in list"),
            };
            format!(
                "{shown} ({} elements) does not hold {shown_x}: ValueError: {python}",
                items.len()
            )
        }
        (Val::Strs { type_name, items }, Val::Str(sub), "index" | "remove")
            if type_name == "list" =>
        {
            if items.contains(sub) {
                return None;
            }
            let python = match method {
                "remove" => "list.remove(x): x not in list".to_string(),
                _ => format!("{} is not in list", py_repr(sub)),
            };
            format!(
                "{shown} holds {} but not {}: ValueError: {python}",
                shown_keys(items),
                py_repr(sub)
            )
        }
        _ => return None,
    };
    Some(Diagnostic::error(Rule::BuiltinArgument, message, range))
}

/// Why `text % values` raises TypeError, for a known format text and known values: the number
/// of `%` conversions and of values differ, or a number conversion gets no number. None when it
/// is not read here (`%(name)s` mappings, `*` widths, a dict or unknown values).
fn percent_format_error(text: &str, values: &Val) -> Option<String> {
    let mut conversions = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        let conversion = chars
            .by_ref()
            .find(|c| !matches!(c, '-' | '+' | ' ' | '#' | '.' | '0'..='9' | 'h' | 'l' | 'L'))?;
        match conversion {
            '%' => {}
            'd' | 'i' | 'u' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'o' | 'x' | 'X' | 's' | 'r'
            | 'a' | 'c' => conversions.push(conversion),
            _ => return None,
        }
    }
    let types: Vec<Option<Builtin>> = match values {
        Val::Items { type_name, items } if type_name == "tuple" => {
            items.iter().map(builtin_of).collect()
        }
        Val::Strs { type_name, items } if type_name == "tuple" => {
            vec![Some(Builtin::Str); items.len()]
        }
        // A dict is a mapping for `%(name)s`; a tuple of unknown items is unknown.
        v => match builtin_of(v)? {
            Builtin::Dict | Builtin::Tuple => return None,
            t => vec![Some(t)],
        },
    };
    if conversions.len() > types.len() {
        return Some("not enough arguments for format string".into());
    }
    if conversions.len() < types.len() {
        return Some("not all arguments converted during string formatting".into());
    }
    conversions.iter().zip(&types).find_map(|(c, t)| {
        let t = (*t)?;
        let number = matches!(c, 'd' | 'i' | 'u' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G');
        let integer = matches!(c, 'o' | 'x' | 'X');
        if (number && !t.number()) || (integer && !t.integer()) {
            Some(match c {
                'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                    format!("must be real number, not {}", t.name())
                }
                'd' | 'i' | 'u' => {
                    format!("%{c} format: a real number is required, not {}", t.name())
                }
                _ => format!("%{c} format: an integer is required, not {}", t.name()),
            })
        } else {
            None
        }
    })
}

/// A replacement field of a format string: its position (`{}` / `{1}`) or its name (`{name}`).
enum Field {
    Auto,
    Index(usize),
    Name(String),
}

/// The replacement fields of a format string, as `str.format` reads them, each with whether a
/// conversion (`!r`) makes its value a str and its format spec (empty when none or when the
/// field formats an attribute or item of the argument); None when it is not read here (nested
/// fields in a format spec, an unmatched brace).
fn format_fields(text: &str) -> Option<Vec<(Field, (bool, String))>> {
    let mut fields = Vec::new();
    let mut specs = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
            }
            '}' => return None,
            '{' => {
                let mut inner = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        '{' => return None,
                        c => inner.push(c),
                    }
                }
                let name: String = inner
                    .chars()
                    .take_while(|c| !matches!(c, '!' | ':' | '.' | '['))
                    .collect();
                // `{0.real:..}`, `{0[1]:..}` format another value than the argument.
                let tail = &inner[name.len()..];
                if !tail.starts_with(['.', '[']) {
                    let (conversion, spec) = tail.split_once(':').unwrap_or((tail, ""));
                    specs.push((conversion.starts_with('!'), spec.to_string()));
                } else {
                    specs.push((false, String::new()));
                }
                fields.push(if name.is_empty() {
                    Field::Auto
                } else if let Ok(i) = name.parse::<usize>() {
                    Field::Index(i)
                } else if name.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !name.starts_with(|c: char| c.is_ascii_digit())
                {
                    Field::Name(name)
                } else {
                    return None;
                });
            }
            _ => {}
        }
    }
    Some(fields.into_iter().zip(specs).collect())
}

/// `"...".format(...)` of a known text: each field needs its argument (IndexError for a missing
/// positional one, KeyError for a missing keyword).
fn format_call(
    w: &Walker,
    text: &str,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
    out: &mut Vec<Diagnostic>,
) {
    // `**options` may hold any name.
    if keywords.iter().any(|k| k.name.is_none()) {
        return;
    }
    let Some(fields) = format_fields(text) else {
        return;
    };
    let positional = args.len();
    let auto = fields
        .iter()
        .filter(|(f, _)| matches!(f, Field::Auto))
        .count();
    let manual = fields.iter().any(|(f, _)| matches!(f, Field::Index(_)));
    if auto > 0 && manual {
        out.push(Diagnostic::error(
            Rule::BuiltinArgument,
            "the text mixes {} fields with numbered ones ({0}): ValueError: cannot switch from automatic field numbering to manual field specification".to_string(),
            range,
        ));
        return;
    }
    let problem = if auto > positional {
        Some(format!(
            "the text has {auto} {{}} fields but format() is given {positional} positional argument(s): IndexError: Replacement index {positional} out of range for positional args tuple"
        ))
    } else if let Some(i) = fields.iter().find_map(|(f, _)| match f {
        Field::Index(i) if *i >= positional => Some(*i),
        _ => None,
    }) {
        Some(format!(
            "field {{{i}}} needs {} positional argument(s), format() is given {positional}: IndexError: Replacement index {i} out of range for positional args tuple",
            i + 1
        ))
    } else {
        fields.iter().find_map(|(f, _)| match f {
            Field::Name(n)
                if !keywords
                    .iter()
                    .any(|k| k.name.as_deref() == Some(n.as_str())) =>
            {
                Some(format!(
                    "field {{{n}}} has no keyword argument {n}= in format(): KeyError: '{n}'"
                ))
            }
            _ => None,
        })
    };
    if let Some(message) = problem {
        out.push(Diagnostic::error(Rule::BuiltinArgument, message, range));
        return;
    }
    // Every field has its argument: each is formatted with its spec.
    let mut next = 0;
    for (field, (converted, spec)) in &fields {
        let arg = match field {
            Field::Auto => {
                next += 1;
                &args[next - 1]
            }
            Field::Index(i) => &args[*i],
            Field::Name(n) => match keywords.iter().find(|k| k.name.as_deref() == Some(n)) {
                Some(k) => &k.value,
                None => continue,
            },
        };
        if let Some(message) = spec_problem(w, arg, *converted, spec, "the argument", "its field's")
        {
            out.push(Diagnostic::error(Rule::BuiltinArgument, message, range));
            return;
        }
    }
}

/// `sep.join(items)`: every item must be a str. The first item not known to be one decides.
fn join_items(w: &Walker, items: &Expr, range: TextRange, out: &mut Vec<Diagnostic>) {
    let value = w.eval(items);
    if let Some(t) = builtin_of(&value).filter(|t| t.scalar()) {
        out.push(Diagnostic::error(
            Rule::BuiltinArgument,
            format!(
                "join takes an iterable of strings, and {} is {}: TypeError: can only join an iterable",
                w.shown(items, "the argument"),
                t.described()
            ),
            range,
        ));
        return;
    }
    let values = match value {
        Val::Items { type_name, items } if Builtin::of_name(&type_name).is_some() => items,
        _ => return,
    };
    let Some((i, t)) = values
        .iter()
        .map(builtin_of)
        .enumerate()
        .find(|(_, t)| *t != Some(Builtin::Str))
    else {
        return;
    };
    if let Some(t) = t {
        out.push(
            Diagnostic::error(
                Rule::BuiltinArgument,
                format!(
                    "join takes strings, and item {i} of {} is {}: TypeError: sequence item {i}: expected str instance, {} found",
                    w.shown(items, "the items"),
                    t.described(),
                    t.name()
                ),
                range,
            )
            .with_fix(Fix::replace("Convert the items to text with map(str, ...)", items.range(), format!("map(str, {})", w.text(items.range())))),
        );
    }
}

/// The first keys of a dict, for messages.
fn shown_keys(keys: &[String]) -> String {
    let mut shown: Vec<String> = keys.iter().take(10).map(|k| py_repr(k)).collect();
    if keys.len() > 10 {
        shown.push("...".into());
    }
    shown.join(", ")
}

/// `d[key]`, `d.pop(key)`, `del d[key]` of a literal key a dict literal of the cell lacks (`how`
/// says which of them, for the message): KeyError.
fn missing_key(
    w: &Walker,
    dict: &Expr,
    key: &Expr,
    how: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    let Val::Dict { keys, .. } = w.eval(dict) else {
        return None;
    };
    // A str is never equal to an int: a key of the other kind is missing too. An empty dict
    // lacks every key, known or not.
    let Some(wanted) = DictKey::of(&w.eval(key)) else {
        return keys.is_empty().then(|| {
            Diagnostic::error(
                Rule::MissingKey,
                format!(
                    "{} has no key {}{how} (it is empty): KeyError",
                    w.shown(dict, "the dict"),
                    w.shown(key, "the key")
                ),
                range,
            )
        });
    };
    if keys.contains(&wanted) {
        return None;
    }
    let texts: Vec<&str> = keys
        .iter()
        .filter_map(|k| match k {
            DictKey::Str(s) => Some(s.as_str()),
            DictKey::Int(_) => None,
        })
        .collect();
    let hint = match &wanted {
        _ if keys.is_empty() => String::new(),
        DictKey::Str(key) if texts.is_empty() => "; its keys are numbers".to_string(),
        DictKey::Str(key) => super::suggest(key, texts.iter().copied())
            .filter(|_| key.chars().count() >= 3)
            .map_or_else(String::new, |k| format!("; did you mean {}?", py_repr(k))),
        DictKey::Int(_) if texts.len() == keys.len() => "; its keys are strings".to_string(),
        DictKey::Int(_) => String::new(),
    };
    Some(Diagnostic::error(
        Rule::MissingKey,
        format!(
            "{} has no key {}{how} ({}){hint}: KeyError",
            w.shown(dict, "the dict"),
            key_repr(&wanted),
            if keys.is_empty() {
                "it is empty".to_string()
            } else {
                format!(
                    "its keys: {}",
                    keys.iter()
                        .take(10)
                        .map(key_repr)
                        .collect::<Vec<_>>()
                        .join(", ")
                        + if keys.len() > 10 { ", ..." } else { "" }
                )
            }
        ),
        range,
    ))
}

/// A dict key as Python shows it.
fn key_repr(key: &DictKey) -> String {
    match key {
        DictKey::Str(s) => py_repr(s),
        DictKey::Int(i) => i.to_string(),
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
        (Builtin::List, "+") => b
            .scalar()
            .then(|| format!("'{}' object is not iterable", b.name())),
        // `x *= "ab"`: CPython's message depends on x's type (not the crash); left alone.
        (_, "*") if !a.sequence() && b.sequence() => None,
        _ => binary_error(op, &format!("{op}="), a, b),
    }
}

/// A fix wrapping `e` in `str(...)`.
/// `df.dtypes()`, `s.values()`, `est.coef_()`: a property of a library object (or an attribute
/// `fit` set) called like a method; `v = df.values; v()`: a library object called.
fn library_value_called(
    w: &Walker,
    func: &Expr,
    callee: &Val,
    call: TextRange,
) -> Option<Diagnostic> {
    if let Expr::Attribute { value, attr, .. } = func {
        let base = w.eval(value);
        if let Some(p) = property(&base, attr) {
            let shown = w.shown(func, "the attribute");
            let without_call = TextRange::new(func.range().end, call.end);
            let called_bare = w.text(without_call).chars().all(|c| "() \t".contains(c));
            let mut d = Diagnostic::error(
                Rule::NotCallable,
                format!(
                    "{shown} is {}, not a method{}: TypeError: {} is not callable",
                    p.described(),
                    if called_bare {
                        " (drop the parentheses)"
                    } else {
                        ""
                    },
                    value_classes(&p, &base, callee)
                ),
                func.range(),
            );
            if called_bare {
                d = d.with_fix(Fix::replace(
                    format!("Read {shown} without calling it"),
                    without_call,
                    String::new(),
                ));
            }
            return Some(d);
        }
    }
    if builtin_of(callee).is_some() {
        return None;
    }
    if let Val::Instance(class) = callee {
        // Python looks `__call__` up on the class.
        if class.binds("__call__") || w.attribute_rewired("__call__") {
            return None;
        }
        return Some(Diagnostic::error(
            Rule::NotCallable,
            format!(
                "{} is an instance of the notebook's class {name}, which defines no __call__: TypeError: '{name}' object is not callable",
                w.shown(func, "the callee"),
                name = class.name
            ),
            func.range(),
        ));
    }
    let t = not_callable(callee)?;
    Some(Diagnostic::error(
        Rule::NotCallable,
        format!(
            "{} is {} {t} object, not a function: TypeError: '{t}' object is not callable",
            w.shown(func, "the callee"),
            article(&t.to_ascii_lowercase())
        ),
        func.range(),
    ))
}

fn wrap_in_str(w: &Walker, e: &Expr) -> Fix {
    let text = w.text(e.range());
    Fix::replace(
        format!("Convert {text} to text with str({text})"),
        e.range(),
        format!("str({text})"),
    )
}

/// What the programmer likely meant: Python 2's dict methods, numpy's `.shape` on a list, a
/// method of another builtin type, or a close name.
/// `; call it first: df.isnull()`, and the fix that adds the parentheses after `method`.
fn call_first(w: &Walker, method: &Expr) -> (String, Option<Fix>) {
    let end = method.range().end;
    (
        format!("; call it first: {}()", w.text(method.range())),
        Some(Fix::replace(
            "Call it: add ()".to_string(),
            TextRange::new(end, end),
            "()".to_string(),
        )),
    )
}

fn attribute_hint(t: Builtin, attr: &str, attr_range: TextRange) -> (String, Option<Fix>) {
    let replace = |with: &str| Fix::replace(format!("Use .{with}"), attr_range, with.to_string());
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

    /// The tables of binary, comparison and unary operators agree with CPython
    /// (tests/fixtures/pytypes/operators.txt, written by operators.py there): where they find an
    /// error, CPython raises TypeError with that message; where CPython succeeds, they find none.
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
            let found = match case.split(' ').collect::<Vec<_>>()[..] {
                [op, a] => unary_error(op, by_name(a)),
                [a, op @ ("<" | "<=" | ">" | ">="), b] => compare_error(op, by_name(a), by_name(b)),
                [a, op, b] => match op.strip_suffix('=') {
                    Some(op) => augmented_error(op, by_name(a), by_name(b)),
                    None => operand_error(op, by_name(a), by_name(b)),
                },
                _ => panic!("{line}"),
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
        assert_eq!((silent, errors), (31, 1531 + 224 + 19));
    }

    #[test]
    fn reprs_quote_like_python() {
        assert_eq!(py_repr("abc"), "'abc'");
        assert_eq!(py_repr("it's"), "\"it's\"");
    }
}
