//! What a cell does with names and objects, from its IR: the names it binds and deletes, the names
//! it reads from the namespace that existed before it ran ("free names"), its imports, and the
//! subscripts, attributes and calls the rules and the prompts look at.
//!
//! Precision first: a name bound only under `if`/`try`/`for` counts as bound (we never want a
//! false NameError), and a name read inside a function or lambda is free only when nothing in the
//! cell binds it at the top level, since the function may be called after those bindings.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::builtins::is_always_defined;
use crate::ir::{AssignOp, Expr, Handler, Literal, Params, SeqKind, Stmt, Target, TextRange};
use crate::text_hash::TextHashBuilder;

/// The sets of names the walk keeps: short strings, hashed cheaply.
type HashSet<T> = std::collections::HashSet<T, TextHashBuilder>;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CellFacts {
    /// Names the cell binds in the namespace (at the top level, or through `global` in a
    /// function), in execution order.
    pub definitions: Vec<Definition>,
    /// Names the cell reads from the namespace as it was before the cell ran: first use of each
    /// (the first one outside function bodies, if any).
    pub free_names: Vec<NameUse>,
    /// Those of `free_names` read only in function bodies: code that runs when called, if ever.
    pub deferred_reads: BTreeSet<String>,
    /// Names deleted by a top-level `del` and not bound again afterwards.
    pub deletions: Vec<NameUse>,
    /// Reads at the top level, on the cell's straight path, of a name a `del` before them
    /// deleted and nothing bound again: NameError whatever the namespace held. First of each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reads_after_deletion: Vec<NameUse>,
    /// A `from m import *` ran: after it, names the cell does not bind are of unknown origin.
    pub star_import: bool,
    pub imports: Vec<Import>,
    pub subscripts: Vec<SubscriptAccess>,
    pub attributes: Vec<AttributeAccess>,
    pub calls: Vec<CallSite>,
    /// Names and dotted attribute paths (`model.classes_`) rooted at free names other than
    /// builtins, worth asking the kernel to summarize: first use of each.
    pub wants: Vec<NameUse>,
    /// The ranges of `definitions` and `deletions` sorted by start, with their names: the names
    /// a statement binds are looked up once per statement, in logarithmic time.
    #[serde(skip)]
    bound_by_start: Vec<(TextRange, String)>,
}

/// `exec("x = 1")` or `eval("(y := 2)")` of one string literal that parses: the names the code
/// binds in the namespace (`eval` binds only `:=` targets). `None` for another call, or when the
/// code is unknown.
pub fn literal_code_definitions(func: &Expr, args: &[Expr]) -> Option<Vec<Definition>> {
    let Expr::Name { id, .. } = func else {
        return None;
    };
    let eval = match id.as_str() {
        "exec" => false,
        "eval" => true,
        _ => return None,
    };
    let [code] = args else { return None };
    let parsed = crate::python::parse_cell(code.as_str_literal()?);
    if parsed.syntax_error.is_some() || parsed.cell_magic.is_some() {
        return None;
    }
    let mut definitions = cell_facts(&parsed.body).definitions;
    definitions.retain(|d| !eval || d.kind == DefinitionKind::Walrus);
    Some(definitions)
}

impl CellFacts {
    /// The names of the definitions and deletions within `range` (those of one statement).
    pub fn bound_within(&self, range: TextRange) -> impl Iterator<Item = &str> {
        let first = self
            .bound_by_start
            .partition_point(|(r, _)| r.start < range.start);
        self.bound_by_start[first..]
            .iter()
            .take_while(move |(r, _)| r.start <= range.end)
            .filter(move |(r, _)| r.end <= range.end)
            .map(|(_, name)| name.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NameUse {
    pub name: String,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Definition {
    pub name: String,
    pub kind: DefinitionKind,
    /// Bound only on some paths (`if`, `try`, loops, `match`), or only when a function runs.
    pub conditional: bool,
    pub range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DefinitionKind {
    Assignment,
    AugmentedAssignment,
    LoopTarget,
    WithTarget,
    Import,
    Function,
    Class,
    Walrus,
    ExceptHandler,
    MatchCapture,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Import {
    /// `import a.b` -> `a.b`; `from .m import x` -> `.m`.
    pub module: String,
    /// The imported name of `from module import name`; `*` for a star import.
    pub name: Option<String>,
    pub alias: Option<String>,
    /// The name bound in the namespace (`a` for `import a.b`); `None` for a star import.
    pub binds: Option<String>,
    /// Inside a `try` with handlers: a missing module may be expected.
    pub guarded: bool,
    pub range: TextRange,
}

/// Where the root name of an object path comes from, where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The namespace before the cell ran: the kernel's object, which summaries describe.
    Kernel,
    /// Bound earlier in this cell (at the top level, or anywhere for code in a function).
    Cell,
    /// A parameter or local of a function, lambda, class body or comprehension.
    Local,
    /// Not bound by the cell, but a star import ran before: the kernel's or the module's.
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectPath {
    /// `df.loc` -> `["df", "loc"]`.
    pub path: Vec<String>,
    pub origin: Origin,
}

/// A value as far as it is known statically.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    Literal(Literal),
    List(Vec<Value>),
    Tuple(Vec<Value>),
    /// `a:b:c` in a subscript.
    Slice,
    NonLiteral,
}

/// `object[index]` where `object` is a name or an attribute path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubscriptAccess {
    pub object: ObjectPath,
    pub index: Value,
    /// The string keys in the index, flattened: `df[['a', 'b']]` and `df.loc[:, 'a']` name columns.
    pub keys: Vec<String>,
    /// Assigned to (`df['new'] = ...`) rather than read.
    pub store: bool,
    pub range: TextRange,
}

/// `object.attr` read, where `object` is a name or an attribute path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttributeAccess {
    pub object: ObjectPath,
    pub attr: String,
    /// The attribute is called: a method.
    pub called: bool,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallSite {
    /// `pd.read_csv` -> `["pd", "read_csv"]`; `None` when the callee is not a name path
    /// (`df.groupby('a').mean()`).
    pub callee: Option<ObjectPath>,
    /// The attribute called, for a method call (`mean` above), whatever its receiver.
    pub method: Option<String>,
    pub args: Vec<Value>,
    pub keywords: Vec<KeywordArg>,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeywordArg {
    /// `None` for `**kwargs`.
    pub name: Option<String>,
    pub value: Value,
    pub range: TextRange,
}

pub fn cell_facts(body: &[Stmt]) -> CellFacts {
    let top_level = ScopeNames::of_body(body);
    let mut walker = Walker {
        cell_names: top_level
            .bound
            .into_iter()
            .chain(top_level.nested_globals.iter().cloned())
            .collect(),
        bound_by_functions: top_level.nested_globals,
        star_import_in_cell: top_level.star_import,
        ..Walker::default()
    };
    walker.body(body);
    let mut facts = walker.facts;
    let definitions = facts.definitions.iter().map(|d| (d.range, &d.name));
    let deletions = facts.deletions.iter().map(|d| (d.range, &d.name));
    let mut bound: Vec<(TextRange, String)> = definitions
        .chain(deletions)
        .map(|(range, name)| (range, name.clone()))
        .collect();
    // By start; the whole tuple orders the names of one range the same way on every run.
    bound.sort_unstable();
    facts.bound_by_start = bound;
    facts
}

/// The names a scope binds, found before walking it: Python decides that a name is local to a
/// function from any binding in its body, wherever it is.
#[derive(Default)]
struct ScopeNames {
    bound: HashSet<String>,
    globals: HashSet<String>,
    nonlocals: HashSet<String>,
    /// Names declared `global` in functions and classes nested in this scope.
    nested_globals: HashSet<String>,
    star_import: bool,
}

impl ScopeNames {
    fn of_body(body: &[Stmt]) -> Self {
        let mut names = Self::default();
        names.stmts(body);
        names
    }

    /// Parameters and locals of a function, without those declared `global` or `nonlocal`.
    fn function_locals(params: &Params, body: &[Stmt]) -> (HashSet<String>, HashSet<String>) {
        let names = Self::of_body(body);
        let locals = params
            .names
            .iter()
            .cloned()
            .chain(names.bound)
            .filter(|n| !names.globals.contains(n) && !names.nonlocals.contains(n))
            .collect();
        (locals, names.globals)
    }

    fn stmts(&mut self, body: &[Stmt]) {
        body.iter().for_each(|stmt| self.stmt(stmt));
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            // A bare annotation `x: int` binds nothing.
            Stmt::Assign {
                targets, op, value, ..
            } if value.is_some() || *op != AssignOp::Annotated => {
                targets.iter().for_each(|t| self.target(t))
            }
            // `del x` in a function makes `x` local, like an assignment.
            Stmt::Delete { targets, .. } => targets.iter().for_each(|t| self.target(t)),
            Stmt::For { target, .. } => self.target(target),
            Stmt::With { items, .. } => items
                .iter()
                .filter_map(|(_, t)| t.as_ref())
                .for_each(|t| self.target(t)),
            Stmt::Import { from, names, .. } => {
                for alias in names {
                    match bound_by_import(from.as_deref(), &alias.name, alias.asname.as_deref()) {
                        Some(name) => {
                            self.bound.insert(name.to_owned());
                        }
                        None => self.star_import = true,
                    }
                }
            }
            Stmt::FunctionDef { name, body, .. } | Stmt::ClassDef { name, body, .. } => {
                self.bound.insert(name.clone());
                self.nested(body);
            }
            Stmt::Try { handlers, .. } => self
                .bound
                .extend(handlers.iter().filter_map(|h| h.name.clone())),
            Stmt::Match { cases, .. } => self
                .bound
                .extend(cases.iter().flat_map(|c| c.names.iter().cloned())),
            Stmt::Global { names, .. } => self.globals.extend(names.iter().cloned()),
            Stmt::Nonlocal { names, .. } => self.nonlocals.extend(names.iter().cloned()),
            Stmt::TooDeep { names, .. } => self.bound.extend(names.iter().cloned()),
            _ => {}
        }
        // Decorators, defaults, bases, tests, iterables, values and the objects targets store
        // into; then the nested blocks (not function or class bodies: `nested`).
        stmt.for_each_expr(&mut |e| self.expr(e));
        stmt.for_each_block(|b| self.stmts(b));
    }

    fn nested(&mut self, body: &[Stmt]) {
        let inner = Self::of_body(body);
        self.nested_globals.extend(inner.globals);
        self.nested_globals.extend(inner.nested_globals);
    }

    /// The names a target binds (what it stores into is walked by `stmt`).
    fn target(&mut self, target: &Target) {
        match target {
            Target::Name { id, .. } => {
                self.bound.insert(id.clone());
            }
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| self.target(t)),
            Target::Starred { target, .. } => self.target(target),
            Target::Store { .. } => {}
        }
    }

    /// Walruses bind in this scope, also from inside comprehensions; a lambda body is its own.
    fn expr(&mut self, expr: &Expr) {
        match expr {
            Expr::Walrus { target, value, .. } => {
                self.bound.insert(target.clone());
                self.expr(value);
            }
            Expr::Lambda { params, .. } => params.defaults.iter().for_each(|e| self.expr(e)),
            _ => expr.for_each_child(|child| self.expr(child)),
        }
    }
}

/// The name an import binds: `import a.b` binds `a`; `None` for a star import.
fn bound_by_import<'a>(
    from: Option<&str>,
    name: &'a str,
    asname: Option<&'a str>,
) -> Option<&'a str> {
    if name == "*" {
        return None;
    }
    Some(match (asname, from) {
        (Some(alias), _) => alias,
        (None, Some(_)) => name,
        (None, None) => name.split('.').next().unwrap_or(name),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ScopeKind {
    Function,
    Class,
    Comprehension,
}

struct Scope {
    kind: ScopeKind,
    locals: HashSet<String>,
    globals: HashSet<String>,
}

/// Where an expression sits, for attribute chains: `a.b.c()` reads `a.b` and calls `c`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Value,
    Callee,
    /// The object of an attribute: part of a longer chain.
    ChainLink,
}

#[derive(Default)]
struct Walker {
    facts: CellFacts,
    /// Names bound at the top level anywhere in the cell or by `global` in its functions: what a
    /// function body sees when it is called later.
    cell_names: HashSet<String>,
    star_import_in_cell: bool,
    /// Names functions of the cell bind through `global`: never free at the top level either,
    /// since a call may have bound them (precision first).
    bound_by_functions: HashSet<String>,
    /// Top-level names bound so far, in execution order.
    bound_so_far: HashSet<String>,
    star_imported_so_far: bool,
    scopes: Vec<Scope>,
    /// Inside `if`, `try`, loops or `match` cases.
    conditional_depth: u32,
    /// Inside the body of a `try` that has handlers.
    guarded_depth: u32,
    /// Inside the body of a `try` whose handlers may catch NameError: reading a name there is
    /// how a notebook asks whether it is defined (`try: cache` / `except NameError: cache = {}`).
    name_error_guarded_depth: u32,
    seen_free: HashSet<String>,
    seen_wants: HashSet<String>,
}

impl Walker {
    fn body(&mut self, stmts: &[Stmt]) {
        stmts.iter().for_each(|stmt| self.stmt(stmt));
    }

    fn conditionally(&mut self, walk: impl FnOnce(&mut Self)) {
        self.conditional_depth += 1;
        walk(self);
        self.conditional_depth -= 1;
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Expr { value, .. } => self.expr(value),
            Stmt::Assign {
                targets, op, value, ..
            } => {
                if matches!(op, AssignOp::Augmented(_)) {
                    targets.iter().for_each(|t| self.read_target(t));
                }
                if let Some(value) = value {
                    self.expr(value);
                }
                // A bare annotation `x: int` binds nothing.
                if value.is_some() || *op != AssignOp::Annotated {
                    let kind = match op {
                        AssignOp::Augmented(_) => DefinitionKind::AugmentedAssignment,
                        _ => DefinitionKind::Assignment,
                    };
                    targets.iter().for_each(|t| self.bind_target(t, kind));
                }
            }
            Stmt::Import { from, names, .. } => {
                for alias in names {
                    let binds =
                        bound_by_import(from.as_deref(), &alias.name, alias.asname.as_deref());
                    let (module, name) = match from {
                        Some(module) => (module.clone(), Some(alias.name.clone())),
                        None => (alias.name.clone(), None),
                    };
                    self.facts.imports.push(Import {
                        module,
                        name,
                        alias: alias.asname.clone(),
                        binds: binds.map(str::to_owned),
                        guarded: self.guarded_depth > 0,
                        range: alias.range,
                    });
                    match binds {
                        Some(bound) => self.bind(bound, DefinitionKind::Import, alias.range),
                        None => {
                            self.facts.star_import = true;
                            if !self.deferred() {
                                self.star_imported_so_far = true;
                            }
                        }
                    }
                }
            }
            Stmt::FunctionDef {
                name,
                decorators,
                params,
                body,
                range,
            } => {
                decorators
                    .iter()
                    .chain(&params.defaults)
                    .for_each(|e| self.expr(e));
                self.bind(name, DefinitionKind::Function, *range);
                let (locals, globals) = ScopeNames::function_locals(params, body);
                self.in_scope(ScopeKind::Function, locals, globals, |walker| {
                    walker.body(body)
                });
            }
            Stmt::ClassDef {
                name,
                decorators,
                bases,
                body,
                range,
            } => {
                decorators.iter().chain(bases).for_each(|e| self.expr(e));
                let names = ScopeNames::of_body(body);
                self.in_scope(ScopeKind::Class, names.bound, names.globals, |walker| {
                    walker.body(body)
                });
                self.bind(name, DefinitionKind::Class, *range);
            }
            Stmt::For {
                target,
                iter,
                body,
                orelse,
                ..
            } => {
                self.expr(iter);
                self.conditionally(|walker| {
                    walker.bind_target(target, DefinitionKind::LoopTarget);
                    walker.body(body);
                    walker.body(orelse);
                });
            }
            Stmt::While {
                test, body, orelse, ..
            }
            | Stmt::If {
                test, body, orelse, ..
            } => {
                self.expr(test);
                self.conditionally(|walker| {
                    walker.body(body);
                    walker.body(orelse);
                });
            }
            Stmt::With { items, body, .. } => {
                for (context, target) in items {
                    self.expr(context);
                    if let Some(target) = target {
                        self.bind_target(target, DefinitionKind::WithTarget);
                    }
                }
                self.body(body);
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
                ..
            } => {
                let guarded = u32::from(!handlers.is_empty());
                let name_error_guarded = u32::from(handlers.iter().any(may_catch_name_error));
                self.guarded_depth += guarded;
                self.name_error_guarded_depth += name_error_guarded;
                self.conditionally(|walker| walker.body(body));
                self.guarded_depth -= guarded;
                self.name_error_guarded_depth -= name_error_guarded;
                for handler in handlers {
                    self.conditionally(|walker| {
                        if let Some(kind) = &handler.kind {
                            walker.expr(kind);
                        }
                        let was_bound = handler
                            .name
                            .as_ref()
                            .is_some_and(|name| walker.bound_so_far.contains(name));
                        if let Some(name) = &handler.name {
                            walker.bind(name, DefinitionKind::ExceptHandler, handler.range);
                        }
                        walker.body(&handler.body);
                        // Python deletes `except E as name` at the end of the clause: a name the
                        // cell had not bound before is unbound after it, whichever path ran. (A
                        // name it had may survive: the clause may not have run.)
                        if let Some(name) = &handler.name {
                            if !was_bound && walker.scopes.is_empty() && !walker.deferred() {
                                walker.bound_so_far.remove(name);
                            }
                        }
                    });
                }
                self.conditionally(|walker| walker.body(orelse));
                self.body(finalbody);
            }
            Stmt::Match {
                subject,
                cases,
                range,
            } => {
                self.expr(subject);
                for crate::ir::MatchCase {
                    names, guard, body, ..
                } in cases
                {
                    self.conditionally(|walker| {
                        for name in names {
                            walker.bind(name, DefinitionKind::MatchCapture, *range);
                        }
                        if let Some(guard) = guard {
                            walker.expr(guard);
                        }
                        walker.body(body);
                    });
                }
            }
            Stmt::Delete { targets, .. } => targets.iter().for_each(|t| self.delete_target(t)),
            // Already taken into account by `ScopeNames`.
            Stmt::Global { .. } | Stmt::Nonlocal { .. } | Stmt::Pass { .. } => {}
            Stmt::Other { exprs, .. } => exprs.iter().for_each(|e| self.expr(e)),
            // Not analysed: it may bind any name it mentions, and its reads are not followed.
            Stmt::TooDeep { names, range } => self.conditionally(|walker| {
                for name in names {
                    walker.bind(name, DefinitionKind::Assignment, *range);
                }
            }),
        }
    }

    fn in_scope(
        &mut self,
        kind: ScopeKind,
        locals: HashSet<String>,
        globals: HashSet<String>,
        walk: impl FnOnce(&mut Self),
    ) {
        self.scopes.push(Scope {
            kind,
            locals,
            globals,
        });
        walk(self);
        self.scopes.pop();
    }

    /// Code in a function or lambda runs later, when called.
    fn deferred(&self) -> bool {
        self.scopes.iter().any(|s| s.kind == ScopeKind::Function)
    }

    /// A walrus in a comprehension binds only if an element is evaluated.
    fn in_comprehension(&self) -> bool {
        self.scopes
            .iter()
            .any(|s| s.kind == ScopeKind::Comprehension)
    }

    fn origin(&self, name: &str) -> Origin {
        let innermost = self.scopes.len().saturating_sub(1);
        for (depth, scope) in self.scopes.iter().enumerate().rev() {
            // Class bodies are not visible from the functions and comprehensions inside them.
            if scope.kind == ScopeKind::Class && depth != innermost {
                continue;
            }
            if scope.globals.contains(name) {
                break;
            }
            if scope.locals.contains(name) {
                return Origin::Local;
            }
        }
        let (in_cell, after_star_import) = if self.deferred() {
            (self.cell_names.contains(name), self.star_import_in_cell)
        } else {
            let bound = self.bound_so_far.contains(name) || self.bound_by_functions.contains(name);
            (bound, self.star_imported_so_far)
        };
        match (in_cell, after_star_import) {
            (true, _) => Origin::Cell,
            (false, true) => Origin::Unknown,
            (false, false) => Origin::Kernel,
        }
    }

    fn read(&mut self, name: &str, range: TextRange) {
        if self.origin(name) != Origin::Kernel || self.name_error_guarded_depth > 0 {
            return;
        }
        let straight = self.scopes.is_empty() && self.conditional_depth == 0;
        if straight
            && !self.star_imported_so_far
            && self.facts.deletions.iter().any(|d| d.name == name)
            && !self
                .facts
                .reads_after_deletion
                .iter()
                .any(|u| u.name == name)
        {
            self.facts.reads_after_deletion.push(NameUse {
                name: name.to_owned(),
                range,
            });
        }
        let deferred = self.deferred();
        if self.seen_free.insert(name.to_owned()) {
            let use_ = NameUse {
                name: name.to_owned(),
                range,
            };
            self.facts.free_names.push(use_.clone());
            self.want(use_);
            if deferred {
                self.facts.deferred_reads.insert(name.to_owned());
            }
        } else if !deferred && self.facts.deferred_reads.remove(name) {
            // First read that runs with the cell: that one is the one to point at.
            if let Some(use_) = self.facts.free_names.iter_mut().find(|u| u.name == name) {
                use_.range = range;
            }
        }
    }

    /// Asks for a summary of a name or path, unless it is a builtin's.
    fn want(&mut self, path: NameUse) {
        let root = path.name.split('.').next().unwrap_or_default();
        if !is_always_defined(root) && self.seen_wants.insert(path.name.clone()) {
            self.facts.wants.push(path);
        }
    }

    /// Binds a name in the current scope: a namespace definition at the top level, or for a name
    /// declared `global`.
    fn bind(&mut self, name: &str, kind: DefinitionKind, range: TextRange) {
        let global = match self.scopes.last() {
            None => true,
            Some(scope) => scope.globals.contains(name),
        };
        if global {
            self.define(name, kind, range);
        }
    }

    /// A walrus binds in the innermost scope that is not a comprehension.
    fn bind_walrus(&mut self, name: &str, range: TextRange) {
        let global = match self
            .scopes
            .iter()
            .rev()
            .find(|s| s.kind != ScopeKind::Comprehension)
        {
            None => true,
            Some(scope) => scope.globals.contains(name),
        };
        if global {
            self.define(name, DefinitionKind::Walrus, range);
        }
    }

    fn define(&mut self, name: &str, kind: DefinitionKind, range: TextRange) {
        let deferred = self.deferred();
        self.facts.definitions.push(Definition {
            name: name.to_owned(),
            kind,
            conditional: deferred || self.conditional_depth > 0 || self.in_comprehension(),
            range,
        });
        if !deferred {
            self.bound_so_far.insert(name.to_owned());
            self.facts.deletions.retain(|d| d.name != name);
        }
    }

    fn bind_target(&mut self, target: &Target, kind: DefinitionKind) {
        match target {
            Target::Name { id, range } => self.bind(id, kind, *range),
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| self.bind_target(t, kind)),
            Target::Starred { target, .. } => self.bind_target(target, kind),
            Target::Store { expr, .. } => self.store(expr),
        }
    }

    /// `x += ...` reads `x` first.
    fn read_target(&mut self, target: &Target) {
        match target {
            Target::Name { id, range } => self.read(id, *range),
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| self.read_target(t)),
            Target::Starred { target, .. } => self.read_target(target),
            Target::Store { expr, .. } => self.expr(expr),
        }
    }

    /// `del x` reads `x` (NameError when unbound), then unbinds it.
    fn delete_target(&mut self, target: &Target) {
        match target {
            Target::Name { id, range } => {
                self.read(id, *range);
                if self.scopes.is_empty() && self.conditional_depth == 0 {
                    self.bound_so_far.remove(id);
                    self.facts.deletions.retain(|d| d.name != *id);
                    self.facts.deletions.push(NameUse {
                        name: id.clone(),
                        range: *range,
                    });
                }
            }
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| self.delete_target(t)),
            Target::Starred { target, .. } => self.delete_target(target),
            Target::Store { expr, .. } => self.expr(expr),
        }
    }

    /// `obj.attr = ...` and `obj[key] = ...`: reads `obj` (and the key), binds nothing.
    fn store(&mut self, expr: &Expr) {
        match expr {
            Expr::Subscript {
                value,
                index,
                range,
            } => {
                self.expr(value);
                self.expr(index);
                self.record_subscript(value, index, true, *range);
            }
            Expr::Attribute { value, .. } => self.expr(value),
            other => self.expr(other),
        }
    }

    fn expr(&mut self, expr: &Expr) {
        self.expr_at(expr, Place::Value);
    }

    fn expr_at(&mut self, expr: &Expr, place: Place) {
        match expr {
            Expr::Name { id, range } => self.read(id, *range),
            Expr::Attribute { value, attr, range } => {
                self.expr_at(value, Place::ChainLink);
                let Some(object) = self.object_path(value) else {
                    return;
                };
                if object.origin == Origin::Kernel && place != Place::ChainLink {
                    // The longest chain that is not a call: `a.b.c()` wants `a.b`.
                    let wanted = match place {
                        Place::Callee => (object.path.len() >= 2).then(|| object.path.join(".")),
                        _ => Some(format!("{}.{attr}", object.path.join("."))),
                    };
                    if let Some(name) = wanted {
                        self.want(NameUse {
                            name,
                            range: *range,
                        });
                    }
                }
                self.facts.attributes.push(AttributeAccess {
                    object,
                    attr: attr.clone(),
                    called: place == Place::Callee,
                    range: *range,
                });
            }
            Expr::Subscript {
                value,
                index,
                range,
            } => {
                self.expr(value);
                self.expr(index);
                self.record_subscript(value, index, false, *range);
            }
            Expr::Call {
                func,
                args,
                keywords,
                range,
            } => {
                self.expr_at(func, Place::Callee);
                args.iter().for_each(|a| self.expr(a));
                keywords.iter().for_each(|k| self.expr(&k.value));
                if keywords.is_empty() {
                    for definition in literal_code_definitions(func, args).unwrap_or_default() {
                        self.define(&definition.name, definition.kind, *range);
                    }
                }
                self.facts.calls.push(CallSite {
                    callee: self.object_path(func),
                    method: match func.as_ref() {
                        Expr::Attribute { attr, .. } => Some(attr.clone()),
                        _ => None,
                    },
                    args: args.iter().map(value_of).collect(),
                    keywords: keywords
                        .iter()
                        .map(|k| KeywordArg {
                            name: k.name.clone(),
                            value: value_of(&k.value),
                            range: k.range,
                        })
                        .collect(),
                    range: *range,
                });
            }
            Expr::Walrus {
                target,
                value,
                range,
            } => {
                self.expr(value);
                self.bind_walrus(target, *range);
            }
            Expr::Lambda { params, body, .. } => {
                params.defaults.iter().for_each(|e| self.expr(e));
                let mut names = ScopeNames::default();
                names.expr(body);
                let locals = params.names.iter().cloned().chain(names.bound).collect();
                self.in_scope(ScopeKind::Function, locals, HashSet::default(), |walker| {
                    walker.expr(body)
                });
            }
            Expr::Comprehension {
                elements,
                generators,
                ..
            } => {
                // The first iterable is evaluated in the enclosing scope.
                if let Some(first) = generators.first() {
                    self.expr(&first.iter);
                }
                let mut targets = ScopeNames::default();
                generators.iter().for_each(|g| targets.target(&g.target));
                self.in_scope(
                    ScopeKind::Comprehension,
                    targets.bound,
                    HashSet::default(),
                    |walker| {
                        for (i, generator) in generators.iter().enumerate() {
                            if i > 0 {
                                walker.expr(&generator.iter);
                            }
                            walker.store_parts(&generator.target);
                            generator.ifs.iter().for_each(|e| walker.expr(e));
                        }
                        elements.iter().for_each(|e| walker.expr(e));
                    },
                );
            }
            _ => expr.for_each_child(|child| self.expr(child)),
        }
    }

    /// The objects and keys a comprehension target stores into (`for x.a in ...`, rare).
    fn store_parts(&mut self, target: &Target) {
        match target {
            Target::Name { .. } => {}
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| self.store_parts(t)),
            Target::Starred { target, .. } => self.store_parts(target),
            Target::Store { expr, .. } => self.store(expr),
        }
    }

    fn object_path(&self, expr: &Expr) -> Option<ObjectPath> {
        let path = expr.dotted_path()?;
        Some(ObjectPath {
            origin: self.origin(path[0]),
            path: path.into_iter().map(str::to_owned).collect(),
        })
    }

    fn record_subscript(&mut self, value: &Expr, index: &Expr, store: bool, range: TextRange) {
        if let Some(object) = self.object_path(value) {
            let mut keys = Vec::new();
            string_keys(index, &mut keys);
            self.facts.subscripts.push(SubscriptAccess {
                object,
                index: value_of(index),
                keys,
                store,
                range,
            });
        }
    }
}

fn value_of(expr: &Expr) -> Value {
    match expr {
        Expr::Literal { value, .. } => Value::Literal(value.clone()),
        Expr::Seq {
            kind: SeqKind::List,
            elts,
            ..
        } => Value::List(elts.iter().map(value_of).collect()),
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } => Value::Tuple(elts.iter().map(value_of).collect()),
        Expr::Slice { .. } => Value::Slice,
        _ => Value::NonLiteral,
    }
}

fn string_keys(index: &Expr, keys: &mut Vec<String>) {
    match index {
        Expr::Literal {
            value: Literal::Str(key),
            ..
        } => keys.push(key.clone()),
        Expr::Seq {
            kind: SeqKind::List | SeqKind::Tuple,
            elts,
            ..
        } => elts.iter().for_each(|e| string_keys(e, keys)),
        _ => {}
    }
}

/// Whether an `except` clause may catch NameError: bare, `NameError`, `Exception`,
/// `BaseException`, a tuple holding one, or anything that is not a builtin exception (unknown).
fn may_catch_name_error(handler: &Handler) -> bool {
    fn catches(kind: &Expr) -> bool {
        match kind {
            Expr::Name { id, .. } => {
                matches!(id.as_str(), "NameError" | "Exception" | "BaseException")
                    || !is_always_defined(id)
            }
            Expr::Seq { elts, .. } => elts.iter().any(catches),
            _ => true,
        }
    }
    handler.kind.as_ref().is_none_or(catches)
}
