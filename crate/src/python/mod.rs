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
            ..parse_masked(source, text)
        })
    });
    ParsedCell {
        automagic,
        ..parse_masked(source, masked.text)
    }
}

/// Parses the cell's text with IPython syntax masked (same byte offsets as `source`).
fn parse_masked(source: &str, text: String) -> ParsedCell {
    let text = compat::rewrite(&text).unwrap_or(text);
    let (body, syntax_error) = match parse_suite(&text, 0) {
        Ok(suite) => (lower::lower_suite(suite), None),
        Err(error) => parse_statement_by_statement(source, &text, &error),
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
