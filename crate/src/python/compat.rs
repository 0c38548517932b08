//! Newer Python than rustpython-parser 0.4 reads (it stopped at Python 3.11), and IPython's
//! removal of a cell's leading indentation, made readable to it without moving a byte:
//! - in the text, PEP 701 f-strings (Python 3.12: a replacement field that reuses the string's
//!   quote, holds a backslash, a comment or a line break) get their inner strings' quotes swapped
//!   (`f"{d["k"]}"` reads as `f"{d['k']}"`), or are blanked to an empty f-string of the same
//!   length when no swap fits; PEP 750 t-strings (3.14) read as f-strings;
//! - in the tokens, a cell whose first line is indented loses that indentation (IPython's
//!   `leading_indent`), PEP 758 `except A, B:` (3.14) gets its parentheses, and PEP 696 type
//!   parameter defaults (3.13) are dropped.
//!
//! Tokens keep their own ranges, so what the parser builds keeps the cell's byte offsets.

use rustpython_parser::lexer::{lex_starts_at, LexResult};
use rustpython_parser::text_size::{TextRange, TextSize};
use rustpython_parser::{Mode, Tok};

/// The text with PEP 701 f-strings and t-strings rewritten in place, and the tabs of blank lines
/// made spaces (CPython ignores a blank line's indentation, the lexer may refuse tabs after
/// spaces there); `None` when nothing changed.
pub fn rewrite(text: &str) -> Option<String> {
    let mut rewritten = rewrite_strings(text);
    let source = rewritten.as_deref().unwrap_or(text);
    let blank_tabs: Vec<usize> = super::scan::lines_with_offsets(source)
        .filter(|(_, line)| line.contains('\t') && line.trim().is_empty())
        .flat_map(|(start, line)| line.match_indices('\t').map(move |(i, _)| start + i))
        .collect();
    if !blank_tabs.is_empty() {
        let mut bytes = rewritten
            .take()
            .unwrap_or_else(|| text.to_owned())
            .into_bytes();
        for i in blank_tabs {
            bytes[i] = b' ';
        }
        rewritten = Some(String::from_utf8(bytes).unwrap_or_else(|_| text.to_owned()));
    }
    rewritten
}

fn rewrite_strings(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte == b'#' {
            i = bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n);
            continue;
        }
        if !(byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'\'' || byte == b'"') {
            i += 1;
            continue;
        }
        let word_end = i + bytes[i..]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80))
            .unwrap_or(bytes.len() - i);
        let Some(&quote) = bytes.get(word_end).filter(|&&b| b == b'\'' || b == b'"') else {
            i = word_end.max(i + 1);
            continue;
        };
        let prefix = text[i..word_end].to_ascii_lowercase();
        if !is_string_prefix(&prefix) {
            i = word_end;
            continue;
        }
        let literal = scan_string(bytes, word_end, quote, &prefix);
        let Some(literal) = literal else {
            // Unterminated: the parser reports it.
            return out.map(|b| String::from_utf8(b).unwrap_or_else(|_| text.to_owned()));
        };
        if literal.is_template || literal.pep701 {
            let buffer = out.get_or_insert_with(|| bytes.to_vec());
            if literal.is_template {
                for b in &mut buffer[i..word_end] {
                    *b = match *b {
                        b't' => b'f',
                        b'T' => b'F',
                        other => other,
                    };
                }
            }
            if literal.pep701 {
                rewrite_fields(buffer, &literal, word_end);
            }
        }
        i = literal.end;
    }
    out.map(|b| String::from_utf8(b).unwrap_or_else(|_| text.to_owned()))
}

/// `prefix` in lower case.
fn is_string_prefix(prefix: &str) -> bool {
    matches!(
        prefix,
        "" | "r" | "u" | "b" | "br" | "rb" | "f" | "fr" | "rf" | "t" | "tr" | "rt"
    )
}

/// A string literal found by `scan_string`.
struct Literal {
    /// Just past the closing quote.
    end: usize,
    quote: u8,
    triple: bool,
    is_template: bool,
    /// Uses what only PEP 701 allows.
    pep701: bool,
    /// The single-quoted strings inside replacement fields that reuse the outer quote
    /// (their opening and closing quote offsets), when swapping their quotes is enough.
    swaps: Vec<(usize, usize)>,
}

/// Scans the string literal whose opening quote is at `start`; `None` when it is unterminated.
fn scan_string(bytes: &[u8], start: usize, quote: u8, prefix: &str) -> Option<Literal> {
    let triple = bytes[start..].starts_with(&[quote, quote, quote]);
    let mut i = start + if triple { 3 } else { 1 };
    let formatted = prefix.contains('f') || prefix.contains('t');
    let mut literal = Literal {
        end: 0,
        quote,
        triple,
        is_template: prefix.contains('t'),
        pep701: false,
        swaps: Vec::new(),
    };
    let mut swappable = true;
    let raw = prefix.contains('r');
    while i < bytes.len() {
        match bytes[i] {
            // `\N{NAME}` names a character; a backslash before a brace leaves the brace be.
            b'\\' if formatted && !raw && bytes[i + 1..].starts_with(b"N{") => {
                i += bytes[i..]
                    .iter()
                    .position(|&b| b == b'}')
                    .unwrap_or(bytes.len() - i)
                    + 1;
            }
            b'\\' if formatted && matches!(bytes.get(i + 1), Some(b'{' | b'}')) => i += 1,
            b'\\' => i += 2,
            b'\n' if !triple => return None,
            b if b == quote && (!triple || bytes[i..].starts_with(&[quote, quote, quote])) => {
                literal.end = i + if triple { 3 } else { 1 };
                if literal.pep701 && !swappable {
                    literal.swaps.clear();
                }
                return Some(literal);
            }
            b'{' if formatted && bytes.get(i + 1) == Some(&b'{') => i += 2,
            b'{' if formatted => {
                i = scan_field(bytes, i + 1, 0, &mut literal, &mut swappable)?;
            }
            _ => i += 1,
        }
    }
    None
}

/// Scans a replacement field from just after its `{` to just past its `}`, noting in `literal`
/// what only PEP 701 allows; `nesting` counts the format specs the field is in (Python 3.11
/// allows one).
fn scan_field(
    bytes: &[u8],
    mut i: usize,
    nesting: u32,
    literal: &mut Literal,
    swappable: &mut bool,
) -> Option<usize> {
    if nesting > 1 {
        literal.pep701 = true;
        *swappable = false;
    }
    let mut depth = 0u32;
    while i < bytes.len() {
        let byte = bytes[i];
        match byte {
            b'\\' => {
                literal.pep701 = true;
                *swappable = false;
                i += 1;
            }
            b'#' => {
                // A comment (PEP 701): quotes and braces in it mean nothing.
                literal.pep701 = true;
                *swappable = false;
                i = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| i + n);
            }
            b'\n' if !literal.triple => {
                literal.pep701 = true;
                *swappable = false;
                i += 1;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'}' if depth == 0 => return Some(i + 1),
            // `{x!r }`: space after a conversion (Python 3.12).
            b'!' if depth == 0
                && matches!(bytes.get(i + 1), Some(b's' | b'r' | b'a'))
                && bytes.get(i + 2).is_some_and(u8::is_ascii_whitespace) =>
            {
                literal.pep701 = true;
                *swappable = false;
                i += 2;
            }
            b'}' => {
                depth -= 1;
                i += 1;
            }
            b':' if depth == 0 => {
                // The format spec: literal text with nested fields, up to the field's `}`.
                i += 1;
                while i < bytes.len() && bytes[i] != b'}' {
                    if bytes[i] == literal.quote && !literal.triple {
                        return None;
                    }
                    if bytes[i] == b'{' {
                        i = scan_field(bytes, i + 1, nesting + 1, literal, swappable)?;
                    } else {
                        i += 1;
                    }
                }
                return (i < bytes.len()).then_some(i + 1);
            }
            b'\'' | b'"' => {
                let prefix_start = (0..i)
                    .rev()
                    .take_while(|&j| bytes[j].is_ascii_alphabetic())
                    .last()
                    .unwrap_or(i);
                let mut prefix = std::str::from_utf8(&bytes[prefix_start..i])
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                if !is_string_prefix(&prefix) {
                    prefix.clear();
                }
                let inner = scan_string(bytes, i, byte, &prefix)?;
                let reuses_quote = byte == literal.quote
                    && (!literal.triple || inner.triple || bytes.get(inner.end) == Some(&byte));
                let backslash = bytes[i..inner.end].contains(&b'\\');
                // rustpython-parser also misreads a triple-quoted string in a field.
                let unreadable = backslash || inner.triple;
                if reuses_quote || inner.pep701 || unreadable {
                    literal.pep701 = true;
                    let other = if byte == b'"' { b'\'' } else { b'"' };
                    let plain = !inner.triple
                        && !prefix.contains('f')
                        && !prefix.contains('t')
                        && !bytes[i + 1..inner.end - 1]
                            .iter()
                            .any(|&b| b == other || b == b'\\');
                    if plain && reuses_quote && !unreadable {
                        literal.swaps.push((i, inner.end - 1));
                    } else {
                        *swappable = false;
                    }
                }
                i = inner.end;
            }
            _ => i += 1,
        }
    }
    None
}

/// Swaps the inner quotes of a PEP 701 f-string, or blanks its content when swapping is not enough
/// (a single-quoted one whose fields span lines becomes a parenthesized blank: `()`).
fn rewrite_fields(buffer: &mut [u8], literal: &Literal, open: usize) {
    if !literal.swaps.is_empty() {
        let other = if literal.quote == b'"' { b'\'' } else { b'"' };
        for &(open, close) in &literal.swaps {
            buffer[open] = other;
            buffer[close] = other;
        }
        return;
    }
    let quote_len = if literal.triple { 3 } else { 1 };
    let content = open + quote_len..literal.end - quote_len;
    let spans_lines = buffer[content.clone()].contains(&b'\n');
    for b in &mut buffer[content] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
    if spans_lines && !literal.triple {
        // `f"{\nx}"` -> `(     )`: the prefix letters before `open` become spaces too.
        let mut start = open;
        while start > 0 && buffer[start - 1].is_ascii_alphabetic() {
            start -= 1;
            buffer[start] = b' ';
        }
        buffer[start] = b'(';
        buffer[open] = b' ';
        buffer[literal.end - 1] = b')';
    }
}

/// The tokens of `text` (which starts at `offset` in the cell), made readable to the parser: see
/// the module's documentation. Lexing stops at the first error, which the parser reports.
pub fn tokens(text: &str, offset: usize) -> Vec<LexResult> {
    let start = TextSize::try_from(offset).unwrap_or_default();
    let mut tokens: Vec<LexResult> = Vec::new();
    for token in lex_starts_at(text, Mode::Module, start) {
        let failed = token.is_err();
        tokens.push(token);
        if failed {
            break;
        }
    }
    if first_line_indented(text) {
        drop_leading_indent(&mut tokens);
    }
    parenthesize_except_lists(&mut tokens);
    drop_type_param_defaults(&mut tokens);
    tokens
}

/// Whether the first line that is not blank starts with a space or a tab (IPython's
/// `leading_empty_lines` then `leading_indent`).
fn first_line_indented(text: &str) -> bool {
    text.split('\n')
        .find(|line| !line.trim().is_empty())
        .is_some_and(|line| line.starts_with([' ', '\t']))
}

/// Removes the indentation of the first line from the lines that share it: the first `Indent`
/// and the `Dedent` that closes it.
fn drop_leading_indent(tokens: &mut Vec<LexResult>) {
    if !matches!(tokens.first(), Some(Ok((Tok::Indent, _)))) {
        return;
    }
    let mut depth = 0i32;
    let mut closing = None;
    for (index, token) in tokens.iter().enumerate() {
        match token {
            Ok((Tok::Indent, _)) => depth += 1,
            Ok((Tok::Dedent, _)) => {
                depth -= 1;
                if depth == 0 {
                    closing = Some(index);
                    break;
                }
            }
            _ => {}
        }
    }
    if let Some(closing) = closing {
        let _closing_dedent = tokens.remove(closing);
    }
    let _leading_indent = tokens.remove(0);
}

fn is(token: Option<&LexResult>, expected: &Tok) -> bool {
    matches!(token, Some(Ok((tok, _))) if tok == expected)
}

/// `except A, B:` (PEP 758) reads as `except (A, B):`: parentheses with empty ranges at the
/// first type's start and the last one's end.
fn parenthesize_except_lists(tokens: &mut Vec<LexResult>) {
    let mut index = 0;
    while index < tokens.len() {
        if !is(tokens.get(index), &Tok::Except) {
            index += 1;
            continue;
        }
        let first = index + 1 + usize::from(is(tokens.get(index + 1), &Tok::Star));
        let mut depth = 0i32;
        let mut comma = false;
        let mut colon = None;
        for (offset, token) in tokens[first..].iter().enumerate() {
            let Ok((tok, _)) = token else { break };
            match tok {
                Tok::Lpar | Tok::Lsqb | Tok::Lbrace => depth += 1,
                Tok::Rpar | Tok::Rsqb | Tok::Rbrace => depth -= 1,
                Tok::Comma if depth == 0 => comma = true,
                Tok::As | Tok::Newline => break,
                Tok::Colon if depth == 0 => {
                    colon = Some(first + offset);
                    break;
                }
                _ => {}
            }
        }
        match colon {
            Some(colon) if comma && colon > first => {
                let (Some(Ok((_, open))), Some(Ok((_, close)))) =
                    (tokens.get(first), tokens.get(colon - 1))
                else {
                    break;
                };
                let (open, close) = (
                    TextRange::empty(open.start()),
                    TextRange::empty(close.end()),
                );
                tokens.insert(colon, Ok((Tok::Rpar, close)));
                tokens.insert(first, Ok((Tok::Lpar, open)));
                index = colon + 2;
            }
            _ => index += 1,
        }
    }
}

/// `def f[T = int]()`, `class C[T = int]:`, `type A[T = int] = ...` (PEP 696): the defaults go.
fn drop_type_param_defaults(tokens: &mut Vec<LexResult>) {
    let mut index = 0;
    while index + 2 < tokens.len() {
        let opens_params = matches!(&tokens[index], Ok((Tok::Def | Tok::Class | Tok::Type, _)))
            && matches!(&tokens[index + 1], Ok((Tok::Name { .. }, _)))
            && is(tokens.get(index + 2), &Tok::Lsqb);
        if !opens_params {
            index += 1;
            continue;
        }
        let mut position = index + 3;
        let mut depth = 0i32;
        let mut dropping = false;
        while position < tokens.len() {
            let Ok((tok, _)) = &tokens[position] else {
                break;
            };
            let mut drop_this = dropping;
            match tok {
                Tok::Lpar | Tok::Lsqb | Tok::Lbrace => depth += 1,
                Tok::Rsqb if depth == 0 => break,
                Tok::Rpar | Tok::Rsqb | Tok::Rbrace => depth -= 1,
                Tok::Comma if depth == 0 => {
                    dropping = false;
                    drop_this = false;
                }
                Tok::Equal if depth == 0 => {
                    dropping = true;
                    drop_this = true;
                }
                _ => {}
            }
            if drop_this {
                let _default = tokens.remove(position);
            } else {
                position += 1;
            }
        }
        index = position;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(text: &str) -> String {
        let out = rewrite_strings(text).unwrap_or_else(|| text.to_owned());
        assert_eq!(out.len(), text.len());
        out
    }

    #[test]
    fn pep701_inner_quotes_are_swapped() {
        assert_eq!(rewritten(r#"f"{d["a"]}""#), r#"f"{d['a']}""#);
        assert_eq!(
            rewritten(r#"fr'\{{\}}' + f'\N{DASH}{d["a"]}'"#),
            r#"fr'\{{\}}' + f'\N{DASH}{d["a"]}'"#
        );
        assert_eq!(
            rewritten(r#"f"\N{DASH}{d["a"]}""#),
            r#"f"\N{DASH}{d['a']}""#
        );
        assert_eq!(
            rewritten(r#"x = f'{", ".join(xs)}' + f'{y}'"#),
            r#"x = f'{", ".join(xs)}' + f'{y}'"#
        );
        assert_eq!(rewritten(r#"f'{x['k']:>{w}}'"#), r#"f'{x["k"]:>{w}}'"#);
    }

    #[test]
    fn pep701_fields_that_cannot_swap_are_blanked() {
        assert_eq!(rewritten(r#"f"{'\n'.join(x)}""#), r#"f"              ""#);
        assert_eq!(rewritten("f'{x # c\n}'"), "(       \n )");
        assert_eq!(rewritten(r#"f"{d["it's"]}""#), r#"f"           ""#);
        assert_eq!(rewritten("f'''{ # it's\n3}'''"), "f'''        \n  '''");
        assert_eq!(rewritten("f'{v:{w:{0}}}'"), "f'           '");
        assert_eq!(rewritten("f'{3!s  }'"), "f'       '");
        assert_eq!(rewritten("f\"{'''it's'''}\""), "f\"            \"");
    }

    #[test]
    fn older_strings_are_left_alone() {
        for text in [
            r#"f"{d['a']}" "{x}" '#' "#,
            r#"f"""{d["a"]}""" "#,
            r#"rb'\'' f'{{"x"}}'"#,
            "s = 'it''s' # f\"{\"",
        ] {
            assert_eq!(rewrite_strings(text), None, "{text}");
        }
    }

    #[test]
    fn tabs_of_blank_lines_become_spaces() {
        assert_eq!(
            rewrite("if x:\n    y\n    \t\n\tz").as_deref(),
            Some("if x:\n    y\n     \n\tz")
        );
    }

    #[test]
    fn template_strings_read_as_f_strings() {
        assert_eq!(rewritten("t'{x}' + Tr\"{y}\""), "f'{x}' + Fr\"{y}\"");
    }
}
