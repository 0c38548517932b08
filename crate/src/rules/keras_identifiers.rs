//! `keras-unknown-identifier`: a Keras layer given an activation, initializer or regularizer by
//! a name Keras does not know (`Dense(10, activation='rellu')`, `Activation('softmx')`,
//! `kernel_initializer='glorot'`): the constructor resolves the name and raises ValueError
//! "Could not interpret ... identifier". Which layers resolve which parameters, and the names
//! each family accepts, are read off the installed Keras (`keras_tables`).
//!
//! Only a string the walker knows exactly (a literal, or a name bound to one), given to a class
//! of `keras.layers` / `tensorflow.keras.layers` (Keras 2's `tf_keras` has other names). The
//! names differ across releases: certain when the kernel runs the Keras release the table was
//! read off (same minor version), silent when it runs another, likely when it did not say.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::did_you_mean::suggest;
use crate::ir::{Expr, Literal};
use crate::rules::api::{kernel_version, minor_release};
use crate::semantics::abstract_value::Val;
use crate::semantics::keras_tables::{
    ACTIVATIONS, INITIALIZERS, KERAS_VERSION, LAYER_PARAMS, REGULARIZERS,
};
use crate::semantics::signatures::misspelled;
use crate::walker::state::Walker;

/// The family of names a layer parameter takes, as Keras's error names it, and its names.
fn family(param: &str) -> Option<(&'static str, &'static str)> {
    if param.ends_with("activation") {
        Some(("activation function", ACTIVATIONS))
    } else if param.ends_with("_initializer") {
        Some(("initializer", INITIALIZERS))
    } else if param.ends_with("_regularizer") {
        Some(("regularizer", REGULARIZERS))
    } else {
        None
    }
}

/// The parameters of the `keras.layers` class `class` that resolve identifiers.
fn layer_params(class: &str) -> Option<impl Iterator<Item = &'static str>> {
    let line = LAYER_PARAMS
        .lines()
        .find(|l| l.split(' ').next() == Some(class))?;
    Some(line.split(' ').skip(1))
}

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
    let Some(class) = ["keras.layers.", "tensorflow.keras.layers."]
        .iter()
        .find_map(|p| path.strip_prefix(p))
    else {
        return;
    };
    let Some(params) = layer_params(class) else {
        return;
    };
    let params: Vec<&str> = params.collect();
    // `Activation('relu')`: its one parameter, given by position.
    let positional = (class == "Activation")
        .then(|| args.first().map(|a| ("activation", a)))
        .flatten();
    let given = keywords
        .iter()
        .filter_map(|k| Some((k.name.as_deref()?, &k.value)))
        .filter(|(name, _)| params.contains(name))
        .chain(positional);
    for (param, value) in given {
        let Some((what, names)) = family(param) else {
            continue;
        };
        let Val::Str(name) = w.eval(value) else {
            continue;
        };
        if names.split(' ').any(|n| n == name) {
            continue;
        }
        let kernel = kernel_version(w, "keras");
        let same_release = kernel.is_some_and(|v| minor_release(v) == minor_release(KERAS_VERSION));
        if kernel.is_some() && !same_release {
            continue;
        }
        // A swap of two letters (`tahn`) first: `suggest` measures common subsequences.
        let right =
            misspelled(&name, names.split(' ')).or_else(|| suggest(&name, names.split(' ')));
        let hint = right
            .map(|r| format!("; did you mean '{r}'?"))
            .unwrap_or_default();
        let runs = kernel
            .map(|v| format!(" (the kernel runs Keras {v})"))
            .unwrap_or_default();
        let mut d = Diagnostic::error(
            Rule::KerasUnknownIdentifier,
            format!(
                "{class}({param}='{name}'): Keras knows no {what} '{name}'{hint}{runs}: ValueError (Could not interpret {what} identifier: {name})"
            ),
            value.range(),
        );
        // A literal is replaced where it stands; a name bound elsewhere is not.
        if let (
            Some(right),
            Expr::Literal {
                value: Literal::Str(_),
                range,
                ..
            },
        ) = (right, value)
        {
            d = d.with_fix(Fix {
                message: format!("Use '{right}'"),
                edits: vec![Edit {
                    range: *range,
                    content: format!("'{right}'"),
                }],
                run_cells: vec![],
            });
        }
        if kernel.is_none() {
            d.make_likely(&format!(
                "the names of Keras {KERAS_VERSION}; the installed version is not known"
            ));
        }
        out.push(d);
        return;
    }
}
