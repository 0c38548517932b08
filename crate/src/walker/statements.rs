//! The statement interpreter: what each statement the walker follows does to the names
//! (assignments, chained, augmented and starred too, imports, loops it unrolls or speculates
//! over, the branches of an `if` joined or the one a known bool picks, `with`, `try` and its
//! handlers, `match`, deletions).

use std::collections::BTreeSet;

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::ir::{CasePattern, Expr, Handler, Literal, MatchCase, SeqKind, Stmt, Target, TextRange};

use crate::semantics::abstract_value::{join, sequence_of, DictKey, Frame, Val};
use crate::semantics::notebook_classes::NotebookClass;
use crate::semantics::python;
use crate::semantics::torch_classes;

use super::state::{bound_names, import_bindings, only_column_changed, Walker, MAX_PASSES};
use crate::ir_scan::{base_name, contains_jump, mentioned_names, mutated_names, target_names};

impl<'a> Walker<'a> {
    pub(crate) fn block(&mut self, stmts: &'a [Stmt]) {
        for stmt in stmts {
            self.stmt(stmt);
        }
    }

    /// After a block that may or may not run (or run many times): forget what it may bind or
    /// mutate. Modules and library functions it only uses stay known.
    pub(super) fn forget_all_in(&mut self, stmts: &[Stmt]) {
        let mut bound = BTreeSet::new();
        bound_names(stmts, self.ctx.facts, &mut bound);
        let mut all = BTreeSet::new();
        mutated_names(stmts, &mut all);
        all.extend(bound.iter().cloned());
        self.torch_classes_here
            .retain(|name, _| !bound.contains(name));
        self.classes_here.retain(|name, _| !bound.contains(name));
        for n in all {
            // A torch module the block only trains or evaluates keeps its layers.
            let keep = !bound.contains(&n)
                && match self.env.get(&n) {
                    Some(Val::Module(_) | Val::Lib(_)) => true,
                    Some(Val::Torch(_)) => !torch_classes::module_changed(stmts, &n),
                    _ => false,
                };
            if !keep {
                self.forget_name(&n);
            }
            if bound.contains(&n) {
                self.bound_here.insert(n);
            }
        }
        self.forget_called_functions(stmts);
    }

    /// Calls of functions defined in the notebook may mutate any global they mention.
    pub(super) fn forget_called_functions(&mut self, stmts: &[Stmt]) {
        let mut called = BTreeSet::new();
        mentioned_names(stmts, &mut called);
        let mut forget = BTreeSet::new();
        for name in called {
            forget.extend(self.function_mentions(&name));
        }
        for n in forget {
            if !matches!(self.env.get(&n), Some(Val::Module(_) | Val::Lib(_))) {
                self.forget_name(&n);
            }
        }
    }

    pub(crate) fn stmt(&mut self, stmt: &'a Stmt) {
        // Walking a called function: a budget of statements bounds the work.
        if !self.calls.is_empty() {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
        }
        self.returns.clear();
        // A function defined in this cell stays known until the name is bound again.
        if !self.defined_here.is_empty()
            || !self.torch_classes_here.is_empty()
            || !self.classes_here.is_empty()
        {
            let mut bound = BTreeSet::new();
            bound_names(std::slice::from_ref(stmt), self.ctx.facts, &mut bound);
            self.defined_here.retain(|name, _| !bound.contains(name));
            self.torch_classes_here
                .retain(|name, _| !bound.contains(name));
            self.classes_here.retain(|name, _| !bound.contains(name));
        }
        self.global_writes.clear();
        self.argument_writes.clear();
        self.unbound_in_cell(stmt);
        self.unassigned_local_read(stmt);
        self.stmt_effects(stmt);
        let writes = std::mem::take(&mut self.global_writes);
        self.bind_argument_writes(stmt, &writes);
        if !writes.is_empty() {
            // What the statement binds after its calls return is what the name holds; what it
            // changes in place may change before or after them.
            let one = std::slice::from_ref(stmt);
            let (mut bound, mut changed) = (BTreeSet::new(), BTreeSet::new());
            bound_names(one, self.ctx.facts, &mut bound);
            mutated_names(one, &mut changed);
            for (name, value) in writes {
                if bound.contains(&name) {
                    continue;
                }
                let value = if changed.contains(&name) {
                    Val::Unknown
                } else {
                    value
                };
                self.bound_here.insert(name.clone());
                self.env.insert(name, value);
            }
        }
        if !self.kept_shared.is_empty() {
            let changed = self.changed_by(stmt);
            self.forget_kept_shared(&changed);
        }
        if !self.drops.is_empty() || self.csv_views {
            let changed = self.changed_by(stmt);
            self.drops.retain(|name, _| !changed.contains(name));
            // The values of a column may be a view of the frame's data (pandas without
            // copy-on-write): a change of the frame may change them.
            for val in self.env.values_mut() {
                if let Val::Array(a) = val {
                    if a.csv_object_column
                        .as_ref()
                        .is_some_and(|(frame, _)| changed.contains(frame))
                    {
                        a.csv_object_column = None;
                    }
                }
            }
        }
        if let Stmt::Expr { value, .. } = stmt {
            if let Some((name, mut spec)) = crate::semantics::pandas::drop_spec(value) {
                if spec.inplace {
                    spec.in_target = true;
                    self.drops.entry(name.to_string()).or_default().push(spec);
                }
            }
        }
        // `%run`, `exec(...)`, `globals()[...] = ...`: any name may hold anything now.
        if super::history::rebinds_anything(stmt, self.ctx.source) {
            self.forget_everywhere(super::state::Forget::Everything);
            self.defined_here.clear();
            self.torch_classes_here.clear();
            self.classes_here.clear();
            self.rebound_all = true;
        }
    }

    /// Binds what a followed call left in the lists and dicts passed to it by name, when the call
    /// is the statement's whole value (`add(ys)`, `n = add(ys)`): nothing else in the statement
    /// runs after it. A name the statement's targets bind or change, or the call's function
    /// also changed as a global, is unknown (what `effects` left).
    fn bind_argument_writes(&mut self, stmt: &Stmt, global_writes: &[(String, Val)]) {
        let writes = std::mem::take(&mut self.argument_writes);
        let (value, targets) = match stmt {
            Stmt::Expr { value, .. } => (value, &[][..]),
            Stmt::Assign {
                op: crate::ir::AssignOp::Plain,
                value: Some(value),
                targets,
                ..
            } => (value, targets.as_slice()),
            _ => return,
        };
        let mut in_targets = BTreeSet::new();
        for t in targets {
            target_names(t, &mut in_targets, true);
        }
        let mut values: Vec<(String, Val)> = Vec::new();
        for (call, name, val) in writes {
            if call != value.range()
                || in_targets.contains(&name)
                || global_writes.iter().any(|(n, _)| *n == name)
            {
                continue;
            }
            match values.iter_mut().find(|(n, _)| *n == name) {
                // One list passed for two parameters: the function saw one object by two names.
                Some((_, known)) if *known != val => *known = Val::Unknown,
                Some(_) => {}
                None => values.push((name, val)),
            }
        }
        for (name, val) in values {
            self.bound_here.insert(name.clone());
            self.env.insert(name, val);
        }
    }

    /// `add = frames.append`: the list or dict may change through the bound method at any later
    /// call, which the walker does not follow; it is forgotten.
    fn method_bound(&mut self, value: &Expr) {
        let Expr::Attribute {
            value: base, attr, ..
        } = value
        else {
            return;
        };
        let Expr::Name { id, .. } = &**base else {
            return;
        };
        let held = self.get(id);
        if matches!(
            held,
            Val::Items { .. } | Val::Dict { .. } | Val::Sized { .. } | Val::Strs { .. }
        ) && !crate::semantics::mutation::CONTAINER_READERS.contains(&attr.as_str())
        {
            self.forget_object(&held, false);
            self.env.insert(id.clone(), Val::Unknown);
        }
    }

    /// The names a statement may rebind or change in place (through the notebook's functions
    /// it calls too).
    pub(super) fn changed_by(&self, stmt: &Stmt) -> BTreeSet<String> {
        let one = std::slice::from_ref(stmt);
        let mut changed = BTreeSet::new();
        bound_names(one, self.ctx.facts, &mut changed);
        mutated_names(one, &mut changed);
        crate::ir_scan::aliased_names(one, &mut changed);
        let mut called = BTreeSet::new();
        // A definition calls nothing (its decorators aside, which are not followed).
        if !matches!(stmt, Stmt::FunctionDef { decorators, .. } if decorators.is_empty()) {
            mentioned_names(one, &mut called);
        }
        for name in called {
            changed.extend(self.function_mentions(&name));
        }
        changed
    }

    pub(super) fn stmt_effects(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Expr { value, .. } => {
                self.check(value);
                let changed = self.changed_in_place(value);
                self.note_changed_in_place(changed.as_ref());
                self.effects(value);
                if let Some((name, after)) = changed {
                    self.env.insert(name, after);
                }
            }
            Stmt::Assign {
                targets, op, value, ..
            } => {
                for t in targets {
                    self.check_target(t);
                }
                let Some(value) = value else { return };
                self.check(value);
                self.check_stmt_values(stmt);
                self.method_bound(value);
                // `files = !ls` and `x = %sx ...` are masked to a placeholder value.
                let magic = self.text(value.range()).starts_with(['!', '%']);
                let val = match op {
                    crate::ir::AssignOp::Augmented(aug) => {
                        // `n += 1`, `s += "x"`, `xs += [x]`: what the operator gives, for numbers,
                        // texts, lists and tuples the walker follows (a list changes in place:
                        // other names holding it are forgotten); `arr += 1`: the array keeps its
                        // shape (any array may be a view of it); unknown otherwise.
                        match targets.as_slice() {
                            [Target::Name { id, .. }] => {
                                let (op, before) = (aug.trim_end_matches('='), self.get(id));
                                let operand = self.eval(value);
                                // A function the operand calls may change the object first.
                                let before = if self.calls_notebook_function(value) {
                                    Val::Unknown
                                } else {
                                    before
                                };
                                // `xs += iterable` extends the list with its elements.
                                self.note_change(id, &before);
                                let after =
                                    python::binop_value(op, &before, &operand).or_else(|| {
                                        (op == "+").then(|| {
                                            crate::semantics::containers::after_method(
                                                &before,
                                                "extend",
                                                std::slice::from_ref(&operand),
                                                &[],
                                            )
                                        })?
                                    });
                                let in_place =
                                    crate::semantics::shapes::in_place_value(op, &before, &operand);
                                // Names that may hold the array itself are forgotten; the
                                // other arrays may be views of it, whose shape and dtype the
                                // operation leaves alone.
                                self.forget_name(id);
                                if in_place.is_some() {
                                    self.forget_values_of_data();
                                }
                                after.or(in_place).unwrap_or(Val::Unknown)
                            }
                            _ => Val::Unknown,
                        }
                    }
                    _ if magic => Val::Unknown,
                    _ => self.eval(value),
                };
                let parts = match (targets.as_slice(), op) {
                    ([Target::Unpack { elts, .. }], crate::ir::AssignOp::Plain) => {
                        crate::semantics::sklearn::split_result(self, value, elts.len())
                            .or_else(|| {
                                crate::semantics::matplotlib::subplots_parts(
                                    self,
                                    value,
                                    elts.len(),
                                )
                            })
                            .or_else(|| self.returned_parts(value, elts.len()))
                    }
                    _ => None,
                };
                // `last = xs.pop()`: the list changes before the name is bound.
                let changed = self.changed_in_place(value);
                self.note_changed_in_place(changed.as_ref());
                self.effects(value);
                if let Some((name, after)) = changed {
                    self.env.insert(name, after);
                }
                if let (Some(parts), [Target::Unpack { elts, .. }]) = (parts, targets.as_slice()) {
                    for (t, v) in elts.iter().zip(parts) {
                        self.bind(t, v, value);
                    }
                    return;
                }
                // `a = b = expr`: every target gets the one value.
                for t in targets {
                    self.bind(t, val.clone(), value);
                }
                // A lambda bound to a name is followed as a function of the cell.
                if let ([Target::Name { id, .. }], Expr::Lambda { .. }) =
                    (targets.as_slice(), value)
                {
                    self.defined_here.insert(id.clone(), stmt);
                }
            }
            Stmt::Import { from, names, .. } => {
                self.check_stmt_values(stmt);
                for (name, val) in import_bindings(from.as_deref(), names) {
                    self.bound_here.insert(name.clone());
                    self.env.insert(name, val);
                }
                if names.iter().any(|a| a.name == "*") {
                    let module = from.as_deref().unwrap_or_default().to_string();
                    self.forget_everywhere(super::state::Forget::StarImport(module));
                }
            }
            Stmt::FunctionDef { name, .. } | Stmt::ClassDef { name, .. } => {
                // A walrus in a default, a decorator or a base binds what is not followed.
                let evaluated: Vec<&Expr> = match stmt {
                    Stmt::FunctionDef {
                        params, decorators, ..
                    } => params.defaults.iter().chain(decorators).collect(),
                    Stmt::ClassDef {
                        bases, decorators, ..
                    } => bases.iter().chain(decorators).collect(),
                    _ => Vec::new(),
                };
                evaluated
                    .into_iter()
                    .for_each(|e| self.forget_walrus_targets(e));
                self.bound_here.insert(name.clone());
                self.env.insert(name.clone(), Val::Unknown);
                self.defined_here.remove(name);
                if let Stmt::FunctionDef { decorators, .. } = stmt {
                    if decorators.is_empty() {
                        self.defined_here.insert(name.clone(), stmt);
                    }
                }
                // A module class of the target cell itself (not of a function walked).
                if let Stmt::ClassDef {
                    decorators,
                    bases,
                    body,
                    ..
                } = stmt
                {
                    if decorators.is_empty() && self.calls.is_empty() {
                        self.classes_here.insert(
                            name.clone(),
                            std::rc::Rc::new(NotebookClass {
                                name: name.clone(),
                                bases: bases.clone(),
                                body: body.clone(),
                                source: std::rc::Rc::from(self.ctx.source),
                            }),
                        );
                        let resolve = |e: &Expr| self.lib_path(e).map(|p| p.to_string());
                        if let Some(class) = torch_classes::user_class(
                            name,
                            bases,
                            body,
                            std::rc::Rc::from(self.ctx.source),
                            &resolve,
                        ) {
                            self.torch_classes_here
                                .insert(name.clone(), std::rc::Rc::new(class));
                        }
                    }
                }
            }
            Stmt::For {
                target,
                iter,
                body,
                orelse,
                ..
            } => {
                self.check(iter);
                self.check_stmt_values(stmt);
                self.effects(iter);
                // Over an iterable certainly empty the body never runs: what it binds keeps
                // its value from before (a counter stays 0).
                if python::iterated_len(&self.eval(iter)) == Some(0) {
                    self.loop_else(body, orelse);
                    return;
                }
                if self.unrolled(stmt, target, iter, body) {
                    self.loop_else(body, orelse);
                    return;
                }
                let items = match self.eval(iter) {
                    Val::Strs { items, .. } => items,
                    _ => Vec::new(),
                };
                if self.non_empty(iter) {
                    let before = (self.env.clone(), self.bound_here.clone());
                    let first = self.first_element(iter);
                    self.bind(target, first, iter);
                    for s in body {
                        if contains_jump(std::slice::from_ref(s)) {
                            break;
                        }
                        self.stmt(s);
                    }
                    // Known strings (column names): a body without jumps runs for every one of
                    // them; `range` with known bounds: it runs for the last number too (walked
                    // once more with it, for indices past a length). At later iterations what
                    // the body binds or mutates is unknown.
                    let later_values: Vec<Val> = if items.len() > 1 && items.len() <= 64 {
                        items[1..].iter().cloned().map(Val::Str).collect()
                    } else {
                        self.last_of_range(iter).into_iter().collect()
                    };
                    if !later_values.is_empty() && !contains_jump(body) {
                        let after_first = (self.env.clone(), self.bound_here.clone());
                        // What the first pass changed, and what the body binds, is unknown.
                        let mut later = before;
                        let mut bound = BTreeSet::new();
                        bound_names(body, self.ctx.facts, &mut bound);
                        // Frames whose first pass only replaced the loop's own column keep
                        // what is known of the other columns (the columns of earlier
                        // iterations are forgotten below).
                        let mut per_column = BTreeSet::new();
                        for (name, val) in &mut later.0 {
                            if bound.contains(name) || after_first.0.get(name) == Some(val) {
                                if bound.contains(name) {
                                    *val = Val::Unknown;
                                }
                                continue;
                            }
                            match (&mut *val, after_first.0.get(name)) {
                                (Val::Frame(f), Some(Val::Frame(g)))
                                    if !items.is_empty() && only_column_changed(f, g, &items) =>
                                {
                                    if f.has_nan != g.has_nan {
                                        f.has_nan = None;
                                    }
                                    per_column.insert(name.clone());
                                }
                                // Changed in place without a change of size (`xs[i] = v`): each
                                // pass does the same, so the size holds at every pass.
                                (before, Some(after)) => {
                                    *val = same_size_after(before, after).unwrap_or(Val::Unknown)
                                }
                                _ => *val = Val::Unknown,
                            }
                        }
                        for name in after_first.0.keys() {
                            later.0.entry(name.clone()).or_insert(Val::Unknown);
                        }
                        later.1.extend(after_first.1.iter().cloned());
                        let outer = self.passes;
                        self.passes = outer.saturating_mul(later_values.len() + 1);
                        for (k, value) in later_values.into_iter().enumerate() {
                            (self.env, self.bound_here) = later.clone();
                            for name in &per_column {
                                if let Some(Val::Frame(f)) = self.env.get_mut(name) {
                                    for done in &items[..=k] {
                                        f.column_info.remove(done);
                                    }
                                }
                            }
                            self.bind(target, value, iter);
                            self.block(body);
                        }
                        self.passes = outer;
                        (self.env, self.bound_here) = after_first;
                    }
                } else {
                    self.speculate(target, iter, body);
                }
                self.forget_all_in(std::slice::from_ref(stmt));
                self.loop_else(body, orelse);
            }
            Stmt::While { test, body, .. } => {
                self.check(test);
                self.check_stmt_values(stmt);
                // `while True:` runs its body once at least: up to the first statement that
                // may leave it.
                if self.certainly_true(test) {
                    for s in body {
                        if contains_jump(std::slice::from_ref(s)) {
                            break;
                        }
                        self.stmt(s);
                    }
                }
                self.forget_all_in(std::slice::from_ref(stmt));
            }
            Stmt::If {
                test, body, orelse, ..
            } => {
                self.check(test);
                self.check_stmt_values(stmt);
                // A test of a known truth value picks its branch (evaluated before its walruses
                // bind).
                let decided = match self.eval(test) {
                    Val::Bool(b) => Some(b),
                    _ => None,
                };
                self.effects(test);
                if (decided == Some(true) || self.certainly_true(test)) && !contains_jump(body) {
                    self.block(body);
                    return;
                }
                if decided == Some(false) && !contains_jump(orelse) {
                    self.block(orelse);
                    return;
                }
                // Either branch may run: a name both bind keeps what they agree on. A walrus of
                // the test bound its name already.
                let joined = self.branches_joined(&[body, orelse]);
                self.forget_all_in(body);
                self.forget_all_in(orelse);
                for (name, val) in joined {
                    self.env.insert(name, val);
                }
            }
            Stmt::With { items, body, .. } => {
                let mut suppresses = false;
                let mut entered = Vec::new();
                for (e, t) in items {
                    self.check(e);
                    if let Expr::Call { func, .. } = e {
                        let last = func
                            .dotted_path()
                            .and_then(|p| p.last().map(|s| s.to_string()));
                        if matches!(
                            last.as_deref(),
                            Some("suppress" | "raises" | "assertRaises")
                        ) {
                            suppresses = true;
                        }
                    }
                    if let Some(t) = t {
                        let value = python::entered(self.eval(e));
                        entered.extend(value.clone());
                        self.bind(t, value.unwrap_or(Val::Unknown), e);
                    }
                }
                if suppresses {
                    self.forget_all_in(body);
                } else {
                    self.block(body);
                }
                // The block's end closed the files it entered: what reads them now raises.
                for value in entered {
                    self.forget_object(&value, false);
                }
            }
            // The body runs until a statement raises; what a handler catches is no crash. With
            // handlers, a statement that may raise may be the last of the body that runs (the
            // walk stops after it), and a finding of it is certain only when nothing a handler
            // may catch can be raised before it. A `finally` that may jump swallows what the
            // rest raises.
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
                ..
            } => {
                let swallowed = contains_jump(finalbody);
                let handled = self.handled_classes(handlers);
                let guarded = std::mem::replace(&mut self.in_handled_try, !handlers.is_empty());
                let mut finished = true;
                for s in body {
                    let may_raise = !self.cannot_raise(s);
                    let mark = self.out.len();
                    self.stmt(s);
                    let found = self.out.split_off(mark);
                    let certain = handlers.is_empty()
                        || found.iter().all(|d| {
                            !may_catch(handled.as_deref(), d.code)
                                && self.nothing_caught_before(s, d.range, handled.as_deref())
                        });
                    if certain && !swallowed {
                        self.out.extend(found);
                    }
                    if contains_jump(std::slice::from_ref(s)) || may_raise && !handlers.is_empty() {
                        finished = false;
                        break;
                    }
                }
                self.in_handled_try = guarded;
                // A body that certainly ran to its end: no handler ran, the `else` block runs.
                if finished && !contains_jump(orelse) {
                    let mark = self.out.len();
                    self.block(orelse);
                    if swallowed {
                        self.out.truncate(mark);
                    }
                } else {
                    self.forget_all_in(body);
                    for h in handlers {
                        self.forget_all_in(&h.body);
                        if let Some(name) = &h.name {
                            self.forget_name(name);
                            self.bound_here.insert(name.clone());
                        }
                    }
                    self.forget_all_in(orelse);
                }
                if swallowed {
                    self.forget_all_in(finalbody);
                } else {
                    self.block(finalbody);
                }
            }
            // The first case whose pattern certainly matches runs, when every case before it
            // certainly does not; otherwise what the cases bind or change is unknown.
            Stmt::Match { subject, cases, .. } => {
                self.check(subject);
                self.effects(subject);
                let value = self.eval(subject);
                match self.case_that_runs(&value, cases) {
                    Some((case, binds)) if !contains_jump(&case.body) => {
                        // Every name the case binds, bound to what the pattern gave it.
                        for name in &case.names {
                            let bound = binds.iter().rev().find(|(n, _)| n == name);
                            let val = bound.map_or(Val::Unknown, |(_, v)| v.clone());
                            self.bound_here.insert(name.clone());
                            self.env.insert(name.clone(), val);
                        }
                        self.block(&case.body);
                    }
                    _ => self.forget_all_in(std::slice::from_ref(stmt)),
                }
            }
            Stmt::Delete { targets, .. } => {
                self.check_stmt_values(stmt);
                for t in targets {
                    // `del df['c']`: the frame without the column.
                    if let Some((name, after)) = self.column_deleted(t) {
                        self.forget_after_frame_change();
                        self.env.insert(name, after);
                        continue;
                    }
                    // `del d[k]`, `del xs[i]` on a dict or list the walker follows.
                    if let Target::Store { expr, .. } = t {
                        if let Some((name, after)) = self.item_changed(expr, None) {
                            self.bound_here.insert(name.clone());
                            self.env.insert(name, after);
                            continue;
                        }
                    }
                    let mut names = BTreeSet::new();
                    target_names(t, &mut names, true);
                    for n in names {
                        self.forget_name(&n);
                        self.bound_here.insert(n);
                    }
                }
            }
            Stmt::Global { .. } | Stmt::Nonlocal { .. } | Stmt::Pass { .. } => {}
            // Not analysed: whatever it mentions may hold anything now.
            Stmt::TooDeep { .. } => self.forget_all_in(std::slice::from_ref(stmt)),
            Stmt::Other { exprs, .. } => {
                for e in exprs {
                    self.check(e);
                    self.effects(e);
                }
            }
        }
    }

    /// A loop over elements the walker knows (a list or tuple it follows, a dict's keys or
    /// values, known strings) whose body cannot leave early: the body runs once per element, in
    /// order, and is walked so, each pass seeing what the earlier ones did. If the iterable
    /// may have changed (the body changes a name it is read from, or an object in it), the loop
    /// is not followed, or no further than the passes already certain.
    pub(super) fn unrolled(
        &mut self,
        stmt: &Stmt,
        target: &Target,
        iter: &Expr,
        body: &'a [Stmt],
    ) -> bool {
        let Some(elements) = self.loop_elements(iter) else {
            return false;
        };
        let passes = self.passes.saturating_mul(elements.len());
        if elements.is_empty() || passes > MAX_PASSES || contains_jump(body) {
            return false;
        }
        let mut read = BTreeSet::new();
        iter.for_each_name(&mut |name| {
            read.insert(name.to_owned());
        });
        if body
            .iter()
            .any(|s| self.changed_by(s).iter().any(|n| read.contains(n)))
        {
            return false;
        }
        let (outer, mark) = (self.passes, self.out.len());
        self.passes = passes;
        for element in &elements {
            self.bind(target, element.clone(), iter);
            self.block(body);
            if self.loop_elements(iter).as_ref() != Some(&elements) {
                self.forget_all_in(std::slice::from_ref(stmt));
                break;
            }
        }
        self.passes = outer;
        // A finding of every pass is reported once.
        let mut seen = BTreeSet::new();
        let found = self.out.split_off(mark);
        self.out.extend(
            found
                .into_iter()
                .filter(|d| seen.insert((d.code, d.range.start, d.range.end))),
        );
        true
    }

    /// The builtin exception classes the handlers of a `try` name; `None` when one of them may
    /// catch anything (a bare `except`, a name that may not hold a builtin exception class).
    fn handled_classes(&self, handlers: &[Handler]) -> Option<Vec<String>> {
        let mut classes = Vec::new();
        for h in handlers {
            let kind = h.kind.as_ref()?;
            let names = match kind {
                Expr::Seq {
                    kind: SeqKind::Tuple,
                    elts,
                    ..
                } => elts.iter().collect(),
                _ => vec![kind],
            };
            for n in names {
                match n {
                    Expr::Name { id, .. }
                        if self.certainly_builtin(id)
                            && crate::builtins::exception_caught(id, &[]).is_some() =>
                    {
                        classes.push(id.clone())
                    }
                    _ => return None,
                }
            }
        }
        Some(classes)
    }

    /// Does running the statement certainly raise nothing: `pass`, or names bound to literals,
    /// displays of them, lambdas and names the walker knows the value of?
    fn cannot_raise(&self, stmt: &Stmt) -> bool {
        match stmt {
            Stmt::Pass { .. } | Stmt::Global { .. } | Stmt::Nonlocal { .. } => true,
            Stmt::Expr { value, .. } => self.raises_nothing(value, true),
            Stmt::Assign {
                targets,
                op: crate::ir::AssignOp::Plain,
                value: Some(value),
                ..
            } => {
                targets.iter().all(|t| matches!(t, Target::Name { .. }))
                    && self.raises_nothing(value, true)
            }
            _ => false,
        }
    }

    /// Does evaluating `e` certainly raise nothing (see `cannot_raise`)? Unless `strict`, reading
    /// an attribute of a module or of an object the walker knows counts as raising nothing
    /// (an `AttributeError` at worst).
    fn raises_nothing(&self, e: &Expr, strict: bool) -> bool {
        match e {
            Expr::Literal { .. } => true,
            // A name holding a known value is bound.
            Expr::Name { id, .. } => self.get(id) != Val::Unknown || self.certainly_builtin(id),
            Expr::Attribute { value, .. } => {
                !strict
                    && matches!(&**value, Expr::Name { .. })
                    && self.raises_nothing(value, strict)
            }
            Expr::Seq {
                kind: SeqKind::List | SeqKind::Tuple,
                elts,
                ..
            } => elts.iter().all(|e| self.raises_nothing(e, strict)),
            Expr::Dict { keys, values, .. } => keys.iter().zip(values).all(|(k, v)| {
                matches!(k, Some(Expr::Literal { .. })) && self.raises_nothing(v, strict)
            }),
            Expr::Lambda { params, .. } => params
                .defaults
                .iter()
                .all(|d| self.raises_nothing(d, strict)),
            _ => false,
        }
    }

    /// In a `try` body whose handlers catch the builtin classes `handled`: is a finding at `at`
    /// in the simple statement `stmt` reached whatever happens, that is, does nothing Python
    /// evaluates before it there raise what a handler may catch? What the walker knows of a value
    /// is what the operation that made it gives when it succeeds (`int(text)` is an int, or
    /// raises ValueError), so the operands of the finding's expression must raise nothing either;
    /// what comes after it runs later.
    fn nothing_caught_before(
        &self,
        stmt: &Stmt,
        at: TextRange,
        handled: Option<&[String]>,
    ) -> bool {
        let value = match stmt {
            Stmt::Expr { value, .. }
            | Stmt::Assign {
                op: crate::ir::AssignOp::Plain | crate::ir::AssignOp::Annotated,
                value: Some(value),
                ..
            } => value,
            _ => return false,
        };
        // Without a handler of AttributeError (or of a base of it), reading an attribute raises
        // nothing caught.
        let strict = handled.is_none_or(|h| {
            h.iter()
                .any(|c| crate::builtins::exception_caught(c, &["AttributeError"]) != Some(false))
        });
        self.reached(value, at, strict)
    }

    /// Is `at` (inside `e`) reached once `e` starts evaluating, as `nothing_caught_before` asks?
    fn reached(&self, e: &Expr, at: TextRange, strict: bool) -> bool {
        let range = e.range();
        let mut ok = true;
        if range == at {
            e.for_each_child(|c| ok &= self.raises_nothing(c, strict));
            return ok;
        }
        if !(range.start <= at.start && at.end <= range.end) {
            return false;
        }
        // Comprehensions and lambdas run their parts many times or later; boolean operators
        // and conditionals may skip theirs.
        if matches!(
            e,
            Expr::Comprehension { .. } | Expr::Lambda { .. } | Expr::Other { .. }
        ) {
            return false;
        }
        e.for_each_child(|c| {
            let r = c.range();
            ok &= if r.start <= at.start && at.end <= r.end {
                self.reached(c, at, strict)
            } else {
                r.start >= at.end || self.raises_nothing(c, strict)
            };
        });
        ok
    }

    /// The `else` block of a loop whose body cannot `break` runs after the loop.
    fn loop_else(&mut self, body: &[Stmt], orelse: &'a [Stmt]) {
        if orelse.is_empty() {
            return;
        }
        if contains_jump(body) || contains_jump(orelse) {
            self.forget_all_in(orelse);
        } else {
            self.block(orelse);
        }
    }

    /// Is the test of an `if` certainly true: a known `True`, or `__name__ == "__main__"` (a notebook
    /// runs its cells, and the functions they define, in the module `__main__`)?
    pub(super) fn certainly_true(&self, test: &Expr) -> bool {
        if matches!(self.eval(test), Val::Bool(true)) {
            return true;
        }
        let Some((left, "==", right)) = self.comparison(test) else {
            return false;
        };
        let main = |name: &Expr, text: &Expr| {
            matches!(name, Expr::Name { id, .. } if id == "__name__")
                && text.as_str_literal() == Some("__main__")
        };
        (main(left, right) || main(right, left)) && self.certainly_builtin("__name__")
    }

    /// What the names bound in all of `branches` (the blocks of an `if`, one of which runs)
    /// hold after whichever ran, as far as the branches agree (`join`). Each branch is walked
    /// as a loop body that may not run, and its findings dropped; a branch that may leave early
    /// agrees on nothing.
    fn branches_joined(&mut self, branches: &[&'a [Stmt]]) -> Vec<(String, Val)> {
        if branches.iter().any(|b| contains_jump(b)) {
            return Vec::new();
        }
        let saved = (
            self.env.clone(),
            self.bound_here.clone(),
            self.defined_here.clone(),
            self.torch_classes_here.clone(),
            self.drops.clone(),
            self.out.len(),
            self.classes_here.clone(),
        );
        let speculating = std::mem::replace(&mut self.speculating, true);
        let mut after: Vec<std::collections::BTreeMap<String, Val>> = Vec::new();
        for branch in branches {
            // What the branch binds is unknown until the walk binds it: a binding the walk
            // does not reach (a budget spent, a function's `global`) agrees on nothing.
            let mut bound = BTreeSet::new();
            bound_names(branch, self.ctx.facts, &mut bound);
            for name in bound {
                self.env.insert(name, Val::Unknown);
            }
            self.block(branch);
            after.push(std::mem::replace(&mut self.env, saved.0.clone()));
            self.bound_here = saved.1.clone();
            self.defined_here = saved.2.clone();
            self.torch_classes_here = saved.3.clone();
            self.classes_here = saved.6.clone();
            self.drops = saved.4.clone();
            self.out.truncate(saved.5);
        }
        self.speculating = speculating;
        let mut bound: Option<BTreeSet<String>> = None;
        for branch in branches {
            let mut here = BTreeSet::new();
            bound_names(branch, self.ctx.facts, &mut here);
            bound = Some(match bound {
                None => here,
                Some(b) => b.intersection(&here).cloned().collect(),
            });
        }
        bound
            .unwrap_or_default()
            .into_iter()
            .filter_map(|name| {
                let vals: Vec<Val> = after
                    .iter()
                    .map(|env| env.get(&name).cloned())
                    .collect::<Option<_>>()?;
                let first = vals.first()?.clone();
                let joined = vals[1..].iter().fold(first, |acc, v| join(&acc, v));
                (joined != Val::Unknown).then_some((name, joined))
            })
            .collect()
    }

    /// The elements a loop over `iter` visits, when the walker knows them all.
    pub(super) fn loop_elements(&self, iter: &Expr) -> Option<Vec<Val>> {
        // `d.keys()`, `d.values()`, `d.items()`
        if let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = iter
        {
            if let (Expr::Attribute { value, attr, .. }, true) =
                (&**func, args.is_empty() && keywords.is_empty())
            {
                if let Val::Dict { keys, values } = self.eval(value) {
                    return match attr.as_str() {
                        "keys" => Some(keys.iter().map(DictKey::val).collect()),
                        "values" => Some(values),
                        "items" => Some(
                            keys.into_iter()
                                .zip(values)
                                .map(|(k, v)| Val::Items {
                                    type_name: "tuple".into(),
                                    items: vec![k.val(), v],
                                })
                                .collect(),
                        ),
                        _ => None,
                    };
                }
            }
        }
        // `zip(a, b)`, `enumerate(a)` of elements it knows: tuples of them.
        if let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = iter
        {
            if let (Expr::Name { id, .. }, []) = (&**func, keywords.as_slice()) {
                let tuple = |items: Vec<Val>| Val::Items {
                    type_name: "tuple".into(),
                    items,
                };
                match (id.as_str(), args.as_slice()) {
                    ("zip", [_, ..]) if self.is_builtin(id) => {
                        let all = args
                            .iter()
                            .map(|a| self.loop_elements(a))
                            .collect::<Option<Vec<_>>>()?;
                        let n = all.iter().map(Vec::len).min()?;
                        return Some(
                            (0..n)
                                .map(|i| tuple(all.iter().map(|e| e[i].clone()).collect()))
                                .collect(),
                        );
                    }
                    // `map(f, xs)`: what `f` gives for each element (`call_value`).
                    ("map", [f, x]) if self.is_builtin(id) => {
                        let elements = self.loop_elements(x)?;
                        return Some(
                            elements
                                .into_iter()
                                .map(|e| self.call_value(f, &[e]).unwrap_or(Val::Unknown))
                                .collect(),
                        );
                    }
                    ("reversed", [x]) if self.is_builtin(id) => {
                        let mut elements = self.loop_elements(x)?;
                        elements.reverse();
                        return Some(elements);
                    }
                    // `range(3)`: its numbers, when few enough to walk each.
                    ("range", [_, ..]) if args.len() <= 3 && self.is_builtin(id) => {
                        let bounds = args
                            .iter()
                            .map(|a| match self.eval(a) {
                                Val::Int(i) => Some(i),
                                _ => None,
                            })
                            .collect::<Option<Vec<i64>>>()?;
                        let (start, stop, step) = match bounds[..] {
                            [stop] => (0, stop, 1),
                            [start, stop] => (start, stop, 1),
                            [start, stop, step] if step != 0 => (start, stop, step),
                            _ => return None,
                        };
                        let (mut numbers, mut i) = (Vec::new(), start);
                        while (step > 0 && i < stop) || (step < 0 && i > stop) {
                            if numbers.len() == MAX_PASSES {
                                return None;
                            }
                            numbers.push(Val::Int(i));
                            i = i.checked_add(step)?;
                        }
                        return Some(numbers);
                    }
                    ("enumerate", [x]) if self.is_builtin(id) => {
                        let elements = self.loop_elements(x)?;
                        return Some(
                            (0..)
                                .zip(elements)
                                .map(|(i, e)| tuple(vec![Val::Int(i), e]))
                                .collect(),
                        );
                    }
                    _ => {}
                }
            }
        }
        match self.eval(iter) {
            Val::Items { items, .. } => Some(items),
            Val::Dict { keys, .. } => Some(keys.iter().map(DictKey::val).collect()),
            Val::Strs { items, .. } => Some(items.into_iter().map(Val::Str).collect()),
            _ => None,
        }
    }

    /// The first element a loop over `iter` (known non-empty) visits, as far as known: the
    /// first of the elements the walker follows, a loader's first batch, `range`'s start,
    /// `enumerate`'s `(start, first element)`, a row of an array of two or more dimensions.
    pub(super) fn first_element(&self, iter: &Expr) -> Val {
        if let Some(first) = self.loop_elements(iter).and_then(|e| e.into_iter().next()) {
            return first;
        }
        if let Some(batch) = crate::semantics::torch_objects::first_batch(self, iter) {
            return batch;
        }
        if let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = iter
        {
            if let Expr::Name { id, .. } = &**func {
                if self.is_builtin(id) {
                    let int = |e: &Expr| match self.eval(e) {
                        Val::Int(i) => Val::Int(i),
                        _ => Val::Unknown,
                    };
                    let pair = |start: Val, x: &Expr| Val::Items {
                        type_name: "tuple".into(),
                        items: vec![start, self.first_element(x)],
                    };
                    match (id.as_str(), args.as_slice(), keywords.as_slice()) {
                        ("range", [_], []) => return Val::Int(0),
                        ("range", [a, _], []) => return int(a),
                        ("range", ..) => return Val::Unknown,
                        ("zip", [_, ..], []) => {
                            return Val::Items {
                                type_name: "tuple".into(),
                                items: args.iter().map(|x| self.first_element(x)).collect(),
                            }
                        }
                        ("enumerate", [x], []) => return pair(Val::Int(0), x),
                        ("enumerate", [x, start], []) => return pair(int(start), x),
                        ("enumerate", [x], [k]) if k.name.as_deref() == Some("start") => {
                            return pair(int(&k.value), x)
                        }
                        _ => {}
                    }
                }
            }
        }
        crate::semantics::numpy::row_of(&self.eval(iter)).unwrap_or(Val::Unknown)
    }

    /// What a name holds after `name[index] = v`, as far as it is known without the value: a
    /// numpy array keeps its shape and dtype (whatever the index: else the assignment raises),
    /// a list its length when the index is an int; their values are unknown.
    fn after_item_assignment(&self, target: &Expr) -> Option<(String, Val)> {
        let Expr::Subscript { value, index, .. } = target else {
            return None;
        };
        let Expr::Name { id, .. } = &**value else {
            return None;
        };
        let kept = match self.get(id) {
            Val::Array(a) if a.lib == crate::semantics::abstract_value::ArrayLib::Numpy => {
                Val::Array(crate::semantics::abstract_value::ArrayVal {
                    has_nan: None,
                    csv_object_column: None,
                    origin: None,
                    non_integer: None,
                    int_bounds: None,
                    ..a
                })
            }
            v @ (Val::Items { .. } | Val::Sized { .. })
                if matches!(self.eval(index), Val::Int(_)) =>
            {
                same_size_after(&v, &v)?
            }
            _ => return None,
        };
        Some((id.clone(), kept))
    }

    /// `name[key] = value` (`value` given) or `del name[key]` on a list or dict the walker
    /// follows: the name and what it holds after. Other names that may hold the same object are
    /// forgotten.
    fn item_changed(&mut self, target: &Expr, value: Option<Val>) -> Option<(String, Val)> {
        let Expr::Subscript {
            value: object,
            index,
            ..
        } = target
        else {
            return None;
        };
        let Expr::Name { id, .. } = &**object else {
            return None;
        };
        let (before, key) = (self.get(id), self.eval(index));
        let after = match value {
            Some(v) => crate::semantics::containers::after_item_set(&before, &key, v),
            None => crate::semantics::containers::after_item_delete(&before, &key),
        }?;
        self.note_change(id, &before);
        self.forget_object(&before, false);
        Some((id.clone(), after))
    }

    /// The case of a `match` on `subject` that certainly runs, with what its pattern binds: the
    /// first whose pattern certainly matches, without a guard, every case before it certainly
    /// not matching.
    fn case_that_runs<'c>(
        &self,
        subject: &Val,
        cases: &'c [MatchCase],
    ) -> Option<(&'c MatchCase, Vec<(String, Val)>)> {
        for case in cases {
            let mut binds = Vec::new();
            match self.pattern_matches(subject, &case.pattern, &mut binds) {
                Some(true) if case.guard.is_none() => return Some((case, binds)),
                Some(false) => {}
                _ => return None,
            }
        }
        None
    }

    /// Does a `case` pattern match the subject (Python's matching rules)? `None` when not known;
    /// when it matches, what it binds is pushed on `binds`.
    fn pattern_matches(
        &self,
        subject: &Val,
        pattern: &CasePattern,
        binds: &mut Vec<(String, Val)>,
    ) -> Option<bool> {
        match pattern {
            CasePattern::Any => Some(true),
            CasePattern::Capture { name, pattern } => {
                let matched = self.pattern_matches(subject, pattern, binds);
                if matched == Some(true) {
                    binds.push((name.clone(), subject.clone()));
                }
                matched
            }
            CasePattern::Literal(literal) => literal_matches(subject, literal),
            // Compared with `==`, as a literal of that value is when it is no singleton.
            CasePattern::Value(e) => match self.eval(e) {
                Val::Int(i) => literal_matches(subject, &Literal::Int(i)),
                Val::Float(f) => literal_matches(subject, &Literal::Float(f)),
                Val::Str(s) => literal_matches(subject, &Literal::Str(s)),
                _ => None,
            },
            CasePattern::Or(alternatives) => {
                for alternative in alternatives {
                    if self.pattern_matches(subject, alternative, binds)? {
                        return Some(true);
                    }
                }
                Some(false)
            }
            CasePattern::Sequence { items, star } => {
                self.sequence_matches(subject, items, star.as_ref(), binds)
            }
            CasePattern::Mapping { keys, values, rest } => {
                let (dict_keys, dict_values) = match subject {
                    Val::Dict { keys, values } => (keys, values),
                    // Not a mapping.
                    Val::Str(_) | Val::Int(_) | Val::Float(_) | Val::Bool(_) | Val::None => {
                        return Some(false)
                    }
                    Val::Items { type_name, .. } | Val::Strs { type_name, .. }
                        if matches!(type_name.as_str(), "list" | "tuple") =>
                    {
                        return Some(false)
                    }
                    _ => return None,
                };
                let mut found = Vec::new();
                for key in keys {
                    let key = match key {
                        Literal::Int(i) => DictKey::Int(*i),
                        Literal::Str(s) => DictKey::Str(s.clone()),
                        _ => return None,
                    };
                    match dict_keys.iter().position(|k| *k == key) {
                        Some(at) => found.push(at),
                        None => return Some(false),
                    }
                }
                let mut unknown = false;
                for (at, pattern) in found.iter().zip(values) {
                    match self.pattern_matches(&dict_values[*at], pattern, binds) {
                        Some(false) => return Some(false),
                        None => unknown = true,
                        Some(true) => {}
                    }
                }
                if unknown {
                    return None;
                }
                if let Some(rest) = rest {
                    let (mut keys, mut values) = (Vec::new(), Vec::new());
                    for (at, (k, v)) in dict_keys.iter().zip(dict_values).enumerate() {
                        if !found.contains(&at) {
                            keys.push(k.clone());
                            values.push(v.clone());
                        }
                    }
                    binds.push((rest.clone(), Val::Dict { keys, values }));
                }
                Some(true)
            }
            // The builtins that match their one positional pattern against the subject itself.
            CasePattern::Class { class, args } => {
                let Expr::Name { id, .. } = class else {
                    return None;
                };
                if !SELF_MATCHING.contains(&id.as_str()) || !self.certainly_builtin(id) {
                    return None;
                }
                match (python::is_instance(subject, id)?, args.as_slice()) {
                    (false, _) => Some(false),
                    (true, []) => Some(true),
                    (true, [pattern]) => self.pattern_matches(subject, pattern, binds),
                    // More positional patterns than the class accepts: TypeError.
                    (true, _) => None,
                }
            }
            CasePattern::Other => None,
        }
    }

    /// Does a sequence pattern (`items`, with `*name` at `star`) match the subject: a list or tuple
    /// of the right length whose elements match?
    fn sequence_matches(
        &self,
        subject: &Val,
        items: &[CasePattern],
        star: Option<&(usize, Option<String>)>,
        binds: &mut Vec<(String, Val)>,
    ) -> Option<bool> {
        let elements: Option<Vec<Val>> = match subject {
            Val::Items { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
                Some(items.clone())
            }
            Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
                Some(items.iter().cloned().map(Val::Str).collect())
            }
            Val::Sized { type_name, .. } if matches!(type_name.as_str(), "list" | "tuple") => None,
            // A str is never matched as a sequence; a dict, a number, None are no sequences.
            Val::Str(_)
            | Val::Dict { .. }
            | Val::Int(_)
            | Val::Float(_)
            | Val::Bool(_)
            | Val::None => return Some(false),
            _ => return None,
        };
        let len = match (&elements, subject) {
            (Some(elements), _) => elements.len(),
            (None, Val::Sized { len, .. }) => usize::try_from(*len).ok()?,
            _ => return None,
        };
        let fits = match star {
            Some(_) => len >= items.len(),
            None => len == items.len(),
        };
        if !fits {
            return Some(false);
        }
        let split = star.map_or(items.len(), |(at, _)| *at);
        let middle = len - items.len();
        let Some(elements) = elements else {
            // Only the length is known: a match when no item looks at its element.
            fn irrefutable(p: &CasePattern, names: &mut Vec<String>) -> bool {
                match p {
                    CasePattern::Any => true,
                    CasePattern::Capture { name, pattern } => {
                        names.push(name.clone());
                        irrefutable(pattern, names)
                    }
                    _ => false,
                }
            }
            let mut names = Vec::new();
            if !items.iter().all(|p| irrefutable(p, &mut names)) {
                return None;
            }
            binds.extend(names.into_iter().map(|n| (n, Val::Unknown)));
            if let Some((_, Some(name))) = star {
                let rest = Val::Sized {
                    type_name: "list".into(),
                    len: middle as i64,
                };
                binds.push((name.clone(), rest));
            }
            return Some(true);
        };
        let mut unknown = false;
        for (i, pattern) in items.iter().enumerate() {
            let at = if i < split { i } else { i + middle };
            match self.pattern_matches(&elements[at], pattern, binds) {
                Some(false) => return Some(false),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if unknown {
            return None;
        }
        if let Some((_, Some(name))) = star {
            let rest = elements[split..split + middle].to_vec();
            binds.push((name.clone(), sequence_of("list", rest)));
        }
        Some(true)
    }

    /// How many elements a loop over `iter` visits, when known: the elements the walker knows,
    /// the numbers of `range(stop)` / `range(start, stop)` with known bounds.
    pub(super) fn loop_count(&self, iter: &Expr) -> Option<i64> {
        if let Some(elements) = self.loop_elements(iter) {
            return Some(elements.len() as i64);
        }
        let count = python::range_of(self, iter)?.count;
        i64::try_from(count).ok()
    }

    /// The last number of `range(...)` with known bounds and more than one number.
    fn last_of_range(&self, iter: &Expr) -> Option<Val> {
        let range = python::range_of(self, iter)?;
        (range.count > 1).then(|| range.at(range.count - 1))
    }

    /// Does `e` mention a function of the notebook that mentions globals (one it may call, which
    /// may change them)?
    pub(super) fn calls_notebook_function(&self, e: &Expr) -> bool {
        let mut found = false;
        e.for_each_name(&mut |name| found |= !self.function_mentions(name).is_empty());
        found
    }

    /// `note_change` for what `changed_in_place` found.
    fn note_changed_in_place(&mut self, changed: Option<&(String, Val)>) {
        if let Some((name, _)) = changed {
            let before = self.get(name);
            self.note_change(name, &before);
        }
    }

    /// `xs.append(x)`, `d.update(...)`, ... as a statement on a list or dict the walker follows:
    /// the name and what the object holds after it (`containers::after_method`).
    pub(super) fn changed_in_place(&self, value: &Expr) -> Option<(String, Val)> {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = value
        else {
            return None;
        };
        let Expr::Attribute {
            value: object,
            attr,
            ..
        } = &**func
        else {
            return None;
        };
        use crate::semantics::containers::{after_method, element_changed};
        // A function of the notebook the call's arguments call may change the object first.
        if self.calls_notebook_function(value) {
            return None;
        }
        match &**object {
            Expr::Name { .. } => {}
            // `d['k'].append(x)`: d keeps its keys, the element may have changed.
            Expr::Subscript { value, index, .. } => {
                let Expr::Name { id, .. } = &**value else {
                    return None;
                };
                let after = element_changed(&self.get(id), &self.eval(index))?;
                return Some((id.clone(), after));
            }
            // `d.setdefault(k, []).append(x)`: d holds k after, its value may have changed.
            Expr::Call {
                func,
                args: inner_args,
                keywords: inner_keywords,
                ..
            } => {
                let (Expr::Attribute { value, attr, .. }, [key] | [key, _], []) =
                    (&**func, inner_args.as_slice(), inner_keywords.as_slice())
                else {
                    return None;
                };
                let Expr::Name { id, .. } = &**value else {
                    return None;
                };
                if attr != "setdefault" {
                    return None;
                }
                let key = self.eval(key);
                let grown = after_method(
                    &self.get(id),
                    "setdefault",
                    &[key.clone(), Val::Unknown],
                    &[],
                )?;
                return Some((id.clone(), element_changed(&grown, &key)?));
            }
            _ => return None,
        }
        let Expr::Name { id, .. } = &**object else {
            return None;
        };
        if args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
            return None;
        }
        let args: Vec<Val> = args.iter().map(|a| self.eval(a)).collect();
        let keywords: Vec<(Option<String>, Val)> = keywords
            .iter()
            .map(|k| (k.name.clone(), self.eval(&k.value)))
            .collect();
        let after = after_method(&self.get(id), attr, &args, &keywords)?;
        Some((id.clone(), after))
    }

    /// A loop over an iterable that may be empty: its body may not run, so only findings about
    /// the code itself (an attribute the object's type lacks, a module called) are kept, those
    /// that hold whatever the data. Calls are not followed there, and functions it defines are
    /// forgotten after.
    pub(super) fn speculate(&mut self, target: &Target, iter: &Expr, body: &'a [Stmt]) {
        let saved = (
            self.env.clone(),
            self.bound_here.clone(),
            self.defined_here.clone(),
            self.out.len(),
        );
        let speculating = std::mem::replace(&mut self.speculating, true);
        self.bind(target, Val::Unknown, iter);
        for s in body {
            if contains_jump(std::slice::from_ref(s)) {
                break;
            }
            self.stmt(s);
        }
        self.speculating = speculating;
        let (env, bound_here, defined_here, n) = saved;
        self.defined_here = defined_here;
        let found: Vec<Diagnostic> = self.out.drain(n..).collect();
        self.out.extend(found.into_iter().filter(|d| {
            matches!(
                d.code,
                Rule::MissingAttribute | Rule::ModuleCalled | Rule::TorchLayerMismatch
            )
        }));
        self.env = env;
        self.bound_here = bound_here;
    }

    /// Checks the parts of an assignment target that are read (`df[...]` in `df[...] = v` is not).
    pub(super) fn check_target(&mut self, t: &Target) {
        match t {
            Target::Store { expr, .. } => match expr {
                Expr::Subscript { value, index, .. } => {
                    self.check(value);
                    self.check(index);
                }
                Expr::Attribute { value, .. } => self.check(value),
                _ => {}
            },
            Target::Unpack { elts, .. } => elts.iter().for_each(|e| self.check_target(e)),
            Target::Starred { target, .. } => self.check_target(target),
            Target::Name { .. } => {}
        }
    }

    pub(super) fn bind(&mut self, t: &Target, val: Val, _value: &Expr) {
        match t {
            Target::Name { id, .. } => {
                self.bound_here.insert(id.clone());
                self.env.insert(id.clone(), val);
            }
            Target::Unpack { elts, .. } => {
                for (e, v) in elts.iter().zip(unpacked_parts(val, elts)) {
                    self.bind(e, v, _value);
                }
            }
            Target::Starred { target, .. } => self.bind(target, val, _value),
            Target::Store { expr, .. } => {
                // `df['new'] = ...` adds (or replaces) a column; anything else: forget the object.
                if let Expr::Subscript { value, index, .. } = expr {
                    // A literal label, or a name holding a known string (a loop's column).
                    let label = match index.as_str_literal() {
                        Some(col) => Some(col.to_string()),
                        None => match (&**index, self.eval(index)) {
                            (Expr::Name { .. }, Val::Str(col)) => Some(col),
                            _ => None,
                        },
                    };
                    if let (Expr::Name { id, .. }, Some(col)) = (&**value, label.as_deref()) {
                        if let Some(Val::Frame(f)) = self.env.get(id).cloned() {
                            let mut f = f.with(col);
                            if let Some(cols) = f.columns.as_mut() {
                                if !cols.iter().any(|c| c == col) {
                                    cols.push(col.to_string());
                                }
                            }
                            f.width = f.columns.as_ref().map(|c| c.len() as i64);
                            f.column_info.remove(col);
                            if let Some(info) =
                                crate::semantics::pandas::assigned_column(&val, f.n_rows)
                            {
                                f.column_info.insert(col.to_string(), info);
                            }
                            f.has_nan = None;
                            // Another name may hold the same frame (`d = df`).
                            self.forget_after_frame_change();
                            self.env.insert(id.clone(), Val::Frame(f));
                            return;
                        }
                    }
                }
                // `df.columns = ['a', 'b']` names the columns anew (of the same number).
                if let (Expr::Attribute { value, attr, .. }, Val::Strs { items, .. }) = (expr, &val)
                {
                    if let (Expr::Name { id, .. }, "columns") = (&**value, attr.as_str()) {
                        if let Val::Frame(f) = self.get(id) {
                            if f.n_columns() == Some(items.len() as i64) {
                                self.forget_after_frame_change();
                                let renamed = Frame {
                                    columns: Some(items.clone()),
                                    column_info: Default::default(),
                                    columns_since: None,
                                    ..f
                                };
                                self.env.insert(id.clone(), Val::Frame(renamed));
                                return;
                            }
                        }
                    }
                }
                // `df.index.name = 'n'`, `df.index.names = [...]`: the index's level names.
                if let Some((id, names)) = self.index_renamed(expr, &val) {
                    self.forget_after_frame_change();
                    self.env.insert(id, Val::Frame(names));
                    return;
                }
                // `d[k] = v`, `xs[i] = v` on a dict or list the walker follows.
                if let Some((name, after)) = self.item_changed(expr, Some(val.clone())) {
                    self.bound_here.insert(name.clone());
                    self.env.insert(name, after);
                    return;
                }
                // `a[...] = v` keeps a numpy array's shape and dtype; `xs[i] = v` a list's length.
                if let Some((name, kept)) = self.after_item_assignment(expr) {
                    if matches!(kept, Val::Array(_)) {
                        self.forget_data();
                    } else {
                        let before = self.get(&name);
                        self.note_change(&name, &before);
                        self.forget_object(&before, false);
                    }
                    // The kernel's summary of its values no longer holds.
                    self.bound_here.insert(name.clone());
                    self.env.insert(name, kept);
                    return;
                }
                if let Some(base) = base_name(expr) {
                    if matches!(
                        self.get(base),
                        Val::Frame(_)
                            | Val::Series(_)
                            | Val::Array(_)
                            | Val::GroupBy(_)
                            | Val::Tensor(_)
                    ) {
                        self.forget_data();
                    }
                    self.forget_name(base);
                }
            }
        }
    }
}

impl Walker<'_> {
    /// `del name['c']` of a frame `name` holds: the name, and the frame after.
    fn column_deleted(&self, target: &Target) -> Option<(String, Val)> {
        let Target::Store {
            expr: Expr::Subscript { value, index, .. },
            ..
        } = target
        else {
            return None;
        };
        let Expr::Name { id, .. } = &**value else {
            return None;
        };
        let (Val::Frame(f), Val::Str(column)) = (self.get(id), self.eval(index)) else {
            return None;
        };
        Some((
            id.clone(),
            crate::semantics::pandas::without_column(&f, &column),
        ))
    }

    /// `name.index.name = value` or `name.index.names = value` of a frame `name` holds: the
    /// name and the frame after it, when its names are known after it (setting `name` of a
    /// MultiIndex changes nothing); otherwise `None`, and the frame is forgotten.
    fn index_renamed(&self, target: &Expr, val: &Val) -> Option<(String, Frame)> {
        let Expr::Attribute { value, attr, .. } = target else {
            return None;
        };
        let Expr::Attribute {
            value: frame,
            attr: axis,
            ..
        } = &**value
        else {
            return None;
        };
        let (Expr::Name { id, .. }, "index") = (&**frame, axis.as_str()) else {
            return None;
        };
        let Val::Frame(f) = self.get(id) else {
            return None;
        };
        let single_level = match &f.index_names {
            Some(names) => names.len() == 1,
            None => f.index_class.as_deref().is_some_and(|c| c != "MultiIndex"),
        };
        let one = |name: Option<String>| match &f.index_names {
            _ if single_level => Some(vec![name]),
            Some(names) => Some(names.clone()),
            None => None,
        };
        let index_names = match (attr.as_str(), val) {
            ("name", Val::Str(s)) => one(Some(s.clone()))?,
            ("name", Val::None) => one(None)?,
            ("names", Val::Strs { items, .. }) => items.iter().cloned().map(Some).collect(),
            _ => return None,
        };
        Some((
            id.clone(),
            Frame {
                index_names: Some(index_names),
                ..f
            },
        ))
    }
}

/// The builtin classes whose class pattern matches its positional pattern against the subject
/// itself (`case int(n):`), as the language reference lists them.
const SELF_MATCHING: &[&str] = &[
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

/// Does a literal pattern match the subject: equal to it (`None`, `True` and `False`: the very
/// object)? `None` when not known.
fn literal_matches(subject: &Val, literal: &Literal) -> Option<bool> {
    // Builtin values of other types than the literal's are never equal to it.
    let other_builtin = match subject {
        Val::Str(_) | Val::None | Val::Dict { .. } => true,
        // An array or Index compares element by element.
        Val::Strs { type_name, .. } | Val::Items { type_name, .. } => {
            matches!(type_name.as_str(), "list" | "tuple")
        }
        _ => false,
    };
    match (literal, subject) {
        (Literal::Int(i), Val::Int(j)) => Some(i == j),
        (Literal::Int(i), Val::Bool(b)) => Some(*i == i64::from(*b)),
        (Literal::Bool(a), Val::Bool(b)) => Some(a == b),
        (Literal::Float(f), Val::Bool(b)) => Some(*f == f64::from(u8::from(*b))),
        (Literal::Str(_) | Literal::None, Val::Bool(_)) => Some(false),
        (Literal::Int(i), Val::Float(f)) => Some(*i as f64 == *f),
        (Literal::Float(f), Val::Int(i)) => Some(*f == *i as f64),
        (Literal::Float(f), Val::Float(g)) => Some(f == g),
        (Literal::Str(s), Val::Str(t)) => Some(s == t),
        (Literal::Str(_), Val::Int(_) | Val::Float(_)) => Some(false),
        (Literal::None, Val::None) => Some(true),
        (Literal::None, Val::Int(_) | Val::Float(_)) => Some(false),
        (
            Literal::Int(_)
            | Literal::Float(_)
            | Literal::Str(_)
            | Literal::None
            | Literal::Bool(_),
            _,
        ) if other_builtin => Some(false),
        _ => None,
    }
}

/// May a handler of the builtin exception classes `handled` (`None`: of any class) catch what a
/// diagnostic of `rule` predicts?
fn may_catch(handled: Option<&[String]>, rule: Rule) -> bool {
    let (Some(handled), Some(raised)) = (handled, rule.raised()) else {
        return true;
    };
    handled
        .iter()
        .any(|h| crate::builtins::exception_caught(h, raised) != Some(false))
}

/// What each of `elts` gets when `val` is unpacked into them (`a, b = x, y`, a loop over
/// pairs): the values the walker follows, in order; unknown where not known one by one.
/// A starred target (`a, *rest = ...`) gets the list of the values left between the others.
pub(super) fn unpacked_parts(val: Val, elts: &[Target]) -> Vec<Val> {
    let unknown = vec![Val::Unknown; elts.len()];
    let mut items = match val {
        Val::Items { items, .. } => items,
        Val::Strs { type_name, items } if matches!(type_name.as_str(), "list" | "tuple") => {
            items.into_iter().map(Val::Str).collect()
        }
        _ => return unknown,
    };
    match elts
        .iter()
        .position(|e| matches!(e, Target::Starred { .. }))
    {
        None if items.len() == elts.len() => items,
        Some(star) if items.len() + 1 >= elts.len() => {
            let mut middle = items.split_off(star);
            let last = middle.split_off(middle.len() + star + 1 - elts.len());
            items.push(crate::semantics::abstract_value::sequence_of(
                "list", middle,
            ));
            items.extend(last);
            items
        }
        _ => unknown,
    }
}

/// A list of one length, or an array of one shape and dtype, before and after a change in place
/// (a loop's pass, an item assignment): that length or shape, its values unknown.
fn same_size_after(before: &Val, after: &Val) -> Option<Val> {
    match (before, after) {
        (Val::Items { .. } | Val::Sized { .. }, Val::Items { .. } | Val::Sized { .. }) => {
            let (Some(("list", n)), Some(("list", m))) = (before.sized(), after.sized()) else {
                return None;
            };
            (n == m).then(|| Val::Sized {
                type_name: "list".into(),
                len: n,
            })
        }
        (Val::Array(a), Val::Array(b))
            if a.lib == b.lib && a.shape == b.shape && a.dtype == b.dtype =>
        {
            Some(Val::Array(crate::semantics::abstract_value::ArrayVal {
                has_nan: None,
                csv_object_column: None,
                origin: None,
                non_integer: None,
                int_bounds: None,
                maybe_not_ndarray: a.maybe_not_ndarray || b.maybe_not_ndarray,
                ..a.clone()
            }))
        }
        _ => None,
    }
}
