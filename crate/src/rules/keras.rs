//! Keras rules.
//!
//! - `keras-target-mismatch`: `model.fit` with targets whose shape the model's output and loss
//!   cannot take: one-hot targets of K classes into an output of U != K units, one-hot targets into
//!   `sparse_categorical_crossentropy`, or class indices into `categorical_crossentropy`. The
//!   model's output shape and loss come from its kernel summary (`S.output_shape`, `R.loss`), the
//!   targets from a Keras image iterator's summary (`R.class_mode`, `V.num_classes`) or from the
//!   shape of `y`. Silent for models with several outputs, custom losses, an output of one unit
//!   (mean squared error broadcasts it), and models compiled or changed in the cell.
//! - `keras-foreign-model`: a Keras utility that draws a model (`keras.utils.plot_model`,
//!   `model_to_dot`) given a PyTorch module: Keras 3 first reads `model.built`, which a
//!   `torch.nn.Module` does not have (AttributeError).

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Keyword};
use crate::summary::{Category, ObjectSummary};

use super::flow::{unpacks, Walker};
use super::value::Val;

/// What the targets look like.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Targets {
    /// One-hot rows of this many classes.
    OneHot(i64),
    /// One class index (or 0/1 label) per sample.
    Indices,
}

#[derive(Clone, Copy, PartialEq)]
enum Loss {
    Categorical,
    SparseCategorical,
    /// Binary cross-entropy, squared or absolute error, KL divergence: elementwise on shapes that
    /// must match (or broadcast).
    Elementwise,
}

fn loss_kind(name: &str) -> Option<Loss> {
    let n: String = name
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    match n.as_str() {
        "categoricalcrossentropy" | "categoricalfocalcrossentropy" => Some(Loss::Categorical),
        "sparsecategoricalcrossentropy" => Some(Loss::SparseCategorical),
        "binarycrossentropy"
        | "binaryfocalcrossentropy"
        | "mse"
        | "meansquarederror"
        | "mae"
        | "meanabsoluteerror"
        | "kld"
        | "kldivergence"
        | "kullbackleiblerdivergence" => Some(Loss::Elementwise),
        _ => None,
    }
}

/// The summary of a kernel object the cell uses as it was before the cell ran: a name the cell
/// has not rebound, nor handed to code that may have changed it.
fn kernel_object<'a>(w: &'a Walker, e: &Expr, kind: &str) -> Option<(&'a str, &'a ObjectSummary)> {
    let Expr::Name { id, .. } = e else {
        return None;
    };
    if w.bound_here.contains(id) || !matches!(w.get(id), Val::Typed(_)) {
        return None;
    }
    let (name, obj) = w.ctx.summaries?.objects.get_key_value(id)?;
    (obj.error.is_none() && obj.kind == kind).then_some((name.as_str(), obj))
}

/// The number of units of a model's single output (`[None, U]`).
fn output_units(model: &ObjectSummary) -> Option<i64> {
    match model.structural.get("output_shape")?.as_array()?.as_slice() {
        [Value::Null, u] => u.as_i64(),
        _ => None,
    }
}

fn keyword<'e>(keywords: &'e [Keyword], name: &str) -> Option<&'e Expr> {
    keywords
        .iter()
        .find(|k| k.name.as_deref() == Some(name))
        .map(|k| &k.value)
}

/// The targets of `fit(x, y)`: from an image iterator passed as `x`, or from the shape of `y`.
fn targets(w: &Walker, x: &Expr, y: Option<&Expr>) -> Option<(Targets, String)> {
    if let Some((name, it)) = kernel_object(w, x, "keras_iterator") {
        let mode = it.str_fact(Category::R, "class_mode")?;
        return match mode {
            "categorical" => {
                let k = it.int_fact(Category::V, "num_classes")?;
                Some((
                    Targets::OneHot(k),
                    format!(
                        "{name} yields one-hot targets of {k} classes (class_mode='categorical')"
                    ),
                ))
            }
            "binary" | "sparse" => Some((
                Targets::Indices,
                format!("{name} yields one class index per image (class_mode='{mode}')"),
            )),
            _ => None,
        };
    }
    let y = y?;
    let Val::Array(a) = w.eval(y) else {
        return None;
    };
    let shown = w.shown(y, "y");
    match a.shape.as_slice() {
        [_] | [_, 1] => Some((
            Targets::Indices,
            format!("{shown} has shape {:?}: one label per sample", a.shape),
        )),
        [_, k] => Some((
            Targets::OneHot(*k),
            format!(
                "{shown} has shape {:?}: one-hot rows of {k} classes",
                a.shape
            ),
        )),
        _ => None,
    }
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    target_mismatch(w, expr, out);
    foreign_model(w, expr, out);
}

/// The path of a Keras API inside its package (`utils.plot_model` for
/// `tensorflow.keras.utils.plot_model`).
fn keras_api(path: &str) -> Option<&str> {
    [
        "tensorflow.keras.",
        "tensorflow.python.keras.",
        "tf_keras.",
        "keras.",
    ]
    .iter()
    .find_map(|p| path.strip_prefix(p))
}

fn foreign_model(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        range,
    } = expr
    else {
        return;
    };
    let Some(path) = w.lib_path(func) else {
        return;
    };
    let Some(api) = keras_api(&path).filter(|a| {
        matches!(
            *a,
            "utils.plot_model"
                | "utils.model_to_dot"
                | "utils.vis_utils.plot_model"
                | "utils.vis_utils.model_to_dot"
        )
    }) else {
        return;
    };
    let Some(model) = args.first().or_else(|| keyword(keywords, "model")) else {
        return;
    };
    let Some((name, obj)) = kernel_object(w, model, "torch_module") else {
        return;
    };
    out.push(Diagnostic::error(
        "keras-foreign-model",
        format!(
            "{name} is a PyTorch module ({}), not a Keras model: keras.{api} reads `{name}.built`, \
             which a torch.nn.Module does not have: AttributeError (torchinfo.summary describes a \
             PyTorch model)",
            obj.type_name
        ),
        *range,
    ));
}

fn target_mismatch(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        range,
    } = expr
    else {
        return;
    };
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    if !matches!(attr.as_str(), "fit" | "fit_generator") || unpacks(args, keywords) {
        return;
    }
    let Some((name, model)) = kernel_object(w, value, "keras_model") else {
        return;
    };
    // Compiled again or changed in this cell: the summary's loss and output may be stale.
    let changed = w.ctx.facts.calls.iter().any(|c| {
        c.callee.as_ref().is_some_and(|p| {
            p.path.len() == 2
                && p.path[0] == name
                && !matches!(p.path[1].as_str(), "fit" | "fit_generator" | "summary")
        })
    });
    let (Some(units), Some(loss_name), false) = (
        output_units(model),
        model.str_fact(Category::R, "loss"),
        changed,
    ) else {
        return;
    };
    let Some(loss) = loss_kind(loss_name) else {
        return;
    };
    let Some(x) = args.first().or_else(|| keyword(keywords, "x")) else {
        return;
    };
    let y = args.get(1).or_else(|| keyword(keywords, "y"));
    let Some((t, why)) = targets(w, x, y) else {
        return;
    };
    let problem = match (t, loss) {
        (Targets::OneHot(k), Loss::Categorical | Loss::Elementwise) if units >= 2 && k != units => {
            format!("{why}, but {name} outputs {units} units: the shapes ({k} vs {units}) do not match for loss '{loss_name}'")
        }
        (Targets::OneHot(k), Loss::SparseCategorical) if k >= 2 => {
            format!("{why}, but loss '{loss_name}' takes class indices; use 'categorical_crossentropy' or class_mode='sparse'")
        }
        (Targets::Indices, Loss::Categorical) if units >= 2 => {
            format!("{why}, but loss '{loss_name}' takes one-hot targets for the {units} outputs; use 'sparse_categorical_crossentropy'")
        }
        _ => return,
    };
    out.push(Diagnostic::error(
        "keras-target-mismatch",
        format!("{problem}: ValueError"),
        *range,
    ));
}
