//! Names a module lacks (`missing-attribute`):
//!
//! - names earlier releases had (`semantics::modules::removed`): numpy's aliases and NEP 52
//!   removals (`np.float`, `np.product`), pandas' (`pd.rolling_mean`, `pd.Panel`), TensorFlow 1's
//!   (`tf.Session`, `tf.placeholder`, `tf.train.AdamOptimizer`), Python 2's (`string.letters`).
//!   Certain when the kernel runs a release without them, likely when it did not say which;
//!   Python 2's always (the kernel runs Python 3).
//! - names that misspell one the module has (`np.arrange`, `pd.read_cvs`, `math.sqroot`,
//!   `keras.layers.Dens`), in the modules `semantics::module_tables` lists: no release had such a
//!   name (the names earlier ones had are the first case's), so AttributeError whatever the
//!   release, unless the kernel runs a later one than the table's.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::ir::{Expr, TextRange};
use crate::semantics::abstract_value::Val;
use crate::semantics::modules::{self, Removed};
use crate::walker::state::Walker;

use super::{kernel_release, kernel_release_within, KernelRelease};

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
    if let Some(removed) = modules::removed(&module, attr) {
        out.extend(removed_name(w, &module, attr, &removed, attr_range));
    } else if let Some(d) = misspelled_name(w, &module, attr, attr_range) {
        out.push(d);
    }
}

/// `np.float`, `tf.Session`: a name of earlier releases.
fn removed_name(
    w: &Walker,
    module: &str,
    attr: &str,
    removed: &Removed,
    range: TextRange,
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
        "module '{module}' has no attribute '{attr}': {when}; use {}",
        removed.instead
    );
    let error = |message: String| Diagnostic::error(Rule::MissingAttribute, message, range);
    if removed.library == "python" {
        return Some(error(format!("{message}: AttributeError")));
    }
    match kernel_release_within(w, removed.library, removed.gone, removed.back) {
        KernelRelease::Within(kernel) => {
            Some(error(format!("{message}; {kernel}: AttributeError")))
        }
        KernelRelease::Outside => None,
        // A name a later release brought back may be there: nothing to say.
        KernelRelease::Unknown if removed.back.is_some() => None,
        KernelRelease::Unknown => {
            let mut d = error(format!("{message}: AttributeError"));
            d.make_likely(&format!(
                "the kernel's {} version is not known; earlier releases have it",
                removed.library
            ));
            Some(d)
        }
    }
}

/// `np.arrange`: a misspelling of a name the module has.
fn misspelled_name(w: &Walker, module: &str, attr: &str, range: TextRange) -> Option<Diagnostic> {
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
    Some(
        Diagnostic::error(
            Rule::MissingAttribute,
            format!(
                "module '{module}' has no attribute '{attr}'; did you mean '{right}'? (a misspelling of a name of {} {}): AttributeError",
                names.library, names.version
            ),
            range,
        )
        .with_fix(Fix {
            message: format!("Use {right}"),
            edits: vec![Edit {
                range,
                content: right.to_string(),
            }],
            run_cells: vec![],
        }),
    )
}

/// `2.4.6` as (2, 4).
fn release_of(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split('.').map(|p| p.parse().ok());
    Some((parts.next()??, parts.next()??))
}
