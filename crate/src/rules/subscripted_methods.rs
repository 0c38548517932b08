//! `not-subscriptable`: a method of a frame or Series subscripted where it should be called
//! (`df.groupby['a']`, `df.head[5]`, `df['a'].unique[0]`): a bound method takes no `[...]`:
//! TypeError: 'method' object is not subscriptable. A method is what the class defines (its
//! signature is in the tables), whatever columns the frame has: `df.head` is the method even
//! beside a column named `head`.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::Expr;
use crate::semantics::abstract_value::Val;
use crate::semantics::signatures::library_params;
use crate::walker::state::Walker;

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Subscript { value, index, .. } = expr else {
        return;
    };
    let Expr::Attribute {
        value: owner, attr, ..
    } = &**value
    else {
        return;
    };
    if w.pandas_extended {
        return;
    }
    let class = match w.eval(owner) {
        Val::Frame(f) if f.plain => "DataFrame",
        Val::Series(_) => "Series",
        _ => return,
    };
    if library_params(&format!("pandas.{class}#{attr}")).is_none() {
        return;
    }
    let index_text = w.text(index.range());
    out.push(
        Diagnostic::error(
            Rule::NotSubscriptable,
            format!(
                "{}.{attr} is a method of the {class}: call it, {attr}({index_text}): TypeError: 'method' object is not subscriptable",
                w.shown(owner, "the object")
            ),
            value.range(),
        )
        .with_fix(Fix::replace(format!("Call {attr}(...)"), crate::ir::TextRange::new(value.range().end, expr.range().end), format!("({index_text})"))),
    );
}
