//! What the rules need from the cells that ran. Each executed cell is read once
//! (`CellRuleFacts`, kept with the parsed cell in `check::CellCache`), and the per-cell results are
//! combined over the history (`HistoryState`, kept while the history is unchanged or only grows),
//! so that a keystroke in the target cell does no work proportional to the history.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::facts::CellFacts;
use crate::ir::{Expr, Params, Stmt, Target};

use super::flow::{bound_names, import_bindings, mentioned_names};
use super::value::Val;

/// A function defined at the top level of a cell: what following a call into it needs.
#[derive(Debug)]
pub struct UserFunction {
    pub name: String,
    pub params: Params,
    pub body: Vec<Stmt>,
    /// The source of the cell that defines it (the body's ranges index into it).
    pub source: Rc<str>,
}

/// What one top-level statement does to a global name, in execution order.
#[derive(Clone, Debug)]
pub enum Binding {
    /// An import binds the name to a module or library object.
    Import(Val),
    /// A plain `def` at the top level.
    Function(Rc<UserFunction>),
    /// Anything else binds it to a value the history does not track.
    Other,
}

/// What a top-level statement does to the global names, in execution order.
#[derive(Clone, Debug)]
pub enum Effect {
    Bind(String, Binding),
    /// `from m import *`: names a module shares with a function or class it exports (`tqdm`,
    /// `datetime`, `glob`) may now hold that object.
    StarImport,
    /// `exec`, `%run`, `globals()[...] = ...`: any name may have been rebound.
    Reset,
}

/// What the rules need from one executed cell.
#[derive(Debug, Default)]
pub struct CellRuleFacts {
    /// Top-level bindings of global names, in order.
    pub bindings: Vec<Effect>,
    /// The cell may give a frame a named index (`set_index`, `index_col=`, `groupby`, `pivot`,
    /// `.index`, ...): then `by=` names may be index levels, not columns.
    pub names_index: bool,
    /// Functions and classes defined anywhere in the cell: the names their bodies mention (a
    /// call may read or mutate any of them).
    pub function_mentions: Vec<(String, BTreeSet<String>)>,
    /// String literals inside calls of `drop...` methods (for "an earlier cell dropped it").
    pub dropped: BTreeSet<String>,
    /// The cell may add attributes to every DataFrame (`tqdm.pandas()`, an accessor library, a
    /// method assigned to `pd.DataFrame`).
    pub extends_pandas: bool,
}

/// Reads one cell. `source` is the cell's text (what the bodies' ranges index into), `cell` what
/// `facts::cell_facts` found in it.
pub fn cell_rule_facts(body: &[Stmt], source: &str, cell: &CellFacts) -> CellRuleFacts {
    let mut facts = CellRuleFacts::default();
    let shared_source: Rc<str> = Rc::from(source);
    for stmt in body {
        if rebinds_anything(stmt, source) {
            facts.bindings.push(Effect::Reset);
            continue;
        }
        match stmt {
            Stmt::Import { from, names, .. } => {
                for (name, val) in import_bindings(from.as_deref(), names) {
                    facts
                        .bindings
                        .push(Effect::Bind(name, Binding::Import(val)));
                }
                if names.iter().any(|a| a.name == "*") {
                    facts.bindings.push(Effect::StarImport);
                }
            }
            Stmt::FunctionDef {
                name,
                decorators,
                params,
                body,
                ..
            } if decorators.is_empty() => {
                facts.bindings.push(Effect::Bind(
                    name.clone(),
                    Binding::Function(Rc::new(UserFunction {
                        name: name.clone(),
                        params: params.clone(),
                        body: body.clone(),
                        source: Rc::clone(&shared_source),
                    })),
                ));
                // A `global` declaration may rebind other names when the function runs.
                let mut bound = BTreeSet::new();
                bound_names(std::slice::from_ref(stmt), cell, &mut bound);
                bound.remove(name);
                facts
                    .bindings
                    .extend(bound.into_iter().map(|n| Effect::Bind(n, Binding::Other)));
            }
            other => {
                let mut bound = BTreeSet::new();
                bound_names(std::slice::from_ref(other), cell, &mut bound);
                facts
                    .bindings
                    .extend(bound.into_iter().map(|n| Effect::Bind(n, Binding::Other)));
            }
        }
    }
    collect_function_mentions(body, &mut facts.function_mentions);
    let mut scan = Scan::default();
    scan.stmts(body);
    facts.names_index = scan.names_index;
    facts.dropped = scan.dropped;
    facts.extends_pandas = scan.extends_pandas;
    facts
}

/// May the statements add attributes to every DataFrame (see `CellRuleFacts::extends_pandas`)?
pub fn extends_pandas(body: &[Stmt]) -> bool {
    let mut scan = Scan::default();
    scan.stmts(body);
    scan.extends_pandas
}

/// Line magics that cannot rebind names of the namespace.
const HARMLESS_MAGICS: &[&str] = &[
    "matplotlib",
    "config",
    "pip",
    "conda",
    "load_ext",
    "reload_ext",
    "autoreload",
    "aimport",
    "env",
    "cd",
    "pwd",
    "ls",
    "who",
    "whos",
    "who_ls",
    "history",
    "lsmagic",
    "precision",
    "time",
    "timeit",
    "pinfo",
    "pinfo2",
    "psearch",
    "pdoc",
    "pdef",
    "psource",
    "pfile",
    "page",
    "xmode",
    "colors",
    "magic",
    "quickref",
    "notebook",
    "system",
    "sx",
    "sc",
    "bookmark",
    "dhist",
    "pushd",
    "popd",
    "dirs",
    "tb",
    "debug",
    "pdb",
    "prun",
    "lprun",
    "memit",
    "mprun",
    "set_env",
];

/// Does the statement rebind names in ways the analysis cannot follow: a line magic such as
/// `%run` or `%store -r`, or a call of `exec`, `eval`, `globals()`, `locals()`, `vars()`,
/// `get_ipython()` (outside function bodies)? `source` is the text the statement's ranges index.
pub fn rebinds_anything(stmt: &Stmt, source: &str) -> bool {
    if let Stmt::Expr { range, .. } = stmt {
        let text = source
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
            .trim_start();
        if let Some(magic) = text.strip_prefix('%') {
            let name = magic
                .split(|c: char| c.is_whitespace())
                .next()
                .unwrap_or("");
            return !HARMLESS_MAGICS.contains(&name);
        }
    }
    let mut found = false;
    for_each_expr(std::slice::from_ref(stmt), &mut |e| {
        if let Expr::Call { func, .. } = e {
            if let Expr::Name { id, .. } = &**func {
                found |= matches!(
                    id.as_str(),
                    "exec" | "eval" | "globals" | "locals" | "vars" | "get_ipython"
                );
            }
        }
    });
    found
}

/// The history combined: what the rules know before the target cell runs.
#[derive(Clone, Debug)]
pub struct HistoryState {
    /// Names bound by imports (and not rebound since) and what they hold.
    pub imports: BTreeMap<String, Val>,
    /// Functions defined by a plain top-level `def` (and not rebound since).
    pub functions: BTreeMap<String, Rc<UserFunction>>,
    /// No executed cell could have given a frame a named index.
    pub index_unnamed: bool,
    /// Functions and classes defined in the history: the names their bodies mention.
    pub function_mentions: BTreeMap<String, BTreeSet<String>>,
    /// Strings an executed cell passed to a `drop...` call.
    pub dropped: BTreeSet<String>,
    /// An executed cell may have added attributes to every DataFrame.
    pub extends_pandas: bool,
}

impl Default for HistoryState {
    fn default() -> Self {
        HistoryState {
            imports: BTreeMap::new(),
            functions: BTreeMap::new(),
            index_unnamed: true,
            function_mentions: BTreeMap::new(),
            dropped: BTreeSet::new(),
            extends_pandas: false,
        }
    }
}

impl HistoryState {
    /// Applies one more executed cell.
    pub fn run(&mut self, cell: &CellRuleFacts) {
        for effect in &cell.bindings {
            match effect {
                Effect::Bind(name, Binding::Import(val)) => {
                    self.imports.insert(name.clone(), val.clone());
                    self.functions.remove(name);
                }
                Effect::Bind(name, Binding::Function(f)) => {
                    self.imports.remove(name);
                    self.functions.insert(name.clone(), Rc::clone(f));
                }
                Effect::Bind(name, Binding::Other) => {
                    self.imports.remove(name);
                    self.functions.remove(name);
                }
                Effect::StarImport => self.imports.retain(|name, val| !star_may_rebind(name, val)),
                Effect::Reset => {
                    self.imports.clear();
                    self.functions.clear();
                }
            }
        }
        self.extends_pandas |= cell.extends_pandas;
        self.index_unnamed &= !cell.names_index;
        for (name, mentions) in &cell.function_mentions {
            self.function_mentions
                .entry(name.clone())
                .or_default()
                .extend(mentions.iter().cloned());
        }
        self.dropped.extend(cell.dropped.iter().cloned());
    }

    pub fn from_cells<'c>(cells: impl IntoIterator<Item = &'c CellRuleFacts>) -> Self {
        let mut state = HistoryState::default();
        for cell in cells {
            state.run(cell);
        }
        state
    }
}

/// A star import may rebind a module name to a function or class of the same name that the
/// imported module exports (`from tqdm.auto import *` binds `tqdm`).
pub fn star_may_rebind(name: &str, val: &Val) -> bool {
    matches!(val, Val::Module(Some(path)) if path.rsplit('.').next() == Some(name))
}

pub fn collect_function_mentions(stmts: &[Stmt], out: &mut Vec<(String, BTreeSet<String>)>) {
    for s in stmts {
        if let Stmt::FunctionDef { name, body, .. } | Stmt::ClassDef { name, body, .. } = s {
            let mut names = BTreeSet::new();
            mentioned_names(body, &mut names);
            out.push((name.clone(), names));
        }
        s.for_each_block(|b| collect_function_mentions(b, out));
    }
}

/// Identifiers that may give a frame's index a name: methods and functions that build a named
/// index (`set_index`, `rename_axis`, `groupby`, `pivot_table`, `crosstab`, `stack`), readers that
/// restore one (`read_parquet`, `read_pickle`, `read_hdf`, `index_col=`), and any use of an index
/// object (`df.index.name = ...`).
fn may_name_index(ident: &str) -> bool {
    const WORDS: [&str; 13] = [
        "index",
        "resample",
        "to_frame",
        "set_axis",
        "names",
        "rename_axis",
        "groupby",
        "pivot",
        "crosstab",
        "stack",
        "read_parquet",
        "read_pickle",
        "read_hdf",
    ];
    let ident = ident.to_ascii_lowercase();
    WORDS.iter().any(|w| ident.contains(w))
}

/// Modules whose import adds methods or accessors to every DataFrame.
const EXTENDS_PANDAS: &[&str] = &[
    "janitor",
    "pyjanitor",
    "pandas_flavor",
    "hvplot",
    "pandas_ta",
    "swifter",
    "cufflinks",
    "pandarallel",
    "pandas_profiling",
    "ydata_profiling",
    "dtale",
    "sidetable",
    "pandas_bokeh",
    "woodwork",
    "pandera",
    "mitosheet",
    "pandasgui",
    "pyspark",
    "modin",
    "vectorbt",
    "plydata",
    "dfply",
    "siuba",
    "datatable",
    "polars",
];

#[derive(Default)]
struct Scan {
    names_index: bool,
    dropped: BTreeSet<String>,
    extends_pandas: bool,
}

impl Scan {
    /// Every statement, function and class bodies included.
    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::Import { from, names, .. } => {
                    for a in names {
                        let bound = a.asname.as_deref().unwrap_or(&a.name);
                        self.names_index |= may_name_index(&a.name) || may_name_index(bound);
                        let module = from.as_deref().unwrap_or(&a.name);
                        let root = module.split('.').next().unwrap_or(module);
                        self.extends_pandas |= EXTENDS_PANDAS.contains(&root);
                    }
                }
                // `pd.DataFrame.my_method = ...`
                Stmt::Assign { targets, .. } => {
                    for t in targets {
                        if let Target::Store {
                            expr: Expr::Attribute { value, .. },
                            ..
                        } = t
                        {
                            self.extends_pandas |= is_frame_class(value);
                        }
                    }
                }
                Stmt::FunctionDef { body, .. } | Stmt::ClassDef { body, .. } => self.stmts(body),
                _ => {}
            }
            s.for_each_expr(&mut |e| self.expr(e));
            s.for_each_block(|b| self.stmts(b));
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Attribute { attr, .. } => {
                self.names_index |= may_name_index(attr);
            }
            Expr::Name { id, .. } => {
                // A function imported by name (`from pandas import crosstab`).
                self.names_index |= matches!(
                    id.as_str(),
                    "crosstab"
                        | "pivot"
                        | "pivot_table"
                        | "read_parquet"
                        | "read_pickle"
                        | "read_hdf"
                );
            }
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => {
                for k in keywords {
                    if let Some(name) = &k.name {
                        self.names_index |= may_name_index(name);
                    }
                }
                let callee = match &**func {
                    Expr::Attribute { attr, .. } => Some(attr.as_str()),
                    Expr::Name { id, .. } => Some(id.as_str()),
                    _ => None,
                };
                if callee.is_some_and(|c| c.contains("drop")) {
                    string_literals(e, &mut self.dropped);
                }
                // `tqdm.pandas()`, `register_dataframe_accessor(...)`, `setattr(pd.DataFrame, ...)`
                self.extends_pandas |= matches!(
                    callee,
                    Some("pandas" | "register_dataframe_accessor" | "register_series_accessor")
                ) || (callee == Some("setattr")
                    && matches!(&**func, Expr::Name { .. })
                    && args.first().is_some_and(is_frame_class));
            }
            _ => {}
        }
        e.for_each_child(|c| self.expr(c));
    }
}

/// Calls `f` on every expression the statements evaluate when they run, sub-expressions
/// included; function and class bodies and lambda bodies are left out.
pub fn for_each_expr<'a>(stmts: &'a [Stmt], f: &mut impl FnMut(&'a Expr)) {
    fn expr<'a>(e: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
        f(e);
        if !matches!(e, Expr::Lambda { .. }) {
            e.for_each_child(|c| expr(c, f));
        }
    }
    for s in stmts {
        s.for_each_expr(&mut |e| expr(e, f));
        s.for_each_block(|b| for_each_expr(b, f));
    }
}

/// `pd.DataFrame`, `pandas.Series`, `DataFrame`.
fn is_frame_class(e: &Expr) -> bool {
    e.dotted_path()
        .and_then(|p| p.last().copied())
        .is_some_and(|last| matches!(last, "DataFrame" | "Series"))
}

fn string_literals(e: &Expr, out: &mut BTreeSet<String>) {
    if let Some(s) = e.as_str_literal() {
        out.insert(s.to_string());
    }
    e.for_each_child(|c| string_literals(c, out));
}
