//! Keras models as the code that built them tells: the shape of their output and their loss,
//! followed through the executed cells (top-level code, and calls of the notebook's own functions
//! that build and return a model). The Keras rules fall back on these facts when the kernel's
//! summary of a model lacks them.
//!
//! Only what is certain is kept: layers of a known class with literal sizes (or names bound to
//! int literals), shapes through layers whose effect on the shape is fixed, and models no later
//! code could have changed (a model passed to a call, or a method other than those that keep its
//! architecture and loss, forgets it).

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{keyword, Expr, Keyword, Literal, SeqKind, Stmt, Target};

use super::abstract_value::{ArrayLib, ArrayVal, Val};
use super::eval::{int_of, Eval};
use super::numpy::{as_array, numpy_array};
use crate::ir_scan::for_each_expr;
use crate::ir_scan::root_names;
use crate::ir_scan::{unpacks, unrolled_loop};

/// A shape, the batch axis first; `None` for an axis of unknown or variable size.
pub type Dims = Vec<Option<i64>>;

/// What the code tells of a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Built {
    /// An int literal (layer sizes often name one).
    Int(i64),
    /// A symbolic tensor (`keras.Input(...)`, a layer's output), when its rank is known.
    Tensor(Tensor),
    /// A layer not yet called on a tensor.
    Layer(Layer),
    Model(BuiltModel),
    /// A list or tuple display holding a layer at least (`[Dense(8, input_shape=(4,)), ...]`),
    /// as `Sequential(layers)` takes it.
    Layers(Vec<ListedLayer>),
    /// What `model.fit(...)` returns: a `History`, whose `history` dict has these keys.
    History(BTreeSet<String>),
    /// A `History`'s `history` dict (epoch logs by key), with these keys.
    HistoryLogs(BTreeSet<String>),
    /// Code that raises when it runs: a layer given a tensor of a rank it rejects (why).
    Invalid(String),
}

/// An item of a layer list: what it holds, and the input shape it declares when it is a layer.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedLayer {
    built: Option<Built>,
    declared: Option<Dims>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub dims: Dims,
    /// Made by `keras.Input(...)`, which a model can take as an input.
    pub input: bool,
    /// The `name=` given to `keras.Input`.
    pub name: Option<String>,
}

impl Tensor {
    fn output(dims: Dims) -> Tensor {
        Tensor {
            dims,
            input: false,
            name: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Layer {
    /// `Dense(units)`: the last axis becomes `units` (`None` when not known).
    Dense(Option<i64>),
    /// `Flatten()`: one feature axis after the batch axis.
    Flatten,
    /// Dropout, activations, normalization: the shape is kept.
    Same,
    /// `Input(shape)` or `InputLayer(shape)` at the start of a `Sequential` list.
    Input(Dims),
    /// A layer of `RANKED` (convolutions, pooling, recurrent layers) and the shape it gives.
    Ranked(&'static str, RankedOutput),
    /// `Embedding(input_dim, output_dim)`: one axis more, of `output_dim`.
    Embedding(Option<i64>),
    /// `Reshape(target_shape)` of known sizes: the target shape without the batch axis, `-1`
    /// for the one size Keras infers.
    Reshape(Vec<i64>),
}

/// What a layer of `RANKED` gives a tensor of a rank it takes.
#[derive(Clone, Debug, PartialEq)]
pub enum RankedOutput {
    /// Convolutions and pooling: the same rank, sizes not followed.
    SameRank,
    /// A recurrent layer: its last output `(batch, units)`.
    Last(Option<i64>),
    /// A recurrent layer with `return_sequences=True`: `(batch, steps, units)`.
    Sequences(Option<i64>),
    /// Global pooling: one feature axis after the batch axis.
    Pooled,
    /// `RepeatVector(n)`: `(batch, n, features)`.
    Repeated(Option<i64>),
    /// Not followed (`return_state=True` gives a list, a wrapped layer's shape).
    Unknown,
}

/// Keras layers and the rank of the inputs they take (their `input_spec`: `ndim` exactly for
/// the recurrent layers, `min_ndim` for the others), batch axis included, and whether exactly.
pub const RANKED: &[(&str, usize, bool)] = &[
    ("Dense", 2, false),
    ("Conv1D", 3, false),
    ("Conv2D", 4, false),
    ("Conv3D", 5, false),
    ("SeparableConv1D", 3, false),
    ("SeparableConv2D", 4, false),
    ("DepthwiseConv2D", 4, false),
    ("Conv1DTranspose", 3, false),
    ("Conv2DTranspose", 4, false),
    ("Conv3DTranspose", 5, false),
    ("LSTM", 3, true),
    ("GRU", 3, true),
    ("SimpleRNN", 3, true),
    ("MaxPooling1D", 3, true),
    ("MaxPooling2D", 4, true),
    ("MaxPooling3D", 5, true),
    ("AveragePooling1D", 3, true),
    ("AveragePooling2D", 4, true),
    ("AveragePooling3D", 5, true),
    ("MaxPool1D", 3, true),
    ("MaxPool2D", 4, true),
    ("MaxPool3D", 5, true),
    ("AvgPool1D", 3, true),
    ("AvgPool2D", 4, true),
    ("AvgPool3D", 5, true),
    ("GlobalAveragePooling1D", 3, true),
    ("GlobalAveragePooling2D", 4, true),
    ("GlobalAveragePooling3D", 5, true),
    ("GlobalMaxPooling1D", 3, true),
    ("GlobalMaxPooling2D", 4, true),
    ("GlobalMaxPooling3D", 5, true),
    ("GlobalAvgPool1D", 3, true),
    ("GlobalAvgPool2D", 4, true),
    ("GlobalAvgPool3D", 5, true),
    ("GlobalMaxPool1D", 3, true),
    ("GlobalMaxPool2D", 4, true),
    ("GlobalMaxPool3D", 5, true),
    ("UpSampling1D", 3, true),
    ("UpSampling2D", 4, true),
    ("UpSampling3D", 5, true),
    ("ZeroPadding1D", 3, true),
    ("ZeroPadding2D", 4, true),
    ("ZeroPadding3D", 5, true),
    ("Cropping1D", 3, true),
    ("Cropping2D", 4, true),
    ("Cropping3D", 5, true),
    ("ConvLSTM1D", 4, true),
    ("ConvLSTM2D", 5, true),
    ("ConvLSTM3D", 6, true),
    ("RepeatVector", 2, true),
    ("Bidirectional", 3, true),
    ("TimeDistributed", 3, false),
];

/// The recurrent layers of `RANKED`: `(batch, units)`, or `(batch, steps, units)` with
/// `return_sequences=True`.
const RECURRENT: &[&str] = &["LSTM", "GRU", "SimpleRNN"];

/// Why a layer of class `class` rejects a tensor of `rank` axes (batch included), per `RANKED`.
fn rank_rejected(class: &str, rank: usize) -> Option<String> {
    let (_, wanted, exact) = RANKED.iter().find(|(c, _, _)| *c == class)?;
    let rejected = if *exact {
        rank != *wanted
    } else {
        rank < *wanted
    };
    rejected.then(|| {
        format!(
            "{class} takes {}{wanted}-D inputs (the batch axis included), not {rank}-D",
            if *exact { "" } else { "at least " }
        )
    })
}

#[derive(Clone, Debug, PartialEq)]
pub struct BuiltModel {
    /// `Functional` (`keras.Model(inputs, outputs)`) or `Sequential`: the class the kernel reports.
    pub class: &'static str,
    /// The inputs whose shapes the model checks when called, in order: a Functional model's
    /// `keras.Input`s; for a Sequential model, the input of its first layer when that is a
    /// `Dense` layer on `(batch, features)` (it checks the number of features).
    pub inputs: Option<Vec<Tensor>>,
    /// The shape of its single output, when its rank is known.
    pub output: Option<Dims>,
    /// A Sequential model's first layer of `RANKED` and the input shape declared for it.
    pub first_layer: Option<(&'static str, Dims)>,
    /// The loss it was compiled with: `None` when unknown or not compiled.
    pub loss: Option<String>,
    /// That loss was given as a string (which Keras resolves when `fit` first runs), not as a
    /// loss object or function.
    pub loss_named: bool,
    /// The metrics `compile(metrics=...)` named by strings (which Keras resolves when `fit` first
    /// runs).
    pub metrics_named: Vec<String>,
    /// `compile` ran on it.
    pub compiled: bool,
    /// The keys `compile` made its training logs have: `loss` and each metric named by a string
    /// (Keras logs a metric under the string given); `None` when not known.
    pub logged: Option<BTreeSet<String>>,
    /// A Sequential model given no input shape: its layers (all known), which Keras builds on
    /// the shape of the first data the model gets.
    pub unbuilt: Option<Vec<Layer>>,
    stage: Stage,
}

impl BuiltModel {
    /// A Sequential model given no layer or input yet.
    pub fn is_empty(&self) -> bool {
        matches!(self.stage, Stage::Empty)
    }

    /// The model after it got data: built, whatever its layers were given.
    pub fn fed(&self) -> BuiltModel {
        BuiltModel {
            unbuilt: None,
            ..self.clone()
        }
    }
}

/// How far a `Sequential` model is built: what the next layer added will be.
#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Empty,
    /// Only an input (`keras.Input(shape)`, `InputLayer`) so far.
    Input(Dims),
    Layers,
}

/// Keras layer classes whose effect on a shape is fixed.
const GLOBAL_POOLING: &[&str] = &[
    "GlobalAveragePooling1D",
    "GlobalAveragePooling2D",
    "GlobalAveragePooling3D",
    "GlobalMaxPooling1D",
    "GlobalMaxPooling2D",
    "GlobalMaxPooling3D",
    "GlobalAvgPool1D",
    "GlobalAvgPool2D",
    "GlobalAvgPool3D",
    "GlobalMaxPool1D",
    "GlobalMaxPool2D",
    "GlobalMaxPool3D",
];
const SHAPE_KEEPING: &[&str] = &[
    "Dropout",
    "AlphaDropout",
    "GaussianDropout",
    "GaussianNoise",
    "Activation",
    "ReLU",
    "LeakyReLU",
    "PReLU",
    "ELU",
    "Softmax",
    "BatchNormalization",
    "LayerNormalization",
    "ActivityRegularization",
];

/// Methods of a model that keep its architecture and its loss (besides `FEEDS_MODEL`).
const KEEPS_MODEL: &[&str] = &[
    "summary",
    "save",
    "save_weights",
    "load_weights",
    "count_params",
    "get_layer",
    "get_config",
    "get_weights",
    "to_json",
];

/// The path of a Keras API inside its package (`layers.Dense` for
/// `tensorflow.keras.layers.Dense`).
pub fn keras_api(path: &str) -> Option<&str> {
    KERAS_PACKAGES
        .iter()
        .find_map(|p| path.strip_prefix(p)?.strip_prefix('.'))
}

/// What a Keras utility that makes arrays returns: `utils.to_categorical(y, num_classes)` gives
/// one-hot rows of `num_classes` for class indices of shape `(n,)` or `(n, 1)`; the image
/// datasets' `load_data()` their arrays (`dataset_arrays`).
pub fn array_result(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let api = keras_api(path)?;
    if let Some(dataset) = api
        .strip_prefix("datasets.")
        .and_then(|d| d.strip_suffix(".load_data"))
    {
        // `path=` names the cached file only.
        let only_path =
            args.is_empty() && keywords.iter().all(|k| k.name.as_deref() == Some("path"));
        return only_path.then(|| dataset_arrays(dataset)).flatten();
    }
    if !matches!(
        api,
        "utils.to_categorical" | "utils.np_utils.to_categorical"
    ) || unpacks(args, keywords)
    {
        return None;
    }
    let labels = as_array(w, args.first().or_else(|| keyword(keywords, "y"))?)?;
    let classes = int_of(w, args.get(1).or_else(|| keyword(keywords, "num_classes"))?)?;
    match labels.shape.as_slice() {
        [n] | [n, 1] if classes > 0 => Some(numpy_array(ArrayLib::Numpy, vec![*n, classes], None)),
        _ => None,
    }
}

/// `((x_train, y_train), (x_test, y_test))` of MNIST, as the loader's docstring states (and
/// asserts): uint8 images of 28 x 28 and uint8 labels 0 to 9, 60,000 to train and 10,000 to
/// test. (Fashion-MNIST's arrays are read-only views of the files' bytes; CIFAR's images follow
/// the configured `image_data_format`: neither is followed.)
fn dataset_arrays(dataset: &str) -> Option<Val> {
    if dataset != "mnist" {
        return None;
    }
    let part = |n: i64| {
        let images = numpy_array(ArrayLib::Numpy, vec![n, 28, 28], Some("uint8"));
        let labels = Val::Array(ArrayVal {
            int_bounds: Some((0, 9)),
            ..ArrayVal::new(ArrayLib::Numpy, vec![n], Some("uint8".into()))
        });
        Val::Items {
            type_name: "tuple".into(),
            items: vec![images, labels],
        }
    };
    Some(Val::Items {
        type_name: "tuple".into(),
        items: vec![part(60_000), part(10_000)],
    })
}

/// A Keras model a constructor of the cell makes (`keras.Sequential([...])`), known by its class
/// only; named outside `keras.src` since the Keras version is not known.
pub fn model_result(path: &str) -> Option<Val> {
    match keras_api(path)? {
        "Sequential" | "models.Sequential" => Some(Val::Typed("keras.models.Sequential".into())),
        "Model" | "models.Model" => Some(Val::Typed("keras.models.Model".into())),
        _ => None,
    }
}

/// The API `path` names in Keras 3's packages (`layers.Dense` of `keras.layers.Dense`, and of
/// `tensorflow.keras.layers.Dense`: TensorFlow's `keras` is Keras 3 since 2.16); not in Keras 2's
/// own (`tf_keras`, `tensorflow.python.keras`), whose constructors check other things.
pub fn keras3_api(path: &str) -> Option<&str> {
    ["keras.", "tensorflow.keras."]
        .iter()
        .find_map(|p| path.strip_prefix(p))
}

/// Where Keras's API lives.
const KERAS_PACKAGES: [&str; 4] = [
    "tensorflow.keras",
    "tensorflow.python.keras",
    "tf_keras",
    "keras",
];

/// `path` is a Keras package, or a module or an API inside one.
pub fn in_keras_package(path: &str) -> bool {
    KERAS_PACKAGES.iter().any(|p| within_module(path, p))
}

/// `path` is `module` or a path inside it (`pandas.io` is within `pandas`, `pandas_ta` is not).
pub fn within_module(path: &str, module: &str) -> bool {
    path.strip_prefix(module)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// The names a star import of `module` binds to the Keras classes followed here, each with its
/// API path (`layers.Dense`); `None` when the module is not Keras's (it may bind any name).
pub fn star_exports(module: &str) -> Option<Vec<(String, String)>> {
    let api = if matches!(module, "keras" | "tensorflow.keras" | "tf_keras") {
        ""
    } else {
        keras_api(module)?
    };
    let names: Vec<&str> = match api {
        "" => vec!["Input", "Model", "Sequential"],
        "models" => vec!["Model", "Sequential"],
        "layers" => ["Input", "InputLayer", "Flatten", "Embedding", "Reshape"]
            .iter()
            .chain(RANKED.iter().map(|(class, _, _)| class))
            .chain(SHAPE_KEEPING)
            .copied()
            .collect(),
        // Other Keras modules export none of these names.
        _ => Vec::new(),
    };
    Some(
        names
            .into_iter()
            .map(|n| {
                let path = if api.is_empty() {
                    n.to_string()
                } else {
                    format!("{api}.{n}")
                };
                (n.to_string(), path)
            })
            .collect(),
    )
}

/// What a statement (the blocks nested in it included) does to the Keras objects of the
/// namespace, before the names it binds are bound.
#[derive(Clone, Debug)]
pub enum ModelEffect {
    /// The object may have changed in a way not followed: passed to a call, stored into, a
    /// method called that may change it, another name bound to it.
    Touched(String),
    /// `name.compile(...)`, `name.add(layer)`, `name.pop()` as a statement of its own.
    Method(String, Box<Expr>),
    /// A name the statement reads: when it holds a function of the notebook, calling it may
    /// change the globals its body mentions.
    Reads(String),
    /// The model got data (`fit`, `predict`, ...): Keras has built it on the data's shape.
    Fed(String),
    /// A layer list touched as `Touched` tells, but after the statement binds its names:
    /// `model = Sequential(layers)` reads the list before the call could change it.
    ListTouched(String),
    /// The keys of training logs the name may hold may change (`logs_changed`), after the
    /// statement binds its names: `logs = h.history` reads them before.
    LogsChanged(String),
}

impl ModelEffect {
    /// Applies once the statement has bound its names.
    pub fn after_binding(&self) -> bool {
        matches!(
            self,
            ModelEffect::ListTouched(_) | ModelEffect::LogsChanged(_)
        )
    }
}

/// Methods of a model that give it data (the first builds a model given no input shape); they
/// keep its architecture and its loss.
pub const FEEDS_MODEL: &[&str] = &[
    "fit",
    "fit_generator",
    "evaluate",
    "evaluate_generator",
    "predict",
    "predict_generator",
    "predict_on_batch",
    "train_on_batch",
    "test_on_batch",
];

pub fn statement_effects(stmt: &Stmt) -> Vec<ModelEffect> {
    let mut touched = BTreeSet::new();
    let mut fed = BTreeSet::new();
    let mut reads = BTreeSet::new();
    let mut method = None;
    if let Stmt::Expr {
        value: call @ Expr::Call { func, .. },
        ..
    } = stmt
    {
        if let Expr::Attribute { value, attr, .. } = &**func {
            if let (Expr::Name { id, .. }, "compile" | "add" | "pop" | "append") =
                (&**value, attr.as_str())
            {
                method = Some((id.clone(), call.clone()));
            }
        }
    }
    let stmts = std::slice::from_ref(stmt);
    for_each_expr(stmts, &mut |e| {
        if let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        {
            if let Expr::Attribute { value, attr, .. } = &**func {
                if FEEDS_MODEL.contains(&attr.as_str()) {
                    root_names(value, &mut fed);
                } else if !KEEPS_MODEL.contains(&attr.as_str()) {
                    root_names(value, &mut touched);
                }
            }
            args.iter().for_each(|a| root_names(a, &mut touched));
            keywords
                .iter()
                .for_each(|k| root_names(&k.value, &mut touched));
        }
        match e {
            Expr::Walrus { value, .. } => root_names(value, &mut touched),
            Expr::Name { id, .. } => {
                reads.insert(id.clone());
            }
            // Its body runs later, when called (`for_each_expr` leaves it out).
            Expr::Lambda { body, .. } => names_read(body, &mut reads),
            _ => {}
        }
    });
    assigned_stores(stmts, &mut touched);
    if let Some((name, _)) = &method {
        // The receiver of the method followed is not touched by the call itself.
        let mut in_args = BTreeSet::new();
        if let Stmt::Expr {
            value: Expr::Call { args, keywords, .. },
            ..
        } = stmt
        {
            args.iter().for_each(|a| root_names(a, &mut in_args));
            keywords
                .iter()
                .for_each(|k| root_names(&k.value, &mut in_args));
        }
        if !in_args.contains(name) {
            touched.remove(name);
        }
    }
    let mut out: Vec<ModelEffect> = reads.into_iter().map(ModelEffect::Reads).collect();
    out.extend(
        logs_changed(stmts)
            .into_iter()
            .map(ModelEffect::LogsChanged),
    );
    out.extend(touched.iter().cloned().map(ModelEffect::ListTouched));
    out.extend(touched.into_iter().map(ModelEffect::Touched));
    out.extend(fed.into_iter().map(ModelEffect::Fed));
    if let Some((name, call)) = method {
        out.push(ModelEffect::Method(name, Box::new(call)));
    }
    out
}

/// Names stored into (`m.loss = ...`, `d[k] = ...`) or bound to another name's object
/// (`m2 = model`), in the statements and the blocks nested in them.
fn assigned_stores(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    fn stores(t: &Target, out: &mut BTreeSet<String>) {
        match t {
            Target::Name { .. } => {}
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| stores(t, out)),
            Target::Starred { target, .. } => stores(target, out),
            Target::Store { expr, .. } => root_names(expr, out),
        }
    }
    for s in stmts {
        match s {
            Stmt::Assign { targets, value, .. } => {
                targets.iter().for_each(|t| stores(t, out));
                if let Some(v @ (Expr::Name { .. } | Expr::Seq { .. } | Expr::Dict { .. })) = value
                {
                    root_names(v, out);
                }
            }
            Stmt::Delete { targets, .. } => targets.iter().for_each(|t| stores(t, out)),
            Stmt::For { iter, .. } => root_names(iter, out),
            _ => {}
        }
        s.for_each_block(|b| assigned_stores(b, out));
    }
}

/// Names whose training logs (a `History`, or its `history` dict) the statements may give other
/// keys: stored into or deleted from (`h.history['k'] = v`), a method called on them other than
/// those that read (`logs.pop('k')`), passed to a call or bound to another name as they are
/// (`f(h)`, `logs = h.history`). Passing a value read from them (`plot(h.history['loss'])`)
/// changes no key.
fn logs_changed(stmts: &[Stmt]) -> BTreeSet<String> {
    fn named(e: &Expr) -> Option<&str> {
        match e {
            Expr::Name { id, .. } => Some(id),
            Expr::Attribute { value, attr, .. } if attr == "history" => match &**value {
                Expr::Name { id, .. } => Some(id),
                _ => None,
            },
            _ => None,
        }
    }
    const READS: &[&str] = &["get", "keys", "values", "items", "copy", "history"];
    let mut out = BTreeSet::new();
    for_each_expr(stmts, &mut |e| {
        if let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        {
            if let Expr::Attribute { value, attr, .. } = &**func {
                if !READS.contains(&attr.as_str()) {
                    out.extend(named(value).map(str::to_string));
                }
            }
            let given = args.iter().chain(keywords.iter().map(|k| &k.value));
            out.extend(given.filter_map(|a| named(a).map(str::to_string)));
        }
    });
    fn stores(stmts: &[Stmt], out: &mut BTreeSet<String>) {
        for s in stmts {
            match s {
                Stmt::Assign { targets, value, .. } => {
                    for t in targets {
                        t.for_each_expr(&mut |e| root_names(e, out));
                    }
                    out.extend(value.as_ref().and_then(named).map(str::to_string));
                }
                Stmt::Delete { targets, .. } => {
                    targets
                        .iter()
                        .for_each(|t| t.for_each_expr(&mut |e| root_names(e, out)));
                }
                _ => {}
            }
            s.for_each_block(|b| stores(b, out));
        }
    }
    stores(stmts, &mut out);
    out
}

/// Every name `e` reads, lambda bodies included (they run later, when called).
fn names_read(e: &Expr, out: &mut BTreeSet<String>) {
    if let Expr::Name { id, .. } = e {
        out.insert(id.clone());
    }
    e.for_each_child(|c| names_read(c, out));
}

/// What the cells that ran tell the builder about global names (the walker's history answers).
pub trait KerasGlobals {
    /// What a global name certainly holds, as far as Keras models go.
    fn built(&self, name: &str) -> Option<&Built>;
    /// The Keras API path a star import bound the name to (`layers.Dense`).
    fn star_api(&self, name: &str) -> Option<&str>;
    /// What an imported name holds.
    fn import(&self, name: &str) -> Option<&Val>;
    /// A function the notebook defined by a plain `def`.
    fn function(&self, name: &str) -> Option<FunctionCode<'_>>;
}

/// A function of the notebook as the builder follows it.
pub struct FunctionCode<'f> {
    pub params: &'f [String],
    pub body: &'f [Stmt],
    /// The source of the cell that defines it (the body's ranges index into it).
    pub source: &'f str,
}

/// Where names are looked up while following the code: a function's locals hide the globals.
struct Scope<'h> {
    history: &'h dyn KerasGlobals,
    /// A function's local names and what is known of them (`None`: nothing).
    locals: Option<BTreeMap<String, Option<Built>>>,
    /// Calls of the notebook's functions followed so far (functions that call others).
    depth: usize,
}

/// What `expr`, evaluated at the top level after the history so far, tells.
pub fn eval_global(expr: &Expr, history: &dyn KerasGlobals) -> Option<Built> {
    Scope {
        history,
        locals: None,
        depth: 0,
    }
    .eval(expr)
}

/// `model.compile(...)`, `model.add(layer)`, `model.pop()` at the top level: the model after it,
/// `None` when it is no longer known.
pub fn apply_method(
    model: &BuiltModel,
    call: &Expr,
    history: &dyn KerasGlobals,
) -> Option<BuiltModel> {
    Scope {
        history,
        locals: None,
        depth: 0,
    }
    .method(model, call)
    .ok()
    .flatten()
}

/// `layers.append(layer)` at the top level: the list after it, `None` when no longer known.
pub fn apply_list_method(
    layers: &[ListedLayer],
    call: &Expr,
    history: &dyn KerasGlobals,
) -> Option<Vec<ListedLayer>> {
    Scope {
        history,
        locals: None,
        depth: 0,
    }
    .list_method(layers, call)
}

/// Why `model.add(layer)` raises, when it does: the model has an input shape and the layer
/// rejects the rank of the model's output.
pub fn added_layer_problem(
    model: &BuiltModel,
    call: &Expr,
    history: &dyn KerasGlobals,
) -> Option<String> {
    Scope {
        history,
        locals: None,
        depth: 0,
    }
    .method(model, call)
    .err()
}

impl Scope<'_> {
    fn lookup(&self, name: &str) -> Option<Built> {
        match &self.locals {
            Some(locals) if locals.contains_key(name) => locals.get(name).cloned().flatten(),
            // A global model read inside a function may be changed through the local name.
            Some(_) => match self.history.built(name)? {
                Built::Model(_) => None,
                b => Some(b.clone()),
            },
            None => self.history.built(name).cloned(),
        }
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.as_ref().is_some_and(|l| l.contains_key(name))
    }

    /// The Keras API a callee names (`layers.Dense`, `Model`), through the imports of the
    /// executed cells.
    fn api(&self, func: &Expr) -> Option<String> {
        let path = func.dotted_path()?;
        let root = path[0];
        if self.is_local(root) {
            return None;
        }
        if path.len() == 1 {
            if let Some(api) = self.history.star_api(root) {
                return Some(api.to_string());
            }
        }
        let base = match self.history.import(root)? {
            Val::Lib(p) | Val::Module(Some(p)) => p.clone(),
            _ => return None,
        };
        let full = std::iter::once(base.as_str())
            .chain(path[1..].iter().copied())
            .collect::<Vec<_>>()
            .join(".");
        keras_api(&full).map(str::to_string)
    }

    fn int(&self, e: &Expr) -> Option<i64> {
        match e {
            Expr::Literal {
                value: Literal::Int(i),
                ..
            } => Some(*i),
            Expr::Name { id, .. } => match self.lookup(id)? {
                Built::Int(i) => Some(i),
                _ => None,
            },
            _ => None,
        }
    }

    /// `(224, 224, 3)`, `[max_len]`, `(None, 8)`, `(rows, cols, 1)`: a shape without its batch
    /// axis; the rank is the tuple's length even where a size is not known (`None`).
    fn shape(&self, e: &Expr) -> Option<Dims> {
        let Expr::Seq { elts, .. } = e else {
            return None;
        };
        elts.iter()
            .map(|d| match d {
                Expr::Starred { .. } => None,
                _ => Some(self.int(d)),
            })
            .collect()
    }

    fn eval(&self, e: &Expr) -> Option<Built> {
        match e {
            Expr::Literal {
                value: Literal::Int(i),
                ..
            } => Some(Built::Int(*i)),
            Expr::Name { id, .. } => self.lookup(id),
            Expr::Seq { .. } | Expr::BinOp { .. } => self.layer_list(e).map(Built::Layers),
            Expr::Attribute { value, attr, .. } if attr == "history" => match self.eval(value)? {
                Built::History(keys) => Some(Built::HistoryLogs(keys)),
                _ => None,
            },
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => self.call(func, args, keywords),
            _ => None,
        }
    }

    fn call(&self, func: &Expr, args: &[Expr], keywords: &[Keyword]) -> Option<Built> {
        if args.iter().any(|a| matches!(a, Expr::Starred { .. }))
            || keywords.iter().any(|k| k.name.is_none())
        {
            return None;
        }
        let arg = |i: usize, name: &str| args.get(i).or_else(|| keyword(keywords, name));
        if let Some(api) = self.api(func) {
            let class = api
                .strip_prefix("layers.")
                .or_else(|| api.strip_prefix("models."))
                .unwrap_or(&api);
            return match class {
                "Input" | "InputLayer" => {
                    let shape = if class == "Input" {
                        arg(0, "shape")
                    } else {
                        keyword(keywords, "shape").or_else(|| keyword(keywords, "input_shape"))
                    };
                    let fixed = ["tensor", "sparse", "ragged"]
                        .iter()
                        .all(|k| keyword(keywords, k).is_none());
                    let batch_shape = ["batch_shape", "batch_input_shape"]
                        .iter()
                        .find_map(|k| keyword(keywords, k));
                    let dims: Dims = match (shape, batch_shape) {
                        (Some(shape), None) => {
                            std::iter::once(None).chain(self.shape(shape)?).collect()
                        }
                        // (The batch size is not checked here.)
                        (None, Some(batch_shape)) => {
                            let dims = self.shape(batch_shape)?;
                            std::iter::once(None)
                                .chain(dims.into_iter().skip(1))
                                .collect()
                        }
                        _ => return None,
                    };
                    match (fixed, class) {
                        (false, _) => None,
                        (_, "Input") => Some(Built::Tensor(Tensor {
                            dims,
                            input: true,
                            name: keyword(keywords, "name")
                                .and_then(Expr::as_str_literal)
                                .map(str::to_string),
                        })),
                        _ => Some(Built::Layer(Layer::Input(dims))),
                    }
                }
                "Model" => {
                    let output = match self.eval(arg(1, "outputs")?) {
                        Some(Built::Tensor(t)) => Some(t.dims),
                        Some(invalid @ Built::Invalid(_)) => return Some(invalid),
                        _ => None,
                    };
                    let tensor = |e: &Expr| match self.eval(e) {
                        Some(Built::Tensor(t)) if t.input => Some(t),
                        _ => None,
                    };
                    let inputs = match arg(0, "inputs")? {
                        Expr::Seq { elts, .. } => elts.iter().map(tensor).collect(),
                        e => tensor(e).map(|t| vec![t]),
                    };
                    Some(Built::Model(BuiltModel {
                        class: "Functional",
                        inputs,
                        output,
                        first_layer: None,
                        loss: None,
                        loss_named: false,
                        metrics_named: Vec::new(),
                        compiled: false,
                        logged: None,
                        unbuilt: None,
                        stage: Stage::Layers,
                    }))
                }
                "Sequential" => {
                    let mut model = BuiltModel {
                        class: "Sequential",
                        inputs: None,
                        output: None,
                        first_layer: None,
                        loss: None,
                        loss_named: false,
                        metrics_named: Vec::new(),
                        compiled: false,
                        logged: None,
                        unbuilt: Some(Vec::new()),
                        stage: Stage::Empty,
                    };
                    match arg(0, "layers") {
                        None => {}
                        Some(layers) => {
                            let Some(Built::Layers(layers)) = self.eval(layers) else {
                                return None;
                            };
                            for layer in layers {
                                if let Err(why) = self.add_built(&mut model, layer) {
                                    return Some(Built::Invalid(why));
                                }
                            }
                        }
                    }
                    Some(Built::Model(model))
                }
                "Dense" => {
                    let units = arg(0, "units").and_then(|u| self.int(u));
                    Some(Built::Layer(Layer::Dense(units)))
                }
                "Embedding" => {
                    let units = arg(1, "output_dim").and_then(|u| self.int(u));
                    Some(Built::Layer(Layer::Embedding(units)))
                }
                "Reshape" => {
                    let target = self.shape(arg(0, "target_shape")?)?;
                    let target: Option<Vec<i64>> = target
                        .into_iter()
                        .map(|d| d.filter(|d| *d > 0 || *d == -1))
                        .collect();
                    Some(Built::Layer(Layer::Reshape(target?)))
                }
                "Flatten" => Some(Built::Layer(Layer::Flatten)),
                c if SHAPE_KEEPING.contains(&c) => Some(Built::Layer(Layer::Same)),
                c => {
                    let (class, _, _) = RANKED.iter().find(|(r, _, _)| *r == c)?;
                    let flag = |name: &str| match keyword(keywords, name) {
                        None => Some(false),
                        Some(Expr::Literal {
                            value: Literal::Bool(b),
                            ..
                        }) => Some(*b),
                        Some(_) => None,
                    };
                    let output = match *class {
                        c if RECURRENT.contains(&c) => {
                            let units = arg(0, "units").and_then(|u| self.int(u));
                            match (flag("return_sequences"), flag("return_state")) {
                                (Some(false), Some(false)) => RankedOutput::Last(units),
                                (Some(true), Some(false)) => RankedOutput::Sequences(units),
                                _ => RankedOutput::Unknown,
                            }
                        }
                        "Bidirectional" => self.bidirectional(arg(0, "layer")?, keywords),
                        "RepeatVector" => {
                            RankedOutput::Repeated(arg(0, "n").and_then(|n| self.int(n)))
                        }
                        // `keepdims=True` keeps the pooled axes.
                        c if GLOBAL_POOLING.contains(&c) => match flag("keepdims") {
                            Some(false) => RankedOutput::Pooled,
                            Some(true) => RankedOutput::SameRank,
                            None => RankedOutput::Unknown,
                        },
                        "ConvLSTM1D" | "ConvLSTM2D" | "ConvLSTM3D" | "TimeDistributed" => {
                            RankedOutput::Unknown
                        }
                        _ => RankedOutput::SameRank,
                    };
                    Some(Built::Layer(Layer::Ranked(class, output)))
                }
            };
        }
        if let Expr::Attribute { value, attr, .. } = func {
            return match (attr.as_str(), self.eval(value)?) {
                ("fit", Built::Model(model)) => fit_history(&model, args, keywords),
                _ => None,
            };
        }
        // A layer called on a tensor: `Dense(5)(x)`.
        if let Some(Built::Layer(layer)) = self.eval(func) {
            let input = match args.first().and_then(|a| self.eval(a)) {
                Some(Built::Tensor(t)) => Some(t.dims),
                Some(invalid @ Built::Invalid(_)) => return Some(invalid),
                _ => None,
            };
            return match apply(&layer, input) {
                Ok(dims) => dims.map(|dims| Built::Tensor(Tensor::output(dims))),
                Err(why) => Some(Built::Invalid(why)),
            };
        }
        // A function of the notebook that builds and returns a model.
        if let Expr::Name { id, .. } = func {
            if self.is_local(id) || self.depth >= 3 {
                return None;
            }
            return self.follow(self.history.function(id)?);
        }
        None
    }

    /// What `Bidirectional(layer, merge_mode=...)` gives: the recurrent layer's output, its
    /// units doubled by the default `merge_mode='concat'`.
    fn bidirectional(&self, layer: &Expr, keywords: &[Keyword]) -> RankedOutput {
        let Some(Built::Layer(Layer::Ranked(class, inner))) = self.eval(layer) else {
            return RankedOutput::Unknown;
        };
        let merge = match keyword(keywords, "merge_mode") {
            None => Some("concat"),
            Some(mode) => mode.as_str_literal(),
        };
        let factor = match merge {
            Some("concat") => 2,
            Some("sum" | "mul" | "ave") => 1,
            _ => return RankedOutput::Unknown,
        };
        if keyword(keywords, "backward_layer").is_some() || !RECURRENT.contains(&class) {
            return RankedOutput::Unknown;
        }
        let merged = |units: Option<i64>| units.map(|u| u * factor);
        match inner {
            RankedOutput::Last(units) => RankedOutput::Last(merged(units)),
            RankedOutput::Sequences(units) => RankedOutput::Sequences(merged(units)),
            _ => RankedOutput::Unknown,
        }
    }

    /// Adds `layer` to a Sequential model; `Err` when Keras raises as it builds the layer on
    /// the model's output (the model has an input shape).
    fn add_layer(&self, model: &mut BuiltModel, layer: &Expr) -> Result<(), String> {
        let listed = self.listed(layer);
        self.add_built(model, listed)
    }

    /// A layer as a list holds it: evaluated where the list is built.
    fn listed(&self, layer: &Expr) -> ListedLayer {
        let built = self.eval(layer);
        let declared = match &built {
            Some(Built::Layer(l)) => declared_input(layer, l, self),
            _ => None,
        };
        ListedLayer { built, declared }
    }

    /// `layers` (a list or tuple display, or `a + b` of two known layer lists), when it holds
    /// a layer or a `keras.Input`; `None` when an item is unpacked (`*more`) or raises.
    fn layer_list(&self, e: &Expr) -> Option<Vec<ListedLayer>> {
        match e {
            Expr::Seq {
                kind: SeqKind::List | SeqKind::Tuple,
                elts,
                ..
            } => {
                if elts.iter().any(|e| matches!(e, Expr::Starred { .. })) {
                    return None;
                }
                let items: Vec<ListedLayer> = elts.iter().map(|e| self.listed(e)).collect();
                let layer = |i: &ListedLayer| {
                    matches!(
                        i.built,
                        Some(Built::Layer(_) | Built::Tensor(Tensor { input: true, .. }))
                    )
                };
                let raises = |i: &ListedLayer| matches!(i.built, Some(Built::Invalid(_)));
                (items.iter().any(layer) && !items.iter().any(raises)).then_some(items)
            }
            Expr::BinOp {
                op: "+",
                left,
                right,
                ..
            } => {
                let (Some(Built::Layers(mut a)), Some(Built::Layers(b))) =
                    (self.eval(left), self.eval(right))
                else {
                    return None;
                };
                a.extend(b);
                Some(a)
            }
            _ => None,
        }
    }

    /// Adds a layer of a list (or one given to `add`) to a Sequential model.
    fn add_built(&self, model: &mut BuiltModel, layer: ListedLayer) -> Result<(), String> {
        let stage = std::mem::replace(&mut model.stage, Stage::Layers);
        let l = match (layer.built, stage) {
            (Some(Built::Invalid(why)), _) => return Err(why),
            // `keras.Input(shape)` or `InputLayer(shape)` first.
            (
                Some(Built::Tensor(Tensor {
                    dims, input: true, ..
                })),
                Stage::Empty,
            )
            | (Some(Built::Layer(Layer::Input(dims))), Stage::Empty) => {
                model.unbuilt = None;
                model.output = Some(dims.clone());
                model.stage = Stage::Input(dims);
                return Ok(());
            }
            (Some(Built::Layer(l)), Stage::Empty) => {
                let input = layer.declared;
                match (&mut model.unbuilt, &input) {
                    (Some(layers), None) => layers.push(l.clone()),
                    _ => model.unbuilt = None,
                }
                return self.first_layer(model, &l, input);
            }
            (Some(Built::Layer(l)), Stage::Input(dims)) => {
                return self.first_layer(model, &l, Some(dims));
            }
            (Some(Built::Layer(l)), Stage::Layers) => {
                if let Some(layers) = &mut model.unbuilt {
                    layers.push(l.clone());
                }
                l
            }
            _ => {
                model.unbuilt = None;
                model.output = None;
                return Ok(());
            }
        };
        model.output = apply(&l, model.output.take())?;
        Ok(())
    }

    /// The first layer of a Sequential model, on inputs of shape `input` when known.
    fn first_layer(
        &self,
        model: &mut BuiltModel,
        layer: &Layer,
        input: Option<Dims>,
    ) -> Result<(), String> {
        let class = match layer {
            Layer::Dense(_) => Some("Dense"),
            Layer::Ranked(class, _) => Some(*class),
            _ => None,
        };
        if let (Some(class), Some(dims)) = (class, &input) {
            model.first_layer = Some((class, dims.clone()));
        }
        if let (Layer::Dense(_), Some(dims @ [None, Some(_)])) = (layer, input.as_deref()) {
            model.inputs = Some(vec![Tensor {
                dims: dims.to_vec(),
                input: true,
                name: None,
            }]);
        }
        model.output = apply(layer, input)?;
        Ok(())
    }

    /// Follows a call of a function of the notebook whose body is straight-line code ending in
    /// `return <value>`. Parameters are unknown.
    fn follow(&self, f: FunctionCode) -> Option<Built> {
        let mut locals: BTreeMap<String, Option<Built>> =
            crate::ordered::map_of(f.params.iter().map(|n| (n.clone(), None)));
        let mut bound = BTreeSet::new();
        for s in f.body {
            match s {
                Stmt::Assign { targets, .. } => {
                    for t in targets {
                        target_binds(t, &mut bound);
                    }
                }
                Stmt::Expr { .. } | Stmt::Pass { .. } | Stmt::Other { .. } => {}
                Stmt::For { .. } => {
                    let (var, _, _) = unrolled_loop(s)?;
                    bound.insert(var.to_string());
                }
                _ => return None,
            }
        }
        locals.extend(bound.into_iter().map(|n| (n, None)));
        let mut scope = Scope {
            history: self.history,
            locals: Some(locals),
            depth: self.depth + 1,
        };
        let last = f.body.len().checked_sub(1)?;
        for (i, s) in f.body.iter().enumerate() {
            match s {
                Stmt::Assign {
                    targets,
                    op: crate::ir::AssignOp::Plain,
                    value: Some(value),
                    ..
                } if matches!(targets.as_slice(), [Target::Name { .. }]) => {
                    scope.apply_effects(s).ok()?;
                    let v = scope.eval(value);
                    if let Some(invalid @ Built::Invalid(_)) = v {
                        return Some(invalid);
                    }
                    if let [Target::Name { id, .. }] = targets.as_slice() {
                        scope.set(id, v);
                    }
                    scope.apply_effects_after(s);
                }
                Stmt::Assign { targets, .. } => {
                    scope.apply_effects(s).ok()?;
                    let mut names = BTreeSet::new();
                    targets.iter().for_each(|t| target_binds(t, &mut names));
                    names.iter().for_each(|n| scope.set(n, None));
                    scope.apply_effects_after(s);
                }
                Stmt::Expr { .. } => {
                    if let Err(why) = scope.apply_effects(s) {
                        return Some(Built::Invalid(why));
                    }
                    scope.apply_effects_after(s);
                }
                Stmt::For { .. } => {
                    let (var, values, body) = unrolled_loop(s)?;
                    for value in values {
                        scope.set(var, Some(Built::Int(value)));
                        for s in body {
                            if let Err(why) = scope.apply_effects(s) {
                                return Some(Built::Invalid(why));
                            }
                            scope.apply_effects_after(s);
                        }
                    }
                }
                Stmt::Pass { .. } => {}
                Stmt::Other { exprs, range } => {
                    let text = f
                        .source
                        .get(range.start as usize..range.end as usize)
                        .unwrap_or("");
                    let word = text.split(|c: char| !c.is_alphanumeric()).next();
                    match word {
                        Some("return") if i == last => {
                            return scope.eval(exprs.first()?);
                        }
                        Some("assert") => {
                            scope.apply_effects(s).ok()?;
                            scope.apply_effects_after(s);
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        None
    }

    fn set(&mut self, name: &str, value: Option<Built>) {
        if let Some(locals) = &mut self.locals {
            locals.insert(name.to_string(), value);
        }
    }

    /// What a statement of a function body does to its local models (see `statement_effects`);
    /// `Err` when it raises (`model.add(layer)` of a layer that rejects the model's output).
    fn apply_effects(&mut self, s: &Stmt) -> Result<(), String> {
        self.apply_effects_when(s, false)
    }

    /// The effects of `s` that apply once it bound its names (`ModelEffect::after_binding`).
    fn apply_effects_after(&mut self, s: &Stmt) {
        // (Those effects never raise.)
        let _ = self.apply_effects_when(s, true);
    }

    fn apply_effects_when(&mut self, s: &Stmt, after_binding: bool) -> Result<(), String> {
        for effect in statement_effects(s) {
            if effect.after_binding() != after_binding {
                continue;
            }
            let (ModelEffect::Touched(n)
            | ModelEffect::Method(n, _)
            | ModelEffect::Fed(n)
            | ModelEffect::ListTouched(n)) = &effect
            else {
                continue;
            };
            let after = match (self.lookup(n), &effect) {
                (Some(Built::Model(m)), ModelEffect::Method(_, call)) => {
                    self.method(&m, call)?.map(Built::Model)
                }
                (Some(Built::Model(m)), ModelEffect::Fed(_)) => Some(Built::Model(m.fed())),
                (Some(Built::Model(_)), ModelEffect::Touched(_)) => None,
                (Some(Built::Layers(l)), ModelEffect::Method(_, call)) => {
                    self.list_method(&l, call).map(Built::Layers)
                }
                (Some(Built::Layers(_)), ModelEffect::ListTouched(_)) => None,
                _ => continue,
            };
            self.set(n, after);
        }
        Ok(())
    }

    /// The model after `model.compile(...)` / `model.add(layer)` (`None`: not known), or why
    /// the call raises.
    fn method(&self, model: &BuiltModel, call: &Expr) -> Result<Option<BuiltModel>, String> {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = call
        else {
            return Ok(None);
        };
        let Expr::Attribute { attr, .. } = &**func else {
            return Ok(None);
        };
        let mut model = model.clone();
        match attr.as_str() {
            "compile" => {
                model.compiled = true;
                let given = args.get(1).or_else(|| keyword(keywords, "loss"));
                model.loss = given.and_then(|l| self.loss(l));
                model.loss_named = given.is_some_and(|l| l.as_str_literal().is_some());
                model.logged = logged_keys(args, keywords);
                model.metrics_named = named_metrics(keywords);
            }
            "add" if model.class == "Sequential" && args.len() == 1 => {
                self.add_layer(&mut model, &args[0])?;
            }
            _ => return Ok(None),
        }
        Ok(Some(model))
    }

    /// The list after `layers.append(layer)`; `None` for other methods.
    fn list_method(&self, layers: &[ListedLayer], call: &Expr) -> Option<Vec<ListedLayer>> {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = call
        else {
            return None;
        };
        match (&**func, args.as_slice()) {
            (Expr::Attribute { attr, .. }, [layer]) if attr == "append" && keywords.is_empty() => {
                let mut after = layers.to_vec();
                after.push(self.listed(layer));
                Some(after)
            }
            _ => None,
        }
    }

    /// The loss a `compile(loss=...)` argument names: a string, a loss class or function of
    /// `keras.losses`.
    fn loss(&self, e: &Expr) -> Option<String> {
        if let Some(s) = e.as_str_literal() {
            return Some(s.to_string());
        }
        let f = match e {
            Expr::Call { func, args, .. } if args.is_empty() => func,
            _ => e,
        };
        let api = self.api(f)?;
        api.strip_prefix("losses.").map(str::to_string)
    }
}

/// The keys `compile(optimizer, loss, metrics=...)` gives the training logs: `loss` and the metrics
/// named by strings (`metrics=['accuracy']` logs `accuracy`, `['acc']` logs `acc`); `None` when a
/// metric is an object or function (logged under its own name), or other arguments may add keys.
fn logged_keys(args: &[Expr], keywords: &[Keyword]) -> Option<BTreeSet<String>> {
    // The third parameter is `metrics` in Keras 2 and `loss_weights` in Keras 3.
    let metrics = keyword(keywords, "metrics");
    let extra = args.len() > 2
        || keywords.iter().any(|k| {
            matches!(
                k.name.as_deref(),
                Some("weighted_metrics" | "loss_weights") | None
            )
        });
    if extra {
        return None;
    }
    let mut keys = BTreeSet::from(["loss".to_string()]);
    match metrics {
        None
        | Some(Expr::Literal {
            value: Literal::None,
            ..
        }) => {}
        Some(Expr::Seq {
            kind: SeqKind::List | SeqKind::Tuple,
            elts,
            ..
        }) => {
            for metric in elts {
                keys.insert(metric.as_str_literal()?.to_string());
            }
        }
        Some(_) => return None,
    }
    Some(keys)
}

/// The strings of `compile(metrics=[...])`, a list or tuple (Keras 3 refuses any other form at
/// once). The third parameter is `loss_weights` in Keras 3: metrics given by position are not read.
fn named_metrics(keywords: &[Keyword]) -> Vec<String> {
    let Some(Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    }) = keyword(keywords, "metrics")
    else {
        return Vec::new();
    };
    elts.iter()
        .filter_map(|m| Some(m.as_str_literal()?.to_string()))
        .collect()
}

/// The `History` that `model.fit(...)` returns: the compiled keys, and each with `val_` before
/// it when validation data is given (`validation_data=`, or `validation_split=` above 0).
/// `None` when not known: callbacks may log keys of their own, and arguments given by position
/// past `y` or not written as literals may or may not validate.
fn fit_history(model: &BuiltModel, args: &[Expr], keywords: &[Keyword]) -> Option<Built> {
    let keys = model.logged.as_ref().filter(|_| model.compiled)?;
    if args.len() > 2 {
        return None;
    }
    let mut validates = false;
    for k in keywords {
        let given = match (&k.value, k.name.as_deref()?) {
            (_, "callbacks") => return None,
            (
                Expr::Literal {
                    value: Literal::None,
                    ..
                },
                "validation_data" | "validation_split",
            ) => false,
            (Expr::Seq { .. }, "validation_data") => true,
            (
                Expr::Literal {
                    value: Literal::Float(f),
                    ..
                },
                "validation_split",
            ) => *f > 0.0,
            (
                Expr::Literal {
                    value: Literal::Int(i),
                    ..
                },
                "validation_split",
            ) => *i > 0,
            (_, "validation_data" | "validation_split") => return None,
            _ => false,
        };
        validates |= given;
    }
    let mut logged = keys.clone();
    if validates {
        logged.extend(keys.iter().map(|k| format!("val_{k}")));
    }
    Some(Built::History(logged))
}

/// The input shape a first layer declares (`Dense(8, input_shape=(4,))`, `input_dim=4`; an
/// `Embedding`'s `input_dim` is its vocabulary).
fn declared_input(layer: &Expr, built: &Layer, scope: &Scope) -> Option<Dims> {
    let Expr::Call { keywords, .. } = layer else {
        return None;
    };
    if let Some(shape) = keyword(keywords, "input_shape") {
        return Some(std::iter::once(None).chain(scope.shape(shape)?).collect());
    }
    if matches!(built, Layer::Embedding(_)) {
        return None;
    }
    let dim = scope.int(keyword(keywords, "input_dim")?)?;
    Some(vec![None, Some(dim)])
}

/// Why Keras raises as it builds the layers of a model given no input shape on data of shape
/// `data` (the batch axis first), when it does.
pub fn build_on_data(layers: &[Layer], data: &[Option<i64>]) -> Option<String> {
    let mut dims: Dims = std::iter::once(None)
        .chain(data.iter().skip(1).copied())
        .collect();
    for layer in layers {
        match apply(layer, Some(dims)) {
            Err(why) => return Some(why),
            Ok(Some(next)) => dims = next,
            Ok(None) => return None,
        }
    }
    None
}

/// The shape a layer gives a tensor of shape `input` (`None`: unknown), or why Keras raises as
/// it builds the layer on it (a rank the layer's `input_spec` rejects).
fn apply(layer: &Layer, input: Option<Dims>) -> Result<Option<Dims>, String> {
    let Some(mut dims) = input else {
        // (What these give has one rank whatever they get, or they raise.)
        return Ok(match layer {
            Layer::Flatten | Layer::Ranked(_, RankedOutput::Pooled) => Some(vec![None, None]),
            Layer::Ranked(_, RankedOutput::Repeated(n)) => Some(vec![None, *n, None]),
            Layer::Reshape(target) => Some(reshaped(target)),
            _ => None,
        });
    };
    let rank = dims.len();
    let rejected = |class: &str| match rank_rejected(class, rank) {
        Some(why) => Err(format!("{why}: it gets shape {}", dims_text(&dims))),
        None => Ok(()),
    };
    Ok(match layer {
        Layer::Dense(units) => {
            rejected("Dense")?;
            *dims.last_mut().expect("rank 2 or more") = *units;
            Some(dims)
        }
        Layer::Ranked(class, output) => {
            rejected(class)?;
            match output {
                RankedOutput::SameRank => Some(vec![None; rank]),
                RankedOutput::Last(units) if rank == 3 => Some(vec![None, *units]),
                RankedOutput::Sequences(units) if rank == 3 => Some(vec![None, None, *units]),
                RankedOutput::Pooled => Some(vec![None, None]),
                RankedOutput::Repeated(n) => Some(vec![None, *n, dims[1]]),
                _ => None,
            }
        }
        Layer::Embedding(units) => {
            dims.push(*units);
            Some(dims)
        }
        Layer::Reshape(target) => {
            if let Some(why) = reshape_problem(&dims, target) {
                return Err(why);
            }
            Some(reshaped(target))
        }
        Layer::Flatten => Some(vec![None, None]),
        Layer::Same => Some(dims),
        Layer::Input(_) => None,
    })
}

/// The shape `Reshape(target)` gives: the batch axis, then the target (`None` for `-1`).
fn reshaped(target: &[i64]) -> Dims {
    std::iter::once(None)
        .chain(target.iter().map(|&d| (d > 0).then_some(d)))
        .collect()
}

/// Why `Reshape(target)` raises on a tensor of shape `input`, when its sizes are all known: the
/// number of values per sample differs (Keras: "The total size of the tensor must be
/// unchanged"), or with one `-1` is no multiple of the sizes given.
fn reshape_problem(input: &[Option<i64>], target: &[i64]) -> Option<String> {
    let values: i64 = input[1..].iter().copied().product::<Option<i64>>()?;
    let inferred = target.iter().filter(|&&d| d == -1).count();
    let given: i64 = target.iter().filter(|&&d| d > 0).product();
    let fits = match inferred {
        0 => values == given,
        1 => given > 0 && values % given == 0,
        _ => return None,
    };
    let shown = crate::summary::tuple_text(target.iter().map(i64::to_string));
    (!fits).then(|| {
        let needs = match inferred {
            0 => given.to_string(),
            _ => format!("a multiple of {given}"),
        };
        format!(
            "Reshape({shown}) needs {needs} values per sample, but it gets shape {}: {values} values",
            dims_text(input)
        )
    })
}

/// `(None, 10)`.
pub fn dims_text(dims: &[Option<i64>]) -> String {
    crate::summary::tuple_text(
        dims.iter()
            .map(|d| d.map_or("None".to_string(), |d| d.to_string())),
    )
}

fn target_binds(t: &Target, out: &mut BTreeSet<String>) {
    match t {
        Target::Name { id, .. } => {
            out.insert(id.clone());
        }
        Target::Unpack { elts, .. } => elts.iter().for_each(|t| target_binds(t, out)),
        Target::Starred { target, .. } => target_binds(target, out),
        Target::Store { .. } => {}
    }
}
