//! matplotlib's values: what pyplot's figure and Axes builders return.

use crate::ir::Keyword;

use super::abstract_value::Val;

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
