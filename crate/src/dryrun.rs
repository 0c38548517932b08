//! Dry runs (the kernel side is `cellguard/kernel/dryrun.py`, the safety argument
//! `docs/dry-run.md`): which cells are never run on a copy of the kernel because their code
//! evidently acts outside the process, and the diagnostic for a crash the copy saw.
//!
//! Declining is the first layer of isolation, not a prediction: it may decline a cell whose effect
//! would have been harmless (writing to an in-memory buffer); the kernel's layers catch what it
//! misses.

use std::collections::HashMap;

use serde::Serialize;

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{Expr, Literal, Stmt, TextRange};
use crate::python::{self, IPythonCommand};

/// Why a cell is not dry-run: the first evident outside effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decline {
    /// `write-file`, `filesystem`, `subprocess`, `network`, `database` or `magic`.
    pub effect: &'static str,
    /// What does it, as written: `df.to_csv`, `open`, `!`, `%%bash`, `os.remove`.
    pub what: String,
    /// 1-based line in the cell.
    pub line: u32,
    #[serde(skip)]
    pub range: TextRange,
}

/// Cell magics whose body is Python (the masker keeps it) and that act on nothing outside.
const PURE_CELL_MAGICS: &[&str] = &["capture", "prun", "time", "timeit"];
/// Line magics that read or time, or change only the (copied) session.
const PURE_LINE_MAGICS: &[&str] = &[
    "time",
    "timeit",
    "who",
    "whos",
    "who_ls",
    "matplotlib",
    "precision",
    "pprint",
    "pwd",
    "xmode",
    "pinfo",
    "pinfo2",
    "pdoc",
    "pdef",
    "psource",
    "psearch",
    "config",
    "env",
    "autoreload",
    "aimport",
    "reset_selective",
    "page",
    "lsmagic",
    "magic",
    "history",
    "recall",
    "doctest_mode",
];

/// Modules all of whose calls act outside the process, with the effect.
const MODULE_EFFECTS: &[(&str, &str)] = &[
    ("subprocess", "subprocess"),
    ("pty", "subprocess"),
    ("multiprocessing", "subprocess"),
    ("socket", "network"),
    ("requests", "network"),
    ("httpx", "network"),
    ("aiohttp", "network"),
    ("urllib3", "network"),
    ("http", "network"),
    ("ftplib", "network"),
    ("smtplib", "network"),
    ("paramiko", "network"),
    ("webbrowser", "network"),
    ("boto3", "network"),
    ("wandb", "network"),
    ("mlflow", "network"),
    ("sqlite3", "database"),
    ("sqlalchemy", "database"),
    ("psycopg2", "database"),
    ("psycopg", "database"),
    ("pymysql", "database"),
    ("MySQLdb", "database"),
    ("pymongo", "database"),
    ("redis", "database"),
    ("duckdb", "database"),
];
/// `urllib.request` and `urllib.parse` share a root: only the first goes out.
const SUBMODULE_EFFECTS: &[(&str, &str, &str)] = &[("urllib", "request", "network")];
/// Functions of `os` that change files or processes (`os.path`, `os.listdir`, ... only read).
const OS_EFFECTS: &[(&str, &str)] = &[
    ("remove", "filesystem"),
    ("unlink", "filesystem"),
    ("rename", "filesystem"),
    ("renames", "filesystem"),
    ("replace", "filesystem"),
    ("rmdir", "filesystem"),
    ("removedirs", "filesystem"),
    ("mkdir", "filesystem"),
    ("makedirs", "filesystem"),
    ("chmod", "filesystem"),
    ("chown", "filesystem"),
    ("lchown", "filesystem"),
    ("symlink", "filesystem"),
    ("link", "filesystem"),
    ("truncate", "filesystem"),
    ("utime", "filesystem"),
    ("mkfifo", "filesystem"),
    ("mknod", "filesystem"),
    ("open", "write-file"),
    ("write", "write-file"),
    ("system", "subprocess"),
    ("popen", "subprocess"),
    ("fork", "subprocess"),
    ("forkpty", "subprocess"),
    ("posix_spawn", "subprocess"),
    ("posix_spawnp", "subprocess"),
    ("startfile", "subprocess"),
    ("kill", "subprocess"),
    ("killpg", "subprocess"),
];
const OS_EFFECT_PREFIXES: &[&str] = &["exec", "spawn"];
/// `shutil` functions that only read.
const SHUTIL_READERS: &[&str] = &["which", "disk_usage", "get_terminal_size"];
/// Methods that write a file (or another store) whatever their receiver.
const WRITING_METHODS: &[&str] = &[
    "to_parquet",
    "to_excel",
    "to_feather",
    "to_hdf",
    "to_pickle",
    "to_stata",
    "to_orc",
    "to_netcdf",
    "to_zarr",
    "write_csv",
    "write_parquet",
    "write_json",
    "write_ipc",
    "sink_parquet",
    "savefig",
    "save",
    "savez",
    "savez_compressed",
    "savetxt",
    "tofile",
    "dump",
    "save_model",
    "save_weights",
    "save_pretrained",
    "write_text",
    "write_bytes",
    "write",
    "writelines",
    "touch",
    "mkdir",
    "unlink",
    "rmdir",
    "symlink_to",
    "hardlink_to",
    "to_clipboard",
];
/// Methods that write only when given a path (`df.to_csv()` returns a string).
const WRITING_METHODS_WITH_PATH: &[&str] = &[
    "to_csv",
    "to_json",
    "to_html",
    "to_latex",
    "to_markdown",
    "to_string",
    "to_xml",
];
const PATH_KEYWORDS: &[&str] = &["path_or_buf", "buf", "path", "excel_writer"];
/// Methods that talk to a database or a remote service.
const REMOTE_METHODS: &[(&str, &str)] = &[
    ("to_sql", "database"),
    ("read_sql", "database"),
    ("read_sql_query", "database"),
    ("read_sql_table", "database"),
    ("to_gbq", "network"),
    ("read_gbq", "network"),
    ("push_to_hub", "network"),
];
/// String literals naming a remote location.
const REMOTE_SCHEMES: &[&str] = &[
    "http://", "https://", "ftp://", "s3://", "gs://", "gcs://", "az://", "abfs://", "hdfs://",
];
/// Callables that open a file (or a store) in the mode given as their second argument or `mode=`
/// (`open`, `gzip.open`, `h5py.File`, `zipfile.ZipFile`, `np.memmap`); a method `open` may take the
/// mode first (`Path.open("w")`).
const OPENERS: &[&str] = &["open", "File", "ZipFile", "TarFile", "HDFStore", "memmap"];

/// The first evident outside effect of the cell, or None when the cell may be dry-run.
pub fn decline(source: &str) -> Option<Decline> {
    let mut found: Vec<(usize, &'static str, String)> = Vec::new();
    for command in python::ipython_commands(source) {
        match command {
            IPythonCommand::Shell { start } => found.push((start, "subprocess", "!".to_owned())),
            IPythonCommand::LineMagic { name, start } => {
                if !PURE_LINE_MAGICS.contains(&name.as_str()) {
                    found.push((start, "magic", format!("%{name}")));
                }
            }
            IPythonCommand::CellMagic { name, start } => {
                if !PURE_CELL_MAGICS.contains(&name.as_str()) {
                    found.push((start, "magic", format!("%%{name}")));
                }
            }
        }
    }
    let parsed = python::parse_cell(source);
    let mut walker = Walker {
        aliases: HashMap::new(),
        found: &mut found,
    };
    walker.statements(&parsed.body);
    // Of effects starting at the same place (`open(p, "w").write(x)`), the innermost, found last.
    let (start, effect, what) = found.into_iter().rev().min_by_key(|(start, ..)| *start)?;
    let start = start.min(source.len());
    let line = source.as_bytes()[..start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1;
    Some(Decline {
        effect,
        what,
        line,
        range: TextRange::new(start as u32, start as u32),
    })
}

struct Walker<'a> {
    /// Local names of imported modules and functions: `sp` -> `subprocess`, `remove` -> `os.remove`.
    aliases: HashMap<String, Vec<String>>,
    found: &'a mut Vec<(usize, &'static str, String)>,
}

impl Walker<'_> {
    fn statements(&mut self, body: &[Stmt]) {
        for statement in body {
            if let Stmt::Import { from, names, .. } = statement {
                for alias in names {
                    let mut path: Vec<String> = from
                        .iter()
                        .flat_map(|module| module.split('.'))
                        .map(str::to_owned)
                        .collect();
                    path.extend(alias.name.split('.').map(str::to_owned));
                    let local = alias.asname.clone().unwrap_or_else(|| {
                        // `import os.path` binds `os`
                        let first = alias.name.split('.').next().unwrap_or_default();
                        if from.is_none() {
                            path.truncate(1);
                        }
                        first.to_owned()
                    });
                    self.aliases.insert(local, path);
                }
            }
            statement.for_each_expr(&mut |expr| self.expr(expr));
            statement.for_each_block(|block| self.statements(block));
            if let Stmt::FunctionDef { body, .. } | Stmt::ClassDef { body, .. } = statement {
                self.statements(body);
            }
        }
    }

    fn expr(&mut self, expr: &Expr) {
        if let Expr::Call {
            func,
            args,
            keywords,
            range,
        } = expr
        {
            if let Some((effect, what)) = self.call_effect(func, args, keywords) {
                self.found.push((range.start as usize, effect, what));
            }
        }
        if let Some(text) = expr.as_str_literal() {
            if REMOTE_SCHEMES.iter().any(|scheme| text.starts_with(scheme)) {
                let start = expr.range().start as usize;
                self.found.push((start, "network", text.to_owned()));
            }
        }
        expr.for_each_child(|child| self.expr(child));
    }

    fn call_effect(
        &self,
        func: &Expr,
        args: &[Expr],
        keywords: &[crate::ir::Keyword],
    ) -> Option<(&'static str, String)> {
        let written = func.dotted_path();
        let what = || match (&written, func) {
            (Some(path), _) => path.join("."),
            (None, Expr::Attribute { attr, .. }) => format!(".{attr}"),
            (None, _) => "(call)".to_owned(),
        };
        if let Some(written) = &written {
            if let Some(effect) = module_effect(&self.resolve(written)) {
                return Some((effect, what()));
            }
        }
        let (name, is_method) = match func {
            Expr::Attribute { attr, .. } => (attr.as_str(), true),
            Expr::Name { id, .. } => (id.as_str(), false),
            _ => return None,
        };
        if OPENERS.contains(&name) {
            let mode_first = is_method && name == "open" && opens_for_writing(args.first(), &[]);
            return (mode_first || opens_for_writing(args.get(1), keywords))
                .then(|| ("write-file", what()));
        }
        if !is_method {
            return None;
        }
        if WRITING_METHODS.contains(&name) {
            let effect = if matches!(name, "unlink" | "rmdir") {
                "filesystem"
            } else {
                "write-file"
            };
            return Some((effect, what()));
        }
        let given_path = !args.is_empty()
            || keywords.iter().any(|k| {
                k.name
                    .as_deref()
                    .is_some_and(|n| PATH_KEYWORDS.contains(&n))
            });
        if WRITING_METHODS_WITH_PATH.contains(&name) && given_path {
            return Some(("write-file", what()));
        }
        REMOTE_METHODS
            .iter()
            .find(|(method, _)| *method == name)
            .map(|(_, effect)| (*effect, what()))
    }

    /// The written path with its first name replaced by what the cell imported under it.
    fn resolve<'a>(&'a self, written: &[&'a str]) -> Vec<&'a str> {
        let mut path: Vec<&str> = match self.aliases.get(written[0]) {
            Some(imported) => imported.iter().map(String::as_str).collect(),
            None => vec![written[0]],
        };
        path.extend_from_slice(&written[1..]);
        path
    }
}

fn module_effect(path: &[&str]) -> Option<&'static str> {
    let (&root, rest) = path.split_first()?;
    let function = *rest.first()?;
    if let Some((_, effect)) = MODULE_EFFECTS.iter().find(|(module, _)| *module == root) {
        return Some(effect);
    }
    if let Some((.., effect)) = SUBMODULE_EFFECTS
        .iter()
        .find(|(module, sub, _)| *module == root && *sub == function)
    {
        return Some(effect);
    }
    match root {
        "os" => OS_EFFECTS
            .iter()
            .find(|(name, _)| *name == function)
            .map(|(_, effect)| *effect)
            .or_else(|| {
                OS_EFFECT_PREFIXES
                    .iter()
                    .any(|prefix| function.starts_with(prefix))
                    .then_some("subprocess")
            }),
        "shutil" => (!SHUTIL_READERS.contains(&function)).then_some("filesystem"),
        _ => None,
    }
}

/// Whether a mode argument (positional, else `mode=`) asks to write; a mode that is not a string
/// literal may ask to.
fn opens_for_writing(positional: Option<&Expr>, keywords: &[crate::ir::Keyword]) -> bool {
    let mode = positional.or_else(|| {
        keywords
            .iter()
            .find(|k| k.name.as_deref() == Some("mode"))
            .map(|k| &k.value)
    });
    match mode {
        None => false,
        Some(Expr::Literal {
            value: Literal::Str(mode),
            ..
        }) => is_writing_mode(mode),
        Some(_) => positional.is_none(), // `mode=variable`; a positional non-string is no mode
    }
}

/// `"w"`, `"ab"`, `"r+"`, `"xt"`: a short file mode that writes.
fn is_writing_mode(mode: &str) -> bool {
    (1..=3).contains(&mode.len())
        && mode.chars().all(|c| "rwaxbt+".contains(c))
        && mode.chars().any(|c| "wax+".contains(c))
}

/// A crash seen by a dry run, as the kernel reported it (`exception` of a `dry_run` reply).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct DryRunException {
    pub name: String,
    pub message: String,
    /// 1-based line in the cell; None when the error was not raised by a line of the cell.
    pub line: Option<u32>,
}

/// The error diagnostic for a crash the copy of the kernel saw, on the line that raised it (the
/// cell's first line when no line of the cell did).
pub fn crash_diagnostic(source: &str, error: &DryRunException) -> Diagnostic {
    let raised = if error.message.is_empty() {
        error.name.clone()
    } else {
        format!("{}: {}", error.name, error.message)
    };
    let at = match error.line {
        Some(line) => format!(" at line {line}"),
        None => String::new(),
    };
    let message = format!(
        "Running this cell on a copy of the kernel raised {raised}{at} (your kernel was not changed)"
    );
    Diagnostic::error(
        Rule::DryRunCrash,
        message,
        line_range(source, error.line.unwrap_or(1)),
    )
}

/// The range of a 1-based line's text without its indentation (the last line when past the end).
fn line_range(source: &str, line: u32) -> TextRange {
    let mut start = 0;
    let mut text = source.split('\n').next().unwrap_or_default();
    for (index, candidate) in source.split('\n').enumerate() {
        if index as u32 + 1 > line {
            break;
        }
        start = candidate.as_ptr() as usize - source.as_ptr() as usize;
        text = candidate;
    }
    let trimmed = text.trim_end_matches('\r');
    let indent = trimmed.len() - trimmed.trim_start().len();
    TextRange::new((start + indent) as u32, (start + trimmed.len()) as u32)
}
