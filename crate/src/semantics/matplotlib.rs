//! matplotlib's values: what pyplot's figure and Axes builders return (`plt.subplots` parts).

use crate::ir::{Expr, Keyword};
use crate::ir_scan::unpacks;

use super::abstract_value::Val;
use super::eval::{int_of, Eval};

/// seaborn's plotting functions, which take only `data` by position since seaborn 0.12.
const SEABORN_DATA_FIRST: &str = " relplot scatterplot lineplot displot histplot kdeplot ecdfplot rugplot catplot stripplot swarmplot boxplot violinplot boxenplot pointplot barplot countplot lmplot regplot residplot jointplot pairplot heatmap clustermap ";

/// Does seaborn's `function` take only `data` by position (seaborn 0.12 on)?
pub fn seaborn_takes_data_first(function: &str) -> bool {
    super::listed(SEABORN_DATA_FIRST, function)
}

/// Does seaborn's `function` take a frame as `data` and look up in it the names given as `x`,
/// `y`, `hue` and its other name parameters? (`pairplot`, `heatmap` and `clustermap` take no
/// such names.)
pub fn seaborn_names_columns(function: &str) -> bool {
    seaborn_takes_data_first(function) && !matches!(function, "pairplot" | "heatmap" | "clustermap")
}

/// `plt.subplot(...)`, `plt.axes()`: an Axes (without a projection, which may be a toolkit's).
pub fn pyplot_result(path: &str, keywords: &[Keyword]) -> Option<Val> {
    let plain = !keywords
        .iter()
        .any(|k| matches!(k.name.as_deref(), None | Some("projection" | "polar")));
    (matches!(path, "matplotlib.pyplot.subplot" | "matplotlib.pyplot.axes") && plain)
        .then(|| Val::Typed(AXES_CLASS.into()))
}

/// A matplotlib Axes (of any projection: every one takes `imshow`'s images as `Axes` does).
pub fn is_axes(v: &Val) -> bool {
    matches!(v, Val::Typed(t) if t.starts_with("matplotlib.axes."))
}

/// The qualified class of matplotlib's Axes.
pub const AXES_CLASS: &str = "matplotlib.axes._axes.Axes";

/// `fig, ax = plt.subplots(nrows, ncols)`: the figure, and an Axes, or (squeezed) a 1-D or 2-D
/// array of them, here a sequence of Axes one may index.
pub fn subplots_parts(w: &dyn Eval, value: &Expr, n_targets: usize) -> Option<Vec<Val>> {
    let Expr::Call {
        func,
        args,
        keywords,
        ..
    } = value
    else {
        return None;
    };
    if w.lib_path(func)? != "matplotlib.pyplot.subplots"
        || n_targets != 2
        || unpacks(args, keywords)
    {
        return None;
    }
    if keywords
        .iter()
        .any(|k| matches!(k.name.as_deref(), Some("squeeze" | "subplot_kw")))
    {
        return None;
    }
    let count =
        |at: usize, name: &str| match args.get(at).or_else(|| crate::ir::keyword(keywords, name)) {
            None => Some(1),
            Some(e) => int_of(w, e).filter(|n| *n >= 1),
        };
    let (rows, cols) = (count(0, "nrows")?, count(1, "ncols")?);
    let axes = |n: i64| Val::Items {
        type_name: "ndarray".into(),
        items: vec![Val::Typed(AXES_CLASS.into()); n as usize],
    };
    let ax = match (rows, cols) {
        (1, 1) => Val::Typed(AXES_CLASS.into()),
        (1, n) | (n, 1) => axes(n),
        (r, c) => Val::Items {
            type_name: "ndarray".into(),
            items: vec![axes(c); r as usize],
        },
    };
    Some(vec![Val::Typed("matplotlib.figure.Figure".into()), ax])
}
