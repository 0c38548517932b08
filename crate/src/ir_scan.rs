//! Questions about IR subtrees that every layer asks: the names an expression or statements
//! read, bind or mutate, every expression of a block, literal lists of strings, whether a call
//! unpacks arguments. Syntax only: no values, no libraries.

use std::collections::BTreeSet;

use crate::ir::{Expr, Keyword, Literal, SeqKind, Stmt, Target};

/// A `for` loop over a literal list or tuple of ints whose body only calls methods of names
/// (`for units in [64, 32]: model.add(Dense(units))`): it runs once per value, in order, and is
/// read as that many copies of its body. The loop variable, each value, and the body.
pub fn unrolled_loop(stmt: &Stmt) -> Option<(&str, Vec<i64>, &[Stmt])> {
    const MAX_ROUNDS: usize = 16;
    let Stmt::For {
        target: Target::Name { id, .. },
        iter: Expr::Seq { elts, .. },
        body,
        orelse,
        ..
    } = stmt
    else {
        return None;
    };
    let method_call = |s: &Stmt| match s {
        Stmt::Expr {
            value: Expr::Call { func, .. },
            ..
        } => {
            matches!(&**func, Expr::Attribute { value, .. } if matches!(&**value, Expr::Name { .. }))
        }
        _ => false,
    };
    if !orelse.is_empty() || elts.len() > MAX_ROUNDS || !body.iter().all(method_call) {
        return None;
    }
    let values = elts
        .iter()
        .map(|e| match e {
            Expr::Literal {
                value: Literal::Int(i),
                ..
            } => Some(*i),
            _ => None,
        })
        .collect::<Option<Vec<i64>>>()?;
    Some((id, values, body))
}

/// Does a call unpack arguments (`*args`, `**kwargs`): then which parameter gets what is unknown.
pub fn unpacks(args: &[Expr], keywords: &[Keyword]) -> bool {
    keywords.iter().any(|k| k.name.is_none())
        || args.iter().any(|a| matches!(a, Expr::Starred { .. }))
}

/// `['a', 'b']` (a list of string literals).
pub fn str_list(e: &Expr) -> Option<Vec<String>> {
    match e {
        Expr::Seq {
            kind: SeqKind::List,
            elts,
            ..
        } => elts
            .iter()
            .map(|e| e.as_str_literal().map(str::to_string))
            .collect(),
        _ => None,
    }
}

pub fn base_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name { id, .. } => Some(id),
        Expr::Attribute { value, .. } | Expr::Subscript { value, .. } => base_name(value),
        Expr::Call { func, .. } => base_name(func),
        _ => None,
    }
}

/// Names whose objects an argument hands over (`f(df)`, `f(df.values)`, `f([a, b])`; not
/// `f(X.shape[1])`, a number).
pub fn root_names(e: &Expr, out: &mut BTreeSet<String>) {
    match e {
        Expr::Name { id, .. } => {
            out.insert(id.clone());
        }
        Expr::Attribute { attr, .. } if matches!(attr.as_str(), "shape" | "ndim") => {}
        Expr::Attribute { value, .. }
        | Expr::Subscript { value, .. }
        | Expr::Starred { value, .. } => root_names(value, out),
        Expr::Seq { elts, .. } => elts.iter().for_each(|e| root_names(e, out)),
        Expr::Dict { values, .. } => values.iter().for_each(|e| root_names(e, out)),
        _ => {}
    }
}

pub fn collect_calls<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } => {
            collect_calls(func, out);
            args.iter().for_each(|a| collect_calls(a, out));
            keywords.iter().for_each(|k| collect_calls(&k.value, out));
            out.push(e);
        }
        Expr::Lambda { .. } => {}
        _ => e.for_each_child(|c| collect_calls(c, out)),
    }
}

pub fn target_names(t: &Target, out: &mut BTreeSet<String>, with_stores: bool) {
    match t {
        Target::Name { id, .. } => {
            out.insert(id.clone());
        }
        Target::Unpack { elts, .. } => elts.iter().for_each(|e| target_names(e, out, with_stores)),
        Target::Starred { target, .. } => target_names(target, out, with_stores),
        Target::Store { expr, .. } => {
            if with_stores {
                if let Some(b) = base_name(expr) {
                    out.insert(b.to_string());
                }
            }
        }
    }
}

/// Every name a block mentions (read, written or mutated), function bodies included: after a block
/// we cannot follow, all of them are unknown.
pub fn mentioned_names(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        s.for_each_name(&mut |name| {
            out.insert(name.to_owned());
        });
    }
}

/// Names whose objects a block may change without rebinding them: assignment to an item or
/// attribute, method calls on them, and objects passed to calls (function bodies excluded,
/// lambda bodies not).
pub fn mutated_names(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        match s {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| target_names(t, out, true))
            }
            Stmt::For { target, .. } => target_names(target, out, true),
            Stmt::With { items, .. } => {
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target_names(t, out, true);
                }
            }
            Stmt::Global { names, .. } | Stmt::TooDeep { names, .. } => {
                out.extend(names.iter().cloned())
            }
            // Their bodies run later; decorators and defaults do not mutate.
            Stmt::FunctionDef { .. } | Stmt::ClassDef { .. } => continue,
            _ => {}
        }
        s.for_each_expr(&mut |e| mutated_in(e, out));
        s.for_each_block(|b| mutated_names(b, out));
    }
}

/// Names whose objects evaluating `e` may change: receivers of method calls and objects passed
/// to calls, in the bodies of its lambdas too (the call a lambda is passed to may run it now:
/// `map`, `sorted`'s key, `df.apply`).
pub fn mutated_in(e: &Expr, out: &mut BTreeSet<String>) {
    if let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = e
    {
        if let Expr::Attribute { value, .. } = &**func {
            root_names(value, out);
        }
        args.iter().for_each(|a| root_names(a, out));
        keywords.iter().for_each(|k| root_names(&k.value, out));
    }
    e.for_each_child(|c| mutated_in(c, out));
}

/// Does the statement contain `break`, `continue`, `return`, `raise` or `assert` (which the IR
/// keeps as `Stmt::Other`), outside nested functions?
pub fn contains_jump(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| {
        let mut jump = matches!(s, Stmt::Other { .. });
        s.for_each_block(|b| jump |= contains_jump(b));
        jump
    })
}

/// Calls `f` on every expression the statements evaluate when they run, sub-expressions
/// included; function and class bodies and lambda bodies are left out.
pub fn for_each_expr<'a>(stmts: &'a [Stmt], f: &mut impl FnMut(&'a Expr)) {
    fn expr<'a>(e: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
        f(e);
        if !matches!(e, Expr::Lambda { .. }) {
            e.for_each_child(|c| expr(c, f));
        }
    }
    for s in stmts {
        s.for_each_expr(&mut |e| expr(e, f));
        s.for_each_block(|b| for_each_expr(b, f));
    }
}

/// Names the statements bind to another name (`d = df`, `a, b = df, x`): changes through the
/// other name change their object too.
pub fn aliased_names(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    fn value(e: &Expr, out: &mut BTreeSet<String>) {
        match e {
            Expr::Name { id, .. } => {
                out.insert(id.clone());
            }
            Expr::Seq { elts, .. } => elts.iter().for_each(|e| value(e, out)),
            _ => {}
        }
    }
    for s in stmts {
        if let Stmt::Assign { value: Some(v), .. } = s {
            value(v, out);
        }
        for_each_expr(std::slice::from_ref(s), &mut |e| {
            if let Expr::Walrus { value: v, .. } = e {
                value(v, out);
            }
        });
        if !matches!(s, Stmt::FunctionDef { .. } | Stmt::ClassDef { .. }) {
            s.for_each_block(|b| aliased_names(b, out));
        }
    }
}

/// The keyword of a `return`, `raise`, `assert`, `break` or `continue` statement (which the IR
/// keeps as `Stmt::Other`).
pub fn stmt_keyword<'s>(stmt: &Stmt, source: &'s str) -> Option<&'s str> {
    let Stmt::Other { range, .. } = stmt else {
        return None;
    };
    let text = source.get(range.start as usize..range.end as usize)?;
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .next()
}
