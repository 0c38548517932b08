//! PyTorch objects as the kernel summarises them (`torch_module`, `torch_dataset`, `dataloader`):
//! a single layer, a loss and the shapes it accepts, a dataset's sample and a loader's batch.

use serde_json::Value;

use crate::summary::{Category, ObjectSummary};

use super::abstract_value::{ArrayLib, Val};
use super::torch_layers::{layer_of, Layer, Shape};

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
pub fn loss_class(class: &str) -> Option<Loss> {
    match class {
        "BCELoss" | "BCEWithLogitsLoss" => Some(Loss::Binary),
        "MSELoss" | "L1Loss" | "SmoothL1Loss" | "HuberLoss" => Some(Loss::Elementwise),
        "CrossEntropyLoss" | "NLLLoss" => Some(Loss::Classes),
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
