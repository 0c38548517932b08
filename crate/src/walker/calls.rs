//! Following calls into the notebook's own functions. Many crashes happen inside a function an
//! earlier cell defined (`model_predict(...)` whose body multiplies matrices of the wrong shapes):
//! when the walker meets a call that will certainly run, of a function defined by a plain `def`
//! in this cell or an executed one (or a lambda this cell bound to a name), it walks the
//! function's body with the parameters bound to the arguments' values (or to their defaults
//! when those are immutable literals) and the globals as they are at the call (the kernel's
//! state, changed by the cell so far), so that the rules see the expressions inside.
//!
//! Only what certainly runs is walked: the statements before the first one that may leave the
//! function (`return`, `raise`, `assert`, or a block holding one), each as the walker treats the
//! target cell's. Findings inside are reported at the call, naming the function and the line;
//! a local the function reads before any statement assigned it raises UnboundLocalError.
//! A walk that reached the end of the function gives the caller what the function left in the
//! globals it changes and in the lists and dicts passed by name to parameters it never rebinds
//! (`def add(xs): xs.append(1)`; `add(ys)`). `map`, `filter` and `sorted` ask `call_value` what
//! a lambda or a one-`return` function gives for each element.
//! Calls nest up to `MAX_DEPTH` deep, a function already being walked is not followed again, and
//! all the walks of one cell share a budget of `BUDGET` statements.

use std::collections::BTreeSet;

use crate::builtins::is_always_defined;
use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::facts::{cell_facts, CellFacts, Origin};
use crate::ir::{AssignOp, Expr, Params, SeqKind, Stmt, TextRange};
use crate::ir_scan::{contains_jump, stmt_keyword};
use crate::ordered::{map_of, set_of};

use super::history::HistoryState;
use super::state::Walker;
use super::RuleContext;
use crate::ir_scan::{mutated_names, unpacks};
use crate::semantics::abstract_value::Val;
use crate::semantics::containers::is_list_or_dict;

/// How many calls deep the walk follows.
pub const MAX_DEPTH: usize = 3;
/// Statements the walks into the functions one cell calls may visit in all.
pub const BUDGET: usize = 2000;

/// The globals that the notebook's functions the cell calls read (through the calls they make
/// in turn, `MAX_DEPTH` deep), beyond those the cell reads itself: the walk into those functions
/// needs the kernel's summaries of them too.
pub fn callee_globals(facts: &CellFacts, history: &HistoryState) -> Vec<String> {
    let mut frontier: Vec<&str> = facts
        .calls
        .iter()
        .filter_map(|call| call.callee.as_ref())
        .filter(|callee| callee.origin == Origin::Kernel)
        .filter_map(|callee| match callee.path.as_slice() {
            [name] if history.functions.contains_key(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let mut visited = BTreeSet::new();
    let mut globals = BTreeSet::new();
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for function in frontier {
            if !visited.insert(function) {
                continue;
            }
            for name in history
                .function_mentions
                .get(function)
                .into_iter()
                .flatten()
            {
                if history.functions.contains_key(name) {
                    next.push(name.as_str());
                } else if !history.imports.contains_key(name) && !is_always_defined(name) {
                    globals.insert(name.as_str());
                }
            }
        }
        frontier = next;
    }
    globals
        .into_iter()
        .filter(|name| !facts.wants.iter().any(|w| w.name == *name))
        .map(str::to_string)
        .collect()
}

/// A function defined by a plain `def`, which a call can be followed into.
#[derive(Clone, Copy)]
pub struct Callee<'a> {
    pub params: &'a Params,
    pub body: &'a [Stmt],
    /// The source of the cell that defines it (the ranges of `body` index into it).
    pub source: &'a str,
    /// The `def` statement's range in `source`.
    pub range: TextRange,
    /// A lambda's body (`body` is then empty): what a call evaluates and returns.
    pub result: Option<&'a Expr>,
}

impl<'a> Callee<'a> {
    /// The function a `def` statement of the cell `source` defines, or the lambda a plain
    /// assignment binds to one name (`area = lambda r: 3.14 * r ** 2`).
    pub fn of_def(def: &'a Stmt, source: &'a str) -> Option<Self> {
        match def {
            Stmt::FunctionDef {
                params,
                body,
                range,
                ..
            } => Some(Callee {
                params,
                body,
                source,
                range: *range,
                result: None,
            }),
            Stmt::Assign {
                value: Some(Expr::Lambda { params, body, .. }),
                range,
                ..
            } => Some(Callee {
                params,
                body: &[],
                source,
                range: *range,
                result: Some(body),
            }),
            _ => None,
        }
    }

    /// Does a call run the body now: not an `async def` (a coroutine), not a generator (a
    /// `yield` anywhere, even in a string, is enough to stay out)?
    fn runs_when_called(&self) -> bool {
        let text = self
            .source
            .get(self.range.start as usize..self.range.end as usize)
            .unwrap_or("");
        !text.trim_start().starts_with("async")
            && !text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "yield")
    }
}

/// What a followed call returns, when a `return` certainly ends it.
#[derive(Clone, Debug)]
pub struct Returned {
    pub value: Val,
    /// The values of `return a, b`.
    pub parts: Option<Vec<Val>>,
}

/// The names local to a function: its parameters and the names its body binds (Python makes a
/// name local to a function from any binding in it). `body` is what `cell_facts` found in its
/// body.
pub fn function_locals(params: &Params, body: &CellFacts) -> BTreeSet<String> {
    params
        .names
        .iter()
        .chain(body.definitions.iter().map(|d| &d.name))
        .chain(body.deletions.iter().map(|d| &d.name))
        .cloned()
        .collect()
}

/// Does the body declare a name `global` or `nonlocal` (in nested functions and classes too)?
pub fn declares_outer_names(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Global { .. } | Stmt::Nonlocal { .. } => true,
        Stmt::FunctionDef { body, .. } | Stmt::ClassDef { body, .. } => declares_outer_names(body),
        _ => {
            let mut found = false;
            s.for_each_block(|b| found |= declares_outer_names(b));
            found
        }
    })
}

/// The names the statements declare `global` (not in nested functions and classes).
fn declared_globals(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::Global { names, .. } => out.extend(names.iter().cloned()),
            Stmt::FunctionDef { .. } | Stmt::ClassDef { .. } => {}
            _ => s.for_each_block(|b| declared_globals(b, out)),
        }
    }
}

/// May the statement leave the function (a `return`, `raise` or `assert` in it, outside nested
/// functions)?
fn may_leave(stmt: &Stmt, source: &str) -> bool {
    if matches!(
        stmt_keyword(stmt, source),
        Some("return" | "raise" | "assert")
    ) {
        return true;
    }
    let mut found = false;
    stmt.for_each_block(|b| found |= b.iter().any(|s| may_leave(s, source)));
    found
}

impl<'a> Walker<'a> {
    /// Walks the body of the function `call` calls, when it is one of the notebook's (see the
    /// module documentation), and reports what the rules find there at the call. Also records
    /// what the call returns, for `eval` in the rest of the statement.
    pub fn follow_call(&mut self, call: &Expr) {
        let Expr::Call {
            func,
            args,
            keywords,
            range,
        } = call
        else {
            return;
        };
        self.returns.remove(range);
        let Expr::Name { id, .. } = &**func else {
            return;
        };
        if self.calls.len() >= MAX_DEPTH || self.calls.contains(id) || self.budget == 0 {
            return;
        }
        let Some(callee) = self.user_function(id) else {
            return;
        };
        if unpacks(args, keywords)
            || crate::semantics::python::user_call_problem(id, callee.params, args, keywords)
                .is_some()
            || !callee.runs_when_called()
        {
            return;
        }
        let facts = cell_facts(callee.body);
        let locals = function_locals(callee.params, &facts);
        // The globals as they are now; the caller's locals hide some of them (unknown then).
        let mut env = self.env.clone();
        for n in self.locals.iter().chain(&locals) {
            env.insert(n.clone(), Val::Unknown);
        }
        // The arguments, bound as Python binds them (the call fits the parameters); `*args`,
        // `**kwargs` and parameters left to their defaults stay unknown.
        let p = callee.params;
        // Each parameter with the argument it is bound to.
        let mut bound: Vec<(&String, &Expr)> = Vec::new();
        for (name, arg) in p.names.iter().take(p.positional).zip(args) {
            env.insert(name.clone(), self.eval(arg));
            bound.push((name, arg));
        }
        let kw_start = p.positional + usize::from(p.vararg);
        let by_keyword: Vec<&String> = (p.names.get(p.posonly..p.positional).unwrap_or(&[]).iter())
            .chain(
                p.names
                    .get(kw_start..kw_start + p.keyword_only_required.len())
                    .unwrap_or(&[]),
            )
            .collect();
        for k in keywords {
            if let Some(name) = by_keyword.iter().find(|n| k.name.as_ref() == Some(**n)) {
                env.insert(name.to_string(), self.eval(&k.value));
                bound.push((name, &k.value));
            }
        }
        // Parameters left to a default that is an immutable literal (`n=3`, `sep=','`): it was
        // evaluated by the `def`, and no call since can have changed it.
        for (i, name) in p.names.iter().enumerate() {
            let given = (i < p.positional && i < args.len())
                || keywords.iter().any(|k| k.name.as_ref() == Some(name));
            let default = p.default_of.get(i).copied().flatten();
            if let (false, Some(default)) = (given, default.and_then(|d| p.defaults.get(d))) {
                if immutable_literal(default) {
                    env.insert(name.clone(), self.eval(default));
                }
            }
        }
        // Names the caller binds or changes: summaries no longer describe them.
        let mut bound_here = self.bound_here.clone();
        bound_here.extend(self.locals.iter().chain(&locals).cloned());
        mutated_names(self.ctx.body, &mut bound_here);
        let visible = |name: &String| !self.locals.contains(name) && !locals.contains(name);
        let ctx = RuleContext {
            source: callee.source,
            body: callee.body,
            facts: &facts,
            ..*self.ctx
        };
        let mut calls = self.calls.clone();
        calls.push(id.clone());
        let mut inner = Walker::bare(&ctx, env, self.checks);
        inner.bound_here = bound_here;
        inner.bound_after_call = self.bound_after(*range);
        inner.star_imported = self.star_imported || self.ctx.facts.star_import;
        let mut binds_itself = BTreeSet::new();
        mutated_names(callee.body, &mut binds_itself);
        inner
            .bound_after_call
            .retain(|n| !binds_itself.contains(n) && !locals.contains(n));
        inner.rebound_all = self.rebound_all;
        inner.defined_here = map_of(
            self.defined_here
                .iter()
                .filter(|(n, _)| visible(n))
                .map(|(n, d)| (n.clone(), *d)),
        );
        inner.drops = map_of(
            self.drops
                .iter()
                .filter(|(n, _)| visible(n))
                .map(|(n, d)| (n.clone(), d.clone())),
        );
        inner.calls = calls;
        // `global` and `nonlocal` make names of the body outer ones.
        if !declares_outer_names(callee.body) {
            inner.unassigned_locals =
                set_of(locals.iter().filter(|n| !p.names.contains(n)).cloned());
        }
        inner.locals = locals;
        inner.budget = self.budget;
        let returned = match callee.result {
            Some(result) => inner.lambda_body(result),
            None => inner.function_body(callee.body),
        };
        self.budget = inner.budget;
        // A walk that reached the end (or a `return`) knows what the names the function
        // declares `global` hold when it returns.
        if returned.is_some() {
            let mut globals = BTreeSet::new();
            declared_globals(callee.body, &mut globals);
            // The globals it changed in place (`d[k] = v`, `xs.append(x)`): it cannot rebind
            // them. Not in a `try` body with handlers: a statement of the function may raise
            // before the change.
            if !self.in_handled_try {
                for name in self.function_mentions(id) {
                    if globals.contains(&name)
                        || inner.locals.contains(&name)
                        || self.locals.contains(&name)
                    {
                        continue;
                    }
                    let (before, value) = (self.get(&name), inner.get(&name));
                    if value != before {
                        let value = self.passed_back(&inner, &name, &name, &before, value);
                        self.global_writes.push((name, value));
                    }
                }
            }
            for name in globals {
                let (before, value) = (self.get(&name), inner.get(&name));
                let value = self.passed_back(&inner, &name, &name, &before, value);
                self.global_writes.push((name, value));
            }
            // An argument that calls anything may change the object before the call runs.
            let mut values = args.iter().chain(keywords.iter().map(|k| &k.value));
            if callee.result.is_none() && !self.in_handled_try && !values.any(calls_anything) {
                let writes = self.changed_arguments(&inner, &facts, *range, &bound);
                self.argument_writes.extend(writes);
            }
        }
        let found = if self.in_handled_try {
            Vec::new()
        } else {
            inner.out
        };
        for d in found {
            let before = callee.source.get(..d.range.start as usize).unwrap_or("");
            let line = before.matches('\n').count() + 1;
            self.out.push(Diagnostic {
                message: format!("in `{id}`, line {line}: {}", d.message),
                range: *range,
                // Its edits are in the function's cell.
                fix: None,
                ..d
            });
        }
        if let Some(r) = returned {
            self.returns.insert(*range, r);
        }
    }

    /// What calling `f` with the values `args` returns, evaluated without walking statements:
    /// a lambda written there or bound to a name, or a `def` of the notebook whose body is one
    /// `return` of an expression (after a docstring), given one value per parameter. `None`
    /// when not known.
    pub fn call_value(&self, f: &Expr, args: &[Val]) -> Option<Val> {
        let (callee, inline) = match f {
            Expr::Lambda {
                params,
                body,
                range,
            } => (
                Callee {
                    params,
                    body: &[],
                    source: self.ctx.source,
                    range: *range,
                    result: Some(body),
                },
                true,
            ),
            Expr::Name { id, .. } if !self.calls.contains(id) => (self.user_function(id)?, false),
            _ => return None,
        };
        // A lambda's body may call `map` with another lambda, in turn: as deep as calls.
        if self.calls.len() >= MAX_DEPTH {
            return None;
        }
        let p = callee.params;
        if p.names.len() != args.len() || p.positional != args.len() || !callee.runs_when_called() {
            return None;
        }
        let result = match callee.result {
            Some(result) => result,
            None => only_return(callee.body, callee.source)?,
        };
        let mut env = self.env.clone();
        // A function of the notebook does not see the locals of the function walked; a lambda
        // written in it does.
        if !inline {
            for n in &self.locals {
                env.insert(n.clone(), Val::Unknown);
            }
        }
        for (name, value) in p.names.iter().zip(args) {
            env.insert(name.clone(), value.clone());
        }
        // Evaluating one element after another must leave what the next one reads as it was:
        // no call of the notebook's functions, no method called on (or call given) an object
        // that may change.
        if self.calls_notebook_function(result) {
            return None;
        }
        let mut changed = BTreeSet::new();
        crate::ir_scan::mutated_in(result, &mut changed);
        let unchanged = |n: &String| match env.get(n) {
            Some(v) => super::state::immutable(v),
            None => self.is_builtin(n),
        };
        if !changed.iter().all(unchanged) {
            return None;
        }
        let facts = CellFacts::default();
        let ctx = RuleContext {
            source: callee.source,
            body: &[],
            facts: &facts,
            ..*self.ctx
        };
        let mut inner = Walker::bare(&ctx, env, self.checks);
        inner.bound_here = self.bound_here.clone();
        inner.bound_here.extend(p.names.iter().cloned());
        inner.rebound_all = self.rebound_all;
        inner.calls = self.calls.clone();
        inner.calls.push(match f {
            Expr::Name { id, .. } => id.clone(),
            _ => "<lambda>".into(),
        });
        let value = inner.eval(result);
        (value != Val::Unknown).then_some(value)
    }

    /// The lists and dicts passed by name to a call the walk followed to its end, and what the
    /// function left in them: a parameter it never rebinds holds the caller's object, so what
    /// the walk knows of the parameter at the end is what the caller's name holds.
    fn changed_arguments(
        &mut self,
        inner: &Walker<'_>,
        facts: &CellFacts,
        call: TextRange,
        bound: &[(&String, &Expr)],
    ) -> Vec<(TextRange, String, Val)> {
        let mut out = Vec::new();
        for (param, arg) in bound {
            let Expr::Name { id, .. } = arg else { continue };
            let rebound = facts.definitions.iter().any(|d| d.name == **param)
                || facts.deletions.iter().any(|d| d.name == **param);
            let before = self.get(id);
            if rebound || !is_list_or_dict(&before) {
                continue;
            }
            let value = self.passed_back(inner, param, id, &before, inner.get(param));
            out.push((call, id.clone(), value));
        }
        out
    }

    /// What the caller's `name` holds after the function walked by `inner` changed its object
    /// `before`, which the function knew as `inner_name`: what the function left there, noted
    /// as a change (`note_change`) of an object the caller's other holders may share; unknown
    /// when a name that outlives the call, and that the caller does not see holding it, may.
    fn passed_back(
        &mut self,
        inner: &Walker<'_>,
        inner_name: &str,
        name: &str,
        before: &Val,
        value: Val,
    ) -> Val {
        let mut gone = self.holders(name, before);
        gone.extend(inner.locals.iter().cloned());
        gone.insert(name.to_string());
        self.note_change(name, before);
        inner.kept_value(inner_name, value, &gone)
    }

    /// Walks a function's statements up to the first that may leave it; what a `return` there
    /// gives back, when the walk reached it.
    fn function_body(&mut self, body: &'a [Stmt]) -> Option<Returned> {
        for s in body {
            if self.undefined_read(s) {
                return None;
            }
            let stays = self.known_branch_stays(s);
            self.stmt(s);
            if self.budget == 0 {
                return None;
            }
            match stmt_keyword(s, self.ctx.source) {
                Some("return") => {
                    let Stmt::Other { exprs, .. } = s else {
                        return None;
                    };
                    // `return` alone gives None.
                    let Some(value) = exprs.first() else {
                        return Some(Returned {
                            value: Val::None,
                            parts: None,
                        });
                    };
                    let parts = match value {
                        Expr::Seq {
                            kind: SeqKind::Tuple,
                            elts,
                            ..
                        } if !elts.iter().any(|e| matches!(e, Expr::Starred { .. })) => {
                            Some(elts.iter().map(|e| self.eval(e)).collect())
                        }
                        _ => None,
                    };
                    return Some(Returned {
                        value: self.eval(value),
                        parts,
                    });
                }
                _ if may_leave(s, self.ctx.source) && !stays => return None,
                _ => {}
            }
        }
        // Past its last statement a function returns None.
        Some(Returned {
            value: Val::None,
            parts: None,
        })
    }

    /// Is `stmt` an `if` whose test's truth is known, and whose branch that runs neither
    /// returns, raises nor jumps (`if a is None: return` for an array `a`)? Then the function
    /// goes on past it.
    fn known_branch_stays(&self, stmt: &Stmt) -> bool {
        let Stmt::If {
            test, body, orelse, ..
        } = stmt
        else {
            return false;
        };
        let taken = match self.eval(test) {
            Val::Bool(true) => body,
            Val::Bool(false) => orelse,
            _ if self.certainly_true(test) => body,
            _ => return false,
        };
        !contains_jump(taken)
    }

    /// Walks a lambda's body; what it returns.
    fn lambda_body(&mut self, result: &'a Expr) -> Option<Returned> {
        self.check(result);
        Some(Returned {
            value: self.eval(result),
            parts: None,
        })
    }

    /// The names a statement certainly reads, not bound by the walk so far, nor by the namespace
    /// before the cell (the kernel's, or what the cells that ran bound; known in full), nor by a
    /// function's `global`: evaluating it raises NameError there. Only expression statements,
    /// plain assignments and returns.
    fn unbound_reads<'s>(&self, stmt: &'s Stmt) -> Vec<(&'s str, TextRange)> {
        let Some(defined) = self.ctx.namespace.names() else {
            return Vec::new();
        };
        let value = match stmt {
            Stmt::Expr { value, .. }
            | Stmt::Assign {
                op: AssignOp::Plain,
                value: Some(value),
                ..
            } => value,
            Stmt::Other { exprs, .. } if stmt_keyword(stmt, self.ctx.source) == Some("return") => {
                match exprs.first() {
                    Some(value) => value,
                    None => return Vec::new(),
                }
            }
            _ => return Vec::new(),
        };
        if self.rebound_all || self.star_imported {
            return Vec::new();
        }
        let mut reads = Vec::new();
        certain_reads(value, &mut reads);
        reads.retain(|(name, _)| {
            !self.locals.contains(*name)
                && (!self.bound_here.contains(*name) || self.bound_after_call.contains(*name))
                && !self.env.contains_key(*name)
                && !self.defined_here.contains_key(*name)
                && !defined.contains(*name)
                && !self.ctx.history.global_names.contains(*name)
                && !is_always_defined(name)
        });
        reads
    }

    /// Reports the first name a statement of the cell (not of a function it calls) certainly
    /// reads that the cell binds earlier only where the walk did not go: in the branch an `if`
    /// of a known test does not take, in a loop over an empty iterable, in a `case` that does
    /// not match. The order of names (`order.rs`) counts those as bound.
    pub(super) fn unbound_in_cell(&mut self, stmt: &Stmt) {
        // A function the cell defines may bind any name by `global` when it runs; a loop body
        // walked while it may not run proves nothing.
        if !self.calls.is_empty() || self.speculating || self.ctx.source.contains("global") {
            return;
        }
        let facts = self.ctx.facts;
        let undefined = self.unbound_reads(stmt).into_iter().find(|(name, range)| {
            let mut bindings = facts.definitions.iter().filter(|d| d.name == *name);
            // Bound before the read, and only on some paths (a name bound unconditionally that
            // the walk did not register is a gap of the walk, not of the code).
            bindings.clone().any(|d| d.range.end <= range.start)
                && bindings.all(|d| d.conditional)
                && !facts.free_names.iter().any(|f| f.range == *range)
        });
        if let Some((name, range)) = undefined {
            self.out.push(Diagnostic::error(
                Rule::UndefinedName,
                format!("`{name}` is not defined: the cell binds it only in code that does not run before this line (an `if` branch its known test skips, a loop over an empty iterable): NameError"),
                range,
            ));
        }
    }

    /// Reports the first local of the function walked that a statement certainly reads before
    /// any statement bound it (`count += 1` where the function's own assignment makes `count`
    /// local): UnboundLocalError, a NameError. Then forgets the names the statement binds.
    pub(super) fn unassigned_local_read(&mut self, stmt: &Stmt) {
        if self.unassigned_locals.is_empty() {
            return;
        }
        let mut reads = Vec::new();
        match stmt {
            Stmt::Expr { value, .. }
            | Stmt::Assign {
                op: AssignOp::Plain,
                value: Some(value),
                ..
            } => certain_reads(value, &mut reads),
            Stmt::Assign {
                op: AssignOp::Augmented(_),
                targets,
                value: Some(value),
                ..
            } => {
                certain_reads(value, &mut reads);
                if let [crate::ir::Target::Name { id, range }] = targets.as_slice() {
                    reads.push((id, *range));
                }
            }
            Stmt::Other { exprs, .. } if stmt_keyword(stmt, self.ctx.source) == Some("return") => {
                if let Some(value) = exprs.first() {
                    certain_reads(value, &mut reads);
                }
            }
            _ => {}
        }
        // A loop body walked while it may not run proves nothing.
        let unassigned = reads
            .into_iter()
            .find(|(name, _)| self.unassigned_locals.contains(*name))
            .filter(|_| !self.speculating);
        if let Some((name, range)) = unassigned {
            self.out.push(Diagnostic::error(
                Rule::UndefinedName,
                format!("`{name}` is local to the function (it assigns it) and not assigned yet; `global {name}` would make it the global: UnboundLocalError: cannot access local variable '{name}' where it is not associated with a value"),
                range,
            ));
            self.unassigned_locals.clear();
            return;
        }
        let mut bound = BTreeSet::new();
        super::state::bound_names(std::slice::from_ref(stmt), self.ctx.facts, &mut bound);
        self.unassigned_locals.retain(|n| !bound.contains(n));
    }

    /// Reports the first name a statement of the function certainly reads that neither the
    /// function, the namespace before the cell nor the cell before the call binds: the call
    /// raises NameError there.
    fn undefined_read(&mut self, stmt: &Stmt) -> bool {
        let Some((name, range)) = self.unbound_reads(stmt).into_iter().next() else {
            return false;
        };
        let before = if self.ctx.kernel_names.is_some() {
            "the kernel"
        } else {
            "the cells that ran"
        };
        self.out.push(Diagnostic::error(
            Rule::UndefinedName,
            format!("`{name}` is not defined: neither {before} nor the cell before the call binds it: NameError"),
            range,
        ));
        true
    }

    /// The names the cell binds only after the call at `call` runs: bound by a top-level
    /// statement after the one holding the call, and by no statement up to it (a loop that binds
    /// the name later in its body may have bound it on an earlier pass). Within a followed call,
    /// the caller's.
    fn bound_after(&self, call: TextRange) -> BTreeSet<String> {
        if !self.calls.is_empty() {
            return self.bound_after_call.clone();
        }
        let body = self.ctx.body;
        let Some(at) = body
            .iter()
            .position(|s| s.range().start <= call.start && call.end <= s.range().end)
        else {
            return BTreeSet::new();
        };
        let (mut before, mut after) = (BTreeSet::new(), BTreeSet::new());
        super::state::bound_names(&body[..=at], self.ctx.facts, &mut before);
        super::state::bound_names(&body[at + 1..], self.ctx.facts, &mut after);
        after
            .into_iter()
            .filter(|n| !before.contains(n) && !self.bound_here.contains(n))
            .collect()
    }

    /// The values of `a, b = f(...)` when the call was followed to a `return` of `n` values.
    pub fn returned_parts(&self, value: &Expr, n: usize) -> Option<Vec<Val>> {
        let parts = self.returns.get(&value.range())?.parts.clone()?;
        (parts.len() == n).then_some(parts)
    }
}

/// The expression of a function body that is one `return` of it (after a docstring).
fn only_return<'b>(body: &'b [Stmt], source: &str) -> Option<&'b Expr> {
    let body = match body {
        [Stmt::Expr {
            value:
                Expr::Literal {
                    value: crate::ir::Literal::Str(_),
                    ..
                },
            ..
        }, rest @ ..] => rest,
        _ => body,
    };
    match body {
        [s @ Stmt::Other { exprs, .. }] if stmt_keyword(s, source) == Some("return") => {
            match exprs.as_slice() {
                [value] => Some(value),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Does evaluating `e` call anything (a call in it, at any depth)?
fn calls_anything(e: &Expr) -> bool {
    let mut found = matches!(e, Expr::Call { .. });
    e.for_each_child(|c| found |= calls_anything(c));
    found
}

/// A literal no code can change: a number, a string, None, or a tuple of them.
fn immutable_literal(e: &Expr) -> bool {
    match e {
        Expr::Literal { .. } => true,
        Expr::Seq {
            kind: SeqKind::Tuple,
            elts,
            ..
        } => elts.iter().all(immutable_literal),
        _ => false,
    }
}

/// The names evaluating `e` certainly reads: not those in lambdas and comprehensions (their own
/// scopes, maybe never run) nor under `Expr::Other` (boolean operators and conditional
/// expressions may skip operands).
fn certain_reads<'e>(e: &'e Expr, out: &mut Vec<(&'e str, TextRange)>) {
    match e {
        Expr::Name { id, range } => out.push((id, *range)),
        Expr::Lambda { .. } | Expr::Comprehension { .. } | Expr::Other { .. } => {}
        _ => e.for_each_child(|c| certain_reads(c, out)),
    }
}
