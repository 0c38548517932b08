//! Ordered maps and sets built by insertion. `collect()` into a `BTreeMap` or `BTreeSet` sorts
//! the items first with a stable sort compiled anew for each item type (and, for a map, for each
//! iterator type): about 2 KiB of the gzipped WebAssembly bundle apiece. Insertion reuses the
//! `insert` every map has, and keeps the last value of a repeated key as `collect()` does.

use std::collections::{BTreeMap, BTreeSet};

/// The map of `pairs`; a repeated key keeps its last value.
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(pairs);
    map
}

/// The set of `items`.
pub fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_keeps_its_last_value_as_collect_does() {
        let pairs = [("b", 1), ("a", 2), ("b", 3)];
        let collected: BTreeMap<_, _> = pairs.into_iter().collect();
        assert_eq!(map_of(pairs), collected);
        assert_eq!(map_of(pairs)["b"], 3);
        assert_eq!(
            set_of([3, 1, 3, 2]).into_iter().collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
    }
}
