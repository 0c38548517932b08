//! PyTorch objects as the kernel summarises them (`torch_module`, `torch_dataset`, `dataloader`):
//! a single layer, a loss and the shapes it accepts, a dataset's sample and a loader's batch.

use serde_json::Value;

use crate::summary::{Category, ObjectSummary};

use crate::ir::{argument, keyword, Expr, Keyword, Literal, SeqKind};
use crate::ir_scan::unpacks;

use super::abstract_value::{ArrayLib, ArrayVal, Val};
use super::eval::Eval;
use super::numpy::literal_shape;
use super::torch_classes::run_forward;
use super::torch_layers::{
    apply, const_int, gives_tensor, layer_of, nn_class, tensor_method, Layer, Shape,
};

/// A loss module.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loss {
    /// `BCELoss`, `BCEWithLogitsLoss`: input and target of the same size.
    Binary,
    /// `MSELoss`, `L1Loss`, `SmoothL1Loss`, `HuberLoss`: shapes that broadcast (a mismatch that
    /// broadcasts only warns).
    Elementwise,
    /// `CrossEntropyLoss`, `NLLLoss`: scores (N, C) and a class index per row (N,) (or class
    /// probabilities of the input's shape); `default_ignore` when it certainly ignores only the
    /// default index -100 (built by code without `ignore_index=`).
    Classes { default_ignore: bool },
}

/// The loss a `torch.nn` class computes.
pub fn loss_class(class: &str) -> Option<Loss> {
    match class {
        "BCELoss" | "BCEWithLogitsLoss" => Some(Loss::Binary),
        "MSELoss" | "L1Loss" | "SmoothL1Loss" | "HuberLoss" => Some(Loss::Elementwise),
        "CrossEntropyLoss" | "NLLLoss" => Some(Loss::Classes {
            default_ignore: false,
        }),
        _ => None,
    }
}

/// The abstract value of a summarized PyTorch object (`torch_module` or `dataloader`).
pub fn from_summary(obj: &ObjectSummary, type_name: &str) -> Option<Val> {
    match obj.kind.as_str() {
        "torch_module" => {
            let class = type_name
                .strip_prefix("torch.nn.modules.")?
                .rsplit('.')
                .next()?;
            if let Some(loss) = loss_class(class) {
                return Some(Val::Loss(loss));
            }
            // A single layer, its own first leaf. (A container's first leaf in registration
            // order need not be the first applied: a block of the notebook may register its
            // layers in any order.)
            let l = obj.representation.get("first_layer")?.as_object()?;
            let int = |k: &str| l.get(k).and_then(Value::as_i64);
            if l.get("class")?.as_str()? != class {
                return None;
            }
            Some(Val::Torch(
                match layer_of(class, &[], &[], &|_| None, &|_| Layer::Opaque) {
                    Layer::Conv { n, .. } => Layer::Conv {
                        n,
                        inputs: int("in_channels"),
                        outputs: int("out_channels"),
                        window: None,
                    },
                    Layer::Linear { .. } if class == "Linear" => Layer::Linear {
                        inputs: int("in_features"),
                        outputs: int("out_features"),
                    },
                    Layer::Sized { class, .. } => Layer::Sized {
                        class,
                        size: int("num_features").or_else(|| int("input_size")),
                    },
                    Layer::Embedding { .. } => Layer::Embedding {
                        count: int("num_embeddings"),
                        dim: int("embedding_dim"),
                    },
                    _ => return None,
                },
            ))
        }
        "torch_dataset" => {
            let (sample, len) = probed_sample(obj)?;
            Some(Val::Dataset { sample, len })
        }
        "dataloader" => {
            let (batch, non_empty) = match obj.structural.get("batch_shapes") {
                Some(shapes) => (
                    probed_batch(shapes)?,
                    obj.int_fact(Category::S, "num_batches")
                        .is_some_and(|n| n > 0),
                ),
                None => collated_batch(obj)?,
            };
            Some(Val::Loader { batch, non_empty })
        }
        _ => None,
    }
}

/// The shapes of a batch a loader's `collate_fn` made of a few samples (`S.batch_shapes`): the
/// batch axis is the probe's, and the real batches (the last one above all) may be of another
/// size.
fn probed_batch(shapes: &Value) -> Option<Vec<Shape>> {
    shapes
        .as_array()?
        .iter()
        .map(|b| {
            let dims: Vec<i64> = b
                .as_array()?
                .iter()
                .map(Value::as_i64)
                .collect::<Option<_>>()?;
            let mut d: Vec<Option<i64>> = dims.into_iter().map(Some).collect();
            *d.first_mut()? = None;
            Some(Shape::of(d))
        })
        .collect()
}

/// One sample of a map-style dataset the kernel probed (`R.sample`, the probed samples alike):
/// the shape of each tensor or array in it, `()` for a Python number (unknown for anything
/// else); and the dataset's length.
fn probed_sample(dataset: &ObjectSummary) -> Option<(Vec<Shape>, i64)> {
    if dataset.kind != "torch_dataset"
        || dataset.representation.get("samples_agree") != Some(&Value::Bool(true))
    {
        return None;
    }
    let parts = dataset.representation.get("sample")?.as_array()?;
    let sample = parts
        .iter()
        .map(|p| {
            if p.get("key").is_some() {
                return None;
            }
            let kind = p.get("type")?.as_str()?;
            Some(match (kind, p.get("shape").and_then(Value::as_array)) {
                ("Tensor" | "ndarray", Some(shape)) => Shape::of(
                    shape
                        .iter()
                        .map(|n| n.as_i64().map(Some))
                        .collect::<Option<_>>()?,
                ),
                ("int" | "float" | "bool", None) => Shape::of(vec![]),
                _ => Shape::unknown(),
            })
        })
        .collect::<Option<Vec<Shape>>>()?;
    Some((sample, dataset.int_fact(Category::S, "length")?))
}

/// What the default `collate_fn` makes of samples: a tensor of shape (batch, *shape) per tensor
/// or array, (batch,) per Python number.
pub fn collated(sample: Vec<Shape>) -> Vec<Shape> {
    sample
        .into_iter()
        .map(|s| match s.dims {
            Some(dims) => {
                let mut d = vec![None];
                d.extend(dims);
                Shape::of(d)
            }
            None => Shape::unknown(),
        })
        .collect()
}

/// The batch a loader the kernel summarized makes with the default `collate_fn` of the samples of
/// its dataset (`R.dataset`). It certainly yields a batch when the dataset is not empty, its
/// sampler visits every index, and `drop_last` leaves a batch.
fn collated_batch(obj: &ObjectSummary) -> Option<(Vec<Shape>, bool)> {
    if obj.str_fact(Category::R, "collate_fn")
        != Some("torch.utils.data._utils.collate.default_collate")
    {
        return None;
    }
    let batch_size = obj.int_fact(Category::S, "batch_size")?;
    let dataset: ObjectSummary =
        serde_json::from_value(obj.representation.get("dataset")?.clone()).ok()?;
    let (sample, length) = probed_sample(&dataset)?;
    let drop_last = obj.representation.get("drop_last") == Some(&Value::Bool(true));
    let non_empty = length > 0
        && (!drop_last || length >= batch_size)
        && matches!(
            obj.str_fact(Category::R, "sampler"),
            Some("RandomSampler" | "SequentialSampler")
        );
    Some((collated(sample), non_empty))
}

/// A tensor's shape, when the value is a tensor.
pub fn shape_of(v: &Val) -> Option<Shape> {
    match v {
        Val::Tensor(s) => Some(s.clone()),
        Val::Array(a) if a.lib == ArrayLib::Torch => {
            Some(Shape::of(a.shape.iter().map(|d| Some(*d)).collect()))
        }
        _ => None,
    }
}

/// `torch.randn(2, 10)`, `torch.zeros((2, 10))`: a tensor of that shape, of the `dtype=` given
/// when it is a literal (`torch.zeros(3, dtype=torch.long)`); `torch.arange(n)` of integers:
/// an int64 tensor of that length.
pub fn new_tensor(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let f = path.strip_prefix("torch.")?;
    if unpacks(args, keywords) || keywords.iter().any(|k| k.name.as_deref() == Some("size")) {
        return None;
    }
    let int = |e: &Expr| match w.eval(e) {
        Val::Int(i) => Some(i),
        _ => None,
    };
    let dtype_given = keyword(keywords, "dtype");
    let dtype = dtype_given
        .and_then(|d| w.lib_path(d))
        .as_deref()
        .and_then(dtype_name);
    // A new tensor autograd does not track (unless `requires_grad=True`, below).
    let tensor = |shape: Vec<i64>, dtype: Option<&str>| {
        Val::Array(ArrayVal::new(
            ArrayLib::Torch,
            shape,
            dtype.map(str::to_string),
        ))
    };
    if f == "arange" {
        let bounds: Vec<i64> = args.iter().map(int).collect::<Option<_>>()?;
        let (start, stop, step) = match bounds[..] {
            [stop] => (0, stop, 1),
            [start, stop] => (start, stop, 1),
            [start, stop, step] if step != 0 => (start, stop, step),
            _ => return None,
        };
        let len = ((stop - start) + step - step.signum()) / step;
        let dtype = match (dtype_given, dtype) {
            (None, _) => "torch.int64",
            (Some(_), Some(d)) => d,
            (Some(_), None) => return None,
        };
        return with_requires_grad(w, tensor(vec![len.max(0)], Some(dtype)), keywords, false);
    }
    if !matches!(f, "randn" | "rand" | "zeros" | "ones" | "empty") {
        return None;
    }
    let dims: Option<Vec<i64>> = match args {
        [Expr::Seq {
            kind: SeqKind::Tuple | SeqKind::List,
            elts,
            ..
        }] => elts.iter().map(int).collect(),
        _ => args.iter().map(int).collect(),
    };
    let dims = dims.filter(|d| !d.is_empty() && d.iter().all(|&n| n >= 0))?;
    with_requires_grad(w, tensor(dims, dtype), keywords, true)
}

/// What `requires_grad=` makes of a new tensor: a tensor autograd tracks for `True` (of a
/// floating-point dtype: construction raises for others, not followed), the tensor as made when
/// absent or `False`, unknown otherwise. `float_by_default`: without a dtype known, the tensor
/// is of the default dtype (`torch.zeros(3)`), not of its data's.
fn with_requires_grad(
    w: &dyn Eval,
    made: Val,
    keywords: &[Keyword],
    float_by_default: bool,
) -> Option<Val> {
    match keyword(keywords, "requires_grad") {
        None
        | Some(Expr::Literal {
            value: Literal::Bool(false),
            ..
        }) => Some(made),
        Some(Expr::Literal {
            value: Literal::Bool(true),
            ..
        }) => {
            let floating = |d: Option<&str>| d.is_none_or(|d| FLOAT_DTYPES.contains(&d));
            let is_float = match (keyword(keywords, "dtype"), &made) {
                (Some(d), _) => w
                    .lib_path(d)
                    .as_deref()
                    .and_then(dtype_name)
                    .is_some_and(|d| floating(Some(d))),
                (None, Val::Array(a)) => floating(a.dtype.as_deref()),
                (None, _) => float_by_default,
            };
            let shape = shape_of(&made)?;
            is_float.then(|| Val::Tensor(shape.tracked(true)))
        }
        Some(_) => None,
    }
}

/// `a OP b` where autograd tracks one of the tensors (`w * x + b`, `pred - y`, `x @ w`): a tensor
/// it tracks, of the shape they broadcast to where both are known. Floor division and modulo
/// give values without a gradient: not followed.
pub fn tracked_binop(op: &str, l: &Val, r: &Val) -> Option<Val> {
    let tracked = |v: &Val| matches!(v, Val::Tensor(s) if s.requires_grad);
    if !(tracked(l) || tracked(r)) || !matches!(op, "+" | "-" | "*" | "/" | "**" | "@") {
        return None;
    }
    let known = |v: &Val| -> Option<Option<Vec<i64>>> {
        match v {
            Val::Int(_) | Val::Float(_) if op != "@" => Some(Some(vec![])),
            Val::Tensor(_)
            | Val::Array(ArrayVal {
                lib: ArrayLib::Torch,
                ..
            }) => Some(
                shape_of(v)?
                    .dims
                    .and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>()),
            ),
            _ => None,
        }
    };
    let (a, b) = (known(l)?, known(r)?);
    let dims = match (a, b) {
        (Some(a), Some(b)) if op == "@" => super::shapes::matmul_shape(&a, &b),
        (Some(a), Some(b)) => super::shapes::broadcast(&a, &b),
        _ => None,
    };
    let shape = dims.map_or_else(Shape::unknown, |d| {
        Shape::of(d.into_iter().map(Some).collect())
    });
    Some(Val::Tensor(shape.tracked(true)))
}

/// `torch.sum(x)`, `torch.sigmoid(x)`, `F.relu(x)` of a tensor autograd tracks: what the method
/// of that name gives (`x.sum()`, `x.sigmoid()`).
pub fn tracked_function(
    w: &dyn Eval,
    path: &str,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Val> {
    let f = match path.strip_prefix("torch.nn.functional.") {
        // `torch.nn.functional` has these elementwise functions, not `exp` and the others.
        Some(f @ ("sigmoid" | "tanh" | "relu")) => f,
        Some(_) => return None,
        None => path.strip_prefix("torch.")?,
    };
    let [x] = args else { return None };
    match w.eval(x) {
        Val::Tensor(s) if s.requires_grad => {
            tensor_method(Some(&s), x, f, &[], keywords, &|_| None).map(Val::Tensor)
        }
        _ => None,
    }
}

/// The dtype a `torch` attribute names (`torch.long` is `torch.int64`).
fn dtype_name(path: &str) -> Option<&'static str> {
    Some(match path.strip_prefix("torch.")? {
        "int64" | "long" => "torch.int64",
        "int32" | "int" => "torch.int32",
        "int16" | "short" => "torch.int16",
        "int8" => "torch.int8",
        "uint8" => "torch.uint8",
        "bool" => "torch.bool",
        "float32" | "float" => "torch.float32",
        "float64" | "double" => "torch.float64",
        "float16" | "half" => "torch.float16",
        "bfloat16" => "torch.bfloat16",
        _ => return None,
    })
}

/// torchvision's image classifiers whose `forward` first applies an `nn.Conv2d` taking 3
/// channels, whatever the builder's arguments: the attribute that holds that layer.
pub fn torchvision_classifier(path: &str) -> Option<&'static str> {
    let name = path.strip_prefix("torchvision.models.")?;
    let family = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    if name.contains('.') {
        return None;
    }
    if family(&["resnet", "resnext", "wide_resnet"]) {
        Some("conv1")
    } else if family(&[
        "vgg",
        "alexnet",
        "densenet",
        "mobilenet_v2",
        "mobilenet_v3",
        "efficientnet",
    ]) {
        Some("features")
    } else {
        None
    }
}

/// What a call of a PyTorch library class builds (`nn.Linear(10, 5)`, `nn.BCELoss()`,
/// `torchvision.models.resnet18()`).
pub fn construct(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if let Some(first) = torchvision_classifier(path) {
        if w.attribute_rewired(first) {
            return None;
        }
        let conv = Layer::Conv {
            n: 2,
            inputs: Some(3),
            outputs: None,
            window: None,
        };
        return Some(Val::Torch(Layer::Head(Box::new(conv))));
    }
    let class = nn_class(path)?;
    if let Some(loss) = loss_class(class) {
        return Some(Val::Loss(match loss {
            Loss::Classes { .. } => Loss::Classes {
                default_ignore: keyword(keywords, "ignore_index").is_none(),
            },
            other => other,
        }));
    }
    let int = |e: &Expr| {
        const_int(e, w.source(), &|n| match w.get(n) {
            Val::Int(i) => Some(i),
            _ => None,
        })
    };
    fn sub(w: &dyn Eval, e: &Expr) -> Layer {
        match w.eval(e) {
            Val::Torch(l) => l,
            _ => Layer::Opaque,
        }
    }
    let layer = layer_of(class, args, keywords, &int, &|e| sub(w, e));
    (layer != Layer::Opaque).then_some(Val::Torch(layer))
}

/// The shape a module call gives, when known.
pub fn call_result(w: &dyn Eval, module: &Layer, args: &[Expr], keywords: &[Keyword]) -> Val {
    if !keywords.is_empty() || unpacks(args, keywords) || !gives_tensor(module) {
        return Val::Unknown;
    }
    let shapes: Vec<Option<Shape>> = args.iter().map(|a| shape_of(&w.eval(a))).collect();
    let out = match (module, shapes.as_slice()) {
        (Layer::Net(class), _) => run_forward(class, &shapes, 0).ok().flatten(),
        (_, [Some(x)]) => apply(module, x, 0).ok(),
        (_, [None]) => apply(module, &Shape::unknown(), 0)
            .ok()
            .filter(|s| *s != Shape::unknown()),
        _ => None,
    };
    out.map_or(Val::Unknown, Val::Tensor)
}

/// What a call of a torch data helper gives: a tensor of an array (`torch.tensor(X)`,
/// `torch.from_numpy(X)`), a `TensorDataset` of tensors, a `DataLoader` of one (default collate),
/// a loader wrapped in `tqdm`.
pub fn data_call(w: &dyn Eval, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if unpacks(args, keywords) {
        return None;
    }
    let only = |allowed: &[&str]| crate::ir::keywords_within(keywords, allowed);
    match path {
        "torch.tensor" | "torch.as_tensor" | "torch.from_numpy" | "torch.Tensor"
        | "torch.FloatTensor" | "torch.LongTensor" | "torch.DoubleTensor" => {
            let [a] = args else { return None };
            if !only(&["dtype", "device", "requires_grad"]) {
                return None;
            }
            let typed = keyword(keywords, "dtype").is_some();
            let made = match w.eval(a) {
                // `torch.tensor(X)` / `from_numpy(X)` of a numpy array keep its dtype.
                Val::Array(arr)
                    if arr.lib == ArrayLib::Numpy
                        && !typed
                        && matches!(
                            path,
                            "torch.tensor" | "torch.as_tensor" | "torch.from_numpy"
                        )
                        && arr.dtype.as_deref().is_some_and(|d| {
                            let d = format!("torch.{d}");
                            INTEGER_DTYPES.contains(&d.as_str())
                                || matches!(
                                    d.as_str(),
                                    "torch.float64" | "torch.float32" | "torch.float16"
                                )
                        }) =>
                {
                    // The same numbers: integer bounds hold.
                    Some(Val::Array(ArrayVal {
                        lib: ArrayLib::Torch,
                        dtype: arr.dtype.as_deref().map(|d| format!("torch.{d}")),
                        has_nan: None,
                        csv_object_column: None,
                        origin: None,
                        non_integer: None,
                        ..arr
                    }))
                }
                Val::Array(arr) => Some(Val::Tensor(Shape::of(
                    arr.shape.iter().map(|d| Some(*d)).collect(),
                ))),
                // `torch.tensor([[1, 2], [3, 4]])`: integers give int64, floats the default
                // dtype (float32, unless `torch.set_default_dtype` changed it: the rules that
                // compare float dtypes check for that).
                // `torch.tensor(3.0)`: a 0-d tensor.
                v @ (Val::Items { .. } | Val::Int(_) | Val::Float(_))
                    if matches!(path, "torch.tensor" | "torch.as_tensor") =>
                {
                    let (_, int) = literal_shape(&v)?;
                    let numbers = super::numpy::literal_array(&v)?;
                    Some(Val::Array(ArrayVal {
                        lib: ArrayLib::Torch,
                        dtype: (!typed)
                            .then(|| if int { "torch.int64" } else { "torch.float32" }.to_string()),
                        int_bounds: numbers.int_bounds.filter(|_| !typed),
                        ..numbers
                    }))
                }
                _ => None,
            }?;
            with_requires_grad(w, made, keywords, false)
        }
        // `nn.Parameter(t)`: autograd tracks it unless told not to.
        "torch.nn.Parameter" | "torch.nn.parameter.Parameter" => {
            let [a] = args else { return None };
            if !keywords.is_empty() {
                return None;
            }
            match w.eval(a) {
                v @ (Val::Tensor(_) | Val::Array(_)) => {
                    let floating = match &v {
                        Val::Array(arr) => {
                            arr.lib == ArrayLib::Torch
                                && arr
                                    .dtype
                                    .as_deref()
                                    .is_none_or(|d| FLOAT_DTYPES.contains(&d))
                        }
                        _ => true,
                    };
                    let shape = shape_of(&v)?;
                    floating.then(|| Val::Tensor(shape.tracked(true)))
                }
                _ => None,
            }
        }
        "torch.utils.data.TensorDataset" | "torch.utils.data.dataset.TensorDataset" => {
            if !keywords.is_empty() || args.is_empty() {
                return None;
            }
            let shapes: Vec<Vec<Option<i64>>> = args
                .iter()
                .map(|a| shape_of(&w.eval(a))?.dims)
                .collect::<Option<_>>()?;
            // All of the same known length (else the constructor raises).
            let len = shapes.first()?.first().copied().flatten()?;
            if shapes.iter().any(|d| d.first() != Some(&Some(len))) {
                return None;
            }
            Some(Val::Dataset {
                sample: shapes
                    .into_iter()
                    .map(|d| Shape::of(d[1..].to_vec()))
                    .collect(),
                len,
            })
        }
        "torch.utils.data.DataLoader" | "torch.utils.data.dataloader.DataLoader" => {
            let allowed = [
                "dataset",
                "batch_size",
                "shuffle",
                "num_workers",
                "pin_memory",
                "drop_last",
                "persistent_workers",
                "prefetch_factor",
                "generator",
                "timeout",
                "worker_init_fn",
            ];
            if args.len() > 3 || !only(&allowed) {
                return None;
            }
            let Val::Dataset { sample, len } = w.eval(argument(args, keywords, 0, "dataset")?)
            else {
                return None;
            };
            let batch_size = match argument(args, keywords, 1, "batch_size") {
                None => 1,
                Some(e) => match w.eval(e) {
                    Val::Int(b) if b > 0 => b,
                    _ => return None,
                },
            };
            let drop_last = match keyword(keywords, "drop_last") {
                None => Some(false),
                Some(Expr::Literal {
                    value: Literal::Bool(b),
                    ..
                }) => Some(*b),
                Some(_) => None,
            };
            let non_empty = len > 0 && drop_last.is_some_and(|d| !d || len >= batch_size);
            Some(Val::Loader {
                batch: collated(sample),
                non_empty,
            })
        }
        "tqdm.tqdm" | "tqdm.auto.tqdm" | "tqdm.notebook.tqdm" | "tqdm.tqdm_notebook" => {
            match w.eval(args.first()?) {
                loader @ Val::Loader { .. } => Some(loader),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `next(iter(loader))`: the first batch of a loader that yields one.
pub fn next_batch(w: &dyn Eval, func: &Expr, args: &[Expr]) -> Option<Val> {
    let (
        Expr::Name { id, .. },
        [Expr::Call {
            func: inner,
            args: inner_args,
            keywords,
            ..
        }],
    ) = (func, args)
    else {
        return None;
    };
    let (Expr::Name { id: iter, .. }, [loader], true) =
        (&**inner, inner_args.as_slice(), keywords.is_empty())
    else {
        return None;
    };
    if id != "next" || iter != "iter" || !w.is_builtin(id) || !w.is_builtin(iter) {
        return None;
    }
    first_batch(w, loader)
}

/// The first batch a loop over `iter` gets: a DataLoader known not to be empty (or `enumerate`
/// of one): the tensors of a batch.
pub fn first_batch(w: &dyn Eval, iter: &Expr) -> Option<Val> {
    let batch = |e: &Expr| match w.eval(e) {
        Val::Loader { batch, non_empty } if non_empty => Some(Val::Items {
            type_name: "list".into(),
            items: batch.into_iter().map(Val::Tensor).collect(),
        }),
        _ => None,
    };
    if let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = iter
    {
        if let (Expr::Name { id, .. }, [loader]) = (&**func, args.as_slice()) {
            let start = match keywords.as_slice() {
                [] => Some(0),
                [k] if k.name.as_deref() == Some("start") => match w.eval(&k.value) {
                    Val::Int(i) => Some(i),
                    _ => None,
                },
                _ => None,
            };
            if id == "enumerate" && w.is_builtin(id) {
                return Some(Val::Items {
                    type_name: "tuple".into(),
                    items: vec![start.map_or(Val::Unknown, Val::Int), batch(loader)?],
                });
            }
        }
        if let (Expr::Name { id, .. }, [loader, start]) = (&**func, args.as_slice()) {
            if id == "enumerate" && w.is_builtin(id) && keywords.is_empty() {
                return Some(Val::Items {
                    type_name: "tuple".into(),
                    items: vec![w.eval(start), batch(loader)?],
                });
            }
        }
    }
    batch(iter)
}

/// Floating-point dtypes of tensors, the only ones autograd tracks.
pub const FLOAT_DTYPES: &[&str] = &[
    "torch.float16",
    "torch.bfloat16",
    "torch.float32",
    "torch.float64",
];

/// Integer dtypes of tensors: no module's weights can have them (`Module.to` and
/// `torch.set_default_dtype` take floating-point dtypes only).
pub const INTEGER_DTYPES: &[&str] = &[
    "torch.int64",
    "torch.int32",
    "torch.int16",
    "torch.int8",
    "torch.uint8",
    "torch.bool",
];

/// How a torch callable is reached: a `Tensor` method, or a function of `torch` or of
/// `torch.nn.functional` given the tensor first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Method,
    Torch,
    Functional,
}

/// The dimensions a dim argument may name on a tensor of n dimensions: -n to n - 1 (`Rank`), or
/// -n - 1 to n (`RankPlusOne`: `unsqueeze` inserts one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Rank,
    RankPlusOne,
}

/// A dimension argument of a torch callable: its place among the arguments after the tensor,
/// the keywords that name it there, and the dimensions it may name (`torch_tables`).
pub struct DimArgument {
    pub form: Form,
    pub name: &'static str,
    pub at: usize,
    pub keywords: &'static [&'static str],
    pub bound: Bound,
}

/// The dimension arguments of the torch callable `name` reached as `form`.
pub fn dim_arguments(form: Form, name: &str) -> impl Iterator<Item = &'static DimArgument> + '_ {
    super::torch_tables::DIM_ARGUMENTS
        .iter()
        .filter(move |a| a.form == form && a.name == name)
}

/// Does the torch callable `name` reached as `form` reject tensors of integer dtypes
/// (`mean`, `std`, `softmax`, ...)?
pub fn float_only(form: Form, name: &str) -> bool {
    super::torch_tables::FLOAT_ONLY.contains(&(form, name))
}
