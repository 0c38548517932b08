//! Cuts a cell that does not parse into its top-level statements, so that the statements around a
//! line being edited are still analysed. A statement starts on a logical line at column 0 that does
//! not continue the previous statement (`else:`, `except`, a decorated `def`, ...).

use super::scan::{lines_with_offsets, LineScanner};

/// Keywords at column 0 that continue the compound statement above them.
const CLAUSE_KEYWORDS: &[&str] = &["elif", "else", "except", "finally"];

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Brackets {
    /// A line inside open brackets continues its statement, as in Python.
    Trusted,
    /// A line at column 0 starts a statement even inside open brackets (unless it closes one):
    /// for a statement that does not parse, whose bracket was most likely left open mid-edit.
    Ignored,
}

/// Byte ranges of the text's top-level statements, covering it whole and in order. A cell
/// indented as a whole has its top level at its first line's indentation (IPython dedents it).
pub fn top_level_statements(text: &str, brackets: Brackets) -> Vec<std::ops::Range<usize>> {
    let base = lines_with_offsets(text)
        .map(|(_, line)| line)
        .find(|line| !line.trim().is_empty())
        .map_or("", |line| {
            &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
        });
    let mut starts = vec![0];
    let mut scanner = LineScanner::default();
    let mut after_decorator = false;
    for (offset, line) in lines_with_offsets(text) {
        let line = line.strip_prefix(base).unwrap_or(line);
        if brackets == Brackets::Ignored && !line.starts_with([' ', '\t', ')', ']', '}']) {
            scanner.close_brackets();
        }
        let at_start = scanner.at_logical_line_start();
        scanner.scan(line);
        let code = line.trim_end();
        let at_column_0 = !code.is_empty() && !code.starts_with([' ', '\t', '\x0c', '#']);
        if !(at_start && at_column_0) {
            continue;
        }
        if offset > 0 && !after_decorator && !continues_statement(code) {
            starts.push(offset);
        }
        after_decorator = code.starts_with('@');
    }
    let mut ends: Vec<usize> = starts[1..].to_vec();
    ends.push(text.len());
    starts.into_iter().zip(ends).map(|(s, e)| s..e).collect()
}

fn continues_statement(code: &str) -> bool {
    let first_word = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    CLAUSE_KEYWORDS.contains(&first_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(text: &str) -> Vec<&str> {
        top_level_statements(text, Brackets::Trusted)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn splits_at_column_0_statements() {
        assert_eq!(
            chunks("import a\nif x:\n    y = (\n1)\nelse:\n    z\n@d\ndef f():\n    pass\nw = 1"),
            [
                "import a\n",
                "if x:\n    y = (\n1)\nelse:\n    z\n",
                "@d\ndef f():\n    pass\n",
                "w = 1"
            ]
        );
    }

    #[test]
    fn an_indented_cell_splits_at_its_own_indentation() {
        assert_eq!(
            chunks("  a = 1\n  if b:\n    c\n  d = = 2\n  e = 3"),
            ["  a = 1\n", "  if b:\n    c\n", "  d = = 2\n", "  e = 3"]
        );
    }

    #[test]
    fn ignoring_brackets_recovers_statements_after_an_unclosed_one() {
        let text = "f(\n  1,\n)\ny = g(\nz = '''\n(\n'''\n";
        let pieces: Vec<&str> = top_level_statements(text, Brackets::Ignored)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(pieces, ["f(\n  1,\n)\n", "y = g(\n", "z = '''\n(\n'''\n"]);
    }
}
