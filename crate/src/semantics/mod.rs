//! What the analysed objects are and what library calls do to them: the abstract values, and
//! tables of library contracts.

pub mod abstract_value;
pub mod attr_tables;
pub mod containers;
pub mod eval;
pub mod keras_build;
pub mod keras_tables;
pub mod matplotlib;
pub mod module_tables;
pub mod modules;
pub mod mutation;
pub mod notebook_classes;
pub mod numpy;
pub mod pandas;
pub mod pandas_tables;
pub mod properties;
pub mod property_tables;
pub mod python;
pub mod shapes;
pub mod signature_tables;
pub mod signatures;
pub mod sklearn;
pub mod sklearn_tables;
pub mod stdlib_values;
pub mod tensorflow;
pub mod torch_classes;
pub mod torch_layers;
pub mod torch_objects;
pub mod torch_tables;

/// Is `name` one of the names of `table`, a generated table of names separated by spaces (and
/// with one before the first and after the last)?
pub fn listed(table: &str, name: &str) -> bool {
    !name.is_empty()
        && table
            .match_indices(name)
            .any(|(i, _)| table[..i].ends_with(' ') && table[i + name.len()..].starts_with(' '))
}
