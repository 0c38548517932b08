//! `not-subscriptable`: a method of a frame, Series or numpy array subscripted where it should be
//! called (`df.groupby['a']`, `df.head[5]`, `df['a'].unique[0]`, `arr.reshape[2, 3]`): a bound
//! method takes no `[...]`: TypeError: 'method' (numpy's: 'builtin_function_or_method') object
//! is not subscriptable. A method is what the class defines (`properties::bound_method`),
//! whatever columns the frame has: `df.head` is the method even beside a column named `head`.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::Expr;
use crate::semantics::abstract_value::Val;
use crate::semantics::properties::bound_method;
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
    let base = w.eval(owner);
    let Some(method) = bound_method(&base, attr) else {
        return;
    };
    let class = match base {
        Val::Frame(_) => "DataFrame",
        Val::Series(_) => "Series",
        Val::Array(_) => "numpy array",
        _ => "Index",
    };
    let index_text = w.text(index.range());
    out.push(
        Diagnostic::error(
            Rule::NotSubscriptable,
            format!(
                "{}.{attr} is a method of the {class}: call it, {attr}({index_text}): TypeError: '{}' object is not subscriptable",
                w.shown(owner, "the object"),
                method.name()
            ),
            value.range(),
        )
        .with_fix(Fix::replace(format!("Call {attr}(...)"), crate::ir::TextRange::new(value.range().end, expr.range().end), format!("({index_text})"))),
    );
}
