//! A line-by-line scanner of Python's lexical structure: just enough to know whether a physical
//! line starts a new logical line (not inside brackets, a string, or after a backslash) and where
//! its comment starts. `magics` uses it to find IPython syntax, `split` to cut a broken cell into
//! statements. It works on bytes: every structural character is ASCII, and UTF-8 continuation
//! bytes never equal an ASCII byte, so multi-byte characters are skipped safely.

#[derive(Clone, Copy, Debug, Default)]
pub struct LineScanner {
    /// Open brackets.
    depth: u32,
    /// Inside a triple-quoted string: its quote byte.
    triple_quote: Option<u8>,
    /// Inside a single-quoted string continued by a backslash at the end of the previous line.
    single_quote: Option<u8>,
    /// The previous line ended with a backslash continuation outside any string.
    backslash: bool,
}

impl LineScanner {
    pub fn at_logical_line_start(&self) -> bool {
        self.depth == 0
            && self.triple_quote.is_none()
            && self.single_quote.is_none()
            && !self.backslash
    }

    /// Forgets open brackets (not strings): see `split::Brackets::Ignored`.
    pub fn close_brackets(&mut self) {
        self.depth = 0;
    }

    /// Scans one physical line (without its `\n`) and returns the offset of its comment, if any.
    pub fn scan(&mut self, line: &str) -> Option<usize> {
        let bytes = line.strip_suffix('\r').unwrap_or(line).as_bytes();
        let len = bytes.len();
        let mut single = self.single_quote.take();
        self.backslash = false;
        let mut i = 0;
        while i < len {
            let byte = bytes[i];
            if let Some(quote) = self.triple_quote {
                if byte == b'\\' {
                    i += 2;
                } else if byte == quote && bytes[i..].starts_with(&[quote, quote, quote]) {
                    self.triple_quote = None;
                    i += 3;
                } else {
                    i += 1;
                }
                continue;
            }
            if let Some(quote) = single {
                if byte == b'\\' {
                    if i + 1 == len {
                        // An escaped newline: the string goes on on the next line.
                        self.single_quote = Some(quote);
                    }
                    i += 2;
                } else {
                    if byte == quote {
                        single = None;
                    }
                    i += 1;
                }
                continue;
            }
            match byte {
                b'#' => return Some(i),
                b'\'' | b'"' => {
                    if bytes[i..].starts_with(&[byte, byte, byte]) {
                        self.triple_quote = Some(byte);
                        i += 3;
                        continue;
                    }
                    single = Some(byte);
                }
                b'(' | b'[' | b'{' => self.depth += 1,
                b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                b'\\' if i + 1 == len => self.backslash = true,
                _ => {}
            }
            i += 1;
        }
        None
    }
}

/// The physical lines of a text with their byte offsets, without their `\n`.
pub fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split('\n').map(move |line| {
        let start = offset;
        offset += line.len() + 1;
        (start, line)
    })
}

/// A line's content after its indentation, and the indentation's length in bytes.
pub fn dedent(line: &str) -> (usize, &str) {
    let content = line.trim_start_matches([' ', '\t', '\x0c']);
    (line.len() - content.len(), content)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<bool> {
        let mut scanner = LineScanner::default();
        lines_with_offsets(text)
            .map(|(_, line)| {
                let start = scanner.at_logical_line_start();
                scanner.scan(line);
                start
            })
            .collect()
    }

    #[test]
    fn brackets_strings_and_backslashes_continue_a_logical_line() {
        assert_eq!(
            starts("f(1,\n2)\nx = '''a\n#b'''\ny = 1 + \\\n 2\nz = 'a\\\nb'\nw"),
            [true, false, true, false, true, false, true, false, true]
        );
    }

    #[test]
    fn comments_hide_quotes_and_brackets() {
        let mut scanner = LineScanner::default();
        assert_eq!(scanner.scan("x = 1  # it's ("), Some(7));
        assert!(scanner.at_logical_line_start());
        assert_eq!(scanner.scan("s = '#' # é"), Some(8));
    }
}
