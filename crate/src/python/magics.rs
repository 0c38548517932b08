//! Masks IPython syntax so that the rest of the cell parses as Python, keeping every byte offset
//! and line unchanged: masked text is overwritten in place by a placeholder that spans exactly the
//! same bytes (`000` for a statement, `[ ]` for a value), so that the placeholder's range in the
//! IR covers whole characters of the cell. Line breaks are never touched, so positions reported by
//! the parser hold in the cell the user wrote.

use super::scan::{dedent, lines_with_offsets, LineScanner};

/// Cell magics whose body is Python that runs in the user namespace.
const PYTHON_BODY_CELL_MAGICS: &[&str] = &["capture", "prun", "time", "timeit"];

/// Line magics followed by a Python statement that runs in the user namespace.
const STATEMENT_LINE_MAGICS: &[&str] = &["time", "timeit"];

/// `%timeit` options that take a value (`-n 10`).
const TIMEIT_VALUED_OPTIONS: &[&str] = &["-n", "-r", "-p"];

/// The line magics of an IPython 9.18 kernel (ipykernel 7.4), aliases included: the names
/// `automagic` runs without their `%`. None is a Python builtin or keyword.
const LINE_MAGICS: &[&str] = &[
    "alias",
    "alias_magic",
    "autoawait",
    "autocall",
    "automagic",
    "autosave",
    "bookmark",
    "cat",
    "cd",
    "clear",
    "code_wrap",
    "colors",
    "conda",
    "config",
    "connect_info",
    "cp",
    "debug",
    "dhist",
    "dirs",
    "doctest_mode",
    "ed",
    "edit",
    "env",
    "gui",
    "hist",
    "history",
    "killbgscripts",
    "ldir",
    "less",
    "lf",
    "lk",
    "ll",
    "load",
    "load_ext",
    "loadpy",
    "logoff",
    "logon",
    "logstart",
    "logstate",
    "logstop",
    "ls",
    "lsmagic",
    "lx",
    "macro",
    "magic",
    "mamba",
    "man",
    "matplotlib",
    "micromamba",
    "mkdir",
    "more",
    "mv",
    "notebook",
    "page",
    "pastebin",
    "pdb",
    "pdef",
    "pdoc",
    "pfile",
    "pinfo",
    "pinfo2",
    "pip",
    "popd",
    "pprint",
    "precision",
    "prun",
    "psearch",
    "psource",
    "pushd",
    "pwd",
    "pycat",
    "pylab",
    "qtconsole",
    "quickref",
    "recall",
    "rehashx",
    "reload_ext",
    "rep",
    "rerun",
    "reset",
    "reset_selective",
    "rm",
    "rmdir",
    "run",
    "save",
    "sc",
    "set_env",
    "subshell",
    "sx",
    "system",
    "tb",
    "time",
    "timeit",
    "unalias",
    "unload_ext",
    "uv",
    "who",
    "who_ls",
    "whos",
    "xdel",
    "xmode",
];

/// Keywords that start a compound statement: `%time for x in xs: f(x)` cannot keep its
/// statement behind an `if 1:` on the same line.
const COMPOUND_KEYWORDS: &[&str] = &[
    "async", "class", "def", "for", "if", "match", "try", "while", "with",
];

pub struct Masked {
    /// The cell with IPython syntax masked; the same length and lines as the source.
    pub text: String,
    /// The cell magic (`bash`, `writefile`, ...) whose body is not Python: nothing was kept.
    pub skipped_cell_magic: Option<String>,
    /// The IPython commands that were masked, in source order.
    pub commands: Vec<IPythonCommand>,
}

/// A masked piece of IPython syntax, by its byte offset in the cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IPythonCommand {
    /// `!cmd` or `x = !cmd`.
    Shell { start: usize },
    /// `%name ...` or `x = %name ...`.
    LineMagic { name: String, start: usize },
    /// `%%name` on the first line.
    CellMagic { name: String, start: usize },
}

impl IPythonCommand {
    /// What a masked line or value starting with `text` (`!...` or `%...`) commands.
    fn at(start: usize, text: &str) -> Option<Self> {
        if text.starts_with('!') {
            return Some(IPythonCommand::Shell { start });
        }
        let name = text.strip_prefix('%')?.split_whitespace().next()?;
        Some(IPythonCommand::LineMagic {
            name: name.to_owned(),
            start,
        })
    }
}

pub fn mask(source: &str) -> Masked {
    // Every form masked here has a `%` or a `!` (a magic, a shell escape), or a `?` (help): a
    // cell with none of them is plain Python, and most cells are.
    if !source.contains(['%', '!', '?']) {
        return Masked {
            text: source.to_owned(),
            skipped_cell_magic: None,
            commands: Vec::new(),
        };
    }
    let mut bytes = source.as_bytes().to_vec();
    let mut lines = lines_with_offsets(source).peekable();
    let mut commands = Vec::new();

    // A cell magic is the first non-blank line.
    while let Some(&(_, line)) = lines.peek() {
        if !line.trim().is_empty() {
            break;
        }
        lines.next();
    }
    if let Some(&(start, line)) = lines.peek() {
        let (indent, content) = dedent(line);
        if let Some(magic) = content.strip_prefix("%%") {
            let name = magic.split_whitespace().next().unwrap_or_default();
            let command = IPythonCommand::CellMagic {
                name: name.to_owned(),
                start: start + indent,
            };
            if !PYTHON_BODY_CELL_MAGICS.contains(&name) {
                return Masked {
                    text: blank(source),
                    skipped_cell_magic: Some(name.to_owned()),
                    commands: vec![command],
                };
            }
            commands.push(command);
            overwrite(&mut bytes, start + indent, content.trim_end().len(), "");
            lines.next();
        }
    }

    let mut scanner = LineScanner::default();
    let mut masking_continuation = false;
    for (start, line) in lines {
        let ends_with_backslash = line.trim_end().ends_with('\\');
        if masking_continuation {
            overwrite(&mut bytes, start, line.trim_end().len(), "");
            masking_continuation = ends_with_backslash;
            continue;
        }
        if !scanner.at_logical_line_start() {
            scanner.scan(line);
            continue;
        }
        let (indent, content) = dedent(line);
        let content_start = start + indent;
        let content_len = content.trim_end().len();
        match classify(content, scanner) {
            Some(IPythonLine::WholeLine) => {
                commands.extend(IPythonCommand::at(content_start, content));
                overwrite(
                    &mut bytes,
                    content_start,
                    content_len,
                    &statement_placeholder(content_len),
                );
                masking_continuation = ends_with_backslash;
            }
            Some(IPythonLine::ValueFrom(value_start)) => {
                commands.extend(IPythonCommand::at(
                    content_start + value_start,
                    &content[value_start..],
                ));
                let value_len = content_len.saturating_sub(value_start);
                overwrite(
                    &mut bytes,
                    content_start + value_start,
                    value_len,
                    &value_placeholder(value_len),
                );
                masking_continuation = ends_with_backslash;
            }
            Some(IPythonLine::StatementFrom(statement_start)) => {
                commands.extend(IPythonCommand::at(content_start, content));
                mask_statement_magic(&mut bytes, content_start, content_len, statement_start);
                scanner.scan(line);
            }
            None => {
                scanner.scan(line);
            }
        }
    }
    Masked {
        // Only whole characters were overwritten with ASCII, so this cannot fail; keep the source
        // unmasked rather than panic if it ever did.
        text: String::from_utf8(bytes).unwrap_or_else(|_| source.to_owned()),
        skipped_cell_magic: None,
        commands,
    }
}

/// `%time stmt`: `if 1:` over the magic keeps the statement at the line's indentation, as Python
/// needs; a compound statement cannot follow it, so that line is masked whole.
fn mask_statement_magic(bytes: &mut [u8], start: usize, len: usize, statement_start: usize) {
    let statement = std::str::from_utf8(&bytes[start + statement_start..start + len]);
    let first_word = statement
        .unwrap_or_default()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    if COMPOUND_KEYWORDS.contains(&first_word) || statement_start < "if 1:".len() {
        overwrite(bytes, start, len, &statement_placeholder(len));
    } else {
        overwrite(bytes, start, statement_start, "if 1:");
    }
}

/// IPython's automagic: a cell that is one line once blank lines before it go (`transform_cell`
/// applies `prefilter` only then), whose first word names a line magic (`pwd`, `ls -la`,
/// `pip install x`, `matplotlib inline`, even `pwd()`), unless the rest of the line starts with
/// `=` or `,` (an assignment). Returns the magic's name and the cell masked as if the line began
/// with `%`. IPython runs it so only if no bound name shadows the magic: the caller decides.
pub fn automagic(source: &str) -> Option<(String, String)> {
    let (start, line) = lines_with_offsets(source).find(|(_, line)| !line.trim().is_empty())?;
    let rest = &source[start + line.len()..];
    let line = line.strip_suffix('\r').unwrap_or(line);
    if !(rest.is_empty() || rest == "\n") || line.contains('\r') {
        return None;
    }
    let (indent, content) = dedent(line);
    if classify(content, LineScanner::default()).is_some() {
        return None;
    }
    let name_end = content
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '*')))
        .unwrap_or(content.len());
    let name = &content[..name_end];
    let after = content[name_end..].trim_start();
    if !LINE_MAGICS.contains(&name) || after.starts_with(['=', ',']) {
        return None;
    }
    let mut bytes = source.as_bytes().to_vec();
    let content_start = start + indent;
    let content_len = content.trim_end().len();
    match statement_after_line_magic(content) {
        Some(statement_start) => {
            mask_statement_magic(&mut bytes, content_start, content_len, statement_start)
        }
        None => overwrite(
            &mut bytes,
            content_start,
            content_len,
            &statement_placeholder(content_len),
        ),
    }
    Some((name.to_owned(), String::from_utf8(bytes).ok()?))
}

enum IPythonLine {
    /// `%magic args`, `!cmd`, `obj?`, `?obj`: the whole logical line goes.
    WholeLine,
    /// `x = !cmd`, `x = %magic`: the value starting at this content offset goes, `x = ` stays.
    ValueFrom(usize),
    /// `%time stmt`: the Python statement starts at this content offset.
    StatementFrom(usize),
}

/// What IPython syntax a logical line starts with, given its content after indentation.
fn classify(content: &str, scanner: LineScanner) -> Option<IPythonLine> {
    if let Some(magic) = content.strip_prefix('%') {
        if let Some(statement_start) = statement_after_line_magic(magic) {
            return Some(IPythonLine::StatementFrom(1 + statement_start));
        }
        return Some(IPythonLine::WholeLine);
    }
    if content.starts_with('!') || content.starts_with('?') {
        return Some(IPythonLine::WholeLine);
    }
    if let Some(value_start) = assignment_from_ipython(content) {
        return Some(IPythonLine::ValueFrom(value_start));
    }
    let mut probe = scanner;
    let code = match probe.scan(content) {
        Some(comment) => &content[..comment],
        None => content,
    };
    // `obj?` and `obj??` ask for help; a line that goes on (`f(x?`) is left to the parser.
    (probe.at_logical_line_start() && code.trim_end().ends_with('?'))
        .then_some(IPythonLine::WholeLine)
}

/// For `time f(x)` (after the `%`), where `f(x)` starts, past `%timeit` options.
fn statement_after_line_magic(magic: &str) -> Option<usize> {
    let name_end = magic.find(char::is_whitespace)?;
    let name = &magic[..name_end];
    if !STATEMENT_LINE_MAGICS.contains(&name) {
        return None;
    }
    let mut offset = name_end;
    let mut takes_value = false;
    loop {
        let rest = &magic[offset..];
        let word_start = offset + (rest.len() - rest.trim_start().len());
        let word = magic[word_start..].split_whitespace().next()?;
        if !(takes_value || word.starts_with('-')) {
            return Some(word_start);
        }
        takes_value = !takes_value && TIMEIT_VALUED_OPTIONS.contains(&word);
        offset = word_start + word.len();
    }
}

/// For `a, b.c = !cmd` or `x = %magic`, the offset of `!`/`%`: IPython's own rule is a left-hand
/// side of dotted names separated by commas.
fn assignment_from_ipython(content: &str) -> Option<usize> {
    let equals = content.find('=')?;
    let lhs = content[..equals].trim();
    let names_only = lhs
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ',' | ' ' | '\t'));
    if lhs.is_empty() || !names_only {
        return None;
    }
    let rhs = &content[equals + 1..];
    let value_start = equals + 1 + (rhs.len() - rhs.trim_start().len());
    matches!(content.as_bytes().get(value_start), Some(b'!' | b'%')).then_some(value_start)
}

/// A statement spanning `len` bytes: the literal `0`, `00`, `000`, ...
fn statement_placeholder(len: usize) -> String {
    "0".repeat(len)
}

/// A value spanning `len` bytes: an empty list `[  ]`, or `0` for one byte.
fn value_placeholder(len: usize) -> String {
    match len {
        0 | 1 => "0".repeat(len),
        _ => format!("[{}]", " ".repeat(len - 2)),
    }
}

/// Writes `placeholder` then spaces over `len` bytes at `start`. Callers pass spans that start at
/// a character and end at a line end, so whole characters are replaced.
fn overwrite(bytes: &mut [u8], start: usize, len: usize, placeholder: &str) {
    let Some(span) = bytes.get_mut(start..start + len) else {
        return;
    };
    for (i, byte) in span.iter_mut().enumerate() {
        *byte = placeholder.as_bytes().get(i).copied().unwrap_or(b' ');
    }
}

/// The source with every character but line breaks turned into spaces, byte for byte.
fn blank(source: &str) -> String {
    source
        .bytes()
        .map(|b| {
            if b == b'\n' || b == b'\r' {
                b as char
            } else {
                ' '
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(source: &str) -> String {
        let text = mask(source).text;
        assert_eq!(text.len(), source.len());
        text
    }

    #[test]
    fn line_magics_shell_and_help_become_statements() {
        assert_eq!(
            masked("%matplotlib inline\nx = 1"),
            "000000000000000000\nx = 1"
        );
        assert_eq!(masked("!pip install x"), "00000000000000");
        assert_eq!(
            masked("df?\n??df\nx = 1  # why?"),
            "000\n0000\nx = 1  # why?"
        );
        assert_eq!(masked("for i in x:\n    %ls\n"), "for i in x:\n    000\n");
    }

    #[test]
    fn masked_commands_are_listed_with_their_offsets() {
        let commands = mask("x = 1\n%time y = f()\nfiles = !ls\n  !pwd\ndf?").commands;
        assert_eq!(
            commands,
            vec![
                IPythonCommand::LineMagic {
                    name: "time".into(),
                    start: 6
                },
                IPythonCommand::Shell { start: 28 },
                IPythonCommand::Shell { start: 34 },
            ]
        );
        let cell = mask("\n%%bash\nls").commands;
        assert_eq!(
            cell,
            vec![IPythonCommand::CellMagic {
                name: "bash".into(),
                start: 1
            }]
        );
    }

    #[test]
    fn time_keeps_its_statement() {
        assert_eq!(masked("%time x = f()"), "if 1: x = f()");
        assert_eq!(masked("  %timeit -n 10 -q f(x)"), "  if 1:            f(x)");
        assert_eq!(masked("%time"), "00000");
    }

    #[test]
    fn assignments_from_shell_keep_the_name() {
        assert_eq!(masked("files = !ls -la"), "files = [     ]");
        assert_eq!(masked("a, b = %sx ls"), "a, b = [    ]");
        assert_eq!(masked("x = !"), "x = 0");
        assert_eq!(masked("x = a != b"), "x = a != b");
    }

    #[test]
    fn continuation_lines_of_a_magic_are_masked() {
        assert_eq!(
            masked("!pip install \\\n  numpy\nx"),
            "00000000000000\n       \nx"
        );
    }

    #[test]
    fn strings_are_not_magics() {
        let source = "s = '''\n%not a magic\n!nor this?\n'''";
        assert_eq!(masked(source), source);
    }

    #[test]
    fn time_with_a_compound_statement_is_masked_whole() {
        assert_eq!(
            masked("%timeit -r1 for x in xs: pass\ny"),
            "00000000000000000000000000000\ny"
        );
    }

    fn automagic_text(source: &str) -> Option<(String, String)> {
        let found = automagic(source);
        if let Some((_, text)) = &found {
            assert_eq!(text.len(), source.len());
        }
        found
    }

    #[test]
    fn automagic_lines() {
        assert_eq!(
            automagic_text("\n  cd data\n"),
            Some(("cd".into(), "\n  0000000\n".into()))
        );
        assert_eq!(
            automagic_text("pip install x"),
            Some(("pip".into(), "0000000000000".into()))
        );
        assert_eq!(
            automagic_text("pwd()"),
            Some(("pwd".into(), "00000".into()))
        );
        assert_eq!(
            automagic_text("time x = f()"),
            Some(("time".into(), "if 1:x = f()".into()))
        );
    }

    #[test]
    fn not_automagic() {
        for source in [
            "ls = 1",
            "ls, b = 1, 2",
            "ls\n",
            "# list\nls",
            "ls\n\n",
            "time.sleep(1)",
            "%ls",
            "lsx",
            "print(1)",
        ] {
            let expected = (source == "ls\n").then(|| ("ls".to_owned(), "00\n".to_owned()));
            assert_eq!(automagic_text(source), expected, "{source:?}");
        }
    }

    #[test]
    fn cell_magics() {
        assert_eq!(masked("\n%%time\nx = 1"), "\n      \nx = 1");
        let bash = mask("%%bash\necho é\n");
        assert_eq!(bash.skipped_cell_magic.as_deref(), Some("bash"));
        assert_eq!(bash.text, "      \n       \n");
    }
}
