//! What library semantics may ask the interpreter about the code where a call runs (the walker
//! answers): semantics needs the values of a call's arguments, not how they are followed.

use crate::ir::{Expr, Literal, SeqKind, TextRange};

use super::abstract_value::Val;

/// A library object's dotted path (`numpy.linalg.norm`). Shared: the rules ask for a callee's
/// path many times per call, and a copy of it would be an allocation each time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibPath(std::rc::Rc<str>);

impl LibPath {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for LibPath {
    fn from(path: &str) -> Self {
        LibPath(path.into())
    }
}

impl std::ops::Deref for LibPath {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for LibPath {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for LibPath {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl std::fmt::Display for LibPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub trait Eval {
    /// The abstract value of an expression evaluated there.
    fn eval(&self, e: &Expr) -> Val;
    /// The library path a callee names through the imports (`np.zeros` -> `numpy.zeros`).
    fn lib_path(&self, func: &Expr) -> Option<LibPath>;
    /// Does the name still mean Python's builtin?
    fn is_builtin(&self, name: &str) -> bool;
    /// What a name holds.
    fn get(&self, name: &str) -> Val;
    /// May the notebook have replaced attribute `attr` of modules (`model.conv1 = ...`)?
    fn attribute_rewired(&self, attr: &str) -> bool;
    /// How many distinct values the kernel counted in the series or array a name holds, while
    /// the name still holds what the kernel summarised.
    fn distinct_values(&self, e: &Expr) -> Option<i64>;
    /// Is `name` certainly Python's builtin of that name here: bound by no cell, no star import
    /// or `exec` anywhere that may have bound it?
    fn certainly_builtin(&self, name: &str) -> bool;
    /// The source of the code being walked (ranges index into it).
    fn source(&self) -> &str;
    /// What calling the function `f` with the values `args` returns, when the interpreter
    /// knows (a lambda, or a function of the notebook that only returns an expression).
    fn call_value(&self, f: &Expr, args: &[Val]) -> Option<Val>;

    /// The source text of a range of it.
    fn text(&self, range: TextRange) -> &str {
        self.source()
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
    }
}

pub fn int_tuple(w: &dyn Eval, e: &Expr) -> Option<Vec<i64>> {
    match e {
        Expr::Seq {
            kind: SeqKind::Tuple | SeqKind::List,
            elts,
            ..
        } => elts.iter().map(|x| int_of(w, x)).collect(),
        // `a.shape`, or a name holding a tuple of ints.
        _ => match w.eval(e) {
            Val::Items { type_name, items } if type_name == "tuple" => items
                .iter()
                .map(|v| match v {
                    Val::Int(i) => Some(*i),
                    _ => None,
                })
                .collect(),
            _ => int_of(w, e).map(|i| vec![i]),
        },
    }
}

pub fn int_of(w: &dyn Eval, e: &Expr) -> Option<i64> {
    match e {
        Expr::Literal {
            value: Literal::Int(i),
            ..
        } => Some(*i),
        Expr::Other { children, .. } if children.len() == 1 => {
            // `-1`
            let t = w.text(e.range()).trim().to_string();
            t.parse::<i64>().ok()
        }
        // A name, or what the walker computes (`a.ndim`, `a.shape[0]`, `n + 1`).
        Expr::Name { .. }
        | Expr::Attribute { .. }
        | Expr::Subscript { .. }
        | Expr::BinOp { .. } => match w.eval(e) {
            Val::Int(i) => Some(i),
            _ => None,
        },
        _ => None,
    }
}
