//! PyTorch rules: a module applied to a tensor its layers cannot take, and a loss given an input
//! and a target of shapes it rejects.
//!
//! - `torch-layer-mismatch`: a module whose own layers do not chain, whatever its input
//!   (`nn.Sequential(nn.Linear(4500, 500), nn.ReLU(), nn.Linear(1024, 128))`): calling it raises
//!   RuntimeError (`mat1 and mat2 shapes cannot be multiplied`).
//! - `torch-input-mismatch`: a module applied to a tensor of known shape that its first layers
//!   reject: an `nn.Linear` whose `in_features` differs from the tensor's last dimension, an
//!   `nn.ConvNd` given a tensor of another rank or another number of channels (dimension -N-1).
//! - `torch-loss-shape`: `nn.BCELoss` / `nn.BCEWithLogitsLoss` (and `F.binary_cross_entropy*`)
//!   with an input and a target of different sizes (ValueError: they are never broadcast),
//!   elementwise losses (`MSELoss`, `L1Loss`, ...) with shapes that do not broadcast, and
//!   `CrossEntropyLoss` / `NLLLoss` with N rows of scores and M != N class indices (ValueError).
//!
//! Modules are known from the code that builds them (`nn.Linear(a, b)`, `nn.Sequential(...)`,
//! torchvision's image classifiers, whose first layer takes 3 channels), from the kernel's summary
//! of a live `Linear` or `ConvNd`, and for instances of the notebook's own `nn.Module` subclasses
//! from the class: the layers `__init__` assigns in straight code, and a `forward` followed
//! statement by statement while it stays straight (it stops at anything it cannot follow). A
//! module the notebook may have rewired (an attribute named like one of its layers or methods
//! assigned, deleted or changed as a container anywhere, `setattr`, `add_module`, hooks) is not
//! followed. Tensors are known from the kernel's summaries, `torch.randn/zeros/ones/rand(shape)`,
//! shape methods on known tensors (`view`, `reshape`, `flatten`, `unsqueeze`, ...), layers whose
//! output shape is fixed (convolutions and pooling by their kernel, stride, padding and
//! dilation), and the batches of a DataLoader (the batch axis unknown: the last batch may be
//! smaller).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::ir::{AssignOp, Expr, Keyword, Literal, Params, SeqKind, Stmt, Target};
use crate::summary::{Category, ObjectSummary};

use super::flow::{unpacks, Walker};
use super::value::{ArrayLib, Val};

/// What is known of a tensor's shape: its dimensions when the rank is known (`None` for one of
/// unknown size), else maybe the size of its last dimension.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub dims: Option<Vec<Option<i64>>>,
    pub last: Option<i64>,
}

impl Shape {
    pub fn unknown() -> Shape {
        Shape {
            dims: None,
            last: None,
        }
    }

    pub fn of(dims: Vec<Option<i64>>) -> Shape {
        Shape {
            last: dims.last().copied().flatten(),
            dims: Some(dims),
        }
    }

    /// `(?, 3, 512, 512)`; `(..., 500)` when only the last dimension is known.
    pub fn text(&self) -> String {
        let dim = |d: &Option<i64>| d.map_or("?".to_string(), |d| d.to_string());
        match &self.dims {
            Some(dims) if dims.len() == 1 => format!("({},)", dim(&dims[0])),
            Some(dims) => format!("({})", dims.iter().map(dim).collect::<Vec<_>>().join(", ")),
            None => match self.last {
                Some(l) => format!("(..., {l})"),
                None => "(...)".to_string(),
            },
        }
    }
}

/// A module whose effect on shapes is known.
#[derive(Clone, Debug, PartialEq)]
pub enum Layer {
    /// `nn.Linear(in, out)` (`nn.LazyLinear(out)`: `in` unknown): works on the last dimension.
    Linear {
        inputs: Option<i64>,
        outputs: Option<i64>,
    },
    /// `nn.Conv{n}d(in, out, ...)`: takes (C, ...) or (N, C, ...) with `n` spatial dimensions.
    Conv {
        n: usize,
        inputs: Option<i64>,
        outputs: Option<i64>,
        window: Option<Window>,
    },
    /// Pooling over `n` spatial dimensions: the rank and channels are kept.
    Pool {
        n: usize,
        window: Option<Window>,
    },
    /// `nn.Flatten(start_dim, end_dim)`.
    Flatten(i64, i64),
    /// Activations, dropout, normalization: the shape is kept.
    Same,
    /// `nn.Sequential(...)`: the layers in order.
    Sequential(Vec<Layer>),
    /// A module of which only the first layer, applied to the input, is known (a torchvision
    /// classifier).
    Head(Box<Layer>),
    /// An instance of a notebook class (`forward` followed).
    Net(Rc<UserClass>),
    Opaque,
}

/// How a convolution or pooling maps the spatial sizes.
#[derive(Clone, Debug, PartialEq)]
pub enum Window {
    /// A sliding window (one entry per spatial dimension): size
    /// `(in + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1`, rounded down.
    Sliding {
        kernel: Vec<i64>,
        stride: Vec<i64>,
        padding: Vec<i64>,
        dilation: Vec<i64>,
    },
    /// `padding='same'`: the sizes are kept.
    Keep,
    /// Adaptive pooling to these sizes (`None` keeps the input's).
    Fixed(Vec<Option<i64>>),
}

impl Window {
    fn size(&self, i: usize, input: Option<i64>) -> Option<i64> {
        match self {
            Window::Sliding {
                kernel,
                stride,
                padding,
                dilation,
            } => {
                let reach = dilation[i].checked_mul(kernel[i] - 1)?;
                let span = input?
                    .checked_add(padding[i].checked_mul(2)?)?
                    .checked_sub(reach)?
                    .checked_sub(1)?;
                // A window larger than the input raises; not claimed here.
                (span >= 0).then(|| span / stride[i] + 1)
            }
            Window::Keep => input,
            Window::Fixed(sizes) => sizes[i].or(input),
        }
    }
}

/// The window a convolution or pooling layer's arguments give (`None` when not known):
/// `positions` are those of the kernel size, stride, padding and dilation arguments (`None`: no
/// such positional argument); with `pooling`, an absent or `None` stride is the kernel size.
fn window(
    n: usize,
    args: &[Expr],
    keywords: &[Keyword],
    positions: [Option<usize>; 4],
    pooling: bool,
    int: &dyn Fn(&Expr) -> Option<i64>,
) -> Option<Window> {
    let get = |pos: Option<usize>, name: &str| {
        pos.and_then(|p| args.get(p))
            .or_else(|| keyword(keywords, name))
    };
    let is_none = |e: &Expr| {
        matches!(
            e,
            Expr::Literal {
                value: Literal::None,
                ..
            }
        )
    };
    let ints = |e: &Expr| -> Option<Vec<i64>> {
        match e {
            Expr::Seq {
                kind: SeqKind::Tuple | SeqKind::List,
                elts,
                ..
            } if elts.len() == n => elts.iter().map(int).collect(),
            _ => int(e).map(|v| vec![v; n]),
        }
    };
    let kernel = ints(get(positions[0], "kernel_size")?)?;
    let stride = match get(positions[1], "stride") {
        Some(e) if !is_none(e) => ints(e)?,
        _ if pooling => kernel.clone(),
        _ => vec![1; n],
    };
    let padding = match get(positions[2], "padding") {
        Some(e) => match e.as_str_literal() {
            Some("same") => return Some(Window::Keep),
            Some("valid") => vec![0; n],
            Some(_) => return None,
            None => ints(e)?,
        },
        None => vec![0; n],
    };
    let dilation = match get(positions[3], "dilation") {
        Some(e) => ints(e)?,
        None => vec![1; n],
    };
    let positive = |v: &[i64]| v.iter().all(|&x| x > 0);
    (positive(&kernel)
        && positive(&stride)
        && positive(&dilation)
        && padding.iter().all(|&p| p >= 0))
    .then_some(Window::Sliding {
        kernel,
        stride,
        padding,
        dilation,
    })
}

/// A loss module.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loss {
    /// `BCELoss`, `BCEWithLogitsLoss`: input and target of the same size.
    Binary,
    /// `MSELoss`, `L1Loss`, `SmoothL1Loss`, `HuberLoss`: shapes that broadcast (a mismatch that
    /// broadcasts only warns).
    Elementwise,
    /// `CrossEntropyLoss`, `NLLLoss`: scores (N, C) and a class index per row (N,) (or class
    /// probabilities of the input's shape).
    Classes,
}

/// The loss a `torch.nn` class computes.
fn loss_class(class: &str) -> Option<Loss> {
    match class {
        "BCELoss" | "BCEWithLogitsLoss" => Some(Loss::Binary),
        "MSELoss" | "L1Loss" | "SmoothL1Loss" | "HuberLoss" => Some(Loss::Elementwise),
        "CrossEntropyLoss" | "NLLLoss" => Some(Loss::Classes),
        _ => None,
    }
}

/// A `nn.Module` subclass the notebook defines.
#[derive(Debug, PartialEq)]
pub struct UserClass {
    pub name: String,
    /// The layers `__init__` assigns to attributes in straight code; an attribute it assigns
    /// anything else (or in a branch) is `Opaque`.
    pub layers: BTreeMap<String, Layer>,
    /// Its methods: the parameters and body.
    pub methods: BTreeMap<String, (Params, Vec<Stmt>)>,
    /// The source of the cell that defines it (the bodies' ranges index into it).
    pub source: Rc<str>,
}

impl UserClass {
    /// The attribute names whose rebinding would change what the class computes.
    pub fn watched(&self) -> impl Iterator<Item = &String> {
        self.layers.keys().chain(self.methods.keys())
    }
}

/// The PyTorch class a path names (`torch.nn.Linear`, `torch.nn.modules.linear.Linear`).
fn nn_class(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("torch.nn.")?;
    let class = rest.rsplit('.').next()?;
    (rest == class || rest.starts_with("modules.")).then_some(class)
}

const SHAPE_KEEPING: &[&str] = &[
    "ReLU",
    "ReLU6",
    "LeakyReLU",
    "PReLU",
    "RReLU",
    "ELU",
    "SELU",
    "CELU",
    "GELU",
    "SiLU",
    "Mish",
    "Sigmoid",
    "LogSigmoid",
    "Tanh",
    "Softmax",
    "LogSoftmax",
    "Softplus",
    "Softsign",
    "Hardtanh",
    "Hardswish",
    "Hardsigmoid",
    "Tanhshrink",
    "Identity",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "AlphaDropout",
    "FeatureAlphaDropout",
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LayerNorm",
    "GroupNorm",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LocalResponseNorm",
];

/// Functions of a tensor that keep its shape (`F.relu(x)`, `torch.sigmoid(x)`).
const SAME_FUNCTIONS: &[&str] = &[
    "relu",
    "relu6",
    "leaky_relu",
    "elu",
    "selu",
    "gelu",
    "silu",
    "mish",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
    "softplus",
    "dropout",
    "hardtanh",
];

/// The module class of a pooling function (`max_pool2d` -> `MaxPool2d`).
fn pooling_class(f: &str) -> Option<String> {
    let (kind, n) = f.rsplit_once("_pool")?;
    let kind = match kind {
        "max" => "Max",
        "avg" => "Avg",
        "adaptive_avg" => "AdaptiveAvg",
        "adaptive_max" => "AdaptiveMax",
        _ => return None,
    };
    matches!(n, "1d" | "2d" | "3d").then(|| format!("{kind}Pool{n}"))
}

/// Tensor methods that keep the shape.
const SAME_METHODS: &[&str] = &[
    "float",
    "double",
    "half",
    "long",
    "int",
    "bool",
    "to",
    "cuda",
    "cpu",
    "detach",
    "clone",
    "contiguous",
    "relu",
    "sigmoid",
    "tanh",
    "requires_grad_",
];

fn keyword<'e>(keywords: &'e [Keyword], name: &str) -> Option<&'e Expr> {
    keywords
        .iter()
        .find(|k| k.name.as_deref() == Some(name))
        .map(|k| &k.value)
}

/// The argument at `pos` or the keyword `name`.
fn argument<'e>(
    args: &'e [Expr],
    keywords: &'e [Keyword],
    pos: usize,
    name: &str,
) -> Option<&'e Expr> {
    args.get(pos).or_else(|| keyword(keywords, name))
}

/// An int the code spells out: a literal, `-1`, or arithmetic of those (`32 * 128 * 128`).
pub fn const_int(e: &Expr, source: &str, names: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match e {
        Expr::Literal {
            value: Literal::Int(i),
            ..
        } => Some(*i),
        Expr::Name { id, .. } => names(id),
        Expr::BinOp {
            op, left, right, ..
        } => {
            let (a, b) = (
                const_int(left, source, names)?,
                const_int(right, source, names)?,
            );
            match *op {
                "*" => a.checked_mul(b),
                "+" => a.checked_add(b),
                "-" => a.checked_sub(b),
                "//" if b > 0 && a >= 0 => Some(a / b),
                _ => None,
            }
        }
        // `-1`
        Expr::Other { children, range } if children.len() == 1 => {
            let text = source.get(range.start as usize..range.end as usize)?;
            let inner = text.trim().strip_prefix('-')?;
            let child = children[0].range();
            let child_text = source.get(child.start as usize..child.end as usize)?;
            (inner.trim() == child_text.trim())
                .then(|| const_int(&children[0], source, names)?.checked_neg())
                .flatten()
        }
        _ => None,
    }
}

/// The layer `class(args)` builds; `int` reads the sizes, `sub` the layers of a `Sequential`.
pub fn layer_of(
    class: &str,
    args: &[Expr],
    keywords: &[Keyword],
    int: &dyn Fn(&Expr) -> Option<i64>,
    sub: &dyn Fn(&Expr) -> Layer,
) -> Layer {
    if unpacks(args, keywords) {
        return Layer::Opaque;
    }
    let size = |pos: usize, name: &str| argument(args, keywords, pos, name).and_then(int);
    let spatial = |prefix: &str| -> Option<usize> {
        let rest = class.strip_prefix(prefix)?;
        match rest {
            "1d" => Some(1),
            "2d" => Some(2),
            "3d" => Some(3),
            _ => None,
        }
    };
    match class {
        "Linear" => Layer::Linear {
            inputs: size(0, "in_features"),
            outputs: size(1, "out_features"),
        },
        "LazyLinear" => Layer::Linear {
            inputs: None,
            outputs: size(0, "out_features"),
        },
        "Flatten" => {
            let start = match argument(args, keywords, 0, "start_dim") {
                Some(e) => int(e),
                None => Some(1),
            };
            let end = match argument(args, keywords, 1, "end_dim") {
                Some(e) => int(e),
                None => Some(-1),
            };
            match (start, end) {
                (Some(s), Some(e)) => Layer::Flatten(s, e),
                _ => Layer::Opaque,
            }
        }
        // `return_indices=True` gives a tuple.
        _ if keyword(keywords, "return_indices").is_some() => Layer::Opaque,
        "Sequential" if keywords.is_empty() => Layer::Sequential(args.iter().map(sub).collect()),
        c if SHAPE_KEEPING.contains(&c) => Layer::Same,
        _ => {
            if let Some(n) = spatial("Conv") {
                return Layer::Conv {
                    n,
                    inputs: size(0, "in_channels"),
                    outputs: size(1, "out_channels"),
                    window: window(
                        n,
                        args,
                        keywords,
                        [Some(2), Some(3), Some(4), Some(5)],
                        false,
                        int,
                    ),
                };
            }
            // `ceil_mode=True` rounds up (not followed).
            let floor = |pos: usize| match argument(args, keywords, pos, "ceil_mode") {
                None => true,
                Some(e) => matches!(
                    e,
                    Expr::Literal {
                        value: Literal::Bool(false),
                        ..
                    }
                ),
            };
            if let Some(n) = spatial("MaxPool") {
                let w = floor(5)
                    .then(|| {
                        window(
                            n,
                            args,
                            keywords,
                            [Some(0), Some(1), Some(2), Some(3)],
                            true,
                            int,
                        )
                    })
                    .flatten();
                return Layer::Pool { n, window: w };
            }
            if let Some(n) = spatial("AvgPool") {
                let w = floor(3)
                    .then(|| {
                        window(
                            n,
                            args,
                            keywords,
                            [Some(0), Some(1), Some(2), None],
                            true,
                            int,
                        )
                    })
                    .flatten();
                return Layer::Pool { n, window: w };
            }
            if let Some(n) = spatial("AdaptiveAvgPool").or_else(|| spatial("AdaptiveMaxPool")) {
                let sizes = argument(args, keywords, 0, "output_size").and_then(|e| match e {
                    Expr::Seq {
                        kind: SeqKind::Tuple | SeqKind::List,
                        elts,
                        ..
                    } if elts.len() == n => elts
                        .iter()
                        .map(|e| match e {
                            Expr::Literal {
                                value: Literal::None,
                                ..
                            } => Some(None),
                            e => int(e).map(Some),
                        })
                        .collect(),
                    e => int(e).map(|v| vec![Some(v); n]),
                });
                return Layer::Pool {
                    n,
                    window: sizes.map(Window::Fixed),
                };
            }
            Layer::Opaque
        }
    }
}

/// Why a module cannot take a tensor: the layer (its place in the module, for messages) and the
/// problem.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub at: String,
    pub problem: String,
}

fn layer_text(layer: &Layer) -> String {
    let n = |d: &Option<i64>| d.map_or("?".to_string(), |d| d.to_string());
    match layer {
        Layer::Linear { inputs, outputs } => format!("Linear({}, {})", n(inputs), n(outputs)),
        Layer::Conv {
            n: k,
            inputs,
            outputs,
            ..
        } => {
            format!("Conv{k}d({}, {})", n(inputs), n(outputs))
        }
        _ => "a layer".to_string(),
    }
}

/// The shape `layer` gives a tensor of shape `x`, or why it raises.
pub fn apply(layer: &Layer, x: &Shape, depth: usize) -> Result<Shape, Mismatch> {
    let fail = |problem: String| Mismatch {
        at: String::new(),
        problem,
    };
    match layer {
        Layer::Linear { inputs, outputs } => {
            if let (Some(want), Some(got)) = (inputs, x.last) {
                if *want != got {
                    return Err(fail(format!(
                        "{} takes {want} features at the last dimension, but gets a tensor of shape {} ({got} features): RuntimeError (mat1 and mat2 shapes cannot be multiplied)",
                        layer_text(layer),
                        x.text()
                    )));
                }
            }
            Ok(match &x.dims {
                Some(dims) if !dims.is_empty() => {
                    let mut d = dims.clone();
                    *d.last_mut().unwrap() = *outputs;
                    Shape::of(d)
                }
                _ => Shape {
                    dims: None,
                    last: *outputs,
                },
            })
        }
        Layer::Conv {
            n,
            inputs,
            outputs,
            window,
        } => {
            let Some(dims) = &x.dims else {
                return Ok(Shape::unknown());
            };
            let rank = dims.len();
            if rank != n + 1 && rank != n + 2 {
                return Err(fail(format!(
                    "{} takes a {}D (unbatched) or {}D (batched) input, but gets a tensor of shape {}: RuntimeError",
                    layer_text(layer),
                    n + 1,
                    n + 2,
                    x.text()
                )));
            }
            let channel = rank - n - 1;
            if let (Some(want), Some(got)) = (inputs, dims[channel]) {
                if *want != got {
                    return Err(fail(format!(
                        "{} takes {want} channels (dimension {channel}), but gets a tensor of shape {} ({got} channels): RuntimeError",
                        layer_text(layer),
                        x.text()
                    )));
                }
            }
            let mut d = dims[..channel].to_vec();
            d.push(*outputs);
            d.extend(slid(window.as_ref(), &dims[channel + 1..]));
            Ok(Shape::of(d))
        }
        Layer::Pool { n, window } => Ok(match &x.dims {
            Some(dims) if dims.len() == n + 1 || dims.len() == n + 2 => {
                let keep = dims.len() - n;
                let mut d = dims[..keep].to_vec();
                d.extend(slid(window.as_ref(), &dims[keep..]));
                Shape::of(d)
            }
            _ => Shape::unknown(),
        }),
        Layer::Flatten(start, end) => Ok(flatten(x, *start, *end)),
        Layer::Same => Ok(x.clone()),
        Layer::Sequential(layers) => {
            let mut x = x.clone();
            for (i, l) in layers.iter().enumerate() {
                x = apply(l, &x, depth).map_err(|m| Mismatch {
                    at: format!("[{i}]{}", m.at),
                    problem: m.problem,
                })?;
            }
            Ok(x)
        }
        Layer::Head(first) => {
            apply(first, x, depth).map_err(|m| Mismatch {
                at: "its first layer".to_string(),
                problem: m.problem,
            })?;
            Ok(Shape::unknown())
        }
        Layer::Net(class) => {
            Ok(run_forward(class, &[Some(x.clone())], depth)?.unwrap_or_else(Shape::unknown))
        }
        Layer::Opaque => Ok(Shape::unknown()),
    }
}

/// The spatial sizes a window gives (unknown without one).
fn slid(window: Option<&Window>, sizes: &[Option<i64>]) -> Vec<Option<i64>> {
    sizes
        .iter()
        .enumerate()
        .map(|(i, s)| window.and_then(|w| w.size(i, *s)))
        .collect()
}

/// `torch.flatten(x, start, end)`, when it succeeds.
fn flatten(x: &Shape, start: i64, end: i64) -> Shape {
    match &x.dims {
        Some(dims) => {
            let r = dims.len().max(1) as i64;
            let (s, e) = (
                if start < 0 { start + r } else { start },
                if end < 0 { end + r } else { end },
            );
            if s < 0 || e < s || e >= r {
                return Shape::unknown();
            }
            if dims.is_empty() {
                return Shape::of(vec![Some(1)]);
            }
            let (s, e) = (s as usize, e as usize);
            let merged = dims[s..=e]
                .iter()
                .try_fold(1i64, |acc, d| d.and_then(|d| acc.checked_mul(d)));
            let mut d = dims[..s].to_vec();
            d.push(merged);
            d.extend_from_slice(&dims[e + 1..]);
            Shape::of(d)
        }
        // Flattening to the end from a known start: the rank is start + 1.
        None if end == -1 && (0..8).contains(&start) => Shape::of(vec![None; start as usize + 1]),
        None => Shape::unknown(),
    }
}

/// One size given to `view` / `reshape`.
#[derive(Clone, Copy, PartialEq)]
enum Size {
    Known(i64),
    /// `-1`: what the other sizes leave.
    Rest,
    /// The size of the tensor's own dimension (`x.view(x.size(0), -1)`).
    Own(usize),
    Unknown,
}

/// `x.view(a, b, ...)` / `x.reshape(...)` to `sizes`, when it succeeds: the rank is the number of
/// sizes.
fn reshaped(x: &Shape, sizes: &[Size]) -> Shape {
    if sizes.iter().filter(|s| **s == Size::Rest).count() > 1 {
        return Shape::unknown();
    }
    fn product(mut dims: impl Iterator<Item = Option<i64>>) -> Option<i64> {
        dims.try_fold(1i64, |acc, d| acc.checked_mul(d?))
    }
    // The elements left for `-1`: those of the dimensions not reused, over the known sizes.
    let own: Vec<usize> = sizes
        .iter()
        .filter_map(|s| match s {
            Size::Own(k) => Some(*k),
            _ => None,
        })
        .collect();
    let left = x.dims.as_ref().and_then(|d| {
        product(
            d.iter()
                .enumerate()
                .filter(|(i, _)| !own.contains(i))
                .map(|(_, d)| *d),
        )
    });
    let known = product(sizes.iter().filter_map(|s| match s {
        Size::Known(d) => Some(Some(*d)),
        Size::Unknown => Some(None),
        _ => None,
    }));
    let dims = sizes
        .iter()
        .map(|s| match s {
            Size::Rest => match (left, known) {
                (Some(t), Some(k)) if k > 0 && t % k == 0 => Some(t / k),
                _ => None,
            },
            Size::Known(d) if *d >= 0 => Some(*d),
            Size::Own(k) => x.dims.as_ref().and_then(|d| d.get(*k).copied().flatten()),
            _ => None,
        })
        .collect();
    Shape::of(dims)
}

/// Calls `forward` of an instance of `class` on arguments of the given shapes: the shape of what
/// it returns (when one tensor of known rank), or where it certainly raises.
pub fn run_forward(
    class: &UserClass,
    args: &[Option<Shape>],
    depth: usize,
) -> Result<Option<Shape>, Mismatch> {
    run_method(class, "forward", args, depth)
}

fn run_method(
    class: &UserClass,
    method: &str,
    args: &[Option<Shape>],
    depth: usize,
) -> Result<Option<Shape>, Mismatch> {
    let Some((params, body)) = class.methods.get(method) else {
        return Ok(None);
    };
    if depth > 4
        || params.vararg
        || params.kwarg
        || params.positional != params.names.len()
        || params.positional != args.len() + 1
    {
        return Ok(None);
    }
    let mut run = Forward {
        class,
        me: &params.names[0],
        locals: params.names[1..]
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect(),
        depth: depth + 1,
    };
    run.body(body).map_err(|m| Mismatch {
        at: if m.at.starts_with(&class.name) {
            m.at
        } else {
            format!("{}.{method}: {}", class.name, m.at)
        },
        problem: m.problem,
    })
}

/// Following a method of a notebook class on tensors of known shapes.
struct Forward<'c> {
    class: &'c UserClass,
    /// The name of its `self` parameter.
    me: &'c str,
    /// Local names and the shapes of the tensors they hold (`None`: unknown).
    locals: BTreeMap<String, Option<Shape>>,
    depth: usize,
}

impl Forward<'_> {
    /// The shape the body returns; it stops (`Ok(None)`) at a statement it cannot follow.
    fn body(&mut self, body: &[Stmt]) -> Result<Option<Shape>, Mismatch> {
        for s in body {
            match s {
                Stmt::Expr {
                    value: Expr::Literal { .. },
                    ..
                } => {}
                Stmt::Expr {
                    value: Expr::Call { func, args, .. },
                    ..
                } if matches!(&**func, Expr::Name { id, .. } if id == "print") => {
                    for a in args {
                        self.eval(a)?;
                    }
                }
                Stmt::Assign {
                    targets,
                    op: AssignOp::Plain,
                    value: Some(value),
                    ..
                } => {
                    let v = self.eval(value)?;
                    match targets.as_slice() {
                        [Target::Name { id, .. }] if id != self.me => {
                            self.locals.insert(id.clone(), v);
                        }
                        _ => return Ok(None),
                    }
                }
                Stmt::Other { exprs, .. }
                    if super::calls::keyword(s, &self.class.source) == Some("return") =>
                {
                    return match exprs.as_slice() {
                        [e] => self.eval(e),
                        _ => Ok(None),
                    };
                }
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    fn int(&self, e: &Expr) -> Option<i64> {
        const_int(e, &self.class.source, &|_| None)
    }

    /// Is `e` `self.<attr>`?
    fn own_attr<'e>(&self, e: &'e Expr) -> Option<&'e str> {
        match e {
            Expr::Attribute { value, attr, .. } if matches!(&**value, Expr::Name { id, .. } if id == self.me) => {
                Some(attr)
            }
            _ => None,
        }
    }

    /// The shape of the tensor `e` gives, evaluating what certainly runs.
    fn eval(&mut self, e: &Expr) -> Result<Option<Shape>, Mismatch> {
        match e {
            Expr::Name { id, .. } => Ok(self.locals.get(id).cloned().flatten()),
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => {
                let shapes: Vec<Option<Shape>> = args
                    .iter()
                    .map(|a| self.eval(a))
                    .collect::<Result<_, _>>()?;
                for k in keywords {
                    self.eval(&k.value)?;
                }
                if unpacks(args, keywords) {
                    return Ok(None);
                }
                let first = shapes.first().cloned().flatten();
                // `self.fc1(x)`, `self.block(x)`
                if let Some(attr) = self.own_attr(func) {
                    if let Some(layer) = self.class.layers.get(attr) {
                        if !keywords.is_empty() || args.len() != 1 {
                            return Ok(None);
                        }
                        let x = first.unwrap_or_else(Shape::unknown);
                        return apply(layer, &x, self.depth)
                            .map(|s| (s != Shape::unknown()).then_some(s))
                            .map_err(|m| Mismatch {
                                at: format!("{}.{attr}{}", self.class.name, m.at),
                                problem: m.problem,
                            });
                    }
                    if self.class.methods.contains_key(attr) && keywords.is_empty() {
                        return run_method(self.class, attr, &shapes, self.depth);
                    }
                    return Ok(None);
                }
                match &**func {
                    // `x.view(-1, 32 * 128 * 128)`, `x.relu()`
                    Expr::Attribute { value, attr, .. } => {
                        let base = self.eval(value)?;
                        let path = func.dotted_path();
                        let function = match path.as_deref() {
                            Some([m, f]) if matches!(*m, "F" | "torch") => Some(*f),
                            _ => None,
                        };
                        if let Some(f) = function {
                            if SAME_FUNCTIONS.contains(&f) {
                                return Ok(first);
                            }
                            // `F.max_pool2d(x, 2)`: the arguments after the input in the order
                            // of the module's (as far as the dilation).
                            if let (Some(class), Some(x), true) =
                                (pooling_class(f), first.as_ref(), args.len() <= 5)
                            {
                                let int = |e: &Expr| self.int(e);
                                let layer = layer_of(&class, &args[1..], keywords, &int, &|_| {
                                    Layer::Opaque
                                });
                                return Ok(apply(&layer, x, self.depth).ok());
                            }
                            if f == "flatten" {
                                let start = args.get(1).map_or(Some(0), |e| self.int(e));
                                let end = args.get(2).map_or(Some(-1), |e| self.int(e));
                                return Ok(match (first, start, end, keywords.is_empty()) {
                                    (Some(x), Some(s), Some(e), true) => Some(flatten(&x, s, e)),
                                    (None, Some(s), Some(-1), true) if s >= 0 => {
                                        Some(flatten(&Shape::unknown(), s, -1))
                                    }
                                    _ => None,
                                });
                            }
                            return Ok(None);
                        }
                        Ok(tensor_method(
                            base.as_ref(),
                            value,
                            attr,
                            args,
                            keywords,
                            &|e| self.int(e),
                        ))
                    }
                    _ => Ok(None),
                }
            }
            Expr::Attribute { value, .. } | Expr::Subscript { value, .. } => {
                self.eval(value)?;
                Ok(None)
            }
            _ => Ok(None),
        }
    }
}

/// The shape a shape method of a tensor gives (`view`, `reshape`, `flatten`, `unsqueeze`, ...);
/// `base` is the tensor's shape when known, `int` reads int arguments.
pub fn tensor_method(
    base: Option<&Shape>,
    receiver: &Expr,
    attr: &str,
    args: &[Expr],
    keywords: &[Keyword],
    int: &dyn Fn(&Expr) -> Option<i64>,
) -> Option<Shape> {
    if unpacks(args, keywords) {
        return None;
    }
    match attr {
        "view" | "reshape" if keywords.is_empty() && !args.is_empty() => {
            // `x.view(a, b)` or `x.view((a, b))`; an int argument not known here is `None`
            // (`x.size(0)`), a `torch.Size` or a dtype is not followed.
            let sizes: Vec<&Expr> = match args {
                [Expr::Seq {
                    kind: SeqKind::Tuple | SeqKind::List,
                    elts,
                    ..
                }] => elts.iter().collect(),
                [one] if int(one).is_none() && !is_size_call(one) => return None,
                _ => args.iter().collect(),
            };
            let x = base.cloned().unwrap_or_else(Shape::unknown);
            let rank = x.dims.as_ref().map(Vec::len);
            let sizes: Vec<Size> = sizes
                .into_iter()
                .map(|e| match (int(e), own_dimension(receiver, e, rank)) {
                    (Some(-1), _) => Size::Rest,
                    (Some(d), _) => Size::Known(d),
                    (None, Some(k)) => Size::Own(k),
                    (None, None) => Size::Unknown,
                })
                .collect();
            Some(reshaped(&x, &sizes))
        }
        "flatten" if keywords.is_empty() => {
            let start = args.first().map_or(Some(0), int)?;
            let end = args.get(1).map_or(Some(-1), int)?;
            let x = base.cloned().unwrap_or_else(Shape::unknown);
            Some(flatten(&x, start, end)).filter(|s| *s != Shape::unknown())
        }
        "unsqueeze" if keywords.is_empty() => {
            let dims = base?.dims.as_ref()?;
            let d = int(args.first()?)?;
            let r = dims.len() as i64 + 1;
            let at = if d < 0 { d + r } else { d };
            if !(0..r).contains(&at) {
                return None;
            }
            let mut out = dims.clone();
            out.insert(at as usize, Some(1));
            Some(Shape::of(out))
        }
        "squeeze" if keywords.is_empty() => {
            let dims = base?.dims.as_ref()?;
            match args {
                [] if dims.iter().all(Option::is_some) => Some(Shape::of(
                    dims.iter().copied().filter(|d| *d != Some(1)).collect(),
                )),
                [d] => {
                    let d = int(d)?;
                    let r = dims.len() as i64;
                    let at = if d < 0 { d + r } else { d };
                    match dims.get(usize::try_from(at).ok()?)? {
                        Some(1) => {
                            let mut out = dims.clone();
                            out.remove(at as usize);
                            Some(Shape::of(out))
                        }
                        Some(_) => Some(Shape::of(dims.clone())),
                        None => None,
                    }
                }
                _ => None,
            }
        }
        "t" | "T" if args.is_empty() => {
            let dims = base?.dims.as_ref()?;
            (dims.len() <= 2).then(|| Shape::of(dims.iter().rev().copied().collect()))
        }
        m if SAME_METHODS.contains(&m) => base.cloned(),
        _ => None,
    }
}

/// The dimension of the tensor `receiver` whose size `e` reads (`x.size(0)`, `x.shape[0]`,
/// `x.size()[-1]`, `len(x)`), when the receiver is a name or attribute chain and its rank known
/// for a negative index.
fn own_dimension(receiver: &Expr, e: &Expr, rank: Option<usize>) -> Option<usize> {
    let literal = |e: &Expr| match e {
        Expr::Literal {
            value: Literal::Int(i),
            ..
        } => Some(*i),
        _ => None,
    };
    let (of, k) = match e {
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } if keywords.is_empty() => match (&**func, args.as_slice()) {
            (Expr::Attribute { value, attr, .. }, [k]) if attr == "size" => (&**value, literal(k)?),
            (Expr::Name { id, .. }, [x]) if id == "len" => (x, 0),
            _ => return None,
        },
        Expr::Subscript { value, index, .. } => {
            let k = literal(index)?;
            match &**value {
                Expr::Attribute { value, attr, .. } if attr == "shape" => (&**value, k),
                Expr::Call { func, args, .. } if args.is_empty() => match &**func {
                    Expr::Attribute { value, attr, .. } if attr == "size" => (&**value, k),
                    _ => return None,
                },
                _ => return None,
            }
        }
        _ => return None,
    };
    let same = receiver.dotted_path().is_some() && receiver.dotted_path() == of.dotted_path();
    let k = if k < 0 { k + rank? as i64 } else { k };
    (same && k >= 0).then_some(k as usize)
}

/// `x.size(0)`, `x.shape[0]`, `x.size()[0]`, `len(x)`: one int not known here (a `view` to it
/// gives one dimension).
fn is_size_call(e: &Expr) -> bool {
    match e {
        Expr::Call { func, args, .. } if args.len() == 1 => {
            matches!(&**func, Expr::Attribute { attr, .. } if attr == "size")
                || matches!(&**func, Expr::Name { id, .. } if id == "len")
        }
        Expr::Subscript { value, index, .. }
            if matches!(
                &**index,
                Expr::Literal {
                    value: Literal::Int(_),
                    ..
                }
            ) =>
        {
            match &**value {
                Expr::Attribute { attr, .. } => attr == "shape",
                Expr::Call { func, args, .. } if args.is_empty() => {
                    matches!(&**func, Expr::Attribute { attr, .. } if attr == "size")
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Module methods that return the module itself, its layers unchanged (`model.to(device)`).
pub const RETURNS_MODULE: &[&str] = &[
    "to",
    "cuda",
    "cpu",
    "train",
    "eval",
    "float",
    "double",
    "half",
    "requires_grad_",
];

/// The class a notebook's `class name(nn.Module)` statement defines, when its base is
/// `torch.nn.Module` (`resolve` gives the library path of a base) and nothing in it changes how
/// an instance is called or looks up attributes.
pub fn user_class(
    name: &str,
    bases: &[Expr],
    body: &[Stmt],
    source: Rc<str>,
    resolve: &dyn Fn(&Expr) -> Option<String>,
) -> Option<UserClass> {
    let [base] = bases else { return None };
    if !matches!(
        resolve(base).as_deref(),
        Some("torch.nn.Module" | "torch.nn.modules.module.Module")
    ) {
        return None;
    }
    let mut methods = BTreeMap::new();
    for s in body {
        match s {
            Stmt::FunctionDef {
                name,
                decorators,
                params,
                body,
                ..
            } => {
                if !decorators.is_empty()
                    || matches!(
                        name.as_str(),
                        "__call__"
                            | "__getattr__"
                            | "__getattribute__"
                            | "__setattr__"
                            | "_call_impl"
                    )
                {
                    return None;
                }
                methods.insert(name.clone(), (params.clone(), body.clone()));
            }
            Stmt::Expr { .. } | Stmt::Other { .. } => {}
            // Class attributes (`__call__ = ...`) may change anything.
            _ => return None,
        }
    }
    let mut layers = BTreeMap::new();
    if let Some((params, init)) = methods.get("__init__") {
        let me = params.names.first()?;
        let params: BTreeSet<&String> = params.names.iter().collect();
        let int = |e: &Expr| const_int(e, &source, &|_| None);
        fn build(
            e: &Expr,
            params: &BTreeSet<&String>,
            resolve: &dyn Fn(&Expr) -> Option<String>,
            int: &dyn Fn(&Expr) -> Option<i64>,
        ) -> Layer {
            let Expr::Call {
                func,
                args,
                keywords,
                ..
            } = e
            else {
                return Layer::Opaque;
            };
            let root = func
                .dotted_path()
                .and_then(|p| p.first().map(|s| s.to_string()));
            if root.is_some_and(|r| params.contains(&r)) {
                return Layer::Opaque;
            }
            match resolve(func).as_deref().and_then(nn_class) {
                Some(class) => layer_of(class, args, keywords, int, &|e| {
                    build(e, params, resolve, int)
                }),
                None => Layer::Opaque,
            }
        }
        for s in init {
            match s {
                Stmt::Assign {
                    targets,
                    op: AssignOp::Plain,
                    value: Some(value),
                    ..
                } if targets.len() == 1 => {
                    if let Target::Store {
                        expr:
                            Expr::Attribute {
                                value: obj, attr, ..
                            },
                        ..
                    } = &targets[0]
                    {
                        if matches!(&**obj, Expr::Name { id, .. } if id == me) {
                            layers.insert(attr.clone(), build(value, &params, resolve, &int));
                            continue;
                        }
                    }
                    forget_stores(std::slice::from_ref(s), &mut layers);
                }
                other => forget_stores(std::slice::from_ref(other), &mut layers),
            }
        }
    }
    Some(UserClass {
        name: name.to_string(),
        layers,
        methods,
        source,
    })
}

/// Attributes the statements may assign (or change as containers): not followed.
fn forget_stores(stmts: &[Stmt], layers: &mut BTreeMap<String, Layer>) {
    let mut attrs = BTreeSet::new();
    stored_attributes(stmts, &mut attrs);
    for a in attrs {
        layers.insert(a, Layer::Opaque);
    }
}

/// The attribute names the statements store to or delete (`x.fc = ...`, `x.fc[0] = ...`,
/// `del x.fc`), function and class bodies included, but for those on `self` in an `__init__`
/// (they build the object, not change one).
pub fn stored_attributes(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    stores_in(stmts, None, out);
}

fn stores_in(stmts: &[Stmt], skip: Option<&str>, out: &mut BTreeSet<String>) {
    fn target(t: &Target, skip: Option<&str>, out: &mut BTreeSet<String>) {
        match t {
            Target::Store { expr, .. } => {
                let root = expr.dotted_path().and_then(|p| p.first().copied());
                if root.is_none() || root != skip {
                    attrs_in(expr, out);
                }
            }
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| target(t, skip, out)),
            Target::Starred { target: t, .. } => target(t, skip, out),
            Target::Name { .. } => {}
        }
    }
    fn attrs_in(e: &Expr, out: &mut BTreeSet<String>) {
        match e {
            Expr::Attribute { value, attr, .. } => {
                out.insert(attr.clone());
                attrs_in(value, out);
            }
            Expr::Subscript { value, .. } => attrs_in(value, out),
            _ => {}
        }
    }
    // `self.head.append(layer)`: a container of layers changed (in `__init__` too, where the
    // layers it assigned are then not known).
    super::history::for_each_expr(stmts, &mut |e| {
        if let Expr::Call { func, .. } = e {
            if let Expr::Attribute { value, attr, .. } = &**func {
                if CHANGES_CONTAINER.contains(&attr.as_str()) {
                    attrs_in(value, out);
                }
            }
        }
    });
    for s in stmts {
        match s {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| target(t, skip, out))
            }
            Stmt::For { target: t, .. } => target(t, skip, out),
            Stmt::With { items, .. } => {
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target(t, skip, out);
                }
            }
            Stmt::ClassDef { body, .. } => {
                for m in body {
                    match m {
                        Stmt::FunctionDef {
                            name, params, body, ..
                        } if name == "__init__" => {
                            stores_in(body, params.names.first().map(String::as_str), out)
                        }
                        other => stores_in(std::slice::from_ref(other), None, out),
                    }
                }
                continue;
            }
            _ => {}
        }
        s.for_each_block(|b| stores_in(b, skip, out));
    }
}

/// Methods that change a container of layers (`nn.Sequential`, `nn.ModuleList`, `nn.ModuleDict`).
const CHANGES_CONTAINER: &[&str] = &[
    "append",
    "insert",
    "extend",
    "pop",
    "update",
    "clear",
    "add_module",
    "register_module",
    "__setitem__",
    "__delitem__",
];

/// Methods of a module that leave its layers as they are.
pub const KEEPS_LAYERS: &[&str] = &[
    "to",
    "cuda",
    "cpu",
    "train",
    "eval",
    "float",
    "double",
    "half",
    "requires_grad_",
    "parameters",
    "named_parameters",
    "buffers",
    "named_buffers",
    "children",
    "named_children",
    "modules",
    "named_modules",
    "state_dict",
    "load_state_dict",
    "zero_grad",
];

/// May the statements change the module `name` holds in place: a method other than those that
/// keep its layers, the module passed to a call, stored into, or bound to another name? (Its
/// layers replaced through attributes are seen by `stored_attributes` anywhere.)
pub fn module_changed(stmts: &[Stmt], name: &str) -> bool {
    let mut aliased = BTreeSet::new();
    super::history::aliased_names(stmts, &mut aliased);
    let mut stored = BTreeSet::new();
    super::flow::mutated_names(stmts, &mut stored);
    if aliased.contains(name) || !stored.contains(name) {
        return aliased.contains(name);
    }
    // `mutated_names` counts every method called on it: look closer.
    let mut changed = false;
    super::history::for_each_expr(stmts, &mut |e| {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        else {
            return;
        };
        if let Expr::Attribute { value, attr, .. } = &**func {
            if matches!(&**value, Expr::Name { id, .. } if id == name)
                && !KEEPS_LAYERS.contains(&attr.as_str())
            {
                changed = true;
            }
        }
        let mut passed = BTreeSet::new();
        args.iter()
            .for_each(|a| super::flow::root_names(a, &mut passed));
        keywords
            .iter()
            .for_each(|k| super::flow::root_names(&k.value, &mut passed));
        changed |= passed.contains(name);
    });
    let mut targets = BTreeSet::new();
    stored_targets(stmts, &mut targets);
    changed || targets.contains(name)
}

/// The names whose objects the statements store into or delete from (`x.a = ...`, `x[0] = ...`,
/// `del x[0]`), nested blocks included.
fn stored_targets(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    fn target(t: &Target, out: &mut BTreeSet<String>) {
        match t {
            Target::Store { expr, .. } => super::flow::root_names(expr, out),
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| target(t, out)),
            Target::Starred { target: t, .. } => target(t, out),
            Target::Name { .. } => {}
        }
    }
    for s in stmts {
        match s {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| target(t, out))
            }
            Stmt::For { target: t, .. } => target(t, out),
            Stmt::With { items, .. } => {
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target(t, out);
                }
            }
            _ => {}
        }
        s.for_each_block(|b| stored_targets(b, out));
    }
}

/// Does the code rewire modules in ways not seen as attribute stores: `setattr`, `add_module`,
/// `register_module`, forward hooks, `__dict__`?
pub fn rewires_modules(stmts: &[Stmt]) -> bool {
    let mut found = false;
    super::history::for_each_expr(stmts, &mut |e| {
        let name = match e {
            Expr::Name { id, .. } => id.as_str(),
            Expr::Attribute { attr, .. } => attr.as_str(),
            _ => return,
        };
        found |= matches!(
            name,
            "setattr"
                | "add_module"
                | "register_module"
                | "register_forward_hook"
                | "register_forward_pre_hook"
                | "register_module_forward_hook"
                | "register_module_forward_pre_hook"
                | "__dict__"
                | "__class__"
        );
    });
    found
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
            if !matches!(class, "Linear" | "Conv1d" | "Conv2d" | "Conv3d") {
                return None;
            }
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
                    _ => Layer::Linear {
                        inputs: int("in_features"),
                        outputs: int("out_features"),
                    },
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
fn collated(sample: Vec<Shape>) -> Vec<Shape> {
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

/// `torch.randn(2, 10)`, `torch.zeros((2, 10))`: a tensor of that shape.
pub fn new_tensor(w: &Walker, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    let f = path.strip_prefix("torch.")?;
    if !matches!(f, "randn" | "rand" | "zeros" | "ones" | "empty")
        || unpacks(args, keywords)
        || keywords.iter().any(|k| k.name.as_deref() == Some("size"))
    {
        return None;
    }
    let int = |e: &Expr| match w.eval(e) {
        Val::Int(i) if i >= 0 => Some(i),
        _ => None,
    };
    let dims: Option<Vec<i64>> = match args {
        [Expr::Seq {
            kind: SeqKind::Tuple | SeqKind::List,
            elts,
            ..
        }] => elts.iter().map(int).collect(),
        _ => args.iter().map(int).collect(),
    };
    let dims = dims.filter(|d| !d.is_empty())?;
    Some(Val::Tensor(Shape::of(dims.into_iter().map(Some).collect())))
}

/// torchvision's image classifiers whose `forward` first applies an `nn.Conv2d` taking 3
/// channels, whatever the builder's arguments: the attribute that holds that layer.
fn torchvision_classifier(path: &str) -> Option<&'static str> {
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
pub fn construct(w: &Walker, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
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
        return Some(Val::Loss(loss));
    }
    let int = |e: &Expr| {
        const_int(e, w.ctx.source, &|n| match w.get(n) {
            Val::Int(i) => Some(i),
            _ => None,
        })
    };
    fn sub(w: &Walker, e: &Expr) -> Layer {
        match w.eval(e) {
            Val::Torch(l) => l,
            _ => Layer::Opaque,
        }
    }
    let layer = layer_of(class, args, keywords, &int, &|e| sub(w, e));
    (layer != Layer::Opaque).then_some(Val::Torch(layer))
}

/// The shape a module call gives, when known.
pub fn call_result(w: &Walker, module: &Layer, args: &[Expr], keywords: &[Keyword]) -> Val {
    if !keywords.is_empty() || unpacks(args, keywords) {
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
pub fn data_call(w: &Walker, path: &str, args: &[Expr], keywords: &[Keyword]) -> Option<Val> {
    if unpacks(args, keywords) {
        return None;
    }
    let only = |allowed: &[&str]| {
        keywords
            .iter()
            .all(|k| k.name.as_deref().is_some_and(|n| allowed.contains(&n)))
    };
    match path {
        "torch.tensor" | "torch.as_tensor" | "torch.from_numpy" | "torch.Tensor"
        | "torch.FloatTensor" | "torch.LongTensor" | "torch.DoubleTensor" => {
            let [a] = args else { return None };
            if !only(&["dtype", "device", "requires_grad"]) {
                return None;
            }
            match w.eval(a) {
                Val::Array(arr) => Some(Val::Tensor(Shape::of(
                    arr.shape.iter().map(|d| Some(*d)).collect(),
                ))),
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
pub fn next_batch(w: &Walker, func: &Expr, args: &[Expr]) -> Option<Val> {
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
pub fn first_batch(w: &Walker, iter: &Expr) -> Option<Val> {
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
    if unpacks(args, keywords) {
        return;
    }
    let callee = w.eval(func);
    // `F.binary_cross_entropy(input, target)`
    let functional =
        w.lib_path(func)
            .and_then(|p| match p.strip_prefix("torch.nn.functional.")? {
                "binary_cross_entropy" | "binary_cross_entropy_with_logits" => Some(Loss::Binary),
                "mse_loss" | "l1_loss" | "smooth_l1_loss" | "huber_loss" => Some(Loss::Elementwise),
                "cross_entropy" | "nll_loss" => Some(Loss::Classes),
                _ => None,
            });
    match (callee, functional) {
        (Val::Loss(loss), _) | (_, Some(loss)) => {
            let input = argument(args, keywords, 0, "input");
            let target = argument(args, keywords, 1, "target");
            if let (Some(i), Some(t)) = (input, target) {
                if let Some(d) = loss_shape(w, loss, i, t) {
                    out.push(Diagnostic::error("torch-loss-shape", d, *range));
                }
            }
        }
        (Val::Torch(layer), _) => {
            if !keywords.is_empty() {
                return;
            }
            let who = w.shown(func, "the module");
            let blind: Vec<Option<Shape>> = args.iter().map(|_| None).collect();
            let run = |shapes: &[Option<Shape>]| match (&layer, shapes) {
                (Layer::Net(class), _) => run_forward(class, shapes, 0).err(),
                (_, [x]) => apply(&layer, x.as_ref().unwrap_or(&Shape::unknown()), 0).err(),
                _ => None,
            };
            // Whatever the input: the module's own layers do not chain.
            if let Some(m) = run(&blind) {
                out.push(Diagnostic::error(
                    "torch-layer-mismatch",
                    format!(
                        "{who} cannot run on any input: at {}, {}",
                        place(&m, who),
                        m.problem
                    ),
                    *range,
                ));
                return;
            }
            let shapes: Vec<Option<Shape>> = args.iter().map(|a| shape_of(&w.eval(a))).collect();
            if shapes.iter().all(Option::is_none) {
                return;
            }
            if let Some(m) = run(&shapes) {
                let inputs: Vec<String> = args
                    .iter()
                    .zip(&shapes)
                    .filter_map(|(a, s)| {
                        Some(format!(
                            "{} has shape {}",
                            w.shown(a, "the input"),
                            s.as_ref()?.text()
                        ))
                    })
                    .collect();
                out.push(Diagnostic::error(
                    "torch-input-mismatch",
                    format!(
                        "{}; at {}, {}",
                        inputs.join(", "),
                        place(&m, who),
                        m.problem
                    ),
                    *range,
                ));
            }
        }
        _ => {}
    }
}

/// Where a mismatch lies, for messages: `model (CNN.fc1)`, `fc[2]`.
fn place(m: &Mismatch, who: &str) -> String {
    if m.at.is_empty() {
        who.to_string()
    } else if m.at.starts_with('[') {
        format!("{who}{}", m.at)
    } else {
        format!("{who} ({})", m.at)
    }
}

fn loss_shape(w: &Walker, loss: Loss, input: &Expr, target: &Expr) -> Option<String> {
    let i = shape_of(&w.eval(input))?;
    let t = shape_of(&w.eval(target))?;
    let (id, td) = (i.dims.as_ref()?, t.dims.as_ref()?);
    let (is, ts) = (w.shown(input, "the input"), w.shown(target, "the target"));
    match loss {
        Loss::Binary => {
            let differ = id.len() != td.len()
                || id
                    .iter()
                    .zip(td)
                    .any(|(a, b)| matches!((a, b), (Some(a), Some(b)) if a != b));
            differ.then(|| {
                format!(
                    "binary cross-entropy needs the input and the target of the same size, but {is} has shape {} and {ts} has shape {}: ValueError (Using a target size that is different to the input size); reshape the target (e.g. `.view(-1, 1)` or `.squeeze(1)`) to match",
                    i.text(),
                    t.text()
                )
            })
        }
        // Class indices for rows of scores: one per row (targets of the input's shape are
        // probabilities, another shape of rank 2 fails otherwise; not claimed).
        Loss::Classes => match (id.as_slice(), td.as_slice()) {
            ([Some(n), _], [Some(m)]) if n != m => Some(format!(
                "{is} has shape {} ({n} rows of class scores) and {ts} has shape {} ({m} class indices): ValueError (Expected input batch_size ({n}) to match target batch_size ({m}))",
                i.text(),
                t.text()
            )),
            _ => None,
        },
        Loss::Elementwise => {
            let n = id.len().max(td.len());
            let at = |d: &Vec<Option<i64>>, k: usize| {
                if k < n - d.len() {
                    Some(1)
                } else {
                    d[k - (n - d.len())]
                }
            };
            let clash = (0..n).find(|&k| {
                matches!((at(id, k), at(td, k)), (Some(a), Some(b)) if a != b && a != 1 && b != 1)
            })?;
            Some(format!(
                "{is} has shape {} and {ts} has shape {}, which do not broadcast (dimension {clash}): RuntimeError (the size of tensor a must match the size of tensor b)",
                i.text(),
                t.text()
            ))
        }
    }
}
