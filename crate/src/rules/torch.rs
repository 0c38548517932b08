//! PyTorch rules: a module applied to a tensor its layers cannot take, and a loss given an input
//! and a target of shapes it rejects.
//!
//! - `torch-layer-mismatch`: a module whose own layers do not chain, whatever its input
//!   (`nn.Sequential(nn.Linear(4500, 500), nn.ReLU(), nn.Linear(1024, 128))`): calling it raises
//!   RuntimeError (`mat1 and mat2 shapes cannot be multiplied`).
//! - `torch-input-mismatch`: a module applied to a tensor of known shape that its first layers
//!   reject: an `nn.Linear` whose `in_features` differs from the tensor's last dimension, an
//!   `nn.ConvNd` given a tensor of another rank or another number of channels (dimension -N-1),
//!   a `BatchNormNd` or recurrent layer given another rank or size than its first argument
//!   (`torch_layers::SIZED`); a `TensorDataset` of tensors of different lengths.
//! - `torch-numpy-grad` / `torch-backward`: `.numpy()` of a tensor autograd tracks
//!   (`Shape::requires_grad`: made with `requires_grad=True`, an `nn.Parameter`, a module's
//!   output through its weights, and what is computed from them), `backward()` of one of several
//!   elements without a gradient, or of a tensor known not to require grad; silent where any cell
//!   may turn grad mode off or change what autograd tracks (`CellRuleFacts::switches_grad`).
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
//! smaller). What layers do to shapes is in `semantics::torch_layers`, the notebook's
//! classes in `semantics::torch_classes`, the values of PyTorch objects in
//! `semantics::torch_objects`; this module checks the calls.

use crate::semantics::torch_objects::{FLOAT_DTYPES, INTEGER_DTYPES};
use serde_json::Value;

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{keyword, Expr, Keyword, Literal, SeqKind};
use crate::summary::tuple_text;

use crate::ir::argument;
use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, ArrayVal, Val};
use crate::semantics::eval::{int_of, int_tuple};
use crate::semantics::torch_classes::run_forward;
use crate::semantics::torch_layers::{apply, Layer, Mismatch, Shape};
use crate::semantics::torch_objects::{dim_arguments, float_only, shape_of, Bound, Form, Loss};
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
    if unpacks(args, keywords) {
        return;
    }
    if let Some(class) = w.torch_class(func) {
        if let Some((attr, module)) = &class.module_before_init {
            out.push(Diagnostic::error(
                Rule::TorchModuleDefinition,
                format!(
                    "{}.__init__ assigns self.{attr} = nn.{module}(...) before calling super().__init__(): AttributeError (cannot assign module before Module.__init__() call); call super().__init__() first",
                    class.name
                ),
                *range,
            ));
            return;
        }
    }
    if let Some(d) = uncalled_parameters(w, func, args, keywords) {
        out.push(d);
        return;
    }
    if let Some(d) = tensor_of_wrong_data(w, func, args, *range) {
        out.push(d);
        return;
    }
    let callee = w.eval(func);
    // `F.binary_cross_entropy(input, target)`
    let functional =
        w.lib_path(func)
            .and_then(|p| match p.strip_prefix("torch.nn.functional.")? {
                "binary_cross_entropy" | "binary_cross_entropy_with_logits" => Some(Loss::Binary),
                "mse_loss" | "l1_loss" | "smooth_l1_loss" | "huber_loss" => Some(Loss::Elementwise),
                "cross_entropy" | "nll_loss" => Some(Loss::Classes {
                    default_ignore: keyword(keywords, "ignore_index").is_none(),
                }),
                _ => None,
            });
    match (callee, functional) {
        (Val::Loss(loss), _) | (_, Some(loss)) => {
            let input = argument(args, keywords, 0, "input");
            let target = argument(args, keywords, 1, "target");
            if let (Some(i), Some(t)) = (input, target) {
                if let Some(d) = loss_shape(w, loss, i, t) {
                    out.push(Diagnostic::error(Rule::TorchLossShape, d, *range));
                } else if let Some(d) = float_class_indices(w, loss, i, t) {
                    out.push(Diagnostic::error(Rule::TorchDtypeMismatch, d, *range));
                } else if let Some(d) = class_index_past_scores(w, loss, i, t) {
                    out.push(Diagnostic::error(Rule::IndexOutOfRange, d, *range));
                }
            }
        }
        (Val::Torch(layer), _) => {
            if let Layer::Net(class) = &layer {
                if !class.methods.contains_key("forward") {
                    out.push(Diagnostic::error(
                        Rule::TorchModuleDefinition,
                        format!(
                            "{} is an instance of {}, which defines no forward: calling it raises NotImplementedError (Module [{}] is missing the required \"forward\" function); define `def forward(self, x):`",
                            w.shown(func, "the module"),
                            class.name,
                            class.name
                        ),
                        *range,
                    ));
                    return;
                }
            }
            if !keywords.is_empty() {
                return;
            }
            let who = w.shown(func, "the module");
            if let ([x], Some(first)) = (args.as_slice(), weighted_first(&layer)) {
                if let Val::Array(a) = w.eval(x) {
                    let integer = a.lib == ArrayLib::Torch
                        && a.dtype
                            .as_deref()
                            .is_some_and(|d| INTEGER_DTYPES.contains(&d));
                    let other_float = a.lib == ArrayLib::Torch
                        && matches!(
                            a.dtype.as_deref(),
                            Some("torch.float64" | "torch.float16" | "torch.bfloat16")
                        )
                        && !w.ctx.history.casts_module_floats
                        && !w.ctx.cell.casts_module_floats;
                    if other_float {
                        out.push(Diagnostic::error(
                            Rule::TorchDtypeMismatch,
                            format!(
                                "{who} applies an nn.{first} first, whose weights are float32 (no cell gives them another dtype), but {} is a {} tensor: RuntimeError (mat1 and mat2 must have the same dtype / Input type and bias type should be the same); convert it with `.float()`",
                                w.shown(x, "the input"),
                                a.dtype.as_deref().unwrap_or_default()
                            ),
                            *range,
                        ));
                        return;
                    }
                    if integer {
                        out.push(Diagnostic::error(
                            Rule::TorchDtypeMismatch,
                            format!(
                                "{who} applies an nn.{first} first, whose weights are floating-point, but {} is a {} tensor: RuntimeError (mat1 and mat2 must have the same dtype / Input type and bias type should be the same); convert it with `.float()`",
                                w.shown(x, "the input"),
                                a.dtype.as_deref().unwrap_or_default()
                            ),
                            *range,
                        ));
                        return;
                    }
                }
            }
            if let ([x], Some(count)) = (args.as_slice(), first_embedding(&layer)) {
                let dtype = match w.eval(x) {
                    Val::Array(a) if a.lib == ArrayLib::Torch => {
                        a.dtype.filter(|d| FLOAT_DTYPES.contains(&d.as_str()))
                    }
                    // Only floating-point tensors require grad.
                    Val::Tensor(s) if s.requires_grad => Some("floating-point".to_string()),
                    _ => None,
                };
                if let Some(dtype) = dtype {
                    out.push(Diagnostic::error(
                        Rule::TorchDtypeMismatch,
                        format!(
                            "{who} starts with an nn.Embedding, which takes integer indices, but {} is a {dtype} tensor: RuntimeError (Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int); use `.long()`",
                            w.shown(x, "the input")
                        ),
                        *range,
                    ));
                    return;
                }
                let bounds = match w.eval(x) {
                    Val::Array(a) if a.lib == ArrayLib::Torch => a.int_bounds,
                    _ => None,
                };
                if let (Some(rows), Some((low, high))) = (count, bounds) {
                    if high >= rows || low < 0 {
                        out.push(Diagnostic::error(
                            Rule::IndexOutOfRange,
                            format!(
                                "{who} starts with an nn.Embedding of {rows} rows (indices 0 to {}), but {} holds the index {}: IndexError (index out of range in self)",
                                rows - 1,
                                w.shown(x, "the input"),
                                if high >= rows { high } else { low }
                            ),
                            *range,
                        ));
                        return;
                    }
                }
            }
            let blind: Vec<Option<Shape>> = args.iter().map(|_| None).collect();
            let run = |shapes: &[Option<Shape>]| match (&layer, shapes) {
                (Layer::Net(class), _) => run_forward(class, shapes, 0).err(),
                (_, [x]) => apply(&layer, x.as_ref().unwrap_or(&Shape::unknown()), 0).err(),
                _ => None,
            };
            // Whatever the input: the module's own layers do not chain.
            if let Some(m) = run(&blind) {
                out.push(Diagnostic::error(
                    Rule::TorchLayerMismatch,
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
                    Rule::TorchInputMismatch,
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
        Loss::Classes { .. } => match (id.as_slice(), td.as_slice()) {
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

/// `CrossEntropyLoss` / `NLLLoss` given class indices (one dimension fewer than the scores) of a
/// floating-point dtype (`torch.from_numpy(y)` of a float64 `y`): RuntimeError (expected scalar
/// type Long). Targets of the scores' shape are probabilities, which may be floats.
fn float_class_indices(w: &Walker, loss: Loss, input: &Expr, target: &Expr) -> Option<String> {
    if !matches!(loss, Loss::Classes { .. }) {
        return None;
    }
    let rank = shape_of(&w.eval(input))?.dims?.len();
    let Val::Array(t) = w.eval(target) else {
        return None;
    };
    let dtype = t
        .dtype
        .as_deref()
        .filter(|d| t.lib == ArrayLib::Torch && FLOAT_DTYPES.contains(d))?;
    (rank >= 2 && t.shape.len() + 1 == rank).then(|| {
        format!(
            "{} holds one class index per row, as a {dtype} tensor: class indices must be integers: RuntimeError (expected scalar type Long but found Float / expected target dtype to be Long); convert them with `.long()`",
            w.shown(target, "the target")
        )
    })
}

/// `torch.from_numpy` of what is not a numpy array (a list, a frame, a Series, a tensor):
/// TypeError (expected np.ndarray); `torch.tensor` of a list holding tensors of several elements,
/// which it reads as numbers: ValueError (only one element tensors can be converted to Python
/// scalars).
fn tensor_of_wrong_data(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    let [data] = args else { return None };
    let path = w.lib_path(func)?;
    let value = w.eval(data);
    let shown = w.shown(data, "the argument");
    match path.as_str() {
        "torch.from_numpy" => {
            let got = match &value {
                Val::Frame(_) => "DataFrame",
                Val::Series(_) => "Series",
                Val::Tensor(_) => "Tensor",
                Val::Array(a) if a.lib == ArrayLib::Torch => "Tensor",
                v => match v.sized() {
                    Some((t, _)) if matches!(t, "list" | "tuple") => t,
                    _ => return None,
                },
            };
            Some(Diagnostic::error(
                Rule::BadArguments,
                format!("torch.from_numpy takes a numpy array, but {shown} is a {got}: TypeError (expected np.ndarray (got {got})); use torch.tensor({shown}) or pass .to_numpy()"),
                range,
            ))
        }
        "torch.tensor" | "torch.as_tensor" | "torch.FloatTensor" | "torch.LongTensor" => {
            let Val::Items { items, .. } = &value else {
                return None;
            };
            let (k, shape) = items.iter().enumerate().find_map(|(k, v)| {
                let dims = shape_of(v)?.dims?;
                let sizes: Vec<i64> = dims.into_iter().collect::<Option<_>>()?;
                (sizes.iter().product::<i64>() > 1).then_some((k, sizes))
            })?;
            Some(Diagnostic::error(
                Rule::ShapeStack,
                format!("torch.tensor reads the elements of {shown} as numbers, but element {k} is a tensor of shape {}: ValueError (only one element tensors can be converted to Python scalars); use torch.stack({shown})", tuple_text(&shape)),
                range,
            ))
        }
        _ => None,
    }
}

/// `CrossEntropyLoss` / `NLLLoss` given class indices of known values, one of them past the
/// scores' classes (or negative, but for the ignored -100): IndexError (Target 3 is out of
/// bounds). Only a loss that certainly ignores the default index alone.
fn class_index_past_scores(w: &Walker, loss: Loss, input: &Expr, target: &Expr) -> Option<String> {
    if loss
        != (Loss::Classes {
            default_ignore: true,
        })
    {
        return None;
    }
    let dims = shape_of(&w.eval(input))?.dims?;
    let Val::Array(t) = w.eval(target) else {
        return None;
    };
    let classes = (*dims.get(1)?)?;
    let (low, high) = t.int_bounds?;
    let bad = if high >= classes { high } else { low };
    (t.lib == ArrayLib::Torch
        && t.shape.len() + 1 == dims.len()
        && (high >= classes || (low < 0 && low != -100)))
        .then(|| {
            format!(
                "{} holds the class index {bad}, but {} scores {classes} classes (indices 0 to {}): IndexError (Target {bad} is out of bounds)",
                w.shown(target, "the target"),
                w.shown(input, "the input"),
                classes - 1
            )
        })
}

/// A tensor whose every dimension is known, as the array of torch the shape rules take (other
/// values as they are).
pub fn known_array(v: Val) -> Val {
    match v {
        Val::Tensor(Shape {
            dims: Some(dims), ..
        }) if dims.iter().all(Option::is_some) => Val::Array(ArrayVal::new(
            ArrayLib::Torch,
            dims.into_iter().flatten().collect(),
            None,
        )),
        v => v,
    }
}

/// The torch tensor `e` holds, with its shape known in full.
fn tensor_array(w: &Walker, e: &Expr) -> Option<ArrayVal> {
    match known_array(w.eval(e)) {
        Val::Array(a) if a.lib == ArrayLib::Torch => Some(a),
        _ => None,
    }
}

/// The layer with weights a module applies first to its input, when it is an `nn.Linear` or a
/// convolution (of a `Sequential`, its first layer; of a torchvision classifier, its stem).
fn weighted_first(layer: &Layer) -> Option<String> {
    match layer {
        Layer::Linear { .. } => Some("Linear".to_string()),
        Layer::Conv { n, .. } => Some(format!("Conv{n}d")),
        Layer::Sequential(layers) => weighted_first(layers.first()?),
        Layer::Head(first) => weighted_first(first),
        _ => None,
    }
}

/// When the module looks its input up in an `nn.Embedding` first: how many rows it has.
fn first_embedding(layer: &Layer) -> Option<Option<i64>> {
    match layer {
        Layer::Embedding { count, .. } => Some(*count),
        Layer::Sequential(layers) => first_embedding(layers.first()?),
        _ => None,
    }
}

/// dtypes of tensors as `str(tensor.dtype)` writes them; the products of `matmul` and its
/// siblings take two tensors of one dtype and promote none.
const MATMUL_DTYPES: &[&str] = &[
    "torch.float16",
    "torch.bfloat16",
    "torch.float32",
    "torch.float64",
    "torch.int8",
    "torch.int16",
    "torch.int32",
    "torch.int64",
    "torch.uint8",
];

/// Checks of torch's tensor functions and methods on tensors whose shapes (and dtypes) are
/// known: products (`@`, `torch.matmul`, `mm`, `bmm`, `dot`) with inner sizes or dtypes that
/// differ, `torch.cat` / `stack` of tensors that do not join, `.numpy()` of a tensor that
/// requires grad.
pub fn check_tensor_ops(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::BinOp {
            op,
            left,
            right,
            range,
        } if *op == "@" => {
            if let (Some(a), Some(b)) = (tensor_array(w, left), tensor_array(w, right)) {
                product_dtypes(w, "@", (left, &a), (right, &b), *range, out);
            }
        }
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } => {
            if unpacks(args, keywords) {
                return;
            }
            if let Expr::Attribute { value, attr, .. } = &**func {
                if attr == "numpy" && args.is_empty() && keywords.is_empty() {
                    numpy_of_grad(w, value, *range, out);
                }
                if attr == "backward" {
                    let implicit = args.is_empty() && keyword(keywords, "gradient").is_none();
                    if let Some(d) = backward_problem(w, value, implicit, *range) {
                        out.push(d);
                    }
                }
            }
            if let Some(d) = integer_requiring_grad(w, func, args, keywords, *range) {
                out.push(d);
                return;
            }
            if let Some(call) = tensor_call(w, func, args) {
                if let Some(d) = dim_problem(w, &call, keywords)
                    .or_else(|| permute_problem(w, &call, keywords))
                    .or_else(|| integer_problem(w, &call, keywords, *range))
                {
                    out.push(d);
                    return;
                }
            }
            let Some(path) = w.lib_path(func) else {
                return;
            };
            let Some(f) = path.strip_prefix("torch.") else {
                return;
            };
            match (f, args.as_slice()) {
                ("matmul" | "mm" | "bmm" | "dot", [l, r]) if keywords.is_empty() => {
                    let (Some(a), Some(b)) = (tensor_array(w, l), tensor_array(w, r)) else {
                        return;
                    };
                    if let Some(d) = product_shapes(w, f, (l, &a), (r, &b), *range) {
                        out.push(d);
                        return;
                    }
                    product_dtypes(w, &format!("torch.{f}"), (l, &a), (r, &b), *range, out);
                }
                ("tensor" | "as_tensor" | "Tensor" | "FloatTensor" | "LongTensor", [data]) => {
                    if let Some(d) = ragged(w, func, data, *range) {
                        out.push(d);
                    }
                }
                ("utils.data.TensorDataset" | "utils.data.dataset.TensorDataset", _)
                    if keywords.is_empty() =>
                {
                    if let Some(d) = dataset_lengths(w, args, *range) {
                        out.push(d);
                    }
                }
                ("cat" | "concat" | "concatenate" | "stack", [list, rest @ ..])
                    if rest.len() <= 1 =>
                {
                    let dim = match rest.first().or_else(|| keyword(keywords, "dim")) {
                        None => Some(0),
                        Some(e) => int_of(w, e),
                    };
                    if keywords.iter().any(|k| k.name.as_deref() != Some("dim")) {
                        return;
                    }
                    if let Some(dim) = dim {
                        joined(w, f, list, dim, *range, out);
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// `torch.mm` / `bmm` / `dot` of tensors of other ranks or inner sizes (`matmul` of 1-D and
/// 2-D ones; `@` is the shape rules' `shape-matmul`).
fn product_shapes(
    w: &Walker,
    f: &str,
    (le, a): (&Expr, &ArrayVal),
    (re, b): (&Expr, &ArrayVal),
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    let (x, y) = (&a.shape, &b.shape);
    let rank = match f {
        "mm" => Some(2),
        "bmm" => Some(3),
        "dot" => Some(1),
        _ => None,
    };
    let problem = if let Some(r) = rank.filter(|r| x.len() != *r || y.len() != *r) {
        format!("torch.{f} takes {r}-D tensors")
    } else {
        if x.is_empty() || y.is_empty() || (f == "matmul" && (x.len() > 2 || y.len() > 2)) {
            return None;
        }
        let k1 = x[x.len() - 1];
        let k2 = if y.len() == 1 { y[0] } else { y[y.len() - 2] };
        if f == "bmm" && x[0] != y[0] {
            format!("the batch sizes {} and {} differ", x[0], y[0])
        } else if k1 != k2 {
            format!("the inner dimensions {k1} and {k2} differ")
        } else {
            return None;
        }
    };
    Some(Diagnostic::error(
        Rule::ShapeMatmul,
        format!(
            "torch.{f} of {} with shape {} and {} with shape {}: {problem}: RuntimeError",
            w.shown(le, "a tensor"),
            tuple_text(x),
            w.shown(re, "a tensor"),
            tuple_text(y)
        ),
        range,
    ))
}

/// A product of tensors of two known dtypes that differ: torch promotes none for products.
fn product_dtypes(
    w: &Walker,
    what: &str,
    (le, a): (&Expr, &ArrayVal),
    (re, b): (&Expr, &ArrayVal),
    range: crate::ir::TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let (Some(x), Some(y)) = (a.dtype.as_deref(), b.dtype.as_deref()) else {
        return;
    };
    if x == y || !MATMUL_DTYPES.contains(&x) || !MATMUL_DTYPES.contains(&y) {
        return;
    }
    // float32 may stand for the default dtype, which a cell may have changed.
    let default_changed = w.ctx.history.casts_module_floats || w.ctx.cell.casts_module_floats;
    if default_changed && (x == "torch.float32" || y == "torch.float32") {
        return;
    }
    if a.shape.is_empty() || b.shape.is_empty() {
        return;
    }
    out.push(Diagnostic::error(
        Rule::TorchDtypeMismatch,
        format!(
            "{what} of {} ({x}) and {} ({y}): matrix products take tensors of one dtype: RuntimeError (expected both to have the same dtype); convert one, e.g. `.float()`",
            w.shown(le, "a tensor"),
            w.shown(re, "a tensor")
        ),
        range,
    ));
}

/// `torch.cat` / `stack` of a list of tensors of known shapes: `cat` needs one rank and the
/// same sizes but along `dim` (1-D empty tensors are skipped), `stack` the same shapes.
fn joined(
    w: &Walker,
    f: &str,
    list: &Expr,
    dim: i64,
    range: crate::ir::TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let Expr::Seq {
        kind: SeqKind::List | SeqKind::Tuple,
        elts,
        ..
    } = list
    else {
        return;
    };
    let Some(tensors) = elts
        .iter()
        .map(|e| Some((w.shown(e, "a tensor"), tensor_array(w, e)?)))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    if tensors.len() < 2 || tensors.iter().any(|(_, t)| t.shape.contains(&0)) {
        return;
    }
    let (first_name, first) = (&tensors[0].0, &tensors[0].1.shape);
    let stack = f == "stack";
    let rank = first.len() as i64 + i64::from(stack);
    let axis = if dim < 0 { dim + rank } else { dim };
    if first.is_empty() || !(0..rank).contains(&axis) {
        return;
    }
    let clash = tensors[1..].iter().find(|(_, t)| {
        let other = &t.shape;
        other.len() != first.len()
            || first
                .iter()
                .zip(other)
                .enumerate()
                .any(|(i, (x, y))| x != y && (stack || i as i64 != axis))
    });
    if let Some((name, t)) = clash {
        let why = if stack {
            "torch.stack takes tensors of one shape".to_string()
        } else if t.shape.len() != first.len() {
            "torch.cat takes tensors of one number of dimensions".to_string()
        } else {
            format!("sizes must match except in dimension {axis}")
        };
        out.push(Diagnostic::error(
            Rule::ShapeConcatenate,
            format!(
                "torch.{f} along dim {dim}: {first_name} has shape {} but {name} has shape {}: {why}: RuntimeError",
                tuple_text(first),
                tuple_text(&t.shape)
            ),
            range,
        ));
    }
}

/// `torch.tensor([[1, 2], [3]])`: nested lists of numbers whose elements nest alike but differ in
/// length (torch makes `[[], [1]]` of an empty first row, not followed).
fn ragged(w: &Walker, func: &Expr, data: &Expr, range: crate::ir::TextRange) -> Option<Diagnostic> {
    let (first, at, other) = crate::semantics::numpy::ragged_rows(&w.eval(data))?;
    if first.len() != other.len() || first.contains(&0) || other.contains(&0) {
        return None;
    }
    let (dim, (want, got)) = first
        .iter()
        .zip(&other)
        .enumerate()
        .find(|(_, (a, b))| a != b)?;
    Some(Diagnostic::error(
        Rule::ShapeStack,
        format!(
            "{}: element 0 has shape {} and element {at} has shape {}: ValueError (expected sequence of length {want} at dim {} (got {got}))",
            w.text(func.range()),
            tuple_text(&first),
            tuple_text(&other),
            dim + 1
        ),
        range,
    ))
}

/// `TensorDataset(a, b)` of tensors whose first dimensions differ: AssertionError (Size
/// mismatch between tensors).
fn dataset_lengths(w: &Walker, args: &[Expr], range: crate::ir::TextRange) -> Option<Diagnostic> {
    let lengths: Vec<i64> = args
        .iter()
        .map(|a| tensor_array(w, a)?.shape.first().copied())
        .collect::<Option<_>>()?;
    let (i, other) = lengths
        .iter()
        .enumerate()
        .find(|(_, n)| **n != lengths[0])?;
    Some(Diagnostic::error(
        Rule::TorchInputMismatch,
        format!(
            "{} has {} rows and {} has {other}: AssertionError (Size mismatch between tensors)",
            w.shown(&args[0], "the first tensor"),
            lengths[0],
            w.shown(&args[i], "another tensor")
        ),
        range,
    ))
}

/// `torch.optim.SGD(model.parameters, ...)`: the method itself, not called, where an optimizer
/// iterates its parameters: TypeError ('method' object is not iterable).
fn uncalled_parameters(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let optimizer = path.strip_prefix("torch.optim.")?;
    if !optimizer.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let params = argument(args, keywords, 0, "params")?;
    let Expr::Attribute { value, attr, .. } = params else {
        return None;
    };
    if attr != "parameters" || !matches!(w.eval(value), Val::Torch(_)) {
        return None;
    }
    Some(Diagnostic::error(
        Rule::NotIterable,
        format!(
            "{} is the module's method, not its parameters: {optimizer} iterates what it is given: TypeError ('method' object is not iterable); call it: `{}()`",
            w.shown(params, "the argument"),
            w.shown(params, "parameters")
        ),
        params.range(),
    ))
}

/// A call of a tensor's method (`x.sum(1)`), or of a function of `torch` or `torch.nn.functional`
/// given the tensor first (`torch.sum(x, 1)`, `F.softmax(x, 1)`).
struct TensorCall<'e> {
    form: Form,
    name: String,
    tensor: &'e Expr,
    /// The tensor's shape, where its rank is known.
    shape: Shape,
    /// The positional arguments after the tensor.
    rest: &'e [Expr],
}

fn tensor_call<'e>(w: &Walker, func: &'e Expr, args: &'e [Expr]) -> Option<TensorCall<'e>> {
    let known = |e: &Expr| shape_of(&w.eval(e)).filter(|s| s.dims.is_some());
    if let Expr::Attribute { value, attr, .. } = func {
        if let Some(shape) = known(value) {
            return Some(TensorCall {
                form: Form::Method,
                name: attr.clone(),
                tensor: value,
                shape,
                rest: args,
            });
        }
    }
    let path = w.lib_path(func)?;
    let (form, name) = match path.strip_prefix("torch.nn.functional.") {
        Some(name) => (Form::Functional, name),
        None => (Form::Torch, path.strip_prefix("torch.")?),
    };
    let (tensor, rest) = args.split_first()?;
    Some(TensorCall {
        form,
        name: name.to_string(),
        tensor,
        shape: known(tensor)?,
        rest,
    })
}

impl TensorCall<'_> {
    fn rank(&self) -> usize {
        self.shape.dims.as_ref().map_or(0, Vec::len)
    }

    /// What the call's messages open with: the tensor, its shape and rank.
    fn described(&self, w: &Walker) -> String {
        format!(
            "{} has shape {} ({})",
            w.shown(self.tensor, "the tensor"),
            self.shape.text(),
            crate::rules::numpy_calls::dimensions(self.rank())
        )
    }
}

/// A dim argument outside the tensor's dimensions (`x.sum(2)` of a 2-D tensor,
/// `x.unsqueeze(3)`, `F.softmax(x, dim=-3)`): IndexError. The callables and their dim arguments
/// are read off torch (`torch_tables::DIM_ARGUMENTS`).
fn dim_problem(w: &Walker, call: &TensorCall, keywords: &[Keyword]) -> Option<Diagnostic> {
    // A 0-d tensor takes dims as if it had one.
    let n = call.rank().max(1) as i64;
    dim_arguments(call.form, &call.name).find_map(|arg| {
        let given = call
            .rest
            .get(arg.at)
            .or_else(|| arg.keywords.iter().find_map(|k| keyword(keywords, k)))?;
        let bound = match arg.bound {
            Bound::Rank => n,
            Bound::RankPlusOne => n + 1,
        };
        let bad = int_tuple(w, given)?
            .into_iter()
            .find(|d| !(-bound..bound).contains(d))?;
        Some(Diagnostic::error(
            Rule::IndexOutOfRange,
            format!(
                "{}: dim {bad} is out of range for {}, which takes {} to {}: IndexError (Dimension out of range)",
                call.described(w),
                call.name,
                -bound,
                bound - 1
            ),
            given.range(),
        ))
    })
}

/// `x.permute(...)` / `torch.permute(x, dims)` with dims that are not a permutation of the
/// tensor's (RuntimeError; IndexError for a dim past the last), and `x.t()` of a tensor of more
/// than two dimensions (RuntimeError).
fn permute_problem(w: &Walker, call: &TensorCall, keywords: &[Keyword]) -> Option<Diagnostic> {
    let n = call.rank() as i64;
    if call.name == "t" && call.form != Form::Functional && call.rest.is_empty() {
        return (n > 2).then(|| {
            Diagnostic::error(
                Rule::ShapeReshape,
                format!(
                    "{}: t() transposes tensors of at most 2 dimensions; use `.transpose(d0, d1)` or `.permute(...)`: RuntimeError (t() expects a tensor with <= 2 dimensions)",
                    call.described(w)
                ),
                call.tensor.range(),
            )
        });
    }
    if call.name != "permute" || call.form == Form::Functional {
        return None;
    }
    let (dims, at): (Vec<i64>, &Expr) = match (call.rest, keyword(keywords, "dims")) {
        ([one], None) => (int_tuple(w, one)?, one),
        ([first, ..], None) if call.form == Form::Method => (
            call.rest
                .iter()
                .map(|e| int_of(w, e))
                .collect::<Option<_>>()?,
            first,
        ),
        ([], Some(k)) => (int_tuple(w, k)?, k),
        _ => return None,
    };
    let problem = if dims.len() as i64 != n {
        format!(
            "{} dims are given for its {n}: RuntimeError (number of dimensions in the tensor input does not match the length of the desired ordering of dimensions)",
            dims.len()
        )
    } else if let Some(bad) = dims.iter().find(|d| !(-n..n).contains(*d)) {
        return Some(Diagnostic::error(
            Rule::IndexOutOfRange,
            format!(
                "{}: permute names dim {bad}, but it takes {} to {}: IndexError (Dimension out of range)",
                call.described(w),
                -n,
                n - 1
            ),
            at.range(),
        ));
    } else {
        let mut seen: Vec<i64> = dims.iter().map(|d| d.rem_euclid(n)).collect();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() == dims.len() {
            return None;
        }
        "a dim is named twice: RuntimeError (permute(): duplicate dims are not allowed)".to_string()
    };
    Some(Diagnostic::error(
        Rule::ShapeReshape,
        format!(
            "{}: permute needs each of its dims once, but {problem}",
            call.described(w)
        ),
        at.range(),
    ))
}

/// `mean`, `std`, `var`, `softmax` and the other callables that need floating-point values,
/// given a tensor of an integer dtype (`torch.tensor([1, 2, 3]).mean()`): RuntimeError
/// (NotImplementedError in recent releases, one of its kinds). Read off torch
/// (`torch_tables::FLOAT_ONLY`); a `dtype=` argument converts first.
fn integer_problem(
    w: &Walker,
    call: &TensorCall,
    keywords: &[Keyword],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    if !float_only(call.form, &call.name) || keyword(keywords, "dtype").is_some() {
        return None;
    }
    let Val::Array(a) = w.eval(call.tensor) else {
        return None;
    };
    let dtype = a
        .dtype
        .as_deref()
        .filter(|d| a.lib == ArrayLib::Torch && *d != "torch.bool" && INTEGER_DTYPES.contains(d))?;
    Some(Diagnostic::error(
        Rule::TorchDtypeMismatch,
        format!(
            "{} is a {dtype} tensor, but {} works on floating-point tensors only: RuntimeError (\"{}\" not implemented for an integer dtype / could not infer output dtype); convert it with `.float()`",
            w.shown(call.tensor, "the tensor"),
            call.name,
            call.name
        ),
        range,
    ))
}

/// `.numpy()` of a tensor that requires grad: the kernel says so, the cell made it with
/// `requires_grad=True` right there, or the walk followed a tensor autograd tracks into it.
fn numpy_of_grad(w: &Walker, value: &Expr, range: crate::ir::TextRange, out: &mut Vec<Diagnostic>) {
    let requires_grad = match value {
        Expr::Name { id, .. } if !w.bound_here.contains(id) && only_numpy_of(w, id) => {
            w.ctx
                .summaries
                .and_then(|d| d.objects.get(id))
                .filter(|o| {
                    o.error.is_none() && o.kind == "tensor" && matches!(w.get(id), Val::Array(_))
                })
                .and_then(|o| o.representation.get("requires_grad"))
                .and_then(Value::as_bool)
                == Some(true)
        }
        Expr::Call { func, keywords, .. } => {
            let made = w.lib_path(func).is_some_and(|p| {
                matches!(
                    p.as_str(),
                    "torch.randn"
                        | "torch.rand"
                        | "torch.zeros"
                        | "torch.ones"
                        | "torch.tensor"
                        | "torch.empty"
                        | "torch.full"
                )
            });
            made && keyword(keywords, "requires_grad").is_some_and(|k| {
                matches!(
                    k,
                    Expr::Literal {
                        value: Literal::Bool(true),
                        ..
                    }
                )
            })
        }
        _ => false,
    } || tracked(w, value).is_some();
    if requires_grad {
        out.push(Diagnostic::error(
            Rule::TorchNumpyGrad,
            format!(
                "{} requires grad: `.numpy()` cannot take a tensor autograd tracks: RuntimeError (Can't call numpy() on Tensor that requires grad); use `.detach().numpy()`",
                w.shown(value, "the tensor")
            ),
            range,
        ));
    }
}

/// A new tensor of an integer or bool dtype made with `requires_grad=True`
/// (`torch.tensor([1, 2], requires_grad=True)`, `torch.zeros(3, dtype=torch.long, ...)`): autograd
/// tracks floating-point and complex tensors only.
fn integer_requiring_grad(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    let flag = keyword(keywords, "requires_grad")?;
    if !matches!(
        flag,
        Expr::Literal {
            value: Literal::Bool(true),
            ..
        }
    ) || !w.lib_path(func)?.starts_with("torch.")
    {
        return None;
    }
    // The tensor as made without the flag.
    let made = Expr::Call {
        func: Box::new(func.clone()),
        args: args.to_vec(),
        keywords: keywords
            .iter()
            .filter(|k| k.name.as_deref() != Some("requires_grad"))
            .cloned()
            .collect(),
        range,
    };
    let Val::Array(a) = w.eval(&made) else {
        return None;
    };
    let dtype = a.dtype.as_deref()?;
    if a.lib != ArrayLib::Torch
        || crate::semantics::torch_objects::FLOAT_DTYPES.contains(&dtype)
        || dtype.starts_with("torch.complex")
    {
        return None;
    }
    Some(Diagnostic::error(
        Rule::TorchDtypeMismatch,
        format!(
            "the tensor is of {dtype}, and `requires_grad=True` needs a floating-point one: RuntimeError (Only Tensors of floating point and complex dtype can require gradients)"
        ),
        flag.range(),
    ))
}

/// May a cell have turned grad mode off or changed which tensors require grad?
fn grad_switched(w: &Walker) -> bool {
    w.ctx.cell.switches_grad || w.ctx.history.switches_grad
}

/// The shape of the tensor `e` gives when autograd certainly tracks it.
fn tracked(w: &Walker, e: &Expr) -> Option<Shape> {
    if grad_switched(w) {
        return None;
    }
    match w.eval(e) {
        Val::Tensor(s) if s.requires_grad => Some(s),
        _ => None,
    }
}

/// `t.backward()` of a tensor autograd does not track (made without `requires_grad=True`, from
/// tensors that were not: known dtype and all, `Val::Array`), or, without a gradient (`implicit`),
/// of a tracked tensor of more than one element.
fn backward_problem(
    w: &Walker,
    value: &Expr,
    implicit: bool,
    range: crate::ir::TextRange,
) -> Option<Diagnostic> {
    let untracked =
        !grad_switched(w) && matches!(w.eval(value), Val::Array(a) if a.lib == ArrayLib::Torch);
    if untracked {
        return Some(Diagnostic::error(
            Rule::TorchBackward,
            format!(
                "{} does not require grad (no tensor made with `requires_grad=True` went into it): RuntimeError (element 0 of tensors does not require grad and does not have a grad_fn)",
                w.shown(value, "the tensor")
            ),
            range,
        ));
    }
    let shape = tracked(w, value).filter(|_| implicit)?;
    let elements = shape
        .dims
        .as_ref()?
        .iter()
        .try_fold(1i64, |n, d| n.checked_mul((*d)?))?;
    (elements != 1).then(|| {
        Diagnostic::error(
            Rule::TorchBackward,
            format!(
                "{} has shape {} ({elements} elements): RuntimeError (grad can be implicitly created only for scalar outputs); reduce it first (`.sum()`) or pass a gradient",
                w.shown(value, "the tensor"),
                shape.text()
            ),
            range,
        )
    })
}

/// The cell mentions `name` only as the receiver of `.numpy()`, and no function of the notebook
/// mentions it: nothing in the cell may have changed whether it requires grad.
fn only_numpy_of(w: &Walker, name: &str) -> bool {
    let (mut mentions, mut numpy) = (0, 0);
    crate::ir_scan::for_each_expr(w.ctx.body, &mut |e| match e {
        Expr::Name { id, .. } if id == name => mentions += 1,
        Expr::Call { func, .. } => {
            if let Expr::Attribute { value, attr, .. } = &**func {
                if matches!(&**value, Expr::Name { id, .. } if id == name) && attr == "numpy" {
                    numpy += 1;
                }
            }
        }
        _ => {}
    });
    let cell = w.ctx.cell;
    mentions == numpy
        && !cell.stored_attributes.contains("requires_grad")
        && !cell.stored_attributes.contains("data")
        && !cell.function_mentions.iter().any(|(_, m)| m.contains(name))
        && !w
            .ctx
            .history
            .function_mentions
            .values()
            .any(|m| m.contains(name))
}
