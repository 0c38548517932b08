//! What PyTorch layers and tensor methods do to shapes: the layers whose effect is known
//! (`Linear`, convolutions and pooling with their windows, `Flatten`, shape-keeping layers,
//! `Sequential`), the shape a module gives a tensor or why it raises, and `view` / `reshape` /
//! `flatten` / `unsqueeze` / `squeeze` of tensors whose shape is known in part.

use std::rc::Rc;

use crate::ir::{argument, keyword, Expr, Keyword, Literal, SeqKind};
use crate::summary::shape_text;

use super::torch_classes::{run_forward, UserClass};
use crate::ir_scan::unpacks;

/// What is known of a tensor's shape: its dimensions when the rank is known (`None` for one of
/// unknown size), else maybe the size of its last dimension.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub dims: Option<Vec<Option<i64>>>,
    pub last: Option<i64>,
    /// Autograd certainly tracks the tensor while grad mode is on: made with
    /// `requires_grad=True`, an `nn.Parameter`, or computed from one (a layer's weights).
    pub requires_grad: bool,
}

impl Shape {
    pub fn unknown() -> Shape {
        Shape {
            dims: None,
            last: None,
            requires_grad: false,
        }
    }

    pub fn of(dims: Vec<Option<i64>>) -> Shape {
        Shape {
            last: dims.last().copied().flatten(),
            dims: Some(dims),
            requires_grad: false,
        }
    }

    /// The same shape, tracked by autograd or not.
    pub fn tracked(self, requires_grad: bool) -> Shape {
        Shape {
            requires_grad,
            ..self
        }
    }

    /// `(?, 3, 512, 512)`; `(..., 500)` when only the last dimension is known.
    pub fn text(&self) -> String {
        match &self.dims {
            Some(dims) => shape_text(dims),
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
    /// A layer that checks its input against its first argument (`SIZED`): `BatchNorm1d(n)`,
    /// `LSTM(input_size, ...)`.
    Sized {
        class: &'static str,
        size: Option<i64>,
    },
    /// `nn.Embedding(n, dim)`: integer indices of any shape below `count` (n), each given a
    /// vector of `dim`.
    Embedding {
        count: Option<i64>,
        dim: Option<i64>,
    },
    /// An instance of a notebook class (`forward` followed).
    Net(Rc<UserClass>),
    Opaque,
}

/// The attributes of `torch.nn` layers their `forward` reads (storing one changes what the layer
/// takes or gives).
pub const FORWARD_ATTRIBUTES: &[&str] = &[
    "weight",
    "bias",
    "stride",
    "padding",
    "dilation",
    "groups",
    "padding_mode",
    "kernel_size",
    "output_padding",
    "start_dim",
    "end_dim",
    "normalized_shape",
    "input_size",
    "hidden_size",
    "num_layers",
    "batch_first",
    "bidirectional",
    "proj_size",
    "padding_idx",
    "_modules",
    "in_features",
    "out_features",
    "in_channels",
    "out_channels",
    "num_features",
];

/// Does the layer hold an instance of a notebook class (which `Layer::Net` follows)?
pub fn holds_notebook_module(layer: &Layer) -> bool {
    match layer {
        Layer::Net(_) => true,
        Layer::Sequential(layers) => layers.iter().any(holds_notebook_module),
        Layer::Head(first) => holds_notebook_module(first),
        _ => false,
    }
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

/// The PyTorch class a path names (`torch.nn.Linear`, `torch.nn.modules.linear.Linear`).
pub fn nn_class(path: &str) -> Option<&str> {
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
    "LayerNorm",
    "GroupNorm",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LocalResponseNorm",
];

/// Layers that check their input against their first argument: the class, the argument's name,
/// the ranks the input may have, its dimension that must equal the argument (from the end when
/// negative), and whether the output is a tensor of the input's shape (recurrent layers give a
/// tuple).
const SIZED: &[SizedLayer] = &[
    ("BatchNorm1d", "num_features", &[2, 3], 1, true),
    ("BatchNorm2d", "num_features", &[4], 1, true),
    ("BatchNorm3d", "num_features", &[5], 1, true),
    ("LSTM", "input_size", &[2, 3], -1, false),
    ("GRU", "input_size", &[2, 3], -1, false),
    ("RNN", "input_size", &[2, 3], -1, false),
];

type SizedLayer = (&'static str, &'static str, &'static [usize], i64, bool);

fn sized(class: &str) -> Option<&'static SizedLayer> {
    SIZED.iter().find(|s| s.0 == class)
}

/// Does a call of the module give a tensor (not a recurrent layer's tuple)?
pub fn gives_tensor(layer: &Layer) -> bool {
    !matches!(layer, Layer::Sized { class, .. } if sized(class).is_some_and(|s| !s.4))
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
    "exp",
    "log",
    "abs",
    "sqrt",
    "square",
    "neg",
    "requires_grad_",
];

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
        "Embedding" => Layer::Embedding {
            count: size(0, "num_embeddings"),
            dim: size(1, "embedding_dim"),
        },
        _ => {
            if let Some((class, name, ..)) = sized(class) {
                return Layer::Sized {
                    class,
                    size: size(0, name),
                };
            }
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
            let out = match &x.dims {
                Some(dims) if !dims.is_empty() => {
                    let mut d = dims.clone();
                    *d.last_mut().unwrap() = *outputs;
                    Shape::of(d)
                }
                _ => Shape {
                    last: *outputs,
                    ..Shape::unknown()
                },
            };
            Ok(out.tracked(true))
        }
        Layer::Conv {
            n,
            inputs,
            outputs,
            window,
        } => {
            let Some(dims) = &x.dims else {
                return Ok(Shape::unknown().tracked(true));
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
            Ok(Shape::of(d).tracked(true))
        }
        Layer::Pool { n, window } => Ok(match &x.dims {
            Some(dims) if dims.len() == n + 1 || dims.len() == n + 2 => {
                let keep = dims.len() - n;
                let mut d = dims[..keep].to_vec();
                d.extend(slid(window.as_ref(), &dims[keep..]));
                Shape::of(d)
            }
            _ => Shape::unknown(),
        }
        .tracked(x.requires_grad)),
        Layer::Sized { class, size } => {
            let (_, name, ranks, at, keeps) = sized(class).unwrap();
            let rank = x.dims.as_ref().map(Vec::len);
            if let Some(r) = rank.filter(|r| !ranks.contains(r)) {
                let ranks: Vec<String> = ranks.iter().map(|r| format!("{r}D")).collect();
                return Err(fail(format!(
                    "nn.{class} takes {} inputs, not {r}D: ValueError",
                    ranks.join(" or ")
                )));
            }
            let got = match (&x.dims, at) {
                (Some(dims), _) => {
                    let k = if *at < 0 { dims.len() as i64 + at } else { *at };
                    dims[k as usize]
                }
                (None, -1) => x.last,
                _ => None,
            };
            if let (Some(want), Some(got)) = (size, got) {
                if *want != got {
                    let why = if *keeps {
                        format!("running_mean should contain {got} elements not {want}")
                    } else {
                        format!("input.size(-1) must be equal to input_size. Expected {want}, got {got}")
                    };
                    return Err(fail(format!(
                        "nn.{class}({want}) takes {name} {want} at dimension {at}, not {got}: RuntimeError ({why})"
                    )));
                }
            }
            Ok(if *keeps {
                x.clone().tracked(true)
            } else {
                Shape::unknown()
            })
        }
        Layer::Embedding { dim, .. } => Ok(match &x.dims {
            Some(dims) => {
                let mut d = dims.clone();
                d.push(*dim);
                Shape::of(d)
            }
            None => Shape {
                last: *dim,
                ..Shape::unknown()
            },
        }
        .tracked(true)),
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
            Ok(Shape::unknown().tracked(true))
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
pub fn flatten(x: &Shape, start: i64, end: i64) -> Shape {
    flattened(x, start, end).tracked(x.requires_grad)
}

fn flattened(x: &Shape, start: i64, end: i64) -> Shape {
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

/// The shape a shape method of a tensor gives (`view`, `reshape`, `flatten`, `unsqueeze`, ...);
/// `base` is the tensor's shape when known, `int` reads int arguments. Autograd tracks the
/// result as it tracks the tensor, but for a detached or integer copy (or one `to` may make).
pub fn tensor_method(
    base: Option<&Shape>,
    receiver: &Expr,
    attr: &str,
    args: &[Expr],
    keywords: &[Keyword],
    int: &dyn Fn(&Expr) -> Option<i64>,
) -> Option<Shape> {
    let tracked = base.is_some_and(|b| b.requires_grad)
        && !matches!(
            attr,
            "detach" | "long" | "int" | "bool" | "to" | "requires_grad_"
        );
    shape_method(base, receiver, attr, args, keywords, int).map(|s| s.tracked(tracked))
}

fn shape_method(
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
        // A reduction of every element: a 0-d tensor.
        "sum" | "mean" if args.is_empty() && keywords.is_empty() && base.is_some() => {
            Some(Shape::of(vec![]))
        }
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
