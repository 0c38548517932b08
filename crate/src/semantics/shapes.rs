//! Array shapes as numpy and PyTorch compute them: broadcasting, matrix products, reshapes, and
//! the value of elementwise arithmetic on arrays.

use super::abstract_value::{ArrayLib, ArrayVal, Val};
use super::numpy::numpy_array;

/// Numpy broadcasting of two shapes; `None` when they do not broadcast.
pub fn broadcast(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i < n - a.len() {
            1
        } else {
            a[i - (n - a.len())]
        };
        let y = if i < n - b.len() {
            1
        } else {
            b[i - (n - b.len())]
        };
        out[i] = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return None;
        };
    }
    Some(out)
}

/// The shape of the matrix product of 1-D and 2-D operands (`()` for two vectors), when the
/// inner dimensions agree; numpy's `dot`, `matmul` and `@` agree there.
pub fn matmul_shape(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    match (a, b) {
        ([k1], [k2]) if k1 == k2 => Some(vec![]),
        ([k1], [k2, m]) if k1 == k2 => Some(vec![*m]),
        ([n, k1], [k2]) if k1 == k2 => Some(vec![*n]),
        ([n, k1], [k2, m]) if k1 == k2 => Some(vec![*n, *m]),
        _ => None,
    }
}

/// The result of a reshape, or `Err(())` when the element counts differ.
pub fn reshape(from: &[i64], to: &[i64]) -> Option<Result<Vec<i64>, ()>> {
    let size: i64 = from.iter().product();
    let unknown = to.iter().filter(|&&d| d == -1).count();
    if unknown > 1 || to.iter().any(|&d| d < -1) {
        return None;
    }
    let known: i64 = to.iter().filter(|&&d| d != -1).product();
    if unknown == 0 {
        return Some(if known == size {
            Ok(to.to_vec())
        } else {
            Err(())
        });
    }
    if known == 0 || size % known != 0 {
        return Some(Err(()));
    }
    Some(Ok(to
        .iter()
        .map(|&d| if d == -1 { size / known } else { d })
        .collect()))
}

/// Can arrays of shapes `a` and `b` be concatenated along `axis` (same number of dimensions, the
/// same sizes but along `axis`)?
pub fn joins(a: &[i64], b: &[i64], axis: usize) -> bool {
    a.len() == b.len()
        && axis < a.len()
        && a.iter()
            .zip(b)
            .enumerate()
            .all(|(i, (x, y))| i == axis || x == y)
}

pub fn binop_value(op: &str, l: &Val, r: &Val) -> Val {
    let scalar = |v: &Val| matches!(v, Val::Int(_) | Val::Float(_));
    let shape = match (l, r) {
        (Val::Array(a), Val::Array(b)) if a.lib == b.lib && ELEMENTWISE.contains(&op) => {
            broadcast(&a.shape, &b.shape).map(|s| (a.lib, s))
        }
        (Val::Array(a), s) | (s, Val::Array(a)) if scalar(s) && ELEMENTWISE.contains(&op) => {
            Some((a.lib, a.shape.clone()))
        }
        (Val::Array(a), Val::Array(b)) if a.lib == b.lib && op == "@" => {
            matmul_shape(&a.shape, &b.shape)
                .filter(|s| !s.is_empty())
                .map(|s| (a.lib, s))
        }
        _ => None,
    };
    let result = shape.map_or(Val::Unknown, |(lib, shape)| numpy_array(lib, shape, None));
    passes_type_on(l, r, result)
}

/// A numpy array after `target op= operand` (`w += 1`, `X /= norms`): the same array, of its
/// shape and dtype, when the operation broadcasts to that shape (else it raises); its values
/// are not followed.
pub fn in_place_value(op: &str, target: &Val, operand: &Val) -> Option<Val> {
    let Val::Array(a) = target else {
        return None;
    };
    if a.lib != ArrayLib::Numpy || !ELEMENTWISE.contains(&op) {
        return None;
    }
    match binop_value(op, target, operand) {
        Val::Array(out) if out.shape == a.shape => Some(Val::Array(ArrayVal {
            has_nan: None,
            csv_object_column: None,
            origin: None,
            non_integer: None,
            int_bounds: None,
            ..a.clone()
        })),
        _ => None,
    }
}

/// The result of an operation on `l` and `r`, which may not be an ndarray where one of them may
/// not.
fn passes_type_on(l: &Val, r: &Val, result: Val) -> Val {
    [l, r].into_iter().fold(result, |v, operand| match operand {
        Val::Array(a) => a.passes_type_on(v),
        _ => v,
    })
}

/// `-a` or `+a` of an array: an array of its shape (of nothing else, a value not followed).
pub fn negated(v: Val) -> Val {
    match v {
        Val::Array(a) => a.passes_type_on(numpy_array(a.lib, a.shape.clone(), a.dtype.as_deref())),
        _ => Val::Unknown,
    }
}

/// `l OP r` for a comparison operator: numpy compares elementwise, giving a boolean array of
/// the broadcast shape (`==` of shapes that do not broadcast gave `False` before numpy 1.25).
pub fn comparison_value(op: &str, l: &Val, r: &Val) -> Val {
    let scalar = |v: &Val| matches!(v, Val::Int(_) | Val::Float(_));
    let shape = match (l, r) {
        (Val::Array(a), Val::Array(b)) if a.lib == b.lib => {
            broadcast(&a.shape, &b.shape).map(|s| (a.lib, s))
        }
        (Val::Array(a), s) | (s, Val::Array(a)) if scalar(s) => Some((a.lib, a.shape.clone())),
        _ => None,
    };
    match shape {
        Some((lib, shape)) if ["<", ">", "<=", ">=", "==", "!="].contains(&op) => {
            passes_type_on(l, r, numpy_array(lib, shape, Some("bool")))
        }
        _ => Val::Unknown,
    }
}

pub const ELEMENTWISE: [&str; 7] = ["+", "-", "*", "/", "//", "%", "**"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcasting_follows_numpy() {
        assert_eq!(broadcast(&[68], &[272]), None);
        assert_eq!(broadcast(&[68, 1], &[272]), Some(vec![68, 272]));
        assert_eq!(broadcast(&[3, 1, 5], &[4, 5]), Some(vec![3, 4, 5]));
        assert_eq!(reshape(&[2, 6], &[3, -1]), Some(Ok(vec![3, 4])));
        assert_eq!(reshape(&[2, 6], &[5, -1]), Some(Err(())));
        assert_eq!(reshape(&[2, 6], &[12]), Some(Ok(vec![12])));
    }
}
