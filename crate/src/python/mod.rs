//! The Python front end: the only module that knows rustpython. It masks IPython syntax, parses,
//! recovers the statements of a cell that does not parse, and lowers the result to `crate::ir`.

mod compat;
mod lower;
mod magics;
mod scan;
mod split;
mod validate;

use rustpython_parser::lexer::LexicalErrorType;
use rustpython_parser::{ast, Parse, ParseError, ParseErrorType};
use serde::Serialize;

use crate::ir::{Stmt, TextRange};
pub use lower::MAX_DEPTH;
use split::Brackets;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParsedCell {
    /// The statements that parsed: all of them, or those of the top-level statements that parse
    /// on their own when the cell has a syntax error.
    pub body: Vec<Stmt>,
    pub syntax_error: Option<SyntaxError>,
    /// The cell magic (`bash`, `writefile`, `html`, ...) whose body is not Python: the cell was
    /// skipped and `body` is empty.
    pub cell_magic: Option<String>,
    /// The cell as IPython runs it when no bound name shadows the line magic its one line starts
    /// with (automagic: `pwd`, `cd data`, `pip install x`).
    pub automagic: Option<Box<ParsedCell>>,
    /// In an automagic reading: the line magic that runs.
    pub runs_line_magic: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SyntaxError {
    /// The parser's message.
    pub message: String,
    /// Where the parser stopped (often rough: an unclosed string is reported on the next line).
    pub range: TextRange,
}

pub use magics::IPythonCommand;

/// The IPython commands of a cell (shell escapes, line and cell magics), in source order.
pub fn ipython_commands(source: &str) -> Vec<IPythonCommand> {
    magics::mask(source).commands
}

pub fn parse_cell(source: &str) -> ParsedCell {
    parse_cell_after(source, None)
}

/// `parse_cell`, reusing the statements of `earlier` (a cell's source and its parse) that the
/// edit to `source` left in place: as the user types, the statements above the edited line are
/// not parsed again. The result is the same as `parse_cell(source)`.
pub fn parse_cell_after(source: &str, earlier: Option<(&str, &ParsedCell)>) -> ParsedCell {
    let masked = magics::mask(source);
    if let Some(magic) = masked.skipped_cell_magic {
        return ParsedCell {
            body: Vec::new(),
            syntax_error: None,
            cell_magic: Some(magic),
            automagic: None,
            runs_line_magic: None,
        };
    }
    let automagic = magics::automagic(source).map(|(name, text)| {
        Box::new(ParsedCell {
            runs_line_magic: Some(name),
            ..parse_masked(source, text, None)
        })
    });
    ParsedCell {
        automagic,
        ..parse_masked(source, masked.text, earlier)
    }
}

/// The statements of `earlier`'s clean parse that `text` (the masked cell) still starts with, and
/// the offset of the rest of `text`, a top-level statement boundary of both. A boundary needs text
/// identical before it, a line at column 0 that does not continue a compound statement (see
/// `split`), and no statement of `earlier` across it: then the statements before it parse as they
/// did. `None` when nothing can be reused.
fn reusable_statements(
    source: &str,
    text: &str,
    earlier_source: &str,
    earlier: &ParsedCell,
) -> Option<(Vec<Stmt>, usize)> {
    let same = common_prefix(source, earlier_source);
    // Most cells share no whole line with the cell parsed before them: no masking needed.
    source[..same].contains('\n').then_some(())?;
    // A cell indented as a whole is dedented by its first line (`compat`): parsed whole.
    let indented = |text: &str| {
        text.lines()
            .find(|line| !line.trim().is_empty())
            .is_some_and(|line| line.starts_with([' ', '\t']))
    };
    if earlier.syntax_error.is_some() || earlier.cell_magic.is_some() || indented(source) {
        return None;
    }
    let earlier_masked = magics::mask(earlier_source).text;
    let earlier_text = compat::rewrite(&earlier_masked).unwrap_or(earlier_masked);
    let same = common_prefix(text, &earlier_text);
    let edited_line = text[..same].rfind('\n').map_or(0, |i| i + 1);
    let statements = &earlier.body;
    let boundary = split::top_level_statements(text, Brackets::Trusted)
        .into_iter()
        .map(|statement| statement.start)
        .filter(|&start| start > 0 && start <= edited_line)
        .rev()
        .find(|&start| {
            let start = start as u32;
            statements
                .iter()
                .all(|s| s.range().end <= start || s.range().start >= start)
        })?;
    let before = statements
        .iter()
        .take_while(|s| s.range().end <= boundary as u32)
        .count();
    Some((statements[..before].to_vec(), boundary))
}

fn common_prefix(a: &str, b: &str) -> usize {
    let same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    // On a character boundary of both (they agree up to it).
    (0..=same)
        .rev()
        .find(|&i| a.is_char_boundary(i))
        .unwrap_or(0)
}

/// Parses the cell's text with IPython syntax masked (same byte offsets as `source`), reusing
/// what it can of `earlier`'s statements.
fn parse_masked(source: &str, text: String, earlier: Option<(&str, &ParsedCell)>) -> ParsedCell {
    let text = compat::rewrite(&text).unwrap_or(text);
    let reused = earlier.and_then(|(earlier_source, earlier)| {
        let (reused, rest) = reusable_statements(source, &text, earlier_source, earlier)?;
        let suite = parse_suite(&text[rest..], rest).ok()?;
        Some([reused, lower::lower_suite(suite)].concat())
    });
    let (body, syntax_error) = match reused {
        Some(body) => (body, None),
        None => match parse_suite(&text, 0) {
            Ok(suite) => (lower::lower_suite(suite), None),
            Err(error) => parse_statement_by_statement(source, &text, &error),
        },
    };
    ParsedCell {
        body,
        syntax_error,
        cell_magic: None,
        automagic: None,
        runs_line_magic: None,
    }
}

/// Parses each top-level statement on its own, keeping those that parse; the error is the first
/// failing statement's (the whole-cell error can point far from the mistake, e.g. at the end of
/// the cell for an unclosed bracket). A failing statement is cut again ignoring open brackets, to
/// keep the statements that a bracket left open mid-edit swallowed.
/// `text` is the masked source: same byte offsets, but masking may replace multi-byte characters,
/// so error positions are snapped to characters of `source`.
fn parse_statement_by_statement(
    source: &str,
    text: &str,
    whole_cell_error: &ParseError,
) -> (Vec<Stmt>, Option<SyntaxError>) {
    let mut body = Vec::new();
    let mut first_error = None;
    for statement in split::top_level_statements(text, Brackets::Trusted) {
        let Some(statement_text) = text.get(statement.clone()) else {
            continue;
        };
        let error = match parse_suite(statement_text, statement.start) {
            Ok(suite) => {
                body.extend(lower::lower_suite(suite));
                continue;
            }
            Err(error) => error,
        };
        first_error.get_or_insert_with(|| syntax_error(source, &error));
        let pieces = split::top_level_statements(statement_text, Brackets::Ignored);
        if pieces.len() < 2 {
            continue;
        }
        for piece in pieces {
            let start = statement.start + piece.start;
            if let Some(Ok(suite)) = statement_text
                .get(piece)
                .map(|piece| parse_suite(piece, start))
            {
                body.extend(lower::lower_suite(suite));
            }
        }
    }
    // Every statement parsing alone while the cell does not is unexpected: keep the cell's error.
    let error = first_error.unwrap_or_else(|| syntax_error(source, whole_cell_error));
    (body, Some(error))
}

/// Parses `text`, which starts at `offset` in the cell, through `compat`'s tokens, and refuses
/// what CPython refuses beyond the grammar (`validate`).
fn parse_suite(text: &str, offset: usize) -> Result<ast::Suite, ParseError> {
    let suite = ast::Suite::parse_tokens(compat::tokens(text, offset), "<cell>")?;
    match validate::first_error(&suite) {
        None => Ok(suite),
        Some((message, offset)) => Err(ParseError {
            error: ParseErrorType::Lexical(LexicalErrorType::OtherError(message)),
            offset,
            source_path: "<cell>".to_owned(),
        }),
    }
}

/// The parser's error as a range of one character at its offset, clamped to the text.
fn syntax_error(text: &str, error: &ParseError) -> SyntaxError {
    let mut start = (u32::from(error.offset) as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..]
        .chars()
        .next()
        .filter(|&c| c != '\n')
        .map_or(start, |c| start + c.len_utf8());
    SyntaxError {
        message: error.error.to_string(),
        range: TextRange::new(start as u32, end as u32),
    }
}
