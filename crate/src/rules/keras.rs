//! Keras rules.
//!
//! - `keras-target-mismatch`: `model.fit` with targets whose shape the model's output and loss
//!   cannot take: one-hot targets of K classes into an output of U != K units, one-hot targets into
//!   `sparse_categorical_crossentropy`, or class indices into `categorical_crossentropy`. The
//!   model's output shape and loss come from its kernel summary (`S.output_shape`, `R.loss`) or,
//!   when the summary does not describe the model, from the code of the executed cells that built
//!   and compiled it (`keras_build`); the
//!   targets from a Keras image iterator's summary (`R.class_mode`, `V.num_classes`) or from the
//!   shape of `y`. Silent for models with several outputs, custom losses, an output of one unit
//!   (mean squared error broadcasts it), and models compiled or changed in the cell.
//! - `keras-input-mismatch`: `model.fit` / `evaluate` / `predict` (and their `*_on_batch`) with data whose shape the
//!   model's inputs reject: an axis of fixed size that differs (`expected shape=(None, 50), found
//!   shape=(None, 172)`). The inputs come from the kernel summary (`S.input_shape`) or the code
//!   that built the model (`keras_build`: `keras.Input`s, with their names for a dict of data); the
//!   data from an array's or frame's shape, or a dict's `S.value_shapes`. Only Functional models
//!   (which check every input) and Sequential models whose first layer is `Dense` on
//!   `(batch, features)`; silent when an axis of size 1 may be squeezed.
//! - `missing-key` (Keras's share): `history.history['val_accuracy']` of the `History` that
//!   `model.fit` returned when the model's code logs no such key: the metrics `compile` named by
//!   strings, and their `val_` twins only when `fit` was given validation data.
//! - `keras-foreign-model`: a Keras utility that draws a model (`keras.utils.plot_model`,
//!   `model_to_dot`) given a PyTorch module: Keras 3 first reads `model.built`, which a
//!   `torch.nn.Module` does not have (AttributeError).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde_json::Value;

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::ir::{keyword, Expr, Keyword, Stmt, Target, TextRange};
use crate::summary::{Category, ObjectSummary};

use crate::ir_scan::unpacks;
use crate::rules::keras_identifiers;
use crate::semantics::abstract_value::{not_a_float, DictKey, Val};
use crate::semantics::keras_build::{
    self, dims_text, keras_api, Built, BuiltModel, Dims, ModelEffect,
};
use crate::walker::history::{cell_effects, cell_rule_facts, HistoryState};
use crate::walker::state::Walker;

/// What the targets look like.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Targets {
    /// One-hot rows of this many classes.
    OneHot(i64),
    /// One class index (or 0/1 label) per sample; the smallest and largest, when known.
    Indices(Option<(i64, i64)>),
}

#[derive(Clone, Copy, PartialEq)]
enum Loss {
    Categorical,
    SparseCategorical,
    /// Binary cross-entropy, squared or absolute error, KL divergence: elementwise on shapes that
    /// must match (or broadcast).
    Elementwise,
}

/// A loss's name as Keras matches it: `CategoricalCrossentropy` and `categorical_crossentropy`
/// are one loss.
fn loss_kind_name(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

fn loss_kind(name: &str) -> Option<Loss> {
    match loss_kind_name(name).as_str() {
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
    // (A PyTorch layer or loss is followed as such.)
    if w.bound_here.contains(id)
        || !matches!(w.get(id), Val::Typed(_) | Val::Torch(_) | Val::Loss(_))
    {
        return None;
    }
    let (name, obj) = w.ctx.summaries?.objects.get_key_value(id)?;
    (obj.error.is_none() && obj.kind == kind).then_some((name.as_str(), obj))
}

/// Does the kernel's summary describe the model (and not only name its class)? Then its facts
/// stand, and the code that built the model is not consulted.
fn summarized(model: &ObjectSummary) -> bool {
    [Category::S, Category::R, Category::V].iter().any(|c| {
        ["input_shape", "output_shape", "loss", "compiled", "layers"]
            .iter()
            .any(|k| model.facts(*c).contains_key(*k))
    })
}

/// A Keras model the cell calls, as it was before the cell ran (or, built in the cell, before
/// the statement that calls it).
struct Model<'a> {
    name: String,
    /// Its kernel summary, when the kernel described it (not only named its class).
    summary: Option<&'a ObjectSummary>,
    /// What the code built, when the kernel's summary does not describe it.
    built: Option<std::borrow::Cow<'a, BuiltModel>>,
}

/// What the history and the target cell's statements before the one holding `e` tell, when
/// `e` is part of a plain statement of the cell's top level, or of the body of a top-level `for`
/// loop or `with` block with no jump before it (the loop's first pass: its iterable, or the
/// block's context expressions, then the body's statements before, ran once, in order, just
/// before; no branch or function between). The walker walks no `with` body that swallows
/// errors.
fn state_before(w: &Walker, e: &Expr) -> Option<Rc<HistoryState>> {
    if !w.calls.is_empty() || w.rebound_all || !keras_in_reach(w) {
        return None;
    }
    let range = e.range();
    let holds = |s: &Stmt| {
        let r = s.range();
        r.start <= range.start && range.end <= r.end
    };
    let plain = |s: &Stmt| matches!(s, Stmt::Assign { .. } | Stmt::Expr { .. });
    let at = w.ctx.body.iter().position(holds)?;
    let (targets, header, body): (Vec<&Target>, Vec<&Expr>, _) = match &w.ctx.body[at] {
        s if plain(s) => return Some(top_state_before(w, at)),
        Stmt::For {
            target, iter, body, ..
        } => (vec![target], vec![iter], body),
        Stmt::With { items, body, .. } => (
            items.iter().filter_map(|(_, t)| t.as_ref()).collect(),
            items.iter().map(|(e, _)| e).collect(),
            body,
        ),
        _ => return None,
    };
    let k = body.iter().position(holds)?;
    if !plain(&body[k]) || crate::ir_scan::contains_jump(&body[..k]) {
        return None;
    }
    let mut state = HistoryState::clone(&top_state_before(w, at));
    let mut bound = BTreeSet::new();
    for target in targets {
        crate::ir_scan::target_names(target, &mut bound, false);
    }
    for name in &bound {
        state.keras.remove(name);
    }
    let before: Vec<Stmt> = header
        .into_iter()
        .map(|e| Stmt::Expr {
            value: e.clone(),
            range: e.range(),
        })
        .chain(body[..k].iter().cloned())
        .collect();
    let facts = crate::facts::cell_facts(&before);
    state.run(
        &cell_rule_facts(&before, w.ctx.source),
        &cell_effects(&before, w.ctx.source, &facts),
    );
    Some(Rc::new(state))
}

/// The state before the top-level statement `at` of the cell, from the latest one computed
/// before it (the statements run in order).
fn top_state_before(w: &Walker, at: usize) -> Rc<HistoryState> {
    let (from, mut state) = match w.states_before.borrow().range(..=at).next_back() {
        Some((&i, state)) if i == at => return Rc::clone(state),
        Some((&i, state)) => (i, HistoryState::clone(state)),
        None => (0, keras_history(w)),
    };
    let between = &w.ctx.body[from..at];
    let facts = crate::facts::cell_facts(between);
    state.run(
        &cell_rule_facts(between, w.ctx.source),
        &cell_effects(between, w.ctx.source, &facts),
    );
    let state = Rc::new(state);
    w.states_before.borrow_mut().insert(at, Rc::clone(&state));
    state
}

/// Could the cell build a Keras model: Keras or TensorFlow imported by a cell that ran, Keras
/// values known, or the cell naming them. Replaying the cell's statements costs time in
/// proportion to the cell; a notebook without Keras need not pay it.
fn keras_in_reach(w: &Walker) -> bool {
    *w.keras_in_reach.get_or_init(|| {
        let keras_path = |p: &str| {
            ["keras", "tensorflow", "tf_keras"]
                .iter()
                .any(|lib| keras_build::within_module(p, lib))
        };
        let history = w.ctx.history;
        !history.keras_star.is_empty()
            || !history.keras.is_empty()
            || history.imports.values().any(|v| match v {
                Val::Module(Some(p)) | Val::Lib(p) => keras_path(p),
                _ => false,
            })
            || w.ctx.source.contains("keras")
            || w.ctx.source.contains("tensorflow")
    })
}

/// The part of the history that Keras's code reads in the target cell: the imports, functions
/// and Keras values of the names the cell mentions, and of the names the notebook's functions
/// it mentions do (transitively). (A copy of the whole history per statement would cost as much
/// as the notebook is long.)
fn keras_history(w: &Walker) -> HistoryState {
    let history = w.ctx.history;
    let mut names: BTreeSet<String> = BTreeSet::new();
    crate::ir_scan::for_each_expr(w.ctx.body, &mut |e| {
        if let Expr::Name { id, .. } = e {
            names.insert(id.clone());
        }
    });
    for (_, mentions) in &w.ctx.cell.function_mentions {
        names.extend(mentions.iter().cloned());
    }
    let mut pending: Vec<String> = names.iter().cloned().collect();
    while let Some(name) = pending.pop() {
        for m in history.function_mentions.get(&name).into_iter().flatten() {
            if names.insert(m.clone()) {
                pending.push(m.clone());
            }
        }
    }
    fn pick<V: Clone>(map: &BTreeMap<String, V>, names: &BTreeSet<String>) -> BTreeMap<String, V> {
        crate::ordered::map_of(
            names
                .iter()
                .filter_map(|n| Some((n.clone(), map.get(n)?.clone()))),
        )
    }
    HistoryState {
        imports: pick(&history.imports, &names),
        functions: pick(&history.functions, &names),
        keras: pick(&history.keras, &names),
        keras_star: history.keras_star.clone(),
        global_names: history.global_names.clone(),
        function_mentions: pick(&history.function_mentions, &names),
        ..HistoryState::default()
    }
}

/// The model `e` names, unless the cell may have rebound or changed it before: described by its
/// kernel summary, or by the code that built it (of the class the kernel reports, or, for a name
/// the kernel did not summarize, the code alone).
fn model<'a>(w: &'a Walker, e: &Expr) -> Option<Model<'a>> {
    let Expr::Name { id, .. } = e else {
        return None;
    };
    let name = id.clone();
    if let Some((_, obj)) = kernel_object(w, e, "keras_model") {
        if changed_in_cell(w, id) {
            return None;
        }
        if summarized(obj) {
            return Some(Model {
                name,
                summary: Some(obj),
                built: None,
            });
        }
        return match w.ctx.history.global(id)? {
            Built::Model(b) if obj.type_name.rsplit('.').next() == Some(b.class) => Some(Model {
                name,
                summary: None,
                built: Some(std::borrow::Cow::Borrowed(b)),
            }),
            _ => None,
        };
    }
    if w.bound_here.contains(id) {
        // Built by the cell's own statements before this one.
        return match state_before(w, e)?.global(id)? {
            Built::Model(b) => Some(Model {
                name,
                summary: None,
                built: Some(std::borrow::Cow::Owned(b.clone())),
            }),
            _ => None,
        };
    }
    let summarized_elsewhere = w.ctx.summaries.is_some_and(|d| d.objects.contains_key(id));
    if summarized_elsewhere
        || w.rebound_all
        || w.ctx.kernel_names.is_some_and(|names| !names.contains(id))
        || touched_in_cell(w, w.ctx.body, id)
    {
        return None;
    }
    match w.ctx.history.global(id)? {
        Built::Model(b) => Some(Model {
            name,
            summary: None,
            built: Some(std::borrow::Cow::Borrowed(b)),
        }),
        _ => None,
    }
}

/// May the statements change the model `name` (see `keras_build::statement_effects`)?
fn touched_in_cell(w: &Walker, stmts: &[Stmt], name: &str) -> bool {
    stmts.iter().any(|s| {
        let effects = keras_build::statement_effects(s);
        effects.iter().any(|e| match e {
            ModelEffect::Touched(n) | ModelEffect::Method(n, _) => n == name,
            ModelEffect::Reads(f) => w.function_mentions(f).iter().any(|m| m == name),
            ModelEffect::Fed(_) | ModelEffect::ListTouched(_) | ModelEffect::LogsChanged(_) => {
                false
            }
        })
    })
}

/// Has the cell compiled or changed the model (a method other than these)? Then the summary's
/// facts may be stale.
fn changed_in_cell(w: &Walker, name: &str) -> bool {
    w.ctx.facts.calls.iter().any(|c| {
        c.callee.as_ref().is_some_and(|p| {
            p.path.len() == 2
                && p.path[0] == name
                && p.path[1] != "summary"
                && !keras_build::FEEDS_MODEL.contains(&p.path[1].as_str())
        })
    })
}

/// The number of units of a model's single output (`[None, U]`) and its loss.
fn output_and_loss(m: &Model) -> (Option<i64>, Option<String>) {
    if let Some(model) = m.summary {
        let units = match model
            .structural
            .get("output_shape")
            .and_then(Value::as_array)
        {
            Some(shape) => match shape.as_slice() {
                [Value::Null, u] => u.as_i64(),
                _ => None,
            },
            None => None,
        };
        return (
            units,
            model.str_fact(Category::R, "loss").map(str::to_string),
        );
    }
    let Some(built) = &m.built else {
        return (None, None);
    };
    let units = match built.output.as_deref() {
        Some([None, Some(u)]) => Some(*u),
        _ => None,
    };
    (units, built.loss.clone())
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
                Targets::Indices(None),
                format!("{name} yields one class index per image (class_mode='{mode}')"),
            )),
            _ => None,
        };
    }
    let y = y?;
    let shown = w.shown(y, "y");
    let a = match w.eval(y) {
        Val::Array(a) => a,
        // A pandas Series: one value per row.
        Val::Series(_) => {
            return Some((
                Targets::Indices(None),
                format!("{shown} is a Series: one label per sample"),
            ))
        }
        _ => return None,
    };
    match a.shape.as_slice() {
        [_] | [_, 1] => Some((
            Targets::Indices(a.int_bounds),
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
    input_mismatch(w, expr, out);
    foreign_model(w, expr, out);
    not_compiled(w, expr, out);
    build_rank(w, expr, out);
    shape_not_a_shape(w, expr, out);
    unknown_compiled_name(w, expr, out);
    missing_log_key(w, expr, out);
}

/// An input shape given as a number, not a tuple: `keras.Input(784)`, `InputLayer(shape=4)`, or
/// the first layer of a `Sequential` model declaring `input_shape=4` (given to any other layer,
/// Keras ignores it). Keras 3 reads a shape only from a tuple or list: ValueError "Cannot
/// convert '784' to a shape".
fn shape_not_a_shape(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = expr
    else {
        return;
    };
    let path = w.lib_path(func);
    let Some(api) = path.as_deref().and_then(keras_build::keras3_api) else {
        // `model.add(layer)` on a Sequential model the code built with no layer yet.
        let (Expr::Attribute { value, attr, .. }, [layer]) = (&**func, args.as_slice()) else {
            return;
        };
        let Expr::Name { id, .. } = &**value else {
            return;
        };
        // (As the statement runs: the cell's statements before it may have added layers.)
        let empty = attr == "add"
            && state_before(w, expr)
                .is_some_and(|s| matches!(s.global(id), Some(Built::Model(m)) if m.is_empty()));
        if let Some((shape, dense)) = empty.then(|| declared_shape(w, layer)).flatten() {
            number_shape(w, shape, dense, out);
        }
        return;
    };
    let shape = match api.strip_prefix("layers.").unwrap_or(api) {
        "Input" => args.first().or_else(|| keyword(keywords, "shape")),
        "InputLayer" => keyword(keywords, "shape").or_else(|| keyword(keywords, "input_shape")),
        "Sequential" | "models.Sequential" => {
            let layers = args.first().or_else(|| keyword(keywords, "layers"));
            let first = match layers {
                Some(Expr::Seq { elts, .. }) => elts.first(),
                _ => None,
            };
            if let Some((shape, dense)) = first.and_then(|l| declared_shape(w, l)) {
                number_shape(w, shape, dense, out);
            }
            return;
        }
        _ => None,
    };
    if let Some(shape) = shape {
        number_shape(w, shape, true, out);
    }
}

/// The `input_shape=` a layer of `keras.layers` (not an input layer) declares, and whether it is
/// a `Dense` layer (which takes the features as one dimension).
fn declared_shape<'e>(w: &Walker, layer: &'e Expr) -> Option<(&'e Expr, bool)> {
    let Expr::Call { func, keywords, .. } = layer else {
        return None;
    };
    let path = w.lib_path(func)?;
    let class = keras_build::keras3_api(&path)?.strip_prefix("layers.")?;
    if matches!(class, "Input" | "InputLayer") {
        return None;
    }
    Some((keyword(keywords, "input_shape")?, class == "Dense"))
}

/// The diagnostic of a shape argument that is a number (certain with the kernel's Keras 3,
/// likely without a version, silent with Keras 2); with the one-dimension tuple as its fix where
/// the layer takes one (an input or a `Dense` layer).
fn number_shape(w: &Walker, shape: &Expr, one_dimension: bool, out: &mut Vec<Diagnostic>) {
    let number = match w.eval(shape) {
        Val::Int(n) => n.to_string(),
        Val::Float(x) => x.to_string(),
        _ => return,
    };
    let version = crate::rules::api::kernel_version(w, "keras");
    if version.is_some_and(|v| !v.starts_with("3.")) {
        return;
    }
    let text = w.text(shape.range());
    let mut d = Diagnostic::error(
        Rule::KerasInputMismatch,
        format!(
            "the input shape `{text}` is a number, not a tuple of dimensions: ValueError (Cannot \
             convert '{number}' to a shape)"
        ),
        shape.range(),
    );
    if one_dimension {
        d = d.with_fix(Fix {
            message: format!("Use the tuple `({text},)`"),
            edits: vec![Edit {
                range: shape.range(),
                content: format!("({text},)"),
            }],
            run_cells: Vec::new(),
        });
    }
    if version.is_none() {
        d.make_likely("Keras 3 refuses it; the installed version is not known");
    }
    out.push(d);
}

/// `history.history['val_accuracy']` (or `logs = history.history; logs['acc']`) where the logs of
/// `model.fit(...)` lack the key: KeyError.
fn missing_log_key(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Subscript { value, index, .. } = expr else {
        return;
    };
    // The logs first: most subscripts are of no History, and their key need not be evaluated.
    let logs = match &**value {
        Expr::Attribute {
            value: history,
            attr,
            ..
        } if attr == "history" => logged_keys(w, history, false),
        name => logged_keys(w, name, true),
    };
    let Some(logs) = logs else {
        return;
    };
    let Some(DictKey::Str(key)) = DictKey::of(&w.eval(index)) else {
        return;
    };
    // Keras 2 logs a metric a string names by its class's name in lower case (`'AUC'` as `auc`).
    if logs.iter().any(|k| k.eq_ignore_ascii_case(&key)) {
        return;
    }
    let why = match key.strip_prefix("val_") {
        Some(metric) if logs.iter().any(|k| k.eq_ignore_ascii_case(metric)) => {
            "`fit` was given no validation data (`validation_data=` or `validation_split=`)"
        }
        _ => "`compile` named no such metric (the logs hold `loss` and the metrics named in `metrics=`)",
    };
    let keys: Vec<&str> = logs.iter().map(String::as_str).collect();
    let mut diagnostic = Diagnostic::error(
        Rule::MissingKey,
        format!(
            "{} has no key '{key}': {why}; its keys: {}: KeyError",
            w.shown(value, "the training logs"),
            keys.iter()
                .map(|k| format!("'{k}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        index.range(),
    );
    // A literal key has a close one to use instead: a near spelling, or the one it abbreviates
    // (`'acc'` for `'accuracy'`, as Keras logged it before 2.3).
    let abbreviated = || {
        let mut longer = keys.iter().copied().filter(|k| k.starts_with(key.as_str()));
        longer.next().filter(|_| longer.next().is_none())
    };
    let close = crate::did_you_mean::suggest(&key, keys.iter().copied()).or_else(abbreviated);
    if let (Some(close), Some(_)) = (close, index.as_str_literal()) {
        diagnostic = diagnostic.with_fix(Fix {
            message: format!("Use '{close}'"),
            edits: vec![Edit {
                range: index.range(),
                content: format!("'{close}'"),
            }],
            run_cells: Vec::new(),
        });
    }
    out.push(diagnostic);
}

/// The keys of the training logs `e` holds where the cell reads it: a `History` (`logs` false)
/// or its `history` dict (`logs` true) that the cell's own statements before bound, else the cells
/// that ran, unless the kernel summarized the name or the cell may change it first.
fn logged_keys(w: &Walker, e: &Expr, logs: bool) -> Option<BTreeSet<String>> {
    let Expr::Name { id, .. } = e else {
        return None;
    };
    let keys = |b: &Built| match (b, logs) {
        (Built::History(keys), false) | (Built::HistoryLogs(keys), true) => Some(keys.clone()),
        _ => None,
    };
    if w.bound_here.contains(id) {
        // Only `fit` makes a History: no need to follow the cell otherwise.
        let fits = w
            .ctx
            .facts
            .calls
            .iter()
            .any(|c| c.method.as_deref() == Some("fit"));
        return fits.then(|| state_before(w, e)?.global(id).and_then(keys))?;
    }
    let keys = keys(w.ctx.history.global(id)?)?;
    // The statements of the cell that run before `e` is read: a simple statement holding `e`
    // reads it before its calls may change it; a loop or block holding it may run again.
    let before: Vec<Stmt> = w
        .ctx
        .body
        .iter()
        .take_while(|s| s.range().start <= e.range().start)
        .filter(|s| {
            s.range().end <= e.range().start
                || !matches!(s, Stmt::Assign { .. } | Stmt::Expr { .. })
        })
        .cloned()
        .collect();
    let summarized = w.ctx.summaries.is_some_and(|d| d.objects.contains_key(id));
    let unknown = summarized
        || w.rebound_all
        || w.ctx.kernel_names.is_some_and(|names| !names.contains(id))
        || before.iter().any(|s| {
            keras_build::statement_effects(s).iter().any(|e| match e {
                ModelEffect::LogsChanged(n) => n == id,
                ModelEffect::Reads(f) => w.function_mentions(f).iter().any(|m| m == id),
                _ => false,
            })
        });
    (!unknown).then_some(keys)
}

/// `fit` of a model whose code compiled it with a loss or a metric named by a string Keras does
/// not know.
fn unknown_compiled_name(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call { func, range, .. } = expr else {
        return;
    };
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    if attr != "fit" {
        return;
    }
    let Some(built) = model(w, value).and_then(|m| m.built) else {
        return;
    };
    let name = w.shown(value, "model");
    let loss = built.loss.as_deref().filter(|_| built.loss_named);
    let unknown = loss
        .and_then(|loss| keras_identifiers::unknown_loss(w, name, loss, *range))
        .or_else(|| {
            built
                .metrics_named
                .iter()
                .find_map(|metric| keras_identifiers::unknown_metric(w, name, metric, *range))
        });
    out.extend(unknown);
}

/// `fit` / `evaluate` / `train_on_batch` of a model never compiled: Keras raises before it
/// looks at the data (Keras 3: ValueError "You must call `compile()` before using the model";
/// tf.keras 2: RuntimeError). `predict` needs no compile.
fn not_compiled(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call { func, range, .. } = expr else {
        return;
    };
    let Expr::Attribute { value, attr, .. } = &**func else {
        return;
    };
    if !matches!(
        attr.as_str(),
        "fit"
            | "fit_generator"
            | "evaluate"
            | "evaluate_generator"
            | "train_on_batch"
            | "test_on_batch"
    ) {
        return;
    }
    let Some(m) = model(w, value) else {
        return;
    };
    let compiled = match (m.summary, &m.built) {
        (Some(obj), _) => obj
            .facts(Category::V)
            .get("compiled")
            .and_then(Value::as_bool),
        (None, Some(built)) => Some(built.compiled),
        _ => None,
    };
    if compiled == Some(false) {
        out.push(Diagnostic::error(
            Rule::KerasNotCompiled,
            format!(
                "{} was never compiled: `{attr}` needs a loss and an optimizer; call `{}.compile(optimizer=..., loss=...)` first: ValueError (You must call `compile()` before using the model; RuntimeError in tf.keras 2)",
                m.name, m.name
            ),
            *range,
        ));
    }
}

/// May `expr` build Keras layers or models: it calls a Keras API, or (Keras imported) adds to
/// a model or calls a function of the notebook? (Spares the other statements the replay of the
/// cell's statements before them.)
fn may_build_keras(w: &Walker, expr: &Expr) -> bool {
    /// (keras calls, other calls) in `e` and its sub-expressions.
    fn calls(w: &Walker, e: &Expr, found: &mut (bool, bool)) {
        if let Expr::Call { func, .. } = e {
            match w.lib_path(func) {
                Some(path) if keras_api(&path).is_some() => found.0 = true,
                _ => found.1 = true,
            }
        }
        e.for_each_child(|c| calls(w, c, found));
    }
    let mut found = (false, false);
    calls(w, expr, &mut found);
    let (keras_call, other_call) = found;
    let keras_imported = w.ctx.history.imports.values().any(|v| match v {
        Val::Lib(p) | Val::Module(Some(p)) => keras_build::in_keras_package(p) || p == "tensorflow",
        _ => false,
    }) || !w.ctx.history.keras_star.is_empty();
    keras_call || (other_call && keras_imported)
}

/// A statement of the cell's top level that builds a Keras model or calls a layer on a
/// tensor: Keras builds each layer on its input as it goes and raises when a layer's
/// `input_spec` rejects the rank (`Sequential([Input((10,)), LSTM(8)])`, `LSTM(8)(Dense(4)(x))`,
/// `model.add(Conv2D(...))` after a `Flatten`).
fn build_rank(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Call { func, args, .. } = expr else {
        return;
    };
    // The whole value of a statement of the top level, or of a top-level loop or `with` body
    // (`state_before` follows those).
    let is_whole = |s: &Stmt| match s {
        Stmt::Assign {
            value: Some(v),
            op: crate::ir::AssignOp::Plain,
            ..
        }
        | Stmt::Expr { value: v, .. } => v.range() == expr.range(),
        _ => false,
    };
    let whole = w.ctx.body.iter().any(|s| match s {
        Stmt::For { body, .. } | Stmt::With { body, .. } => body.iter().any(is_whole),
        s => is_whole(s),
    });
    if !whole || !may_build_keras(w, expr) {
        return;
    }
    let Some(state) = state_before(w, expr) else {
        return;
    };
    let why = match (&**func, args.as_slice()) {
        // `model.add(layer)` on a model the code built.
        (Expr::Attribute { value, attr, .. }, [_]) if attr == "add" => {
            let Expr::Name { id, .. } = &**value else {
                return;
            };
            let Some(Built::Model(m)) = state.global(id) else {
                return;
            };
            keras_build::added_layer_problem(m, expr, &*state)
        }
        _ => match keras_build::eval_global(expr, &*state) {
            Some(Built::Invalid(why)) => Some(why),
            _ => None,
        },
    };
    if let Some(why) = why {
        out.push(Diagnostic::error(
            Rule::KerasInputMismatch,
            format!("{why}: ValueError (the input is incompatible with the layer)"),
            expr.range(),
        ));
    }
}

/// The inputs a model checks the shapes of when called, in order, with their names when known.
fn checked_inputs(m: &Model) -> Option<Vec<(Option<String>, Dims)>> {
    let Some(model) = m.summary else {
        let inputs = m.built.as_ref()?.inputs.as_ref()?;
        return Some(
            inputs
                .iter()
                .map(|t| (t.name.clone(), t.dims.clone()))
                .collect(),
        );
    };
    // One input (a model of several gives a list of shapes, which `json_dims` rejects).
    let dims = json_dims(model.structural.get("input_shape")?)?;
    let first_layer = model
        .representation
        .get("layers")
        .and_then(|l| l.get(0)?.get("class")?.as_str());
    let checks = match model.type_name.rsplit('.').next()? {
        "Functional" => true,
        "Sequential" => first_layer == Some("Dense") && dims.len() == 2,
        _ => false,
    };
    checks.then(|| vec![(None, dims)])
}

/// Data of text given to the model `m`: a frame with a text column as `x` when its first layer
/// takes numbers (a layer of `keras_build::RANKED`: no text layer or string input comes first),
/// or a frame or Series with text as the targets `y`, which a loss compares with numbers.
fn text_data(
    w: &Walker,
    m: &Model,
    method: &str,
    args: &[Expr],
    keywords: &[Keyword],
    x: &Expr,
) -> Option<Diagnostic> {
    let takes_targets = matches!(
        method,
        "fit" | "evaluate" | "train_on_batch" | "test_on_batch"
    );
    let y = args
        .get(1)
        .or_else(|| keyword(keywords, "y"))
        .filter(|_| takes_targets);
    let numbers_in = first_layer(m).is_some();
    let text = |e: &Expr| match w.eval(e) {
        Val::Frame(f) => f
            .non_numeric_column()
            .map(|(col, example)| format!("column '{col}' holds strings such as '{example}'")),
        Val::Series(s) => {
            let example = s.str_examples.iter().find(|t| not_a_float(t))?;
            Some(format!("it holds strings such as '{example}'"))
        }
        // A list or array of texts.
        Val::Strs { items, .. } => {
            let example = items.iter().find(|t| not_a_float(t))?;
            Some(format!("it holds strings such as '{example}'"))
        }
        _ => None,
    };
    let (data, what, problem) = [(Some(x).filter(|_| numbers_in), "data"), (y, "targets")]
        .into_iter()
        .find_map(|(e, what)| Some((e?, what, text(e?)?)))?;
    Some(Diagnostic::error(
        Rule::KerasTextInput,
        format!(
            "`{}.{method}` gets {} as its {what}, and {problem}: Keras converts the {what} to float tensors: ValueError; encode the text first (pd.get_dummies, a StringLookup layer)",
            m.name,
            w.shown(data, "the frame"),
        ),
        data.range(),
    ))
}

/// A Sequential model's first layer, when of `keras_build::RANKED`, and its input shape.
fn first_layer(m: &Model) -> Option<(&'static str, Dims)> {
    let Some(model) = m.summary else {
        return m.built.as_ref()?.first_layer.clone();
    };
    if model.type_name.rsplit('.').next()? != "Sequential" {
        return None;
    }
    let class = model
        .representation
        .get("layers")
        .and_then(|l| l.get(0)?.get("class")?.as_str())?;
    let (class, _, _) = keras_build::RANKED.iter().find(|(c, _, _)| *c == class)?;
    Some((class, json_dims(model.structural.get("input_shape")?)?))
}

/// Why data of shape `data` cannot go into the first layer `class` declared on `input`, when
/// certain in Keras 2 and 3 alike: fewer axes than the layer takes (more, for a recurrent
/// layer), or another size of the last axis, on which the layer's weights were built. Keras
/// adds or drops a last axis of size 1 to match the input's rank.
fn rank_misfit(class: &str, input: &[Option<i64>], data: &[Option<i64>]) -> Option<String> {
    let (_, rank, exact) = keras_build::RANKED.iter().find(|(c, _, _)| *c == class)?;
    if input.len() != *rank {
        return None;
    }
    let (n, r) = (input.len(), data.len());
    if rank_adjusted(input, data) {
        return None;
    }
    if r < n || (*exact && r != n) {
        return Some(format!(
            "{class} takes {}{n}-D inputs (the batch axis included), not {r}-D",
            if *exact { "" } else { "at least " }
        ));
    }
    match (input.last(), data.last()) {
        // (Of the same rank, no axis is added or dropped: a size of 1 must match too. Dense
        // given more axes checks the last one too: tf.keras 2 by its input spec, Keras 3 by the
        // model's rank.)
        (Some(Some(a)), Some(Some(b))) if (r == n || class == "Dense") && a != b => Some(format!(
            "the last axis is {b}, but the layer was built for {a}"
        )),
        _ => None,
    }
}

/// `[null, 50]` -> `[None, Some(50)]`.
fn json_dims(v: &Value) -> Option<Dims> {
    v.as_array()?
        .iter()
        .map(|d| {
            if d.is_null() {
                Some(None)
            } else {
                d.as_i64().map(Some)
            }
        })
        .collect()
}

/// A Functional model (which checks the rank of each input when called).
fn functional(m: &Model) -> bool {
    match (m.summary, &m.built) {
        (Some(obj), _) => obj.type_name.rsplit('.').next() == Some("Functional"),
        (None, Some(b)) => b.class == "Functional",
        _ => false,
    }
}

/// Does Keras add or drop a last axis of size 1 to give `data` the rank of `input`?
fn rank_adjusted(input: &[Option<i64>], data: &[Option<i64>]) -> bool {
    let (n, r) = (input.len(), data.len());
    (r + 1 == n && input.last() == Some(&Some(1))) || (r == n + 1 && data.last() == Some(&Some(1)))
}

/// Do the ranks of `input` and `data` differ, beyond that adjustment?
fn rank_differs(input: &[Option<i64>], data: &[Option<i64>]) -> bool {
    input.len() != data.len() && !rank_adjusted(input, data)
}

/// The first axis of fixed size where `data` does not fit `input`, when the ranks agree and no
/// last axis of size 1 may be squeezed away.
fn misfit(input: &[Option<i64>], data: &[Option<i64>]) -> Option<usize> {
    if input.len() != data.len()
        || [input.last(), data.last()]
            .iter()
            .any(|d| matches!(d, Some(Some(1))))
    {
        return None;
    }
    (1..input.len()).find(|&i| matches!((input[i], data[i]), (Some(a), Some(b)) if a != b))
}

/// The shapes of the data given to a model.
enum Data {
    /// One array or frame.
    One(Dims),
    /// A dict of arrays or tensors, by key.
    ByKey(BTreeMap<String, Dims>),
}

fn data_shapes(w: &Walker, x: &Expr) -> Option<Data> {
    match w.eval(x) {
        Val::Array(a) => return Some(Data::One(a.shape.iter().map(|d| Some(*d)).collect())),
        Val::Frame(f) => return Some(Data::One(vec![f.n_rows, Some(f.n_columns()?)])),
        Val::Sized { type_name, .. } if type_name == "dict" => {}
        _ => return None,
    }
    let Expr::Name { id, .. } = x else {
        return None;
    };
    if w.bound_here.contains(id) {
        return None;
    }
    let obj = w.ctx.summaries?.objects.get(id)?;
    let shapes = obj.structural.get("value_shapes")?.as_object()?;
    Some(Data::ByKey(crate::ordered::map_of(
        shapes
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), json_dims(v)?))),
    )))
}

fn input_mismatch(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
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
    let feeds = matches!(
        attr.as_str(),
        "fit" | "evaluate" | "predict" | "train_on_batch" | "test_on_batch" | "predict_on_batch"
    );
    if !feeds || unpacks(args, keywords) {
        return;
    }
    let Some(m) = model(w, value) else {
        return;
    };
    if let Some(d) = sample_counts(w, attr, args, keywords, *range) {
        out.push(d);
        return;
    }
    let Some(x) = args.first().or_else(|| keyword(keywords, "x")) else {
        return;
    };
    if let Some(d) = text_data(w, &m, attr, args, keywords, x) {
        out.push(d);
        return;
    }
    if let Some(d) = data_mismatch(w, &m, value, x, false, *range) {
        out.push(d);
        return;
    }
    // `fit(..., validation_data=(x_val, y_val))`: Keras runs the model on it after the first
    // epoch.
    if attr == "fit" {
        if let Some(Expr::Seq { elts, .. }) = keyword(keywords, "validation_data") {
            let validation = elts.first();
            if let Some(d) = validation.and_then(|x| data_mismatch(w, &m, value, x, true, *range)) {
                out.push(d);
            }
        }
    }
}

/// Why the model `m` (named by `value`) rejects the data `x`, when certain; `fed` when the
/// call gave it other data first (which built it, if it had no input shape).
fn data_mismatch(
    w: &Walker,
    m: &Model,
    value: &Expr,
    x: &Expr,
    fed: bool,
    range: TextRange,
) -> Option<Diagnostic> {
    let name = &m.name;
    let shown = w.shown(x, "the data");
    if let (Some((class, input)), Some(Data::One(data))) = (first_layer(m), data_shapes(w, x)) {
        if let Some(problem) = rank_misfit(class, &input, &data) {
            return Some(Diagnostic::error(
                Rule::KerasInputMismatch,
                format!(
                    "{name}'s first layer {class} takes inputs of shape {}, but {shown} has shape {}: {problem}: ValueError (the input is incompatible with the layer)",
                    dims_text(&input),
                    dims_text(&data)
                ),
                range,
            ));
        }
    }
    // A Sequential model given no input shape is built on the data's (tf.keras 2 first makes
    // 1-D data a column: not claimed).
    // (As the statements before this one in the cell left it: none gave it data.)
    let before = state_before(w, value);
    let unbuilt = match (&m.built, before.as_ref().and_then(|s| s.global(name))) {
        (Some(_), Some(Built::Model(b))) if !fed => b.unbuilt.as_ref(),
        _ => None,
    };
    if let (Some(layers), Some(Data::One(data))) = (unbuilt, data_shapes(w, x)) {
        if data.len() >= 2 {
            if let Some(why) = keras_build::build_on_data(layers, &data) {
                return Some(Diagnostic::error(
                    Rule::KerasInputMismatch,
                    format!(
                        "{name} has no input shape, so Keras builds its layers on {shown}'s shape {}: {why}: ValueError (the input is incompatible with the layer)",
                        dims_text(&data)
                    ),
                    range,
                ));
            }
        }
    }
    let (Some(inputs), Some(data)) = (checked_inputs(m), data_shapes(w, x)) else {
        return None;
    };
    let problem = match (inputs.as_slice(), data) {
        ([(_, input)], Data::One(data)) if functional(m) && rank_differs(input, &data) => {
            Some(format!(
                "{name} takes inputs of shape {}, but {shown} has shape {}: {}-D data for a {}-D input",
                dims_text(input),
                dims_text(&data),
                data.len(),
                input.len()
            ))
        }
        ([(_, input)], Data::One(data)) => misfit(input, &data).map(|axis| {
            format!(
                "{name} takes inputs of shape {}, but {shown} has shape {}: axis {axis} is {}, not {}",
                dims_text(input),
                dims_text(&data),
                data[axis].unwrap_or_default(),
                input[axis].unwrap_or_default()
            )
        }),
        // A dict of data goes to the inputs of the same names (all of them must be there).
        (inputs, Data::ByKey(by_key)) => {
            let named: Option<Vec<(&String, &Dims, &Dims)>> = inputs
                .iter()
                .map(|(n, dims)| {
                    let n = n.as_ref()?;
                    Some((n, dims, by_key.get(n)?))
                })
                .collect();
            named.and_then(|named| {
                named.into_iter().enumerate().find_map(|(i, (n, input, data))| {
                    misfit(input, data)?;
                    Some(format!(
                        "{name}'s input {i} ('{n}') takes shape {}, but {shown}['{n}'] has shape {}",
                        dims_text(input),
                        dims_text(data)
                    ))
                })
            })
        }
        _ => None,
    };
    problem.map(|problem| {
        Diagnostic::error(
            Rule::KerasInputMismatch,
            format!("{problem}: ValueError (the input is incompatible with the model)"),
            range,
        )
    })
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
        Rule::KerasForeignModel,
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
    let Some(m) = model(w, value) else {
        return;
    };
    let name = &m.name;
    let (Some(units), Some(loss_name)) = output_and_loss(&m) else {
        return;
    };
    let loss_name = loss_name.as_str();
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
        // (The focal variant broadcasts one unit over the classes.)
        (Targets::OneHot(k), Loss::Categorical)
            if units == 1 && k >= 2 && loss_kind_name(loss_name) == "categoricalcrossentropy" =>
        {
            let binary = if k == 2 {
                ", or give one 0/1 label per sample to the single unit with 'binary_crossentropy'"
            } else {
                ""
            };
            format!("{why}, but {name} outputs 1 unit: loss '{loss_name}' needs targets of the output's shape ({k} vs 1); end with Dense({k}, activation='softmax'){binary}")
        }
        (Targets::OneHot(k), Loss::SparseCategorical) if k >= 2 => {
            format!("{why}, but loss '{loss_name}' takes class indices; use 'categorical_crossentropy' or class_mode='sparse'")
        }
        (Targets::Indices(_), Loss::Categorical) if units >= 2 => {
            format!("{why}, but loss '{loss_name}' takes one-hot targets for the {units} outputs; use 'sparse_categorical_crossentropy'")
        }
        (Targets::Indices(Some((low, high))), Loss::SparseCategorical)
            if units >= 2 && (high >= units || low < 0) =>
        {
            let label = if high >= units { high } else { low };
            let mut d = Diagnostic::error(
                Rule::KerasTargetMismatch,
                format!("{} holds the class index {label}, but {name} outputs {units} units (classes 0 to {}) for loss '{loss_name}': InvalidArgumentError (Received a label value of {label} which is outside the valid range of [0, {units})); end with Dense(n) of n classes above the largest label", y.map_or("y", |y| w.shown(y, "y")), units - 1),
                *range,
            );
            // The JAX and PyTorch backends do not check the labels.
            if !imports_tensorflow(w) {
                d.make_likely("the TensorFlow backend raises; the notebook does not import TensorFlow, and Keras 3 may run on another");
            }
            out.push(d);
            return;
        }
        _ => return,
    };
    out.push(Diagnostic::error(
        Rule::KerasTargetMismatch,
        format!("{problem}: ValueError"),
        *range,
    ));
}

/// The number of samples of data given to a Keras model: an array's or tensor's first axis, a
/// frame's rows, a Series' length.
fn samples(w: &Walker, e: &Expr) -> Option<i64> {
    match w.eval(e) {
        Val::Array(a) => a.shape.first().copied(),
        Val::Frame(f) => f.n_rows,
        Val::Series(s) => s.len,
        _ => None,
    }
}

/// Data and targets (and sample weights) of different numbers of samples given to a Keras
/// model's `fit` or `evaluate`, or in `fit`'s `validation_data=(x, y)`: Keras pairs them
/// sample by sample and raises ValueError ("Data cardinality is ambiguous") before the model
/// sees them.
fn sample_counts(
    w: &Walker,
    attr: &str,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Diagnostic> {
    if !matches!(attr, "fit" | "evaluate") {
        return None;
    }
    let arg = |i: usize, name: &str| args.get(i).or_else(|| keyword(keywords, name));
    // (The arrays of a group, each with what Keras calls it and what the message calls it.)
    let mut groups: Vec<Vec<(&str, &str, &Expr)>> = Vec::new();
    if let (Some(x), Some(y)) = (arg(0, "x"), arg(1, "y")) {
        let mut group = vec![("x", "x", x), ("y", "y", y)];
        if let Some(weights) = keyword(keywords, "sample_weight") {
            group.push(("sample_weight", "sample_weight", weights));
        }
        groups.push(group);
    }
    if attr == "fit" {
        if let Some(Expr::Seq { elts, .. }) = keyword(keywords, "validation_data") {
            if let [x, y, ..] = elts.as_slice() {
                groups.push(vec![("x", "validation x", x), ("y", "validation y", y)]);
            }
        }
    }
    for group in groups {
        let counted: Option<Vec<(&str, &str, &Expr, i64)>> = group
            .iter()
            .map(|(keras, role, e)| Some((*keras, *role, *e, samples(w, e)?)))
            .collect();
        let Some(counted) = counted else {
            continue;
        };
        let (_, _, first, n) = counted[0];
        if let Some((_, role, other, m)) = counted.iter().find(|(_, _, _, m)| *m != n) {
            let sizes: Vec<String> = counted
                .iter()
                .map(|(keras, _, _, m)| format!("'{keras}' sizes: {m}"))
                .collect();
            return Some(Diagnostic::error(
                Rule::KerasTargetMismatch,
                format!(
                    "{} has {n} samples but {} ({role}) has {m}: Keras pairs them sample by sample: ValueError: Data cardinality is ambiguous. Make sure all arrays contain the same number of samples. {}",
                    w.shown(first, "x"),
                    w.shown(other, "y"),
                    sizes.join(" ")
                ),
                range,
            ));
        }
    }
    None
}

/// The notebook imports TensorFlow (`import tensorflow as tf`, `from tensorflow import keras`):
/// Keras runs on it.
fn imports_tensorflow(w: &Walker) -> bool {
    w.env.values().any(|v| {
        matches!(v, Val::Module(Some(p)) | Val::Lib(p) if p == "tensorflow" || p.starts_with("tensorflow."))
    })
}
