//! Keras's utilities and `Sequential.add` given values they refuse.
//!
//! - `bad-arguments`: `pad_sequences` of one sequence of numbers (a flat list, a 1-D array), not
//!   a list of sequences: ValueError (`sequences` must be a list of iterables); a layer class,
//!   not an instance, added to a Sequential model (`model.add(layers.Dense)`): ValueError in
//!   Keras 3, TypeError in Keras 2.
//! - `value-conversion`: `to_categorical` of text labels that are no integers: ValueError
//!   (invalid literal for int()).

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{argument, keyword, Expr};
use crate::semantics::abstract_value::{not_an_int, ArrayLib, Val};
use crate::semantics::keras_build::keras_api;
use crate::semantics::properties::is_keras_model;
use crate::walker::state::Walker;

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
    if let Expr::Attribute { value, attr, .. } = &**func {
        if attr == "add" {
            if let ([layer], Val::Typed(model)) = (args.as_slice(), w.eval(value)) {
                out.extend(layer_class_added(w, &model, layer));
            }
        }
        return;
    }
    let Some(path) = w.lib_path(func) else {
        return;
    };
    let Some(api) = keras_api(&path) else {
        return;
    };
    match api.rsplit('.').next() {
        Some("pad_sequences") => {
            let Some(seqs) = argument(args, keywords, 0, "sequences") else {
                return;
            };
            let number = match w.eval(seqs) {
                Val::Items { items, .. } => items.iter().find_map(|v| match v {
                    Val::Int(n) => Some(n.to_string()),
                    Val::Float(x) => Some(format!("{x:?}")),
                    _ => None,
                }),
                Val::Array(a)
                    if a.lib == ArrayLib::Numpy && a.shape.len() == 1 && a.shape[0] > 0 =>
                {
                    Some("...".to_string())
                }
                _ => None,
            };
            if let Some(number) = number {
                out.push(Diagnostic::error(
                    Rule::BadArguments,
                    format!(
                        "pad_sequences takes a list of sequences, but {} is one sequence of numbers: ValueError (`sequences` must be a list of iterables. Found non-iterable: {number}); wrap it: [{}]",
                        w.shown(seqs, "the argument"),
                        w.shown(seqs, "seq")
                    ),
                    *range,
                ));
            }
        }
        Some("to_categorical") => {
            // `x` in Keras 3, `y` in Keras 2.
            let Some(labels) = argument(args, keywords, 0, "x").or_else(|| keyword(keywords, "y"))
            else {
                return;
            };
            let text = match w.eval(labels) {
                Val::Strs { items, .. } => items.into_iter().find(|s| not_an_int(s)),
                Val::Items { items, .. } => items.into_iter().find_map(|v| match v {
                    Val::Str(s) if not_an_int(&s) => Some(s),
                    _ => None,
                }),
                _ => None,
            };
            if let Some(text) = text {
                out.push(Diagnostic::error(
                    Rule::ValueConversion,
                    format!(
                        "to_categorical takes integer class indices, but {} holds the text '{text}': ValueError (invalid literal for int() with base 10: '{text}'); encode the labels first (LabelEncoder, a dict of indices)",
                        w.shown(labels, "the labels")
                    ),
                    labels.range(),
                ));
            }
        }
        _ => {}
    }
}

/// `model.add(layers.Dense)`: the class, not a layer made of it.
fn layer_class_added(w: &Walker, model: &str, layer: &Expr) -> Option<Diagnostic> {
    if !(is_keras_model(model) && model.ends_with("Sequential")) {
        return None;
    }
    let Val::Lib(path) = w.eval(layer) else {
        return None;
    };
    let class = keras_api(&path)?.strip_prefix("layers.")?;
    class.starts_with(char::is_uppercase).then(|| {
        Diagnostic::error(
            Rule::BadArguments,
            format!(
                "{} is the layer class {class}, not a layer: Sequential.add takes an instance: ValueError in Keras 3 (TypeError in Keras 2); call it: {}(...)",
                w.shown(layer, "the argument"),
                w.shown(layer, class)
            ),
            layer.range(),
        )
    })
}
