//! What the rules need from the cells that ran. Each executed cell is read once
//! (`CellRuleFacts`, kept with the parsed cell in `check::CellCache`), and the per-cell results are
//! combined over the history (`HistoryState`, kept while the history is unchanged or only grows),
//! so that a keystroke in the target cell does no work proportional to the history.

use crate::semantics::pandas::{
    column_values, drop_spec, is_frame_class, reader_call, DropSpec, CSV_READERS, EXTENDS_PANDAS,
};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::builtins::is_always_defined;
use crate::facts::CellFacts;
use crate::ir::{Expr, Params, Stmt, Target, TextRange};
use crate::ir_scan::aliased_names;

use super::calls::{declares_outer_names, function_locals};
use super::state::{bound_names, import_bindings};
use crate::ir_scan::{mentioned_names, mutated_names, str_list, target_names, unrolled_loop};
use crate::semantics::abstract_value::Val;
use crate::semantics::keras_build::{self, Built, FunctionCode, KerasGlobals, ModelEffect};
use crate::semantics::notebook_classes::NotebookClass;

/// A function defined at the top level of a cell: what following a call into it needs.
#[derive(Debug)]
pub struct UserFunction {
    pub name: String,
    pub params: Params,
    pub body: Vec<Stmt>,
    /// The source of the cell that defines it (the body's ranges index into it).
    pub source: Rc<str>,
    /// The `def` statement's range in `source` (of the assignment, for a lambda).
    pub range: TextRange,
    /// A lambda's body (`body` is then empty): what a call evaluates and returns.
    pub result: Option<Expr>,
}

/// What one top-level statement does to a global name, in execution order.
#[derive(Clone, Debug)]
pub enum Binding {
    /// An import binds the name to a module or library object.
    Import(Box<Val>),
    /// A plain `def` at the top level.
    Function(Rc<UserFunction>),
    /// `name = ['a', 'b']`: a list of string literals (trusted only while the kernel's summary
    /// of the name agrees on its type and length).
    Strs(Vec<String>),
    /// `name = pd.read_csv(...)` with keywords that leave pandas' type inference alone: the
    /// reader's dotted path as written (`["pd", "read_csv"]`), resolved against the imports when
    /// the history is combined.
    Reader(Vec<String>),
    /// `name = frame.col.values` (`frame['col'].to_numpy()`, `frame[['col']].values`, then
    /// maybe `.reshape(...)`): the values of one column.
    ColumnValues { frame: String, column: String },
    /// `name = <...>.rename('label')`: a Series named `label` (trusted only while the kernel's
    /// summary of the name shows a Series).
    SeriesName(String),
    /// `name = 50`.
    Int(i64),
    /// `name = f(...)`, `name = [...]`, `name = a + b`, `name = h.history`: what may build a Keras tensor, layer,
    /// layer list or model (`keras_build::eval_global`, against the names as they are when it
    /// runs), or an instance of a notebook class.
    Followed(Box<Expr>),
    /// `class name(bases): body` without decorators at the top level (the class is read against
    /// the imports as they are when it runs: `torch_classes::user_class`).
    Class(Rc<NotebookClass>),
    /// Anything else binds it to a value the history does not track.
    Other,
}

/// What a top-level statement does to the global names, in execution order. Kept small (the
/// large payloads boxed): a cell holds one per name its statements read or change.
#[derive(Clone, Debug)]
pub enum Effect {
    Bind(String, Binding),
    /// `from m import *`: names a module shares with a function or class it exports (`tqdm`,
    /// `datetime`, `glob`) may now hold that object.
    StarImport(String),
    /// What the statement does to Keras models before it binds names.
    Keras(ModelEffect),
    /// `exec`, `%run`, `globals()[...] = ...`: any name may have been rebound.
    Reset,
    /// The cell may change the object the name holds without rebinding it (a method call on
    /// it, an item assignment, passing it to a call, another name bound to it).
    Mutate(String),
    /// `name.drop(labels, inplace=True)` ran as a statement: the labels are gone from that axis.
    Dropped(String, DropSpec),
}

/// What `name = value` binds that the history follows beyond `Other`.
fn tracked_binding(value: &Expr) -> Option<Binding> {
    if let Some(items) = str_list(value) {
        return Some(Binding::Strs(items));
    }
    if let Some((frame, column)) = column_values(value) {
        return Some(Binding::ColumnValues { frame, column });
    }
    reader_call(value).map(Binding::Reader)
}

/// What the rules need from one executed cell.
#[derive(Debug, Default)]
pub struct CellRuleFacts {
    /// The cell may have bound objects to names the rules cannot follow (`%run`, `exec`,
    /// `globals()`): an `Effect::Reset` among its `cell_effects`.
    pub rebinds_anything: bool,
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
    /// Names a `global` statement of the cell declares (a function may rebind them when called).
    pub global_names: BTreeSet<String>,
    /// Attribute names the cell stores to or deletes anywhere, but on `self` in an `__init__`
    /// (`torch_classes::stored_attributes`): a module's layers may be replaced.
    pub stored_attributes: BTreeSet<String>,
    /// The cell may rewire modules otherwise (`setattr`, `add_module`, hooks).
    pub rewires_modules: bool,
    /// The cell may give modules' weights a dtype other than float32
    /// (`torch_classes::casts_module_floats`).
    pub casts_module_floats: bool,
    /// The cell may turn autograd off or change what it tracks (`torch.no_grad`,
    /// `inference_mode`, `set_grad_enabled`, `requires_grad_`, `detach_`, a `requires_grad`
    /// stored): which tensors require grad is not followed then.
    pub switches_grad: bool,
    /// The cell may bind names the analysis cannot see (`%run`, `exec` of unknown code,
    /// `globals()`): which names are defined after it is unknown.
    pub binds_unseen_names: bool,
}

/// Does the text store a `requires_grad` attribute (`self.fc.weight.requires_grad = False` too,
/// which `stored_attributes` leaves out in an `__init__`), or name it for `setattr`?
fn stores_requires_grad(source: &str) -> bool {
    source.contains("'requires_grad'")
        || source.contains("\"requires_grad\"")
        || source.match_indices(".requires_grad").any(|(at, word)| {
            let rest = source[at + word.len()..].trim_start_matches([' ', '\t']);
            rest.starts_with('=') && !rest.starts_with("==")
        })
}

/// Reads one cell for the rules (a target cell, or one that ran). `source` is the cell's text
/// (what the bodies' ranges index into).
pub fn cell_rule_facts(body: &[Stmt], source: &str) -> CellRuleFacts {
    let mut facts = CellRuleFacts {
        rebinds_anything: statements_rebind_anything(body, source),
        ..CellRuleFacts::default()
    };
    collect_function_mentions(body, &mut facts.function_mentions);
    let mut scan = Scan::default();
    scan.stmts(body);
    facts.names_index = scan.names_index;
    facts.dropped = scan.dropped;
    facts.extends_pandas = scan.extends_pandas;
    facts.global_names = scan.global_names;
    crate::semantics::torch_classes::stored_attributes(body, &mut facts.stored_attributes);
    facts.rewires_modules = crate::semantics::torch_classes::rewires_modules(body);
    facts.casts_module_floats = crate::semantics::torch_classes::casts_module_floats(body);
    facts.switches_grad = facts.stored_attributes.contains("requires_grad")
        || stores_requires_grad(source)
        || [
            "no_grad",
            "inference_mode",
            "set_grad_enabled",
            "grad_mode",
            "requires_grad_",
            "detach_",
        ]
        .iter()
        .any(|word| source.contains(word));
    // A statement too deep to analyse may do any of these.
    if body.iter().any(|s| matches!(s, Stmt::TooDeep { .. })) {
        facts.names_index = true;
        facts.extends_pandas = true;
        facts.rewires_modules = true;
        facts.casts_module_floats = true;
        facts.switches_grad = true;
    }
    facts.binds_unseen_names = body.iter().any(|stmt| binds_unseen_names(stmt, source));
    facts
}

/// `name = <...>.rename('label')`: the name and the label its Series gets (one positional
/// string, nothing else: with `inplace=True` the result is None).
fn renamed_series(stmt: &Stmt) -> Option<(&str, &str)> {
    let Stmt::Assign {
        targets,
        op: crate::ir::AssignOp::Plain,
        value:
            Some(Expr::Call {
                func,
                args,
                keywords,
                ..
            }),
        ..
    } = stmt
    else {
        return None;
    };
    match (targets.as_slice(), &**func, args.as_slice()) {
        ([Target::Name { id, .. }], Expr::Attribute { attr, .. }, [label])
            if attr == "rename" && keywords.is_empty() =>
        {
            Some((id, label.as_str_literal()?))
        }
        _ => None,
    }
}

/// The top-level bindings of global names and other effects of a cell that ran, in order. `cell`
/// is what `facts::cell_facts` found in it.
pub fn cell_effects(body: &[Stmt], source: &str, cell: &CellFacts) -> Vec<Effect> {
    let mut effects = Vec::new();
    read_statements(body, source, &Rc::from(source), cell, &mut effects);
    effects
}

/// Whether `read_statements` finds an `Effect::Reset` in `body`, without reading the rest.
fn statements_rebind_anything(body: &[Stmt], source: &str) -> bool {
    body.iter().any(|stmt| {
        if rebinds_anything(stmt, source) {
            return true;
        }
        if let Some((_, values, body)) = unrolled_loop(stmt) {
            return !values.is_empty() && statements_rebind_anything(body, source);
        }
        match stmt {
            Stmt::With { items, body, .. } if !suppresses_errors(items) => {
                statements_rebind_anything(body, source)
            }
            _ => false,
        }
    })
}

/// The effects of statements that run in order: a cell's top level, or the body of a `with`
/// statement there.
fn read_statements(
    body: &[Stmt],
    source: &str,
    shared_source: &Rc<str>,
    cell: &CellFacts,
    bindings: &mut Vec<Effect>,
) {
    for stmt in body {
        if rebinds_anything(stmt, source) {
            bindings.push(Effect::Reset);
            continue;
        }
        if let Some((var, values, body)) = unrolled_loop(stmt) {
            for value in values {
                bindings.push(Effect::Bind(var.to_string(), Binding::Int(value)));
                read_statements(body, source, shared_source, cell, bindings);
            }
            continue;
        }
        match stmt {
            // A `with` body runs once, as top-level code (unless the context swallows errors):
            // its statements are read one by one, after the context expressions.
            Stmt::With { items, body, .. } if !suppresses_errors(items) => {
                let header: Vec<Stmt> = items
                    .iter()
                    .map(|(e, _)| Stmt::Expr {
                        value: e.clone(),
                        range: e.range(),
                    })
                    .collect();
                for s in &header {
                    keras_effects(s, bindings);
                }
                let mut bound = BTreeSet::new();
                let mut mutated = BTreeSet::new();
                mutated_names(&header, &mut mutated);
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target_names(t, &mut bound, false);
                    target_names(t, &mut mutated, true);
                }
                bindings.extend(bound.into_iter().map(|n| Effect::Bind(n, Binding::Other)));
                bindings.extend(mutated.into_iter().map(Effect::Mutate));
                read_statements(body, source, shared_source, cell, bindings);
            }
            _ => {
                let (after, before): (Vec<_>, Vec<_>) = keras_build::statement_effects(stmt)
                    .into_iter()
                    .partition(ModelEffect::after_binding);
                bindings.extend(before.into_iter().map(Effect::Keras));
                read_statement(stmt, shared_source, cell, bindings);
                bindings.extend(after.into_iter().map(Effect::Keras));
            }
        }
    }
}

fn keras_effects(stmt: &Stmt, bindings: &mut Vec<Effect>) {
    bindings.extend(
        keras_build::statement_effects(stmt)
            .into_iter()
            .map(Effect::Keras),
    );
}

/// The bindings and in-place changes of one statement.
fn read_statement(
    stmt: &Stmt,
    shared_source: &Rc<str>,
    cell: &CellFacts,
    bindings: &mut Vec<Effect>,
) {
    // A name the statement binds to a new object it does not change afterwards.
    let mut fresh = None;
    match stmt {
        Stmt::Import { from, names, .. } => {
            for (name, val) in import_bindings(from.as_deref(), names) {
                bindings.push(Effect::Bind(name, Binding::Import(Box::new(val))));
            }
            if names.iter().any(|a| a.name == "*") {
                let module = from.clone().unwrap_or_default();
                bindings.push(Effect::StarImport(module));
            }
        }
        Stmt::ClassDef {
            name,
            decorators,
            bases,
            body,
            ..
        } if decorators.is_empty() => {
            bindings.push(Effect::Bind(
                name.clone(),
                Binding::Class(Rc::new(NotebookClass {
                    name: name.clone(),
                    bases: bases.clone(),
                    body: body.clone(),
                    source: Rc::clone(shared_source),
                })),
            ));
        }
        Stmt::FunctionDef {
            name,
            decorators,
            params,
            body,
            range,
        } if decorators.is_empty() => {
            bindings.push(Effect::Bind(
                name.clone(),
                Binding::Function(Rc::new(UserFunction {
                    name: name.clone(),
                    params: params.clone(),
                    body: body.clone(),
                    source: Rc::clone(shared_source),
                    range: *range,
                    result: None,
                })),
            ));
            // A `global` declaration may rebind other names when the function runs.
            let mut bound = BTreeSet::new();
            bound_names(std::slice::from_ref(stmt), cell, &mut bound);
            bound.remove(name);
            bindings.extend(bound.into_iter().map(|n| Effect::Bind(n, Binding::Other)));
        }
        Stmt::Assign {
            targets,
            op: crate::ir::AssignOp::Plain,
            value: Some(value),
            ..
        } if matches!(targets.as_slice(), [Target::Name { .. }])
            && tracked_binding(value).is_some() =>
        {
            if let ([Target::Name { id, .. }], Some(binding)) =
                (targets.as_slice(), tracked_binding(value))
            {
                // A list literal and a column's values change nothing when evaluated; a
                // reader's arguments may be changed by the call, its new frame is not.
                let reads_only = !matches!(binding, Binding::Reader(_));
                bindings.push(Effect::Bind(id.clone(), binding));
                if reads_only {
                    return;
                }
                fresh = Some(id.as_str());
            }
        }
        other => {
            let mut bound = BTreeSet::new();
            bound_names(std::slice::from_ref(other), cell, &mut bound);
            // `name = 50`, `name = f(...)`: what the history may follow.
            let mut single = match other {
                Stmt::Assign {
                    targets,
                    op: crate::ir::AssignOp::Plain,
                    value: Some(value),
                    ..
                } => match (targets.as_slice(), value) {
                    (
                        [Target::Name { id, .. }],
                        Expr::Literal {
                            value: crate::ir::Literal::Int(i),
                            ..
                        },
                    ) => Some((id, Binding::Int(*i))),
                    (
                        [Target::Name { id, .. }],
                        Expr::Call { .. }
                        | Expr::Seq { .. }
                        | Expr::BinOp { .. }
                        | Expr::Attribute { .. },
                    ) => Some((id, Binding::Followed(Box::new(value.clone())))),
                    // A lambda bound to a name is followed as a `def` is.
                    ([Target::Name { id, .. }], Expr::Lambda { params, body, .. }) => Some((
                        id,
                        Binding::Function(Rc::new(UserFunction {
                            name: id.clone(),
                            params: params.clone(),
                            body: Vec::new(),
                            source: Rc::clone(shared_source),
                            range: other.range(),
                            result: Some((**body).clone()),
                        })),
                    )),
                    _ => None,
                },
                _ => None,
            };
            for n in bound {
                // Moved, not cloned: the names in `bound` are distinct.
                let binding = match single.take_if(|(id, _)| **id == n) {
                    Some((_, b)) => b,
                    None => Binding::Other,
                };
                bindings.push(Effect::Bind(n, binding));
            }
        }
    }
    // What the statement may change in place (`cats.remove(...)`, `f(cats)`, `d = cats`).
    let mut mutated = BTreeSet::new();
    mutated_names(std::slice::from_ref(stmt), &mut mutated);
    aliased_names(std::slice::from_ref(stmt), &mut mutated);
    if let Some(name) = fresh {
        mutated.remove(name);
    }
    bindings.extend(mutated.into_iter().map(Effect::Mutate));
    if let Stmt::Expr { value, .. } = stmt {
        if let Some((name, spec)) = drop_spec(value) {
            if spec.inplace {
                bindings.push(Effect::Dropped(name.to_string(), spec));
            }
        }
    }
    // Last, after what the statement binds and changes.
    if let Some((name, label)) = renamed_series(stmt) {
        bindings.push(Effect::Bind(
            name.to_string(),
            Binding::SeriesName(label.to_string()),
        ));
    }
}

/// `with suppress(...)`, `with pytest.raises(...)`: the body may stop at any statement.
fn suppresses_errors(items: &[(Expr, Option<Target>)]) -> bool {
    items.iter().any(|(e, _)| {
        let callee = match e {
            Expr::Call { func, .. } => func.dotted_path(),
            _ => e.dotted_path(),
        };
        callee
            .and_then(|p| p.last().copied())
            .is_none_or(|last| matches!(last, "suppress" | "raises" | "ignore_errors"))
    })
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

/// Cell magics whose body is not Python run in the kernel and that bind no name (unless told to
/// with `--out`, `--err` or `--proc`).
const HARMLESS_CELL_MAGICS: &[&str] = &[
    "bash",
    "file",
    "html",
    "HTML",
    "javascript",
    "js",
    "latex",
    "markdown",
    "perl",
    "pypy",
    "python",
    "python2",
    "python3",
    "ruby",
    "script",
    "sh",
    "svg",
    "time",
    "timeit",
    "prun",
    "writefile",
];

/// Whether a cell magic line (`%%capture out`, without its `%%`) may bind names the analysis
/// cannot see: `%%capture` its argument, `%%sql`, `%%R -o`, `%%cython` and other magics what
/// they please.
pub fn cell_magic_binds_names(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let name = words.next().unwrap_or_default();
    let mut options = words;
    match name {
        "capture" => options.any(|word| !word.starts_with('-')),
        _ if HARMLESS_CELL_MAGICS.contains(&name) => {
            options.any(|word| matches!(word, "--out" | "--err" | "--proc"))
        }
        _ => true,
    }
}

/// Whether the line magic `name` (`run`, `store`, ...) may bind names the analysis cannot see.
pub fn magic_rebinds_anything(name: &str) -> bool {
    !HARMLESS_MAGICS.contains(&name)
}

/// Does the statement rebind names in ways the rules cannot follow: a line magic such as
/// `%run` or `%store -r`, or a call of `exec`, `eval` of code with `:=`, `globals()`, `locals()`,
/// `vars()`, `get_ipython()`, a call handed the module itself (`sys.modules`, `__name__`), a
/// use of `__main__`, `builtins` or `__builtins__`, or `enum.global_enum`?
/// Function, class and lambda bodies count: a call of a function that writes to `globals()`
/// binds names wherever the call is, so its definition is where what is bound stops being
/// known. `source` is the text the statement's ranges index.
pub fn rebinds_anything(stmt: &Stmt, source: &str) -> bool {
    rebinds(stmt, source, false)
}

/// `rebinds_anything`, but for the names alone: `exec` or `eval` of a literal binds what the
/// literal binds (the cell's definitions: `facts::literal_code_definitions`).
pub fn binds_unseen_names(stmt: &Stmt, source: &str) -> bool {
    rebinds(stmt, source, true)
}

fn rebinds(stmt: &Stmt, source: &str, literal_code_seen: bool) -> bool {
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
            return magic_rebinds_anything(name);
        }
    }
    let mut found = false;
    for_each_expr_in_scopes(std::slice::from_ref(stmt), true, &mut |e, module_scope| {
        if is_sys_modules(e) || is_namespace_module(e) || is_global_enum(e) {
            found = true;
            return;
        }
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        else {
            return;
        };
        found |= hands_over_module_name(func, args, keywords);
        let Expr::Name { id, .. } = &**func else {
            return;
        };
        let literal = || {
            keywords
                .is_empty()
                .then(|| crate::facts::literal_code_definitions(func, args))
                .flatten()
        };
        found |= match id.as_str() {
            // Typed input (`eval(input())`) binds nothing: only a literal's `:=` targets, and
            // those only at the top level.
            "eval" => {
                module_scope && !literal_code_seen && literal().is_some_and(|d| !d.is_empty())
            }
            // In a function `exec` may still run `global` statements or be handed `globals()`.
            "exec" => !module_scope || !literal_code_seen || literal().is_none(),
            "globals" | "get_ipython" => true,
            // Elsewhere these are a function's or a class's own namespace.
            "locals" | "vars" => module_scope,
            _ => false,
        };
    });
    found
}

/// `sys.modules`: the module objects, the notebook's own (`__main__`) among them.
fn is_sys_modules(e: &Expr) -> bool {
    matches!(e, Expr::Attribute { value, attr, .. }
        if attr == "modules" && matches!(&**value, Expr::Name { id, .. } if id == "sys"))
}

/// `__main__` (in IPython, the module whose namespace is the notebook's), `builtins` or
/// `__builtins__` (where a name the notebook does not bind is looked up): an attribute stored
/// on one is a name the notebook can read.
fn is_namespace_module(e: &Expr) -> bool {
    matches!(e, Expr::Name { id, .. } if matches!(id.as_str(), "__main__" | "builtins" | "__builtins__"))
}

/// `enum.global_enum`: the decorated enum's members become names of its module.
fn is_global_enum(e: &Expr) -> bool {
    match e {
        Expr::Name { id, .. } => id == "global_enum",
        Expr::Attribute { attr, .. } => attr == "global_enum",
        _ => false,
    }
}

/// A call given the module's own name, `f(__name__)`: the callee may find the module in
/// `sys.modules` and bind names in it (`IntEnum._convert_('Mode', __name__, ...)`). Builtins
/// but `__import__` cannot, nor can `getLogger`, which only names a logger after it.
fn hands_over_module_name(func: &Expr, args: &[Expr], keywords: &[crate::ir::Keyword]) -> bool {
    let is_module_name = |e: &Expr| matches!(e, Expr::Name { id, .. } if id == "__name__");
    if !args
        .iter()
        .chain(keywords.iter().map(|k| &k.value))
        .any(is_module_name)
    {
        return false;
    }
    match func {
        Expr::Name { id, .. } => id == "__import__" || !is_always_defined(id),
        Expr::Attribute { attr, .. } => attr != "getLogger",
        _ => true,
    }
}

/// `for_each_expr`, with function, class and lambda bodies too: `f` gets each expression and
/// whether it runs in the module's scope (not in a function's, a lambda's or a class's).
fn for_each_expr_in_scopes<'a>(
    stmts: &'a [Stmt],
    module_scope: bool,
    f: &mut impl FnMut(&'a Expr, bool),
) {
    fn expr<'a>(e: &'a Expr, module_scope: bool, f: &mut impl FnMut(&'a Expr, bool)) {
        f(e, module_scope);
        let inner = module_scope && !matches!(e, Expr::Lambda { .. });
        e.for_each_child(|c| expr(c, inner, f));
    }
    for s in stmts {
        s.for_each_expr(&mut |e| expr(e, module_scope, f));
        s.for_each_block(|b| for_each_expr_in_scopes(b, module_scope, f));
        if let Stmt::FunctionDef { body, .. } | Stmt::ClassDef { body, .. } = s {
            for_each_expr_in_scopes(body, false, f);
        }
    }
}

/// The history combined: what the rules know before the target cell runs.
#[derive(Clone, Debug)]
pub struct HistoryState {
    /// Names bound by imports (and not rebound since) and what they hold.
    pub imports: BTreeMap<String, Val>,
    /// Functions defined by a plain top-level `def` (and not rebound since).
    pub functions: BTreeMap<String, Rc<UserFunction>>,
    /// Names bound to a list of string literals at the top level, not rebound or possibly
    /// mutated since.
    pub str_lists: BTreeMap<String, Vec<String>>,
    /// Names bound at the top level to a Series renamed to a literal label (`s.rename('n')`),
    /// not rebound or possibly mutated since.
    pub series_names: BTreeMap<String, String>,
    /// Labels a statement dropped in place from the object a name holds, the name not rebound
    /// or possibly changed since.
    pub drops: BTreeMap<String, Vec<DropSpec>>,
    /// Names holding a frame as `read_csv` read it, not rebound or possibly changed since.
    pub csv_frames: BTreeSet<String>,
    /// Names bound to the values of one column of such a frame (`x = df.col.values`), neither
    /// possibly changed since: `name -> (frame, column)`.
    pub csv_columns: BTreeMap<String, (String, String)>,
    /// No executed cell could have given a frame a named index (read only for frames whose own
    /// index names are unknown).
    pub index_unnamed: bool,
    /// Functions and classes defined in the history: the names their bodies mention.
    pub function_mentions: BTreeMap<String, BTreeSet<String>>,
    /// Strings an executed cell passed to a `drop...` call.
    pub dropped: BTreeSet<String>,
    /// An executed cell may have added attributes to every DataFrame.
    pub extends_pandas: bool,
    /// Names bound at the top level to int literals and to Keras tensors, layers and models
    /// whose shapes the code tells (`keras_build`), not rebound or possibly changed since.
    pub keras: BTreeMap<String, Built>,
    /// Names a star import of a Keras module bound to Keras classes, not rebound since: their
    /// API paths (`layers.Dense`).
    pub keras_star: BTreeMap<String, String>,
    /// Names some function of the notebook declares `global`: a call may rebind them.
    pub global_names: BTreeSet<String>,
    /// Classes defined at the top level (`class` statements without decorators), not rebound
    /// since.
    pub classes: BTreeMap<String, Rc<NotebookClass>>,
    /// Names bound at the top level to an instance of one of the plain ones (`p = Point(1, 2)`),
    /// not rebound since: the class as it was then.
    pub instances: BTreeMap<String, Rc<NotebookClass>>,
    /// `nn.Module` subclasses defined at the top level, not rebound since.
    pub torch_classes: BTreeMap<String, Rc<crate::semantics::torch_classes::UserClass>>,
    /// Names bound at the top level to an instance of one of them (`model = Net()`), not rebound
    /// since: the class as it was then.
    pub torch_instances: BTreeMap<String, Rc<crate::semantics::torch_classes::UserClass>>,
    /// Attribute names an executed cell stored to or deleted (see `CellRuleFacts`).
    pub stored_attributes: BTreeSet<String>,
    /// An executed cell may have rewired modules otherwise.
    pub rewires_modules: bool,
    /// An executed cell may have given modules' weights a dtype other than float32.
    pub casts_module_floats: bool,
    /// An executed cell may have turned autograd off or changed what it tracks.
    pub switches_grad: bool,
    /// Names an executed cell bound at the top level (they may shadow builtins).
    pub bound_globals: BTreeSet<String>,
    /// An executed cell ran a star import or `exec`: any name may be bound.
    pub binds_unknown_names: bool,
    /// The globals the executed cells left, as the walker followed them (`absorb`): a name
    /// absent holds what the walker does not know, or nothing.
    pub values: BTreeMap<String, Val>,
}

impl KerasGlobals for HistoryState {
    fn built(&self, name: &str) -> Option<&Built> {
        self.global(name)
    }

    fn star_api(&self, name: &str) -> Option<&str> {
        self.keras_star.get(name).map(String::as_str)
    }

    fn import(&self, name: &str) -> Option<&Val> {
        self.imports.get(name)
    }

    fn function(&self, name: &str) -> Option<FunctionCode<'_>> {
        let f = self.functions.get(name).filter(|f| f.result.is_none())?;
        Some(FunctionCode {
            params: &f.params.names,
            body: &f.body,
            source: &f.source,
        })
    }
}

impl Default for HistoryState {
    fn default() -> Self {
        HistoryState {
            imports: BTreeMap::new(),
            functions: BTreeMap::new(),
            str_lists: BTreeMap::new(),
            series_names: BTreeMap::new(),
            drops: BTreeMap::new(),
            csv_frames: BTreeSet::new(),
            csv_columns: BTreeMap::new(),
            index_unnamed: true,
            function_mentions: BTreeMap::new(),
            dropped: BTreeSet::new(),
            extends_pandas: false,
            keras: BTreeMap::new(),
            keras_star: BTreeMap::new(),
            global_names: BTreeSet::new(),
            classes: BTreeMap::new(),
            instances: BTreeMap::new(),
            torch_classes: BTreeMap::new(),
            torch_instances: BTreeMap::new(),
            stored_attributes: BTreeSet::new(),
            rewires_modules: false,
            casts_module_floats: false,
            switches_grad: false,
            bound_globals: BTreeSet::new(),
            binds_unknown_names: false,
            values: BTreeMap::new(),
        }
    }
}

impl HistoryState {
    /// Takes in what the walk of one more executed cell (`cell`, its facts) left in the globals,
    /// after `run` applied its facts.
    pub fn absorb(
        &mut self,
        globals: super::CellGlobals,
        cell: &CellRuleFacts,
        effects: &[Effect],
    ) {
        let super::CellGlobals { env, forgotten } = globals;
        // What the cell rebound out of the walker's sight: any name, or names no value tells.
        if cell.binds_unseen_names
            || effects
                .iter()
                .any(|e| matches!(e, Effect::Reset | Effect::StarImport(_)))
        {
            self.values.clear();
            return;
        }
        // (Also on the values the walk loaded: `env` replaces them below.)
        if !forgotten.is_empty() {
            self.values.retain(|name, val| {
                forgotten.iter().for_each(|change| change.apply(name, val));
                !matches!(val, Val::Unknown)
            });
        }
        for effect in effects {
            if let Effect::Bind(name, _) | Effect::Mutate(name) = effect {
                if !env.contains_key(name) {
                    self.values.remove(name);
                }
            }
        }
        for (name, val) in env {
            match val {
                Val::Unknown => self.values.remove(&name),
                val => self.values.insert(name, val),
            };
        }
    }

    /// Applies one more executed cell: its facts and its `cell_effects`.
    pub fn run(&mut self, cell: &CellRuleFacts, effects: &[Effect]) {
        // The cell's functions may run from its first statement on.
        for (name, mentions) in &cell.function_mentions {
            self.function_mentions
                .entry(name.clone())
                .or_default()
                .extend(mentions.iter().cloned());
        }
        self.global_names.extend(cell.global_names.iter().cloned());
        self.stored_attributes
            .extend(cell.stored_attributes.iter().cloned());
        self.rewires_modules |= cell.rewires_modules;
        self.casts_module_floats |= cell.casts_module_floats;
        self.switches_grad |= cell.switches_grad;
        for effect in effects {
            match effect {
                Effect::Bind(name, _) => {
                    self.bound_globals.insert(name.clone());
                }
                Effect::StarImport(_) | Effect::Reset => self.binds_unknown_names = true,
                _ => {}
            }
            if let Effect::Bind(name, binding) = effect {
                self.drops.remove(name);
                self.imports.remove(name);
                self.functions.remove(name);
                self.classes.remove(name);
                self.forget_value(name);
                self.csv_frames.remove(name);
                self.csv_columns.remove(name);
                self.keras_star.remove(name);
                // Evaluated before the name is bound: `x = Dense(4)(x)` reads the old `x`.
                let built = match binding {
                    Binding::Int(i) => Some(Built::Int(*i)),
                    // (Code that raised bound nothing.)
                    Binding::Followed(call) => keras_build::eval_global(call, self)
                        .filter(|b| !matches!(b, Built::Invalid(_))),
                    _ => None,
                };
                match built {
                    Some(b) => self.keras.insert(name.clone(), b),
                    None => self.keras.remove(name),
                };
                // Also evaluated before the name is bound.
                let instance = match binding {
                    Binding::Followed(call) => self.torch_instance(call),
                    _ => None,
                };
                let plain_instance = match binding {
                    Binding::Followed(call) => self.class_instance(call),
                    _ => None,
                };
                match plain_instance {
                    Some(class) => self.instances.insert(name.clone(), class),
                    None => self.instances.remove(name),
                };
                self.torch_classes.remove(name);
                match instance {
                    Some(class) => self.torch_instances.insert(name.clone(), class),
                    None => self.torch_instances.remove(name),
                };
                if let Binding::Class(c) = binding {
                    self.classes.insert(name.clone(), Rc::clone(c));
                    let resolve = |e: &Expr| {
                        let path: Vec<String> =
                            e.dotted_path()?.iter().map(|s| s.to_string()).collect();
                        self.resolve(&path)
                    };
                    if let Some(class) = crate::semantics::torch_classes::user_class(
                        name,
                        &c.bases,
                        &c.body,
                        Rc::clone(&c.source),
                        &resolve,
                    ) {
                        self.torch_classes.insert(name.clone(), Rc::new(class));
                    }
                }
            }
            match effect {
                Effect::Bind(name, Binding::Import(val)) => {
                    self.imports.insert(name.clone(), Val::clone(val));
                }
                Effect::Bind(name, Binding::Function(f)) => {
                    self.functions.insert(name.clone(), Rc::clone(f));
                }
                Effect::Bind(name, Binding::Strs(items)) => {
                    self.str_lists.insert(name.clone(), items.clone());
                }
                Effect::Bind(name, Binding::SeriesName(label)) => {
                    self.series_names.insert(name.clone(), label.clone());
                }
                Effect::Bind(name, Binding::Reader(path))
                    if self
                        .resolve(path)
                        .is_some_and(|p| CSV_READERS.contains(&p.as_str())) =>
                {
                    self.csv_frames.insert(name.clone());
                }
                Effect::Bind(name, Binding::ColumnValues { frame, column })
                    if self.csv_frames.contains(frame) =>
                {
                    self.csv_columns
                        .insert(name.clone(), (frame.clone(), column.clone()));
                }
                Effect::Bind(_, _) => {}
                Effect::Mutate(name) => {
                    self.forget_value(name);
                    self.drops.remove(name);
                    self.csv_frames.remove(name);
                    // The values may be a view of the frame's data (pandas without copy-on-write).
                    self.csv_columns
                        .retain(|n, (frame, _)| n != name && frame != name);
                }
                Effect::Dropped(name, spec) => {
                    self.drops
                        .entry(name.clone())
                        .or_default()
                        .push(spec.clone());
                }
                Effect::StarImport(module) => {
                    self.classes.clear();
                    self.instances.clear();
                    self.torch_classes.clear();
                    self.torch_instances.clear();
                    self.imports
                        .retain(|name, val| !star_may_rebind(name, val, module));
                    self.str_lists.clear();
                    self.series_names.clear();
                    self.drops.clear();
                    self.csv_frames.clear();
                    self.csv_columns.clear();
                    match keras_build::star_exports(module) {
                        Some(exports) => {
                            for (name, api) in exports {
                                self.keras.remove(&name);
                                self.keras_star.insert(name, api);
                            }
                        }
                        None => {
                            self.keras.clear();
                            self.keras_star.clear();
                        }
                    }
                }
                Effect::Reset => {
                    self.classes.clear();
                    self.instances.clear();
                    self.torch_classes.clear();
                    self.torch_instances.clear();
                    self.imports.clear();
                    self.functions.clear();
                    self.str_lists.clear();
                    self.series_names.clear();
                    self.drops.clear();
                    self.csv_frames.clear();
                    self.csv_columns.clear();
                    self.keras.clear();
                    self.keras_star.clear();
                }
                Effect::Keras(e) => self.keras_effect(e),
            }
        }
        self.extends_pandas |= cell.extends_pandas;
        self.index_unnamed &= !cell.names_index;
        self.dropped.extend(cell.dropped.iter().cloned());
    }

    /// The library path of a dotted name path through the imports (`pd.read_csv` ->
    /// `pandas.read_csv`).
    fn resolve(&self, path: &[String]) -> Option<String> {
        let (first, rest) = path.split_first()?;
        let base = match self.imports.get(first)? {
            Val::Module(Some(p)) | Val::Lib(p) => p,
            _ => return None,
        };
        Some(
            std::iter::once(base.as_str())
                .chain(rest.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("."),
        )
    }

    /// Forgets what the history knew of the value a name holds (rebound or maybe changed).
    fn forget_value(&mut self, name: &str) {
        self.str_lists.remove(name);
        self.series_names.remove(name);
    }

    /// The class of the `nn.Module` instance a call gives: `Net(...)`, or `.to(device)` (and the
    /// other methods that return the module) of one.
    /// The plain class of the notebook `call` makes an instance of (`Point(1, 2)`).
    fn class_instance(&self, call: &Expr) -> Option<Rc<NotebookClass>> {
        let Expr::Call { func, .. } = call else {
            return None;
        };
        let Expr::Name { id, .. } = &**func else {
            return None;
        };
        self.classes.get(id).filter(|c| c.plain()).cloned()
    }

    fn torch_instance(
        &self,
        call: &Expr,
    ) -> Option<Rc<crate::semantics::torch_classes::UserClass>> {
        let Expr::Call { func, .. } = call else {
            return None;
        };
        match &**func {
            Expr::Name { id, .. } => self.torch_classes.get(id).cloned(),
            Expr::Attribute { value, attr, .. }
                if crate::semantics::torch_classes::RETURNS_MODULE.contains(&attr.as_str()) =>
            {
                match &**value {
                    Expr::Name { id, .. } => self.torch_instances.get(id).cloned(),
                    inner => self.torch_instance(inner),
                }
            }
            _ => None,
        }
    }

    /// What `keras_build` knows of the global `name`, unless a function may rebind it.
    pub fn global(&self, name: &str) -> Option<&Built> {
        if self.global_names.contains(name) {
            return None;
        }
        self.keras.get(name)
    }

    fn keras_effect(&mut self, effect: &ModelEffect) {
        let is_model = |b: &Built| matches!(b, Built::Model(_));
        match effect {
            ModelEffect::Touched(name) => {
                if self.keras.get(name).is_some_and(is_model) {
                    self.keras.remove(name);
                }
            }
            ModelEffect::Reads(name) => {
                // A call of a function of the notebook may change the models its body mentions.
                if let Some(mentions) = self.function_mentions.get(name) {
                    let changes = |b: &Built| {
                        matches!(
                            b,
                            Built::Model(_) | Built::History(_) | Built::HistoryLogs(_)
                        )
                    };
                    self.keras
                        .retain(|n, b| !(changes(b) && mentions.contains(n)));
                }
            }
            ModelEffect::Fed(name) => {
                if let Some(Built::Model(m)) = self.keras.get(name) {
                    let fed = m.fed();
                    self.keras.insert(name.clone(), Built::Model(fed));
                }
            }
            ModelEffect::Method(name, call) => {
                let after = match self.keras.get(name) {
                    Some(Built::Model(m)) => {
                        keras_build::apply_method(m, call, self).map(Built::Model)
                    }
                    Some(Built::Layers(l)) => {
                        keras_build::apply_list_method(l, call, self).map(Built::Layers)
                    }
                    _ => return,
                };
                match after {
                    Some(after) => self.keras.insert(name.clone(), after),
                    None => self.keras.remove(name),
                };
            }
            ModelEffect::ListTouched(name) => {
                if let Some(Built::Layers(_)) = self.keras.get(name) {
                    self.keras.remove(name);
                }
            }
            ModelEffect::LogsChanged(name) => {
                if let Some(Built::History(_) | Built::HistoryLogs(_)) = self.keras.get(name) {
                    self.keras.remove(name);
                }
            }
        }
    }
}

/// A star import of `module` may rebind a module name: to a function or class of the same name
/// that the module exports (`from tqdm.auto import *` binds `tqdm`), or, unless the module is
/// one of Keras's (whose exports are known), to a module it imported under that alias
/// (`from pylab import *` binds `plt` to pyplot).
pub fn star_may_rebind(name: &str, val: &Val, module: &str) -> bool {
    match val {
        Val::Module(Some(path)) => {
            path.rsplit('.').next() == Some(name) || keras_build::star_exports(module).is_none()
        }
        Val::Module(None) => keras_build::star_exports(module).is_none(),
        _ => false,
    }
}

/// The names the bodies of the functions and classes defined in the statements mention, for
/// each: a call may read or change what they hold. A function's own locals (parameters, names it
/// binds) are left out, unless a `global` or `nonlocal` declaration may make them global.
fn collect_function_mentions(stmts: &[Stmt], out: &mut Vec<(String, BTreeSet<String>)>) {
    for s in stmts {
        // A lambda bound to a name: a call may read or change what its body mentions.
        if let Stmt::Assign {
            targets,
            value: Some(Expr::Lambda { params, body, .. }),
            ..
        } = s
        {
            if let [Target::Name { id, .. }] = targets.as_slice() {
                let mut names = BTreeSet::new();
                body.for_each_name(&mut |n| {
                    names.insert(n.to_owned());
                });
                for p in &params.names {
                    names.remove(p);
                }
                out.push((id.clone(), names));
            }
        }
        if let Stmt::FunctionDef { name, body, .. } | Stmt::ClassDef { name, body, .. } = s {
            let mut names = BTreeSet::new();
            mentioned_names(body, &mut names);
            if let Stmt::FunctionDef { params, .. } = s {
                if !declares_outer_names(body) {
                    for local in function_locals(params, &crate::facts::cell_facts(body)) {
                        names.remove(&local);
                    }
                }
            }
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
    // Most identifiers are lower case already: no copy for them.
    let ident: std::borrow::Cow<str> = if ident.bytes().any(|b| b.is_ascii_uppercase()) {
        ident.to_ascii_lowercase().into()
    } else {
        ident.into()
    };
    WORDS.iter().any(|w| ident.contains(w))
}

#[derive(Default)]
struct Scan {
    names_index: bool,
    dropped: BTreeSet<String>,
    extends_pandas: bool,
    global_names: BTreeSet<String>,
}

impl Scan {
    /// Every statement, function and class bodies included.
    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::Import { from, names, .. } => {
                    for a in names {
                        let bound = a.asname.as_deref().unwrap_or(&a.name);
                        self.names_index =
                            self.names_index || may_name_index(&a.name) || may_name_index(bound);
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
                Stmt::Global { names, .. } => self.global_names.extend(names.iter().cloned()),
                _ => {}
            }
            s.for_each_expr(&mut |e| self.expr(e));
            s.for_each_block(|b| self.stmts(b));
        }
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            // Once known, not asked again (every attribute and keyword of the cell is).
            Expr::Attribute { attr, .. } => {
                self.names_index = self.names_index || may_name_index(attr);
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
                        self.names_index = self.names_index || may_name_index(name);
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

fn string_literals(e: &Expr, out: &mut BTreeSet<String>) {
    if let Some(s) = e.as_str_literal() {
        out.insert(s.to_string());
    }
    e.for_each_child(|c| string_literals(c, out));
}
