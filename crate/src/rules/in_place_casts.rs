//! Augmented assignments to a numpy array whose results numpy will not write back into it
//! (operand-type): `pixels /= 255` of uint8 images, `counts += 0.5` of integers, `mask += 1` of
//! bools. numpy's ufuncs cast their output into the array with `casting='same_kind'`, which
//! refuses floats into integers and integers into bools: UFuncTypeError, a TypeError, raised
//! before anything is written. A name is rebound by `x = x / 255` instead, to a new array. The
//! ufuncs called with their first operand as `out=` (`np.divide(a, 2, out=a)`) are the same.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{Expr, SeqKind, Stmt, Target, TextRange};
use crate::semantics::abstract_value::Val;
use crate::semantics::numpy::in_place_cast_refused;
use crate::walker::state::Walker;

pub fn check_stmt(w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
    let Stmt::Assign {
        targets,
        op: crate::ir::AssignOp::Augmented(aug),
        value: Some(value),
        range,
    } = stmt
    else {
        return;
    };
    // `a /= 2` and `a[rows] /= 2` alike: a part of an array that is an array (a view or a
    // copy) is divided in place too; one element is a numpy scalar, which `/=` rebinds.
    let (target, target_range) = match targets.as_slice() {
        [Target::Name { id, range }] => (w.get(id), *range),
        [Target::Store { expr, range }] => (w.eval(expr), *range),
        _ => return,
    };
    let Val::Array(a) = target else {
        return;
    };
    let op = aug.trim_end_matches('=');
    let Some((ufunc, results)) = in_place_cast_refused(op, &a, &w.eval(value)) else {
        return;
    };
    let dtype = a.dtype.as_deref().unwrap_or_default();
    let mut d = Diagnostic::error(
        Rule::OperandType,
        format!(
            "{} holds {dtype} values, and '{aug}' writes the {results} results of numpy's {ufunc} back into it, which numpy's casting rule 'same_kind' refuses: UFuncTypeError (a TypeError)",
            w.shown_range(target_range, "the array"),
        ),
        *range,
    );
    // Rebinding the name is the fix at the cell's top level; in a loop over arrays
    // (`for im in imgs: im /= 255`) it would leave the arrays as they were.
    let top_level =
        range.start == 0 || w.text(TextRange::new(range.start - 1, range.start)) == "\n";
    if let (Target::Name { id, .. }, true) = (&targets[0], top_level) {
        let operand = w.text(value.range());
        let operand = if matches!(
            value,
            Expr::Name { .. }
                | Expr::Literal { .. }
                | Expr::Call { .. }
                | Expr::Attribute { .. }
                | Expr::Subscript { .. }
        ) {
            operand.to_string()
        } else {
            format!("({operand})")
        };
        let rewritten = format!("{id} = {id} {op} {operand}");
        d = d.with_fix(Fix::replace(
            format!("Write {rewritten} (a new {results} array)"),
            *range,
            rewritten,
        ));
    }
    out.push(d);
}

/// `np.divide(a, 2, out=a)`: the ufunc of an augmented assignment, written as a call.
pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        range,
    } = expr
    else {
        return;
    };
    let ([first, second], [keyword]) = (args.as_slice(), keywords.as_slice()) else {
        return;
    };
    if keyword.name.as_deref() != Some("out") {
        return;
    }
    let op = match w.lib_path(func).as_deref() {
        Some("numpy.add") => "+",
        Some("numpy.subtract") => "-",
        Some("numpy.multiply") => "*",
        Some("numpy.divide" | "numpy.true_divide") => "/",
        Some("numpy.floor_divide") => "//",
        Some("numpy.remainder" | "numpy.mod") => "%",
        Some("numpy.power") => "**",
        _ => return,
    };
    // `out=a` or `out=(a,)`, the array the first operand names.
    let written = match &keyword.value {
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } if elts.len() == 1 => &elts[0],
        e => e,
    };
    if w.text(written.range()) != w.text(first.range()) {
        return;
    }
    let Val::Array(a) = w.eval(first) else {
        return;
    };
    let Some((ufunc, results)) = in_place_cast_refused(op, &a, &w.eval(second)) else {
        return;
    };
    out.push(Diagnostic::error(
        Rule::OperandType,
        format!(
            "{} holds {} values, and out= has numpy's {ufunc} write its {results} results into it, which numpy's casting rule 'same_kind' refuses: UFuncTypeError (a TypeError)",
            w.shown(first, "the array"),
            a.dtype.as_deref().unwrap_or_default(),
        ),
        *range,
    ));
}
