//! `tf-dtype-mismatch`: TensorFlow never promotes dtypes. Arithmetic, ordering comparisons, `@`
//! and the elementwise functions (`tf.add`, `tf.multiply`, `tf.matmul`, ...) of two tensors of
//! known, different dtypes raise InvalidArgumentError (`/` raises TypeError); an integer tensor
//! with a Python float raises TypeError (the float cannot become an integer tensor).

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, TextRange};
use crate::semantics::abstract_value::{ArrayLib, ArrayVal};
use crate::semantics::python::{builtin_of, Builtin};
use crate::semantics::shapes::ELEMENTWISE;
use crate::semantics::tensorflow::{as_tensor, broadcasts_elementwise, is_integer_dtype, tf_name};
use crate::walker::state::Walker;

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } if ELEMENTWISE.contains(op) || *op == "@" => {
            out.extend(mismatch(
                w,
                left,
                right,
                &format!("'{op}'"),
                *op == "/",
                *range,
            ));
        }
        Expr::Other { range, .. } => {
            if let Some((left, "<" | ">" | "<=" | ">=", right)) = w.comparison(expr) {
                out.extend(mismatch(w, left, right, "a comparison", false, *range));
            }
        }
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } if args.len() == 2 && keywords.is_empty() => {
            let path = w.lib_path(func);
            let Some(name) = path.as_deref().and_then(tf_name) else {
                return;
            };
            if broadcasts_elementwise(name) || name == "matmul" {
                let truediv = matches!(name, "divide" | "truediv");
                out.extend(mismatch(
                    w,
                    &args[0],
                    &args[1],
                    &format!("tf.{name}"),
                    truediv,
                    *range,
                ));
            }
        }
        _ => {}
    }
}

/// Two tensors of known dtypes that differ, or an integer tensor and a Python float.
fn mismatch(
    w: &Walker,
    left: &Expr,
    right: &Expr,
    operation: &str,
    truediv: bool,
    range: TextRange,
) -> Option<Diagnostic> {
    let dtype_of = |t: &ArrayVal| t.dtype.clone().filter(|_| t.lib == ArrayLib::Tensorflow);
    let (l, r) = (as_tensor(w, left), as_tensor(w, right));
    let message = match (&l, &r) {
        (Some(a), Some(b)) => {
            let (x, y) = (dtype_of(a)?, dtype_of(b)?);
            if x == y {
                return None;
            }
            let error = if truediv {
                format!("TypeError: `x` and `y` must have the same dtype, got tf.{x} != tf.{y}")
            } else {
                format!("InvalidArgumentError: input #1 was expected to be a {x} tensor but is a {y} tensor")
            };
            format!(
                "{} is {} {x} tensor and {} {} {y} tensor: TensorFlow does not convert between dtypes for {operation}; tf.cast one of them: {error}",
                w.shown(left, "a tensor"),
                article(&x),
                w.shown(right, "a tensor"),
                article(&y),
            )
        }
        // `t * 0.5` where `t` holds integers.
        (Some(t), None) | (None, Some(t)) => {
            let dtype = dtype_of(t)?;
            let (tensor_side, other) = if l.is_some() {
                (left, right)
            } else {
                (right, left)
            };
            if !is_integer_dtype(&dtype) || builtin_of(&w.eval(other)) != Some(Builtin::Float) {
                return None;
            }
            format!(
                "{} is {} {dtype} tensor and {} a float: TensorFlow cannot make an integer tensor of it for {operation}; tf.cast the tensor to float32: TypeError: Cannot convert {} to EagerTensor of dtype {dtype}",
                w.shown(tensor_side, "a tensor"),
                article(&dtype),
                w.shown(other, "the number"),
                w.text(other.range()).trim()
            )
        }
        (None, None) => return None,
    };
    Some(Diagnostic::error(Rule::TfDtypeMismatch, message, range))
}

/// "an int32", "a float32".
fn article(dtype: &str) -> &'static str {
    if dtype.starts_with("int") {
        "an"
    } else {
        "a"
    }
}
