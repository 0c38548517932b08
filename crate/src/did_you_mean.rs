//! "Did you mean": the known name closest to a mistyped one, when it really resembles it.

/// Similarity from 0 to 1: twice the longest common subsequence over both lengths (as difflib's
/// `ratio` for names without repeated blocks).
fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut prev = vec![0usize; b.len() + 1];
    for ca in &a {
        let mut cur = vec![0usize; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = if ca == cb {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        prev = cur;
    }
    2.0 * prev[b.len()] as f64 / (a.len() + b.len()) as f64
}

/// Case, `_`, `-` and spaces aside: `Fare_Log`, `fare log` and `farelog` are one name.
fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A "did you mean" needs a real resemblance: the same name but for case and separators, or a
/// similarity of at least `SIMILAR` (`Agee`/`Age`, not `Name`/`Fare`).
const SIMILAR: f64 = 0.8;

/// The closest candidate that resembles `name`, if any.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted = loose(name);
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let score = if loose(c) == wanted {
            2.0
        } else {
            similarity(name, c)
        };
        if score >= SIMILAR && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_need_a_close_name() {
        assert_eq!(suggest("Agee", ["Age", "Sex"]), Some("Age"));
        assert_eq!(suggest("age", ["Age", "Sex"]), Some("Age"));
        assert_eq!(suggest("Fare", ["Age", "Sex"]), None);
        assert_eq!(suggest("fare_log", ["Age", "FareLog"]), Some("FareLog"));
        // Edit distance 2 between four-letter words is no resemblance.
        assert_eq!(suggest("Name", ["Fare", "Age"]), None);
        assert_eq!(suggest("Embarkd", ["Embarked", "Fare"]), Some("Embarked"));
    }
}
