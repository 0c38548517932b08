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

/// An upper bound of the longest common subsequence of two names, in time linear in their
/// lengths: the characters they share, counted with multiplicity (ASCII by character, any other
/// character as possibly equal to any other).
struct SharedCharacters {
    ascii: [u16; 128],
    other: usize,
}

impl SharedCharacters {
    fn of(name: &[char]) -> Self {
        let mut counts = Self {
            ascii: [0; 128],
            other: 0,
        };
        for &c in name {
            match counts.ascii.get_mut(c as usize) {
                Some(count) => *count += 1,
                None => counts.other += 1,
            }
        }
        counts
    }

    /// The characters `candidate` shares with the name.
    fn with(&self, candidate: &str) -> usize {
        let mut left = self.ascii;
        let (mut shared, mut other) = (0, 0);
        for c in candidate.chars() {
            match left.get_mut(c as usize) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    shared += 1;
                }
                Some(_) => {}
                None => other += 1,
            }
        }
        shared + other.min(self.other)
    }
}

/// The closest candidate that resembles `name`, if any; of equally close ones the least (a set of
/// names comes in any order, and the same notebook must get the same suggestion).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted: Vec<char> = loose(name).collect();
    let chars: Vec<char> = name.chars().collect();
    let shared = SharedCharacters::of(&chars);
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
            let length = if c.is_ascii() {
                c.len()
            } else {
                c.chars().count()
            };
            let total = (chars.len() + length) as f64;
            let similarity = |common: usize| 2.0 * common as f64 / total;
            // The common subsequence is at most the shorter name, and at most the characters
            // both names hold: a candidate whose bound cannot reach SIMILAR, or beat the best
            // so far, needs no table.
            let good_enough = |common: usize| {
                let bound = similarity(common);
                bound >= SIMILAR && best.is_none_or(|(b, _)| bound >= b)
            };
            if !good_enough(chars.len().min(length)) || !good_enough(shared.with(c)) {
                continue;
            }
            other.clear();
            other.extend(c.chars());
            similarity(common_subsequence(&chars, &other, &mut row))
        };
        if score >= SIMILAR && best.is_none_or(|(b, least)| score > b || (score == b && c < least))
        {
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

    /// Equally close candidates: the least, in whatever order they come.
    #[test]
    fn ties_go_to_the_least_name_whatever_the_order() {
        assert_eq!(
            suggest("Embarkd", ["Embarked", "Embarkde"]),
            Some("Embarkde")
        );
        assert_eq!(
            suggest("Embarkd", ["Embarkde", "Embarked"]),
            Some("Embarkde")
        );
        assert_eq!(suggest("Age", ["age_", "AGE"]), Some("AGE"));
        assert_eq!(suggest("Age", ["AGE", "age_"]), Some("AGE"));
    }

    /// The shared-character bound that skips the table is never below the real subsequence.
    #[test]
    fn shared_characters_bound_the_common_subsequence() {
        let names = [
            "Age", "Agee", "agE_", "Fare", "FareLog", "fare_log", "Embarked", "Embarkd", "Name",
            "ééa", "aé", "年齢", "年齢x", "", "aaab", "abab", "baba",
        ];
        let mut row = Vec::new();
        for a in names {
            let a_chars: Vec<char> = a.chars().collect();
            let shared = SharedCharacters::of(&a_chars);
            for b in names {
                let b_chars: Vec<char> = b.chars().collect();
                let common = common_subsequence(&a_chars, &b_chars, &mut row);
                assert!(shared.with(b) >= common, "{a} {b}");
            }
        }
    }
}
