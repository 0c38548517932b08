//! Lists and dicts the walker follows, changed in place by a statement (CPython's documented
//! behaviour): what they hold once the statement ran. A statement that raises stops the cell, so
//! the value after it assumes it did not (`xs.remove(x)` leaves one element fewer). `None` when
//! the result is not certain: the walker then forgets the object.

use super::abstract_value::{DictKey, Val};

/// A list's elements, or only their number.
enum Elements {
    Known(Vec<Val>),
    Count(i64),
}

fn list_elements(v: &Val) -> Option<Elements> {
    match v {
        Val::Items { type_name, items } if type_name == "list" => {
            Some(Elements::Known(items.clone()))
        }
        Val::Strs { type_name, items } if type_name == "list" => Some(Elements::Known(
            items.iter().cloned().map(Val::Str).collect(),
        )),
        Val::Sized { type_name, len } if type_name == "list" => Some(Elements::Count(*len)),
        _ => None,
    }
}

/// A list or dict: an object whose changes in place the walker follows.
pub fn is_list_or_dict(v: &Val) -> bool {
    match v {
        Val::Items { type_name, .. }
        | Val::Strs { type_name, .. }
        | Val::Sized { type_name, .. } => type_name == "list",
        Val::Dict { .. } => true,
        _ => false,
    }
}

/// `list(x)` / `tuple(x)` of a value whose elements (or their number) the walker knows: a new
/// container of them.
pub fn sequence_from(type_name: &str, x: &Val) -> Option<Val> {
    Some(match iterated(x)? {
        Elements::Known(items) => super::abstract_value::sequence_of(type_name, items),
        Elements::Count(len) => Val::Sized {
            type_name: type_name.into(),
            len,
        },
    })
}

/// `xs.copy()` / `d.copy()` of a list or dict the walker follows: a new one holding the same.
pub fn copied(v: &Val) -> Option<Val> {
    match v {
        Val::Dict { .. } => Some(v.clone()),
        _ => list_elements(v).map(list_of),
    }
}

/// `dict(**keywords)` or `dict(d, **keywords)` of a dict the walker follows: a new dict.
pub fn dict_from(arg: Option<&Val>, keywords: &[(Option<String>, Val)]) -> Option<Val> {
    let empty = Val::Dict {
        keys: Vec::new(),
        values: Vec::new(),
    };
    let start = match arg {
        None => empty,
        Some(d @ Val::Dict { .. }) => d.clone(),
        // `dict([('a', 1), ('b', 2)])`: pairs of known keys.
        Some(pairs) => {
            let Elements::Known(items) = iterated(pairs)? else {
                return None;
            };
            let firsts = items
                .iter()
                .map(|pair| match pair {
                    Val::Items { items, .. } if items.len() == 2 => Some(items[0].clone()),
                    Val::Strs { items, .. } if items.len() == 2 => Some(Val::Str(items[0].clone())),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            dict_of_keys(&super::abstract_value::sequence_of("list", firsts))?
        }
    };
    after_method(&start, "update", &[], keywords)
}

/// `{k: ... for k in xs}`, `dict(zip(xs, values))` (as many values as keys): a dict of the keys
/// iterating `xs` gives, when they are known texts and numbers (a repeated key keeps its first
/// place); their values are not followed.
pub fn dict_of_keys(xs: &Val) -> Option<Val> {
    let Elements::Known(items) = iterated(xs)? else {
        return None;
    };
    let mut keys: Vec<DictKey> = Vec::new();
    for item in &items {
        let key = DictKey::of(item)?;
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    Some(Val::Dict {
        values: vec![Val::Unknown; keys.len()],
        keys,
    })
}

/// The number of elements iterating over a value gives, when known.
pub fn iterated_count(v: &Val) -> Option<usize> {
    match iterated(v)? {
        Elements::Known(items) => Some(items.len()),
        Elements::Count(n) => usize::try_from(n).ok(),
    }
}

/// `sum(xs)`, `max(xs)`, `min(xs)` of a list or tuple of known ints and floats (bools count as
/// ints): what Python gives; of a sum with floats only its type (Python adds floats with
/// compensation). None for any other name or element, and for no elements.
pub fn reduced_numbers(name: &str, xs: &Val) -> Option<Val> {
    let Elements::Known(items) = iterated(xs)? else {
        return None;
    };
    let number = |v: &Val| match v {
        Val::Int(i) => Some(*i as f64),
        Val::Bool(b) => Some(f64::from(u8::from(*b))),
        Val::Float(f) => Some(*f),
        _ => None,
    };
    let numbers = items.iter().map(number).collect::<Option<Vec<f64>>>()?;
    if name == "sum" {
        if items.iter().any(|v| matches!(v, Val::Float(_))) {
            return Some(Val::Typed("float".into()));
        }
        let mut ints = items.iter().map(|v| match v {
            Val::Int(i) => *i,
            _ => i64::from(matches!(v, Val::Bool(true))),
        });
        return ints.try_fold(0i64, i64::checked_add).map(Val::Int);
    }
    // The first of equal extremes is the one returned.
    let mut best = 0;
    for (k, n) in numbers.iter().enumerate().skip(1) {
        let better = match name {
            "max" => *n > numbers[best],
            "min" => *n < numbers[best],
            _ => return None,
        };
        if better {
            best = k;
        }
    }
    items.get(best).cloned()
}

/// The elements iterating over a value gives, or only their number (a list, a tuple, a dict's
/// keys, a text's characters).
fn iterated(v: &Val) -> Option<Elements> {
    match v {
        Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            Some(Elements::Known(items.clone()))
        }
        Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => Some(
            Elements::Known(items.iter().cloned().map(Val::Str).collect()),
        ),
        Val::Sized { type_name, len }
            if matches!(type_name.as_str(), "list" | "tuple" | "dict") =>
        {
            Some(Elements::Count(*len))
        }
        Val::Dict { keys, .. } => Some(Elements::Known(keys.iter().map(DictKey::val).collect())),
        Val::Str(s) => Some(Elements::Known(
            s.chars().map(|c| Val::Str(c.to_string())).collect(),
        )),
        _ => None,
    }
}

/// Past this many elements, `map` and `filter` results keep only their number.
const MAX_APPLIED: usize = 64;

/// `list(map(f, xs))` of one iterable whose elements (or their number) the walker knows: a list
/// of what `apply` gives for each element (unknown where it gives `None`); one value per
/// element, or the call raises.
pub fn mapped(xs: &Val, apply: impl Fn(&Val) -> Option<Val>) -> Option<Val> {
    Some(list_of(match iterated(xs)? {
        Elements::Known(items) if items.len() <= MAX_APPLIED => Elements::Known(
            items
                .iter()
                .map(|x| apply(x).unwrap_or(Val::Unknown))
                .collect(),
        ),
        Elements::Known(items) => Elements::Count(items.len() as i64),
        Elements::Count(n) => Elements::Count(n),
    }))
}

/// `list(filter(f, xs))` when the walker knows every element and whether `keep` is true of it.
pub fn filtered(xs: &Val, keep: impl Fn(&Val) -> Option<bool>) -> Option<Val> {
    let Elements::Known(items) = iterated(xs)? else {
        return None;
    };
    if items.len() > MAX_APPLIED {
        return None;
    }
    let mut kept = Vec::new();
    for x in items {
        if keep(&x)? {
            kept.push(x);
        }
    }
    Some(list_of(Elements::Known(kept)))
}

/// `sorted(xs, key=..., reverse=...)`: a list of as many elements; in order when they are all
/// ints or all strings, sorted by themselves and the direction known (`reverse` `None` when
/// not known).
pub fn sorted(xs: &Val, keyed: bool, reverse: Option<bool>) -> Option<Val> {
    let elements = match xs {
        // `sorted(df.columns)`: an Index of strings.
        Val::Strs { items, .. } => Elements::Known(items.iter().cloned().map(Val::Str).collect()),
        _ => iterated(xs)?,
    };
    let n = match elements {
        Elements::Known(items) => {
            let ints: Option<Vec<i64>> = items
                .iter()
                .map(|v| match v {
                    Val::Int(i) => Some(*i),
                    _ => None,
                })
                .collect();
            let strs = super::abstract_value::all_strs(&items);
            let mut in_order: Vec<Val> = match (keyed, reverse, ints, strs) {
                (false, Some(_), Some(mut ints), _) => {
                    ints.sort_unstable();
                    ints.into_iter().map(Val::Int).collect()
                }
                // Code point order, as UTF-8 bytes compare.
                (false, Some(_), _, Some(mut strs)) => {
                    strs.sort_unstable();
                    strs.into_iter().map(Val::Str).collect()
                }
                _ => return Some(list_of(Elements::Count(items.len() as i64))),
            };
            if reverse == Some(true) {
                in_order.reverse();
            }
            return Some(list_of(Elements::Known(in_order)));
        }
        Elements::Count(n) => n,
    };
    Some(list_of(Elements::Count(n)))
}

fn list_of(elements: Elements) -> Val {
    match elements {
        Elements::Known(items) => super::abstract_value::sequence_of("list", items),
        Elements::Count(len) => Val::Sized {
            type_name: "list".into(),
            len,
        },
    }
}

/// Python's position for `list.insert(i, x)`: negative counts from the end, both ends clamp.
fn insert_position(n: usize, i: i64) -> usize {
    let n_i = n as i64;
    let i = if i < 0 { (i + n_i).max(0) } else { i.min(n_i) };
    i as usize
}

/// The position an index picks in a sequence of `n` items, when it is in range.
fn in_range(n: usize, i: i64) -> Option<usize> {
    let j = if i < 0 { i + n as i64 } else { i };
    (0..n as i64).contains(&j).then_some(j as usize)
}

/// Only scalars whose equality the walker decides exactly (an int never equals a str).
fn same_scalar(a: &Val, b: &Val) -> Option<bool> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x == y),
        (Val::Str(x), Val::Str(y)) => Some(x == y),
        (Val::Int(_), Val::Str(_)) | (Val::Str(_), Val::Int(_)) => Some(false),
        _ => None,
    }
}

/// `obj.method(*args, **keywords)` run as a statement on a list or dict the walker follows: what
/// the object holds after it. `keywords` are the named arguments (`None` for `**kw`).
pub fn after_method(
    before: &Val,
    method: &str,
    args: &[Val],
    keywords: &[(Option<String>, Val)],
) -> Option<Val> {
    if let Val::Dict { keys, values } = before {
        return dict_after_method(keys.clone(), values.clone(), method, args, keywords);
    }
    if !keywords.is_empty() {
        return None;
    }
    let elements = list_elements(before)?;
    let after = match (elements, method, args) {
        (Elements::Known(mut items), "append", [x]) => {
            items.push(x.clone());
            Elements::Known(items)
        }
        (Elements::Count(n), "append", [_]) => Elements::Count(n + 1),
        (elements, "extend", [other]) => match (elements, iterated(other)?) {
            (Elements::Known(mut items), Elements::Known(more)) => {
                items.extend(more);
                Elements::Known(items)
            }
            (Elements::Known(items), Elements::Count(m)) => Elements::Count(items.len() as i64 + m),
            (Elements::Count(n), Elements::Known(more)) => Elements::Count(n + more.len() as i64),
            (Elements::Count(n), Elements::Count(m)) => Elements::Count(n + m),
        },
        (Elements::Known(mut items), "insert", [Val::Int(i), x]) => {
            items.insert(insert_position(items.len(), *i), x.clone());
            Elements::Known(items)
        }
        (Elements::Count(n), "insert", [Val::Int(_), _]) => Elements::Count(n + 1),
        // An empty list or an index out of range raises IndexError.
        (Elements::Known(mut items), "pop", []) if !items.is_empty() => {
            items.pop();
            Elements::Known(items)
        }
        (Elements::Known(mut items), "pop", [Val::Int(i)]) => {
            items.remove(in_range(items.len(), *i)?);
            Elements::Known(items)
        }
        (Elements::Count(n), "pop", [] | [Val::Int(_)]) if n > 0 => Elements::Count(n - 1),
        // The first equal element goes (ValueError when none is equal).
        (Elements::Known(mut items), "remove", [x]) => {
            let mut found = None;
            for (at, item) in items.iter().enumerate() {
                match same_scalar(item, x) {
                    Some(true) => {
                        found = Some(at);
                        break;
                    }
                    Some(false) => {}
                    None => break,
                }
            }
            match found {
                Some(at) => {
                    items.remove(at);
                    Elements::Known(items)
                }
                None if !items.is_empty() => Elements::Count(items.len() as i64 - 1),
                None => return None,
            }
        }
        (Elements::Count(n), "remove", [_]) if n > 0 => Elements::Count(n - 1),
        (_, "clear", []) => Elements::Known(Vec::new()),
        (Elements::Known(mut items), "reverse", []) => {
            items.reverse();
            Elements::Known(items)
        }
        (Elements::Known(items), "sort", []) => Elements::Count(items.len() as i64),
        (Elements::Count(n), "reverse" | "sort", []) => Elements::Count(n),
        _ => return None,
    };
    Some(list_of(after))
}

fn dict_after_method(
    mut keys: Vec<DictKey>,
    mut values: Vec<Val>,
    method: &str,
    args: &[Val],
    keywords: &[(Option<String>, Val)],
) -> Option<Val> {
    let at = |keys: &[DictKey], k: &DictKey| keys.iter().position(|x| x == k);
    match (method, args) {
        ("update", _) if args.len() <= 1 => {
            let mut pairs: Vec<(DictKey, Val)> = match args.first() {
                None => Vec::new(),
                Some(Val::Dict { keys, values }) => {
                    keys.iter().cloned().zip(values.iter().cloned()).collect()
                }
                Some(_) => return None,
            };
            for (name, v) in keywords {
                pairs.push((DictKey::Str(name.clone()?), v.clone()));
            }
            for (k, v) in pairs {
                match at(&keys, &k) {
                    Some(i) => values[i] = v,
                    None => {
                        keys.push(k);
                        values.push(v);
                    }
                }
            }
        }
        _ if !keywords.is_empty() => return None,
        ("setdefault", [k] | [k, _]) => {
            let k = DictKey::of(k)?;
            if at(&keys, &k).is_none() {
                keys.push(k);
                values.push(args.get(1).cloned().unwrap_or(Val::None));
            }
        }
        // A missing key without a default raises KeyError.
        ("pop", [k] | [k, _]) => {
            let k = DictKey::of(k)?;
            match at(&keys, &k) {
                Some(i) => {
                    keys.remove(i);
                    values.remove(i);
                }
                None if args.len() == 2 => {}
                None => return None,
            }
        }
        ("popitem", []) if !keys.is_empty() => {
            keys.pop();
            values.pop();
        }
        ("clear", []) => {
            keys.clear();
            values.clear();
        }
        _ => return None,
    }
    Some(Val::Dict { keys, values })
}

/// A list, tuple or dict the walker follows after a method of its element at `key` ran
/// (`d['k'].append(x)`): the same keys or length, that element unknown (it may have changed), and
/// so every element equal to it (it may be the same object).
pub fn element_changed(before: &Val, key: &Val) -> Option<Val> {
    let old = match before {
        Val::Dict { keys, values } => {
            let i = keys
                .iter()
                .position(|k| Some(k) == DictKey::of(key).as_ref())?;
            values[i].clone()
        }
        Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            let Val::Int(i) = key else { return None };
            items[in_range(items.len(), *i)?].clone()
        }
        _ => return None,
    };
    fn forget(v: &mut Val, old: &Val) {
        for e in v.elements_mut() {
            if e == old {
                *e = Val::Unknown;
            } else {
                forget(e, old);
            }
        }
    }
    let mut after = before.clone();
    forget(&mut after, &old);
    Some(after)
}

/// `obj[key] = value` on a list or dict the walker follows.
pub fn after_item_set(before: &Val, key: &Val, value: Val) -> Option<Val> {
    match (before, list_elements(before)) {
        (Val::Dict { keys, values }, _) => {
            let (mut keys, mut values) = (keys.clone(), values.clone());
            let k = DictKey::of(key)?;
            match keys.iter().position(|x| *x == k) {
                Some(i) => values[i] = value,
                None => {
                    keys.push(k);
                    values.push(value);
                }
            }
            Some(Val::Dict { keys, values })
        }
        (_, Some(Elements::Known(mut items))) => {
            let Val::Int(i) = key else { return None };
            let at = in_range(items.len(), *i)?;
            items[at] = value;
            Some(list_of(Elements::Known(items)))
        }
        _ => None,
    }
}

/// `del obj[key]` on a list or dict the walker follows (a missing key raises).
pub fn after_item_delete(before: &Val, key: &Val) -> Option<Val> {
    match (before, list_elements(before)) {
        (Val::Dict { keys, values }, _) => {
            let (mut keys, mut values) = (keys.clone(), values.clone());
            let i = keys
                .iter()
                .position(|x| Some(x) == DictKey::of(key).as_ref())?;
            keys.remove(i);
            values.remove(i);
            Some(Val::Dict { keys, values })
        }
        (_, Some(elements)) => {
            let Val::Int(i) = key else { return None };
            match elements {
                Elements::Known(mut items) => {
                    items.remove(in_range(items.len(), *i)?);
                    Some(list_of(Elements::Known(items)))
                }
                Elements::Count(n) => {
                    in_range(n as usize, *i)?;
                    Some(list_of(Elements::Count(n - 1)))
                }
            }
        }
        _ => None,
    }
}
