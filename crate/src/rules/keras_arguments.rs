//! `keras-layer-argument`: a `keras.layers` class given a number its constructor refuses
//! (`Dense(0)`, `Dropout(1.5)`, `Conv2D(0, 3)`, `Embedding(0, 8)`, `Dense(64 / 2)`: a float where
//! an int count is needed): ValueError (TypeError of RepeatVector) as the layer is
//! built. The bounds are read off Keras 3.15.1's constructors; Keras 2 checks fewer of them, so
//! a finding is certain with the kernel's Keras 3, silent with Keras 2, likely without a version.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{keyword, Expr, Keyword};
use crate::rules::api::kernel_version;
use crate::semantics::abstract_value::Val;
use crate::semantics::keras_build::keras3_api;
use crate::walker::state::Walker;

/// What a parameter must be.
#[derive(Clone, Copy)]
enum Bound {
    /// A number of 1 or more (`filters`, an LSTM's `units`).
    Positive,
    /// An int above 0, a float refused even when whole (`Dense(64 / 2)`).
    Count,
    /// A number from 0 to 1 (`rate`).
    Fraction,
    /// A number of 0 or more (`negative_slope`).
    NonNegative,
}

const DROPOUTS: &[&str] = &[
    "Dropout",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
    "GaussianDropout",
    "AlphaDropout",
];
const CONVOLUTIONS: &[&str] = &[
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "Conv1DTranspose",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "SeparableConv1D",
    "SeparableConv2D",
];
const POOLINGS: &[&str] = &[
    "MaxPooling1D",
    "MaxPooling2D",
    "MaxPooling3D",
    "AveragePooling1D",
    "AveragePooling2D",
    "AveragePooling3D",
];

/// The classes, the parameter, its position, and its bound.
const BOUNDS: &[(&[&str], &str, usize, Bound)] = &[
    (&["Dense", "GRU", "SimpleRNN"], "units", 0, Bound::Count),
    (&["LSTM"], "units", 0, Bound::Positive),
    (DROPOUTS, "rate", 0, Bound::Fraction),
    (CONVOLUTIONS, "filters", 0, Bound::Positive),
    (CONVOLUTIONS, "kernel_size", 1, Bound::Positive),
    (POOLINGS, "pool_size", 0, Bound::Positive),
    (&["Embedding"], "input_dim", 0, Bound::Count),
    (&["Embedding"], "output_dim", 1, Bound::Count),
    (&["RepeatVector"], "n", 0, Bound::Count),
    (&["MultiHeadAttention"], "num_heads", 0, Bound::Count),
    (&["LeakyReLU"], "negative_slope", 0, Bound::NonNegative),
];

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = expr
    else {
        return;
    };
    let Some(path) = w.lib_path(func) else {
        return;
    };
    let Some(class) = keras3_api(&path).and_then(|api| api.strip_prefix("layers.")) else {
        return;
    };
    // (The kernel's version is looked up only for a finding.)
    let Some(mut d) = refused(w, class, args, keywords) else {
        return;
    };
    match kernel_version(w, "keras") {
        Some(v) if !v.starts_with("3.") => {}
        Some(_) => out.push(d),
        None => {
            d.make_likely("Keras 3 refuses it; the installed version is not known");
            out.push(d);
        }
    }
}

/// The first argument of `class` outside its bound.
fn refused(w: &Walker, class: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Diagnostic> {
    BOUNDS
        .iter()
        .filter(|(classes, ..)| classes.contains(&class))
        .find_map(|&(_, param, at, bound)| {
            let value = args.get(at).or_else(|| keyword(keywords, param))?;
            let (number, shown, float) = match w.eval(value) {
                Val::Int(n) => (n as f64, n.to_string(), false),
                Val::Float(x) => (x, format!("{x:?}"), true),
                _ => return None,
            };
            let (fits, needs) = match bound {
                Bound::Positive => (number >= 1.0, "a positive integer"),
                Bound::Count if float => (
                    false,
                    "a positive int, not a float (even a whole one: use // or int())",
                ),
                Bound::Count => (number >= 1.0, "a positive integer"),
                Bound::Fraction => ((0.0..=1.0).contains(&number), "a number from 0 to 1"),
                Bound::NonNegative => (number >= 0.0, "0 or more"),
            };
            // RepeatVector checks the type first.
            let error = if float && class == "RepeatVector" {
                "TypeError"
            } else {
                "ValueError"
            };
            (!fits).then(|| {
                Diagnostic::error(
                    Rule::KerasLayerArgument,
                    format!(
                        "{class}'s `{param}` must be {needs}, not {shown}: {error} as the layer is built"
                    ),
                    value.range(),
                )
            })
        })
}
