//! `not-subscriptable`: a method of a frame, Series or numpy array subscripted where it should be
//! called (`df.groupby['a']`, `df.head[5]`, `df['a'].unique[0]`, `arr.reshape[2, 3]`): a bound
//! method takes no `[...]`: TypeError: 'method' (numpy's: 'builtin_function_or_method') object
//! is not subscriptable. A pandas method is what the class defines (its signature is in the
//! tables), whatever columns the frame has: `df.head` is the method even beside a column named
//! `head`; an array's, any public attribute but its data attributes.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::Expr;
use crate::semantics::abstract_value::{ArrayLib, Val};
use crate::semantics::numpy::is_ndarray_method;
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
    let (class, method_kind) = match w.eval(owner) {
        Val::Frame(f) if f.plain => ("DataFrame", "method"),
        Val::Series(_) => ("Series", "method"),
        Val::Array(a)
            if a.lib == ArrayLib::Numpy && !a.shape.is_empty() && !a.maybe_not_ndarray =>
        {
            ("numpy array", "builtin_function_or_method")
        }
        _ => return,
    };
    let method = match class {
        "numpy array" => is_ndarray_method(attr),
        _ => library_params(&format!("pandas.{class}#{attr}")).is_some(),
    };
    if !method {
        return;
    }
    let index_text = w.text(index.range());
    out.push(
        Diagnostic::error(
            Rule::NotSubscriptable,
            format!(
                "{}.{attr} is a method of the {class}: call it, {attr}({index_text}): TypeError: '{method_kind}' object is not subscriptable",
                w.shown(owner, "the object")
            ),
            value.range(),
        )
        .with_fix(Fix::replace(format!("Call {attr}(...)"), crate::ir::TextRange::new(value.range().end, expr.range().end), format!("({index_text})"))),
    );
}
