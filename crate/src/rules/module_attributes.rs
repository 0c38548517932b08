//! Names a module lacks, read as its attribute (`missing-attribute`: `np.arrange`) or imported
//! from it (`missing-import-name`: `from numpy import arrange`):
//!
//! - names earlier releases had (`semantics::modules::removed`): numpy's aliases and NEP 52
//!   removals (`np.float`, `np.product`), pandas' (`pd.rolling_mean`, `pd.Panel`), TensorFlow 1's
//!   (`tf.Session`, `tf.placeholder`, `tf.train.AdamOptimizer`), Keras 2's
//!   (`keras.optimizers.adam`, `keras.layers.core`), scikit-learn's (`sklearn.cross_validation`,
//!   `load_boston`, also as a module in an import's path), Python 2's (`string.letters`). Certain when
//!   the kernel runs a release without them, likely when it did not say which; Python 2's always
//!   (the kernel runs Python 3).
//! - names that misspell one the module has (`np.arrange`, `pd.read_cvs`, `math.sqroot`,
//!   `keras.layers.Dens`), in the modules `semantics::module_tables` lists: no release had such a
//!   name (the names earlier ones had are the first case's), so AttributeError whatever the
//!   release, unless the kernel runs a later one than the table's.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{Expr, Stmt, TextRange};
use crate::semantics::abstract_value::Val;
use crate::semantics::modules::{self, Removed};
use crate::walker::state::Walker;

use super::{kernel_release, removed_in_release};

/// How the name is reached: what Python raises, and says.
#[derive(Clone, Copy)]
enum Reach {
    Attribute,
    Import,
    /// The name is a submodule in the path of an import (`import sklearn.cross_validation`).
    Module,
}

impl Reach {
    fn lacks(self, module: &str, name: &str) -> String {
        match self {
            Reach::Attribute => format!("module '{module}' has no attribute '{name}'"),
            Reach::Import => format!("cannot import name '{name}' from '{module}'"),
            Reach::Module => format!("No module named '{module}.{name}'"),
        }
    }

    fn rule(self) -> (Rule, &'static str) {
        match self {
            Reach::Attribute => (Rule::MissingAttribute, "AttributeError"),
            Reach::Import => (Rule::MissingImportName, "ImportError"),
            Reach::Module => (Rule::MissingImportName, "ModuleNotFoundError"),
        }
    }
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Attribute { value, attr, range } = expr else {
        return;
    };
    if attr.starts_with('_') || w.speculating() {
        return;
    }
    let (Val::Module(Some(module)) | Val::Lib(module)) = w.eval(value) else {
        return;
    };
    if w.attribute_rewired(attr) {
        return;
    }
    let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
    out.extend(lacked_name(w, &module, attr, attr_range, Reach::Attribute));
}

/// `from numpy import arrange`, `from keras.optimizers import adam`.
pub fn check_stmt(w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
    let Stmt::Import { from, names, range } = stmt else {
        return;
    };
    if w.speculating() {
        return;
    }
    let Some(module) = from else {
        // `import sklearn.cross_validation`
        for alias in names {
            let range = TextRange::new(
                alias.range.start,
                alias.range.start + alias.name.len() as u32,
            );
            out.extend(removed_module(w, &alias.name, range));
        }
        return;
    };
    // `from sklearn.cross_validation import train_test_split`
    let text = w.text(*range);
    if let Some(at) = text
        .find(module.as_str())
        .filter(|_| !module.starts_with('.'))
    {
        let start = range.start + at as u32;
        let module_range = TextRange::new(start, start + module.len() as u32);
        if let Some(d) = removed_module(w, module, module_range) {
            out.push(d);
            return;
        }
    }
    for alias in names {
        if alias.name.starts_with('_') || alias.name == "*" {
            continue;
        }
        let range = TextRange::new(
            alias.range.start,
            alias.range.start + alias.name.len() as u32,
        );
        out.extend(lacked_name(w, module, &alias.name, range, Reach::Import));
    }
}

/// A module in the dotted `path` that earlier releases had (`sklearn.cross_validation`,
/// `tensorflow.contrib`).
fn removed_module(w: &Walker, path: &str, range: TextRange) -> Option<Diagnostic> {
    let parts: Vec<&str> = path.split('.').collect();
    (1..parts.len()).find_map(|i| {
        let parent = parts[..i].join(".");
        let removed = modules::removed(&parent, parts[i])?;
        removed_name(w, &parent, parts[i], &removed, range, Reach::Module)
    })
}

fn lacked_name(
    w: &Walker,
    module: &str,
    name: &str,
    range: TextRange,
    reach: Reach,
) -> Option<Diagnostic> {
    match modules::removed(module, name) {
        Some(removed) => removed_name(w, module, name, &removed, range, reach),
        None => misspelled_name(w, module, name, range, reach),
    }
}

/// `np.float`, `tf.Session`: a name of earlier releases.
fn removed_name(
    w: &Walker,
    module: &str,
    attr: &str,
    removed: &Removed,
    range: TextRange,
    reach: Reach,
) -> Option<Diagnostic> {
    let shown = |(major, minor): (u32, u32)| format!("{} {major}.{minor}", removed.library);
    let when = match removed.library {
        // Python 2's names: some went in 3.0, some later (`time.clock`, 3.8).
        "python" => "Python 3 removed it".to_string(),
        _ => format!(
            "{} and later lack it{}",
            shown(removed.gone),
            removed.back.map_or(String::new(), |b| format!(
                ", until {} brought it back",
                shown(b)
            ))
        ),
    };
    let message = format!(
        "{}: {when}; use {}",
        reach.lacks(module, attr),
        removed.instead
    );
    let (rule, exception) = reach.rule();
    let error = |message: String| Diagnostic::error(rule, message, range);
    if removed.library == "python" {
        return Some(error(format!("{message}: {exception}")));
    }
    // A name a later release brought back may be there: nothing to say without the release.
    if removed.back.is_some() && kernel_release(w, removed.library).is_none() {
        return None;
    }
    removed_in_release(
        w,
        removed.library,
        (removed.gone, removed.back),
        &message,
        exception,
        error,
    )
}

/// `np.arrange`: a misspelling of a name the module has.
fn misspelled_name(
    w: &Walker,
    module: &str,
    attr: &str,
    range: TextRange,
    reach: Reach,
) -> Option<Diagnostic> {
    let names = modules::names(module)?;
    if names.has(attr) {
        return None;
    }
    let right = names.misspelled(attr)?;
    // A later release than the table's may have added the name.
    if let Some((kernel, _)) = kernel_release(w, names.library) {
        if kernel > release_of(names.version)? {
            return None;
        }
    }
    let (rule, exception) = reach.rule();
    Some(
        Diagnostic::error(
            rule,
            format!(
                "{}; did you mean '{right}'? (a misspelling of a name of {} {}): {exception}",
                reach.lacks(module, attr),
                names.library,
                names.version
            ),
            range,
        )
        .with_fix(Fix::replace(format!("Use {right}"), range, right)),
    )
}

/// `2.4.6` as (2, 4).
fn release_of(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split('.').map(|p| p.parse().ok());
    Some((parts.next()??, parts.next()??))
}
