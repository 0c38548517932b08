//! numpy's values: arrays of known shape and dtype, from literals and constructors.

use super::abstract_value::{ArrayLib, ArrayVal, Val};

/// An array of `lib` of that shape (and dtype), of which nothing else is known.
pub fn numpy_array(lib: ArrayLib, shape: Vec<i64>, dtype: Option<&str>) -> Val {
    Val::Array(ArrayVal {
        lib,
        shape,
        dtype: dtype.map(str::to_string),
        has_nan: None,
        csv_object_column: None,
        origin: None,
        non_integer: None,
    })
}

/// The shape and dtype of nested lists or tuples of numbers (`[[1, 2], [3, 4]]`), when
/// rectangular.
pub fn literal_shape(v: &Val) -> Option<(Vec<i64>, bool)> {
    match v {
        Val::Int(_) => Some((vec![], true)),
        Val::Float(_) => Some((vec![], false)),
        v if is_nan_constant(v) => Some((vec![], false)),
        Val::Items { items, .. } if !items.is_empty() => {
            let parts: Option<Vec<(Vec<i64>, bool)>> = items.iter().map(literal_shape).collect();
            let parts = parts?;
            let first = parts[0].0.clone();
            if parts.iter().any(|(s, _)| *s != first) {
                return None;
            }
            let mut shape = vec![items.len() as i64];
            shape.extend(first);
            Some((shape, parts.iter().all(|(_, int)| *int)))
        }
        _ => None,
    }
}

/// The array `np.asarray` makes of nested lists of known numbers, with what its values show.
pub fn literal_array(v: &Val) -> Option<ArrayVal> {
    let (shape, int) = literal_shape(v)?;
    let mut numbers = Vec::new();
    flatten_numbers(v, &mut numbers);
    Some(ArrayVal {
        has_nan: Some(numbers.iter().any(|n| n.is_nan())),
        non_integer: numbers
            .into_iter()
            .find(|n| n.is_finite() && n.fract() != 0.0),
        ..as_val_array(numpy_array(
            ArrayLib::Numpy,
            shape,
            Some(if int { "int64" } else { "float64" }),
        ))?
    })
}

pub fn as_val_array(v: Val) -> Option<ArrayVal> {
    match v {
        Val::Array(a) => Some(a),
        _ => None,
    }
}

pub fn flatten_numbers(v: &Val, out: &mut Vec<f64>) {
    match v {
        Val::Int(i) => out.push(*i as f64),
        Val::Float(f) => out.push(*f),
        v if is_nan_constant(v) => out.push(f64::NAN),
        Val::Items { items, .. } => items.iter().for_each(|i| flatten_numbers(i, out)),
        _ => {}
    }
}

/// `np.nan`, `math.nan`.
pub fn is_nan_constant(v: &Val) -> bool {
    matches!(v, Val::Lib(p) if p == "numpy.nan" || p == "math.nan")
}
