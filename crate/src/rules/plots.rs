//! matplotlib rules.
//!
//! - `plot-lengths`: `plt.plot(x, y)` / `ax.plot(x, y)` (and `semilogx`, `semilogy`, `loglog`,
//!   `step`, which call it) of an `x` and `y` whose first dimensions differ, and `scatter` of
//!   1-D `x` and `y` of different sizes: ValueError.
//! - `missing-attribute`: an Axes method (`plot`, `set_title`, ...) called on the numpy array of
//!   Axes that `plt.subplots(nrows, ncols)` returns: AttributeError.
//! - `index-out-of-range`: `axes[i, j]` past the grid `plt.subplots` made: IndexError.
//! - `not-subscriptable`: `ax[0]` of the single Axes `plt.subplots()` returns: TypeError.
//! - `missing-column`: `sns.scatterplot(data=df, x='name', ...)` (every seaborn function that
//!   takes `data` and names its columns) with a name that is not a column of `df`, whose index
//!   has no name either: ValueError (Could not interpret value), KeyError for the regression plots.

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Literal, TextRange};

use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, Val};
use crate::semantics::attr_tables::AXES_ONLY;
use crate::semantics::matplotlib::is_axes;
use crate::walker::state::Walker;

/// A numpy array of objects: the array of Axes `plt.subplots` returns, or an object array the
/// kernel summarised.
fn object_array(v: &Val) -> bool {
    match v {
        Val::Items { type_name, .. } => type_name == "ndarray",
        Val::Array(a) => a.lib == ArrayLib::Numpy && a.dtype.as_deref() == Some("object"),
        _ => false,
    }
}

/// The first dimension of a sequence passed as data (`len(x)`), and whether it is certainly 1-D
/// (a list of numbers, a 1-D array, a Series).
fn first_dimension(v: &Val) -> Option<(i64, bool)> {
    match v {
        Val::Items { type_name, items } if type_name == "list" || type_name == "tuple" => {
            let flat = items
                .iter()
                .all(|i| matches!(i, Val::Int(_) | Val::Float(_)));
            Some((items.len() as i64, flat))
        }
        Val::Sized { type_name, len } if type_name == "list" || type_name == "tuple" => {
            Some((*len, false))
        }
        Val::Strs { type_name, items } if type_name == "list" || type_name == "tuple" => {
            Some((items.len() as i64, true))
        }
        Val::Array(a) if a.lib == ArrayLib::Numpy && !a.shape.is_empty() => {
            Some((a.shape[0], a.shape.len() == 1))
        }
        Val::Series(s) => Some((s.len?, true)),
        _ => None,
    }
}

/// The plotting function `func` names: `plt.plot`, or `ax.plot` of an Axes.
fn plotting_function(w: &Walker, func: &Expr) -> Option<String> {
    let name = match w.lib_path(func) {
        Some(path) => path.strip_prefix("matplotlib.pyplot.")?.to_string(),
        None => match func {
            Expr::Attribute { value, attr, .. } if is_axes(&w.eval(value)) => attr.clone(),
            _ => return None,
        },
    };
    matches!(
        name.as_str(),
        "plot" | "semilogx" | "semilogy" | "loglog" | "step" | "scatter"
    )
    .then_some(name)
}

fn lengths_problem(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[crate::ir::Keyword],
) -> Option<Diagnostic> {
    let name = plotting_function(w, func)?;
    // `data=` makes strings name columns; a third positional argument other than a format
    // string starts another (x, y) pair.
    let format_only = match args.get(2) {
        None => true,
        Some(e) => e.as_str_literal().is_some() && args.len() == 3,
    };
    if unpacks(args, keywords)
        || keywords.iter().any(|k| k.name.as_deref() == Some("data"))
        || args.len() < 2
        || (name == "scatter" && args.len() != 2)
        || !format_only
    {
        return None;
    }
    let (x, y) = (&args[0], &args[1]);
    let (n, x_flat) = first_dimension(&w.eval(x))?;
    let (m, y_flat) = first_dimension(&w.eval(y))?;
    if n == m {
        return None;
    }
    let message = if name == "scatter" {
        if !(x_flat && y_flat) {
            return None;
        }
        format!(
            "{} holds {n} values and {} holds {m}: scatter pairs them point by point and raises ValueError: x and y must be the same size",
            w.shown(x, "x"),
            w.shown(y, "y")
        )
    } else {
        format!(
            "{} has {n} rows and {} has {m}: {name} pairs them point by point and raises ValueError: x and y must have same first dimension",
            w.shown(x, "x"),
            w.shown(y, "y")
        )
    };
    Some(Diagnostic::error(
        Rule::PlotLengths,
        message,
        TextRange::new(x.range().start, y.range().end),
    ))
}

/// `axes[i, j]` on the grid of Axes `plt.subplots` made: an index past an axis, or more indices
/// than the grid has axes.
fn grid_index(w: &Walker, value: &Expr, index: &Expr, range: TextRange) -> Option<Diagnostic> {
    let Expr::Seq { elts, .. } = index else {
        return None;
    };
    let mut level = w.eval(value);
    if !matches!(&level, Val::Items { type_name, .. } if type_name == "ndarray") {
        return None;
    }
    for (axis, e) in elts.iter().enumerate() {
        let Expr::Literal {
            value: Literal::Int(i),
            ..
        } = e
        else {
            return None;
        };
        let problem = match &level {
            Val::Items { type_name, items } if type_name == "ndarray" => {
                let size = items.len() as i64;
                if *i >= size || *i < -size {
                    format!("index {i} is out of bounds for axis {axis} with size {size}")
                } else {
                    let at = if *i < 0 { size + i } else { *i };
                    level = items[at as usize].clone();
                    continue;
                }
            }
            v if is_axes(v) => "too many indices for array".to_string(),
            _ => return None,
        };
        return Some(Diagnostic::error(
            Rule::IndexOutOfRange,
            format!(
                "{} is the array of Axes of shape {} that plt.subplots made: IndexError: {problem}",
                w.shown(value, "the array"),
                crate::summary::tuple_text(grid_shape(&w.eval(value)))
            ),
            range,
        ));
    }
    None
}

/// The shape of a (nested) array of Axes.
fn grid_shape(v: &Val) -> Vec<i64> {
    match v {
        Val::Items { type_name, items } if type_name == "ndarray" => {
            let mut shape = vec![items.len() as i64];
            shape.extend(items.first().map(grid_shape).unwrap_or_default());
            shape
        }
        _ => Vec::new(),
    }
}

const SEABORN_NAME_PARAMS: &[&str] = &[
    "x", "y", "hue", "size", "style", "units", "weights", "col", "row",
];

/// `sns.histplot(data=df, x='nmae')`: a name that is neither a column of `df` (whose columns are
/// all known) nor the name of its index.
fn seaborn_column(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[crate::ir::Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    let function = path.strip_prefix("seaborn.")?;
    if !crate::semantics::matplotlib::seaborn_names_columns(function) || unpacks(args, keywords) {
        return None;
    }
    let data = crate::ir::keyword(keywords, "data").or(args.first())?;
    let Val::Frame(frame) = w.eval(data) else {
        return None;
    };
    let columns = frame.columns.as_ref()?;
    // A frame whose index is unknown counts only when the kernel reported its class.
    if frame.index_names.is_none() && frame.index_class.is_none() {
        return None;
    }
    keywords.iter().find_map(|k| {
        let param = k.name.as_deref().filter(|p| SEABORN_NAME_PARAMS.contains(p))?;
        let name = super::sklearn::str_value(w, &k.value)?;
        let name = name.as_str();
        if columns.iter().any(|c| c == name)
            || !super::columns::not_an_index_level(w, &frame, name)
        {
            return None;
        }
        let error = if matches!(function, "lmplot" | "regplot" | "residplot") {
            "KeyError".to_string()
        } else {
            format!("ValueError: Could not interpret value `{name}` for `{param}`")
        };
        let hint = super::suggest(name, columns.iter().map(String::as_str))
            .map(|c| format!("; did you mean '{c}'?"))
            .unwrap_or_default();
        Some(Diagnostic::error(
            Rule::MissingColumn,
            format!(
                "'{name}' is not a column of {} (columns: {}){hint}: seaborn's {function} looks {param}='{name}' up in data and raises {error}",
                w.shown(data, "data"),
                super::list_preview(columns, 8)
            ),
            k.value.range(),
        ))
    })
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        // Looked up on every attribute the walk meets: the table is sorted (generated so).
        Expr::Attribute { value, attr, range }
            if AXES_ONLY.binary_search(&attr.as_str()).is_ok() =>
        {
            let v = w.eval(value);
            if !object_array(&v) {
                return;
            }
            let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
            out.push(Diagnostic::error(
                Rule::MissingAttribute,
                format!(
                    "{} is a numpy array of Axes (plt.subplots with more than one row or column returns one), and arrays have no '{attr}': pick one Axes (axes[0].{attr}, axes[0, 1].{attr}) or loop over axes.flat: AttributeError",
                    w.shown(value, "the object")
                ),
                attr_range,
            ));
        }
        Expr::Subscript {
            value,
            index,
            range,
        } => {
            if is_axes(&w.eval(value)) {
                out.push(Diagnostic::error(
                    Rule::NotSubscriptable,
                    format!(
                        "{} is a single Axes (plt.subplots() with one row and one column returns the Axes itself, not an array): TypeError: 'Axes' object is not subscriptable; use it directly, or pass squeeze=False",
                        w.shown(value, "the object")
                    ),
                    *range,
                ));
            } else if let Some(d) = grid_index(w, value, index, *range) {
                out.push(d);
            }
        }
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } => {
            if let Some(d) = lengths_problem(w, func, args, keywords)
                .or_else(|| seaborn_column(w, func, args, keywords))
            {
                out.push(d);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn axes_table_is_sorted_for_binary_search() {
        let table = crate::semantics::attr_tables::AXES_ONLY;
        assert!(table.windows(2).all(|w| w[0] < w[1]));
    }
}
