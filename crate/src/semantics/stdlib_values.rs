//! What standard functions refuse among values known in full: texts `datetime.strptime` cannot
//! read with its format, dates out of range. Each answers only where CPython's
//! behaviour is certain; None is silence.

/// One piece of a `strptime` format: a literal character (matched ignoring ASCII case), a run of
/// whitespace (`\s+`), or a directive's alternatives as digit-count ranges.
enum Piece {
    Char(char),
    Space,
    /// Alternatives, each (digits, least value, most value): `%m` is `1[0-2]|0[1-9]|[1-9]`.
    Number(&'static [(usize, u32, u32)]),
    /// `%d` also reads a space and one digit (` 5`).
    Day,
}

/// `datetime.strptime(text, format)`: does `text` certainly fail to match `format` (ValueError:
/// "does not match format" or "unconverted data remains")? Only formats of numeric directives
/// (`%Y %y %m %d %H %I %M %S %%`) and ASCII texts; others are None. CPython builds a regex from
/// the format (`_strptime._TimeRE`); no way through it reads the whole text here.
pub fn strptime_mismatch(text: &str, format: &str) -> Option<bool> {
    // Rust's ASCII whitespace lacks the vertical tab that `\s` matches.
    if !text.is_ascii() || !format.is_ascii() || text.contains('\x0b') {
        return None;
    }
    let mut pieces = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        let piece = match c {
            '%' => match chars.next()? {
                'Y' => Piece::Number(&[(4, 0, 9999)]),
                'y' => Piece::Number(&[(2, 0, 99)]),
                'm' => Piece::Number(&[(2, 1, 12), (1, 1, 9)]),
                'd' => Piece::Day,
                'H' => Piece::Number(&[(2, 0, 23), (1, 0, 9)]),
                'I' => Piece::Number(&[(2, 1, 12), (1, 1, 9)]),
                'M' => Piece::Number(&[(2, 0, 59), (1, 0, 9)]),
                'S' => Piece::Number(&[(2, 0, 61), (1, 0, 9)]),
                '%' => Piece::Char('%'),
                _ => return None,
            },
            c if c.is_ascii_whitespace() => {
                while chars.peek().is_some_and(char::is_ascii_whitespace) {
                    chars.next();
                }
                Piece::Space
            }
            c => Piece::Char(c),
        };
        pieces.push(piece);
    }
    Some(!reads_all(&pieces, text.as_bytes()))
}

/// Can `pieces` read exactly `text`, by some choice of alternatives?
fn reads_all(pieces: &[Piece], text: &[u8]) -> bool {
    let Some((piece, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    let number = |digits: usize, least: u32, most: u32| {
        text.len() >= digits
            && text[..digits].iter().all(u8::is_ascii_digit)
            && std::str::from_utf8(&text[..digits])
                .ok()
                .and_then(|s| s.parse::<u32>().ok())
                .is_some_and(|v| (least..=most).contains(&v))
            && reads_all(rest, &text[digits..])
    };
    match piece {
        Piece::Char(c) => text
            .first()
            .is_some_and(|b| b.eq_ignore_ascii_case(&(*c as u8)) && reads_all(rest, &text[1..])),
        Piece::Space => {
            let n = text.iter().take_while(|b| b.is_ascii_whitespace()).count();
            (1..=n).any(|k| reads_all(rest, &text[k..]))
        }
        Piece::Number(alternatives) => alternatives.iter().any(|&(n, l, m)| number(n, l, m)),
        Piece::Day => {
            number(2, 1, 31)
                || number(1, 1, 9)
                || (text.first() == Some(&b' ') && {
                    let after = &text[1..];
                    after.first().is_some_and(|b| (b'1'..=b'9').contains(b))
                        && reads_all(rest, &after[1..])
                })
        }
    }
}

/// `date(year, month, day)`, `datetime(year, month, day, ...)`: CPython's message for the first
/// of the three out of range, in the order it checks them (the time fields are left alone).
pub fn date_field_error(year: i64, month: i64, day: i64) -> Option<String> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    if !(1..=9999).contains(&year) {
        return Some(format!("year {year} is out of range"));
    }
    if !(1..=12).contains(&month) {
        return Some("month must be in 1..12".into());
    }
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (!(1..=days).contains(&day)).then(|| "day is out of range for month".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strptime_reads_as_cpython() {
        assert_eq!(strptime_mismatch("2020-01-01", "%Y-%m-%d"), Some(false));
        assert_eq!(strptime_mismatch("2020-1-5", "%Y-%m-%d"), Some(false));
        assert_eq!(
            strptime_mismatch("01/02/2020 10:30", "%d/%m/%Y  %H:%M"),
            Some(false)
        );
        assert_eq!(strptime_mismatch(" 5/02/2020", "%d/%m/%Y"), Some(false));
        assert_eq!(strptime_mismatch("2020-01-01", "%d/%m/%Y"), Some(true));
        assert_eq!(strptime_mismatch("2020-13-01", "%Y-%m-%d"), Some(true));
        assert_eq!(
            strptime_mismatch("2020-01-01 00:00", "%Y-%m-%d"),
            Some(true)
        );
        assert_eq!(strptime_mismatch("Jan 2020", "%b %Y"), None);
    }
}
