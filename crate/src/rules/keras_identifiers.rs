//! `keras-unknown-identifier`: a Keras layer given an activation, initializer or regularizer by
//! a name Keras does not know (`Dense(10, activation='rellu')`, `Activation('softmx')`,
//! `kernel_initializer='glorot'`): the constructor resolves the name and raises ValueError
//! "Could not interpret ... identifier"; a convolution given a padding it does not take
//! (`padding='full'`, `'causal'` of `Conv2D`); and a Keras model's `compile` given an optimizer
//! name Keras does not know (`optimizer='adamm'`), or a loss or metric name (`loss='msee'`,
//! `metrics=['acuracy']`: ValueError at its first `fit`). Which layers resolve which parameters,
//! and the names each family accepts, are read off the installed Keras (`keras_tables`).
//!
//! Only a string the walker knows exactly (a literal, or a name bound to one), given to a class
//! of `keras.layers` / `tensorflow.keras.layers` (Keras 2's `tf_keras` has other names). The
//! names differ across releases: certain when the kernel runs the Keras release the table was
//! read off (same minor version), silent when it runs another, likely when it did not say.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::did_you_mean::suggest;
use crate::ir::{keyword, Expr, Keyword, Literal, TextRange};
use crate::rules::api::{kernel_version, same_minor_release};
use crate::semantics::abstract_value::Val;
use crate::semantics::keras_build::keras3_api;
use crate::semantics::keras_tables::{
    ACTIVATIONS, INITIALIZERS, KERAS_VERSION, LAYER_PARAMS, LOSSES, METRICS, OPTIMIZERS, PADDINGS,
    REGULARIZERS,
};
use crate::semantics::properties::is_keras_model;
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
    if let Some(d) =
        layer_identifier(w, func, args, keywords).or_else(|| optimizer(w, func, args, keywords))
    {
        out.push(d);
    }
}

/// A `keras.layers` class given a name its parameter does not resolve.
fn layer_identifier(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let class = keras3_api(&path)?.strip_prefix("layers.")?;
    let params: Vec<&str> = layer_params(class).into_iter().flatten().collect();
    // `Activation('relu')`: its one parameter, given by position.
    let positional = (class == "Activation")
        .then(|| args.first().map(|a| ("activation", a)))
        .flatten();
    let identifier = keywords
        .iter()
        .filter_map(|k| Some((k.name.as_deref()?, &k.value)))
        .filter(|(name, _)| params.contains(name))
        .chain(positional)
        .find_map(|(param, value)| {
            let (what, names) = family(param)?;
            let error = format!("Could not interpret {what} identifier");
            unknown(
                w,
                &format!("{class}({param}="),
                value,
                what,
                names,
                &error,
                false,
            )
        });
    identifier.or_else(|| padding(w, class, keywords))
}

/// A convolution's `padding=` that is none of the names it takes (ignoring case).
fn padding(w: &Walker, class: &str, keywords: &[Keyword]) -> Option<Diagnostic> {
    let (_, names) = PADDINGS
        .lines()
        .find_map(|l| l.split_once(' ').filter(|(c, _)| *c == class))?;
    let value = keyword(keywords, "padding")?;
    let error = format!(
        "The `padding` argument must be a list/tuple or one of {{'{}'}}",
        names.replace(' ', "', '")
    );
    unknown(
        w,
        &format!("{class}(padding="),
        value,
        "padding",
        names,
        &error,
        true,
    )
}

/// `model.compile(optimizer='adamm')` of a Keras model: Keras resolves the optimizer in
/// `compile` (the loss and metrics only when `fit` first runs).
fn optimizer(w: &Walker, func: &Expr, args: &[Expr], keywords: &[Keyword]) -> Option<Diagnostic> {
    let Expr::Attribute {
        value: model, attr, ..
    } = func
    else {
        return None;
    };
    if attr != "compile" || !matches!(w.eval(model), Val::Typed(t) if is_keras_model(&t)) {
        return None;
    }
    let value = args.first().or_else(|| keyword(keywords, "optimizer"))?;
    let call = format!("{}.compile(optimizer=", w.shown(model, "model"));
    let error = "Could not interpret optimizer identifier";
    unknown(w, &call, value, "optimizer", OPTIMIZERS, error, true)
}

/// The diagnostic of `value`, given to `call` (`Dense(activation=`), when it is a string that
/// `names` (space-separated) lacks, Keras raising ValueError `error`; with the literal replaced by
/// the name it misspells.
fn unknown(
    w: &Walker,
    call: &str,
    value: &Expr,
    what: &str,
    names: &'static str,
    error: &str,
    caseless: bool,
) -> Option<Diagnostic> {
    let Val::Str(name) = w.eval(value) else {
        return None;
    };
    let shown = format!("{call}'{name}')");
    let (mut d, right) = unknown_name(
        w,
        &shown,
        &name,
        what,
        names,
        error,
        caseless,
        value.range(),
    )?;
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
        d.fix = Some(Fix::replace(
            format!("Use '{right}'"),
            *range,
            format!("'{right}'"),
        ));
    }
    Some(d)
}

/// `model.fit` of a Keras model compiled with a loss named by a string Keras does not know:
/// Keras resolves it when `fit` first runs. (Keras matches loss names by case, but for the
/// cross-entropy `compile` picks, `'ce'`: a name known in lower case is left alone.)
pub(crate) fn unknown_loss(
    w: &Walker,
    model: &str,
    loss: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    let shown = format!("{model} was compiled with loss='{loss}'");
    let error = "Could not interpret loss identifier";
    unknown_name(w, &shown, loss, "loss", LOSSES, error, true, range).map(|(d, _)| d)
}

/// `model.fit` of a Keras model compiled with `metrics=[...]` holding a string Keras does not
/// know: Keras resolves it when `fit` first runs, by case but for `accuracy` and `acc`.
pub(crate) fn unknown_metric(
    w: &Walker,
    model: &str,
    metric: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    if ["accuracy", "acc"].contains(&metric.to_lowercase().as_str()) {
        return None;
    }
    let shown = format!("{model} was compiled with metrics=['{metric}']");
    let error = "Could not interpret metric identifier";
    unknown_name(w, &shown, metric, "metric", METRICS, error, false, range).map(|(d, _)| d)
}

/// The diagnostic of `name`, given as `shown` says, when `names` lacks it (and, `caseless`, its lower
/// case); certain or likely as the kernel's Keras release says. With the name it misspells.
#[allow(clippy::too_many_arguments)]
fn unknown_name(
    w: &Walker,
    shown: &str,
    name: &str,
    what: &str,
    names: &'static str,
    error: &str,
    caseless: bool,
    range: TextRange,
) -> Option<(Diagnostic, Option<&'static str>)> {
    let lower = name.to_lowercase();
    if names
        .split(' ')
        .any(|n| n == name || caseless && n == lower)
    {
        return None;
    }
    let kernel = kernel_version(w, "keras");
    let same_release = kernel.is_some_and(|v| same_minor_release(v, KERAS_VERSION));
    if kernel.is_some() && !same_release {
        return None;
    }
    // A swap of two letters (`tahn`) first: `suggest` measures common subsequences.
    let right = misspelled(name, names.split(' ')).or_else(|| suggest(name, names.split(' ')));
    let hint = right
        .map(|r| format!("; did you mean '{r}'?"))
        .unwrap_or_default();
    let runs = kernel
        .map(|v| format!(" (the kernel runs Keras {v})"))
        .unwrap_or_default();
    let mut d = Diagnostic::error(
        Rule::KerasUnknownIdentifier,
        format!(
            "{shown}: Keras knows no {what} '{name}'{hint}{runs}: ValueError ({error}: {name})"
        ),
        range,
    );
    if kernel.is_none() {
        d.make_likely(&format!(
            "the names of Keras {KERAS_VERSION}; the installed version is not known"
        ));
    }
    Some((d, right))
}
