//! Division of a Python number by a divisor certainly zero (zero-division): `/`, `//`, `%`,
//! `divmod()` and their augmented assignments. Only Python's own int, float and bool raise: numpy
//! arrays and scalars warn and give inf or nan, pandas objects, `Decimal` and `Fraction` are other
//! types the walker does not hold as numbers, so they stay silent.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Stmt, Target, TextRange};
use crate::semantics::abstract_value::Val;
use crate::semantics::python::{builtin_of, Builtin};
use crate::walker::state::Walker;

/// `a / 0`, `a // 0`, `a % 0` and `divmod(a, 0)`.
pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } => out.extend(division(w, op, &w.eval(left), right, *range)),
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } if keywords.is_empty() => {
            if let (Expr::Name { id, .. }, [left, right]) = (&**func, args.as_slice()) {
                if id == "divmod" && w.certainly_builtin(id) {
                    out.extend(division(w, "divmod", &w.eval(left), right, *range));
                }
            }
        }
        _ => {}
    }
}

/// `x /= 0`, `x //= 0`, `x %= 0` of a name holding a Python number.
pub fn check_stmt(w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
    if let Stmt::Assign {
        targets,
        op: crate::ir::AssignOp::Augmented(aug),
        value: Some(value),
        range,
    } = stmt
    {
        if let [Target::Name { id, .. }] = targets.as_slice() {
            out.extend(division(
                w,
                aug.trim_end_matches('='),
                &w.get(id),
                value,
                *range,
            ));
        }
    }
}

/// The diagnostic for `left op divisor` when `left` is a Python number and `divisor` certainly
/// zero, with the message Python gives.
fn division(
    w: &Walker,
    op: &str,
    left: &Val,
    divisor: &Expr,
    range: TextRange,
) -> Option<Diagnostic> {
    let a = builtin_of(left).filter(|t| t.number())?;
    let b = w.eval(divisor);
    let zero = match b {
        Val::Int(0) | Val::Bool(false) => Builtin::Int,
        Val::Float(0.0) => Builtin::Float,
        _ => return None,
    };
    let float = a == Builtin::Float || zero == Builtin::Float;
    let message = match (op, float) {
        ("/", false) => "division by zero",
        ("/", true) => "float division by zero",
        ("//" | "divmod", false) => "integer division or modulo by zero",
        ("//", true) => "float floor division by zero",
        ("%", false) => "integer modulo by zero",
        ("%", true) => "float modulo",
        ("divmod", true) => "float divmod()",
        _ => return None,
    };
    Some(Diagnostic::error(
        Rule::ZeroDivision,
        match divisor {
            Expr::Literal { .. } => format!("the divisor is 0: ZeroDivisionError: {message}"),
            _ => format!(
                "{} is 0: ZeroDivisionError: {message}",
                w.shown(divisor, "the divisor")
            ),
        },
        range,
    ))
}
