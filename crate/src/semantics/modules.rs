//! What the modules notebooks import have, and what they had: every name of the modules in
//! `module_tables`, and the names numpy, pandas, scikit-learn, Keras, TensorFlow and Python's own
//! modules removed, with the release that removed them.

use super::module_tables::{KERAS_2_NAMES, MODULE_NAMES, TENSORFLOW_1_NAMES};
use super::numpy::Release;

/// A name a module had in earlier releases of its library.
pub struct Removed {
    /// The library whose release decides (`numpy`, `pandas`, `keras`, `tensorflow`, `python`).
    pub library: &'static str,
    /// The first release without it.
    pub gone: Release,
    /// The release that brought it back, if one did.
    pub back: Option<Release>,
    /// What replaces it.
    pub instead: String,
}

/// `module.name` as an earlier release of its library had it, or None.
pub fn removed(module: &str, name: &str) -> Option<Removed> {
    let removed = |library, gone, back, instead: &str| Removed {
        library,
        gone,
        back,
        instead: instead.to_string(),
    };
    match module {
        "numpy" => super::numpy::REMOVED_MODULE_ATTRIBUTES
            .iter()
            .find(|(n, ..)| *n == name)
            .map(|(_, gone, back, instead)| removed("numpy", *gone, *back, instead)),
        "pandas" => super::pandas_tables::REMOVED_MODULE_ATTRIBUTES
            .iter()
            .find(|(n, ..)| *n == name)
            .map(|(_, major, instead)| removed("pandas", (*major, 0), None, instead)),
        _ if module == "keras" || module.starts_with("keras.") => KERAS_2_NAMES
            .iter()
            .any(|(m, n)| *m == module && *n == name)
            .then(|| {
                let instead = match module {
                    "keras.optimizers" => format!("keras.optimizers.{}", keras_optimizer(name)),
                    _ => format!("what Keras 3 has in {module}"),
                };
                removed("keras", (3, 0), None, &instead)
            }),
        _ if module == "tensorflow" || module.starts_with("tensorflow.") => {
            tensorflow_1_name(module, name)
        }
        _ if module == "sklearn" || module.starts_with("sklearn.") => super::sklearn::REMOVED_NAMES
            .iter()
            .find(|(m, n, ..)| *m == module && *n == name)
            .map(|(_, _, gone, instead)| removed("sklearn", *gone, None, instead)),
        _ => super::python::REMOVED_MODULE_ATTRIBUTES
            .iter()
            .find(|(m, n, _)| *m == module && *n == name)
            .map(|(_, _, instead)| removed("python", (3, 0), None, instead)),
    }
}

/// The optimizer class Keras 2's lowercase alias stood for (`adam`: `Adam`).
fn keras_optimizer(alias: &str) -> String {
    match alias {
        "sgd" => "SGD".to_string(),
        "rmsprop" => "RMSprop".to_string(),
        _ => alias[..1].to_uppercase() + &alias[1..],
    }
}

/// `tf.path` of TensorFlow 1 that TensorFlow 2.0 removed, with what replaces it.
fn tensorflow_1_name(module: &str, name: &str) -> Option<Removed> {
    let under = module.strip_prefix("tensorflow").unwrap_or_default();
    let path = format!(
        "{}{name}",
        under
            .strip_prefix('.')
            .map_or(String::new(), |m| format!("{m}."))
    );
    let entry = [" ", "="].iter().find_map(|end| {
        let at = TENSORFLOW_1_NAMES.find(&format!(" {path}{end}"))? + 1;
        TENSORFLOW_1_NAMES[at..].split(' ').next()
    })?;
    let instead = match entry.split_once('=') {
        Some((_, "")) => "TensorFlow 2's own APIs (tf.contrib was not carried over)".to_string(),
        Some((_, new)) => format!("tf.{new}"),
        None => format!("tf.compat.v1.{path}"),
    };
    Some(Removed {
        library: "tensorflow",
        gone: (2, 0),
        back: None,
        instead,
    })
}

/// Every name a module of `module_tables` has in the release its table was read off.
pub struct ModuleNames {
    pub library: &'static str,
    pub version: &'static str,
    /// ` name name ... `.
    names: &'static str,
}

impl ModuleNames {
    pub fn has(&self, name: &str) -> bool {
        super::listed(self.names, name)
    }

    /// The name of the module that `name` misspells (`arrange` for `arange`), if one does.
    pub fn misspelled(&self, name: &str) -> Option<&'static str> {
        super::signatures::misspelled(name, self.names.split_ascii_whitespace())
    }
}

/// The names of `module`, when `module_tables` lists them.
pub fn names(module: &str) -> Option<ModuleNames> {
    MODULE_NAMES
        .iter()
        .find(|(m, ..)| *m == module)
        .map(|(_, library, version, names)| ModuleNames {
            library,
            version,
            names,
        })
}
