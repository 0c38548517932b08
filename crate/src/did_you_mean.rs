//! "Did you mean": the known name closest to a mistyped one, when it really resembles it.

/// The length of the longest common subsequence of `a` and `b`, in one row of the table (`row` is
/// reused across candidates: a "did you mean" compares a name with thousands of others).
fn common_subsequence(a: &[char], b: &[char], row: &mut Vec<usize>) -> usize {
    row.clear();
    row.resize(b.len() + 1, 0);
    for ca in a {
        let mut diagonal = 0;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Case, `_`, `-` and spaces aside: `Fare_Log`, `fare log` and `farelog` are one name.
fn loose(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
}

/// A "did you mean" needs a real resemblance: the same name but for case and separators, or a
/// similarity (twice the longest common subsequence over both lengths, as difflib's `ratio` for
/// names without repeated blocks) of at least `SIMILAR` (`Agee`/`Age`, not `Name`/`Fare`).
const SIMILAR: f64 = 0.8;

/// The closest candidate that resembles `name`, if any.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted: Vec<char> = loose(name).collect();
    let chars: Vec<char> = name.chars().collect();
    let mut other: Vec<char> = Vec::new();
    let mut row = Vec::new();
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let loosely_same = if c.is_ascii() {
            // Most names are ASCII: no Unicode case tables.
            let bytes = c.bytes().filter(|b| !matches!(b, b'_' | b'-' | b' '));
            bytes
                .map(|b| char::from(b.to_ascii_lowercase()))
                .eq(wanted.iter().copied())
        } else {
            loose(c).eq(wanted.iter().copied())
        };
        let score = if loosely_same {
            2.0
        } else {
            other.clear();
            other.extend(c.chars());
            let total = (chars.len() + other.len()) as f64;
            // The common subsequence is at most the shorter name: lengths too far apart never
            // reach SIMILAR, and need no table.
            if (chars.len().min(other.len()) as f64) < SIMILAR / 2.0 * total {
                continue;
            }
            2.0 * common_subsequence(&chars, &other, &mut row) as f64 / total
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
