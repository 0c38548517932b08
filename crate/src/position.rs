//! Byte offsets to the positions editors use: 0-based line, and column in UTF-16 code units
//! (CodeMirror) or in characters.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// 0-based line.
    pub line: u32,
    /// 0-based column in UTF-16 code units.
    pub column: u32,
    /// Byte offset into the cell source.
    pub offset: u32,
}

/// Start offsets of every line of a text, for offset -> position lookups.
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<u32>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        Self { text, line_starts }
    }

    /// The position of a byte offset; offsets past the end or inside a UTF-8 sequence are clamped to
    /// the nearest character boundary before them.
    pub fn position(&self, offset: u32) -> Position {
        let mut offset = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let line_start = self.line_starts[line] as usize;
        let column = self.text[line_start..offset]
            .chars()
            .map(char::len_utf16)
            .sum::<usize>();
        Position {
            line: line as u32,
            column: column as u32,
            offset: offset as u32,
        }
    }

    /// The byte offset of a 0-based line start, clamped to the text.
    pub fn line_start(&self, line: usize) -> u32 {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let text = "a = 1\ns = 'é😀' + x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap() as u32;
        // 'é' is one UTF-16 unit, '😀' two.
        assert_eq!(
            index.position(x),
            Position {
                line: 1,
                column: 12,
                offset: x
            }
        );
        assert_eq!(
            index.position(0),
            Position {
                line: 0,
                column: 0,
                offset: 0
            }
        );
    }

    #[test]
    fn offsets_inside_a_character_or_past_the_end_are_clamped() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.position(1).offset, 0);
        assert_eq!(index.position(99).offset, 2);
    }
}
