//! Values flowing through the target cell. The walker visits the statements that will certainly run
//! (top-level straight-line code, `with` bodies, the first pass of a loop over a non-empty
//! iterable, every pass of a loop over elements it knows), keeps an abstract value per name, and
//! asks the rules about every expression those statements evaluate. Whatever it cannot follow
//! becomes `Unknown`: names assigned in branches, loops, `try` blocks; objects passed to
//! functions that may mutate them; in-place methods it does not model. Names and container
//! elements with equal values may hold one object: a change of it forgets them all. Calls of
//! the notebook's own functions are followed into their bodies (`calls`).

use std::collections::{BTreeMap, BTreeSet};

use crate::codes::Rule;
use crate::diagnostic::Diagnostic;
use crate::facts::CellFacts;
use crate::ir::{Expr, Keyword, Literal, SeqKind, Stmt, Target, TextRange};

use super::calls::Callee;
use crate::rules::{
    api, columns, frames, join, keras, numpy_calls, plots, pytypes, shapes, sklearn, targets,
    torch, value_checks, RuleContext,
};
use crate::semantics::abstract_value::{
    from_summary, ArrayLib, ArrayVal, Estimator, Frame, SeriesVal, Val,
};
use crate::semantics::{torch_classes, torch_layers};

pub struct Walker<'a> {
    pub ctx: &'a RuleContext<'a>,
    pub env: BTreeMap<String, Val>,
    /// Names the cell itself bound so far (they shadow kernel names and builtins).
    pub bound_here: BTreeSet<String>,
    /// No executed cell could have given a frame a named index (so `by=` names only columns).
    pub index_unnamed: bool,
    /// An executed cell or the target may add attributes to every DataFrame.
    pub pandas_extended: bool,
    /// Functions the target (or the function walked) defined so far by a plain `def`: the `def`.
    pub defined_here: BTreeMap<String, &'a Stmt>,
    /// `nn.Module` classes the target cell defined so far at its top level, not rebound since.
    torch_classes_here: BTreeMap<String, std::rc::Rc<torch_classes::UserClass>>,
    /// A statement ran that may have rebound any name (`%run`, `exec`).
    pub rebound_all: bool,
    /// Labels executed cells (or this one) dropped in place from the object a name holds, the
    /// name not rebound or possibly changed since (`history::HistoryState::drops`).
    pub drops: BTreeMap<String, Vec<super::history::DropSpec>>,
    /// Some value is a column's values that may be a view of its frame (`csv_object_column`):
    /// only the kernel's summaries make them, so a walker without them at the start never has
    /// any, and skips looking for them after each statement.
    csv_views: bool,
    /// Functions of the cell a comprehension's variable hides while its elements are checked.
    shadowed: Vec<(String, &'a Stmt)>,
    /// The calls being followed into functions of the notebook, outermost first (empty while
    /// the target cell itself is walked).
    pub(crate) calls: Vec<String>,
    /// The names local to the function walked (empty for the target cell).
    pub(crate) locals: BTreeSet<String>,
    /// Statements the walks into called functions may still visit, shared by all depths.
    pub(crate) budget: usize,
    /// What the calls followed in the current statement return, by the call's range.
    pub(crate) returns: BTreeMap<TextRange, super::calls::Returned>,
    /// Inside a loop body that may not run: calls are not followed.
    speculating: bool,
    /// How many times the loops being walked pass over the statement at hand (the product of
    /// their lengths), bounded by `MAX_PASSES`.
    passes: usize,
    /// The history as the cell's top-level statements before the one at an index left it, for
    /// the Keras rules (`keras::state_before`): computed once per statement.
    pub(crate) states_before:
        std::cell::RefCell<BTreeMap<usize, std::rc::Rc<super::history::HistoryState>>>,
    pub out: Vec<Diagnostic>,
}

impl<'a> Walker<'a> {
    pub fn new(ctx: &'a RuleContext<'a>) -> Self {
        // A call of a function of the notebook may have changed what a name it mentions holds.
        let mentioned = |name: &str| {
            ctx.history
                .function_mentions
                .values()
                .any(|m| m.contains(name))
        };
        // Imports in executed cells; a later rebinding of the name forgets them.
        let mut env = ctx.history.imports.clone();
        if let Some(doc) = ctx.summaries {
            for (name, obj) in &doc.objects {
                // The kernel looked the name up and found nothing: binding it would hide a
                // certain NameError.
                if name.contains('.') || obj.error.as_deref() == Some("undefined") {
                    continue;
                }
                let val = from_summary(name, obj);
                let val = match (val, env.get(name)) {
                    // The summary says "a module"; the import says which.
                    (Val::Module(None), Some(Val::Module(Some(p)))) => Val::Module(Some(p.clone())),
                    (Val::Module(None), Some(Val::Lib(p))) => Val::Module(Some(p.clone())),
                    // A class or function the executed cells imported: the import path says more.
                    (Val::Typed(_) | Val::Unknown, Some(Val::Lib(p)))
                        if matches!(obj.kind.as_str(), "class" | "callable") =>
                    {
                        Val::Lib(p.clone())
                    }
                    (v, _) => v,
                };
                // A list of strings an executed cell bound, if the kernel agrees on its length
                // and no function of the notebook mentions it.
                let val = match (val, ctx.history.str_lists.get(name)) {
                    (Val::Sized { type_name, len }, Some(items))
                        if type_name == "list" && len == items.len() as i64 && !mentioned(name) =>
                    {
                        Val::Strs {
                            type_name,
                            items: items.clone(),
                        }
                    }
                    (v, _) => v,
                };
                // The values of a column of a frame read by read_csv, if the kernel reports an
                // object array and no function of the notebook mentions either name.
                let val = match (val, ctx.history.csv_columns.get(name)) {
                    (Val::Array(a), Some((frame, column)))
                        if a.lib == ArrayLib::Numpy
                            && a.dtype.as_deref() == Some("object")
                            && !ctx
                                .history
                                .function_mentions
                                .values()
                                .any(|m| m.contains(name) || m.contains(frame)) =>
                    {
                        Val::Array(ArrayVal {
                            csv_object_column: Some((frame.clone(), column.clone())),
                            ..a
                        })
                    }
                    (v, _) => v,
                };
                // The name an executed cell gave a Series (`s = ....rename('label')`).
                let val = match (val, ctx.history.series_names.get(name)) {
                    (Val::Series(mut s), Some(label)) if s.name.is_none() && !mentioned(name) => {
                        s.name = Some(label.clone());
                        Val::Series(s)
                    }
                    (v, _) => v,
                };
                env.insert(name.clone(), val);
            }
        }
        let mut walker = Walker::bare(ctx, env);
        // Instances of the notebook's `nn.Module` classes an executed cell built, when the kernel
        // agrees (or says nothing of the name).
        for (name, class) in &ctx.history.torch_instances {
            let summary = ctx.summaries.and_then(|d| d.objects.get(name));
            let agrees = match summary {
                Some(obj) => {
                    obj.error.is_none()
                        && crate::semantics::abstract_value::normalize_type(&obj.type_name)
                            .rsplit('.')
                            .next()
                            == Some(class.name.as_str())
                }
                None => ctx.kernel_names.is_none_or(|names| names.contains(name)),
            };
            if agrees && !ctx.history.global_names.contains(name) && !walker.torch_rewired(class) {
                walker.env.insert(
                    name.clone(),
                    Val::Torch(torch_layers::Layer::Net(std::rc::Rc::clone(class))),
                );
            }
        }
        walker.drops = ctx.history.drops.clone();
        walker.drops.retain(|name, _| !mentioned(name));
        walker
    }

    /// A walker of `ctx.body` that knows the values `env` holds and nothing more of the cell.
    pub(crate) fn bare(ctx: &'a RuleContext<'a>, env: BTreeMap<String, Val>) -> Self {
        let csv_views = env
            .values()
            .any(|v| matches!(v, Val::Array(a) if a.csv_object_column.is_some()));
        Walker {
            ctx,
            drops: BTreeMap::new(),
            csv_views,
            env,
            bound_here: BTreeSet::new(),
            index_unnamed: ctx.history.index_unnamed,
            defined_here: BTreeMap::new(),
            torch_classes_here: BTreeMap::new(),
            rebound_all: false,
            shadowed: Vec::new(),
            calls: Vec::new(),
            locals: BTreeSet::new(),
            budget: super::calls::BUDGET,
            returns: BTreeMap::new(),
            speculating: false,
            passes: 1,
            pandas_extended: ctx.history.extends_pandas || ctx.cell.extends_pandas,
            states_before: Default::default(),
            out: Vec::new(),
        }
    }

    /// The names the bodies of the notebook's functions (or classes) called `name` mention.
    pub fn function_mentions(&self, name: &str) -> Vec<String> {
        let here = self
            .ctx
            .cell
            .function_mentions
            .iter()
            .filter(|(n, _)| n == name);
        let history = self.ctx.history.function_mentions.get(name);
        here.map(|(_, names)| names)
            .chain(history)
            .flatten()
            .cloned()
            .collect()
    }

    pub fn run(mut self) -> Vec<Diagnostic> {
        let body = self.ctx.body;
        self.block(body);
        self.out
    }

    /// Walking a loop body that may not run.
    pub fn speculating(&self) -> bool {
        self.speculating
    }

    pub fn get(&self, name: &str) -> Val {
        self.env.get(name).cloned().unwrap_or(Val::Unknown)
    }

    pub fn text(&self, range: TextRange) -> &str {
        self.ctx
            .source
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
    }

    /// The source text of `e` for messages, or `or` when it is empty, long or spans lines.
    pub fn shown<'s>(&'s self, e: &Expr, or: &'s str) -> &'s str {
        let t = self.text(e.range());
        if t.is_empty() || t.len() > 40 || t.contains('\n') {
            or
        } else {
            t
        }
    }

    /// The function `name` holds, when it is one defined by a plain `def` in this cell (before
    /// this point; in the function walked, or at the top level) or at the top level of an executed
    /// cell, and not rebound since (the kernel, when it summarized the name, saw a function).
    pub fn user_function(&self, name: &str) -> Option<Callee<'a>> {
        if let Some(def) = self.defined_here.get(name) {
            return Callee::of_def(def, self.ctx.source);
        }
        if self.bound_here.contains(name) || self.rebound_all {
            return None;
        }
        if let Some(obj) = self.ctx.summaries.and_then(|d| d.objects.get(name)) {
            let kind = obj.str_fact(crate::summary::Category::R, "callable_kind");
            if obj.error.is_some()
                || obj.kind != "callable"
                || kind.is_some_and(|k| k != "function")
            {
                return None;
            }
        }
        let f = self.ctx.history.functions.get(name)?;
        Some(Callee {
            params: &f.params,
            body: &f.body,
            source: &f.source,
            range: f.range,
        })
    }

    /// The notebook's `nn.Module` class `func` names, when an executed cell defined it, the name is
    /// not rebound since, and nothing may rewire its instances.
    fn torch_class(&self, func: &Expr) -> Option<std::rc::Rc<torch_classes::UserClass>> {
        let Expr::Name { id, .. } = func else {
            return None;
        };
        if let Some(class) = self.torch_classes_here.get(id) {
            return (!self.torch_rewired(class)).then(|| std::rc::Rc::clone(class));
        }
        if self.bound_here.contains(id) || self.rebound_all {
            return None;
        }
        let class = self.ctx.history.torch_classes.get(id)?;
        if let Some(obj) = self.ctx.summaries.and_then(|d| d.objects.get(id)) {
            if obj.error.is_some() || obj.kind != "class" {
                return None;
            }
        }
        (!self.torch_rewired(class)).then(|| std::rc::Rc::clone(class))
    }

    /// May the notebook (the executed cells or this one) have replaced a layer or a method of
    /// instances of `class`?
    fn torch_rewired(&self, class: &torch_classes::UserClass) -> bool {
        class.watched().any(|a| self.attribute_rewired(a))
    }

    /// May the notebook (the executed cells or this one) have stored to or deleted an attribute
    /// of that name of some object, or rewired modules otherwise?
    pub fn attribute_rewired(&self, attr: &str) -> bool {
        let (history, cell) = (self.ctx.history, self.ctx.cell);
        history.rewires_modules
            || cell.rewires_modules
            || history.stored_attributes.contains(attr)
            || cell.stored_attributes.contains(attr)
    }

    /// Is `name` a Python builtin here (not bound by the cell or the kernel)?
    pub fn is_builtin(&self, name: &str) -> bool {
        !self.bound_here.contains(name)
            && !self.env.contains_key(name)
            && self
                .ctx
                .kernel_names
                .is_none_or(|names| !names.contains(name))
    }

    /// The qualified library path of a callee (`sns.barplot` -> `seaborn.barplot`).
    pub fn lib_path(&self, func: &Expr) -> Option<String> {
        match func {
            Expr::Name { id, .. } => match self.env.get(id)? {
                Val::Lib(p) => Some(p.clone()),
                Val::Module(Some(p)) => Some(p.clone()),
                _ => None,
            },
            Expr::Attribute { value, attr, .. } => {
                let base = self.lib_path(value)?;
                Some(format!("{base}.{attr}"))
            }
            _ => None,
        }
    }

    pub(crate) fn block(&mut self, stmts: &'a [Stmt]) {
        for stmt in stmts {
            self.stmt(stmt);
        }
    }

    /// After a block that may or may not run (or run many times): forget what it may bind or
    /// mutate. Modules and library functions it only uses stay known.
    fn forget_all_in(&mut self, stmts: &[Stmt]) {
        let mut bound = BTreeSet::new();
        bound_names(stmts, self.ctx.facts, &mut bound);
        let mut all = BTreeSet::new();
        mutated_names(stmts, &mut all);
        all.extend(bound.iter().cloned());
        self.torch_classes_here
            .retain(|name, _| !bound.contains(name));
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
    fn forget_called_functions(&mut self, stmts: &[Stmt]) {
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
        if !self.defined_here.is_empty() || !self.torch_classes_here.is_empty() {
            let mut bound = BTreeSet::new();
            bound_names(std::slice::from_ref(stmt), self.ctx.facts, &mut bound);
            self.defined_here.retain(|name, _| !bound.contains(name));
            self.torch_classes_here
                .retain(|name, _| !bound.contains(name));
        }
        self.stmt_effects(stmt);
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
            if let Some((name, mut spec)) = super::history::drop_spec(value) {
                if spec.inplace {
                    spec.in_target = true;
                    self.drops.entry(name.to_string()).or_default().push(spec);
                }
            }
        }
        // `%run`, `exec(...)`, `globals()[...] = ...`: any name may hold anything now.
        if super::history::rebinds_anything(stmt, self.ctx.source) {
            for val in self.env.values_mut() {
                *val = Val::Unknown;
            }
            self.defined_here.clear();
            self.torch_classes_here.clear();
            self.rebound_all = true;
        }
    }

    /// The names a statement may rebind or change in place (through the notebook's functions
    /// it calls too).
    fn changed_by(&self, stmt: &Stmt) -> BTreeSet<String> {
        let one = std::slice::from_ref(stmt);
        let mut changed = BTreeSet::new();
        bound_names(one, self.ctx.facts, &mut changed);
        mutated_names(one, &mut changed);
        super::history::aliased_names(one, &mut changed);
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

    fn stmt_effects(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Expr { value, .. } => {
                self.check(value);
                let grown = self.appended(value);
                self.effects(value);
                if let Some((name, list)) = grown {
                    self.env.insert(name, list);
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
                // `files = !ls` and `x = %sx ...` are masked to a placeholder value.
                let magic = self.text(value.range()).starts_with(['!', '%']);
                let val = match op {
                    crate::ir::AssignOp::Augmented(_) => {
                        // `lst += [x]`, `arr += 1` change the object in place.
                        if let [Target::Name { id, .. }] = targets.as_slice() {
                            self.forget_name(id);
                        }
                        Val::Unknown
                    }
                    _ if magic => Val::Unknown,
                    _ => self.eval(value),
                };
                let parts = match (targets.as_slice(), op) {
                    ([Target::Unpack { elts, .. }], crate::ir::AssignOp::Plain) => {
                        sklearn::split_result(self, value, elts.len())
                            .or_else(|| shapes::subplots_parts(self, value, elts.len()))
                            .or_else(|| self.returned_parts(value, elts.len()))
                    }
                    _ => None,
                };
                self.effects(value);
                if let (Some(parts), [Target::Unpack { elts, .. }]) = (parts, targets.as_slice()) {
                    for (t, v) in elts.iter().zip(parts) {
                        self.bind(t, v, value);
                    }
                    return;
                }
                let single = targets.len() == 1;
                for t in targets {
                    let v = if single { val.clone() } else { Val::Unknown };
                    self.bind(t, v, value);
                }
            }
            Stmt::Import { from, names, .. } => {
                for (name, val) in import_bindings(from.as_deref(), names) {
                    self.bound_here.insert(name.clone());
                    self.env.insert(name, val);
                }
                if names.iter().any(|a| a.name == "*") {
                    let module = from.as_deref().unwrap_or_default();
                    for (name, val) in self.env.iter_mut() {
                        if super::history::star_may_rebind(name, val, module) {
                            *val = Val::Unknown;
                        }
                    }
                }
            }
            Stmt::FunctionDef { name, .. } | Stmt::ClassDef { name, .. } => {
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
                        let resolve = |e: &Expr| self.lib_path(e);
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
                target, iter, body, ..
            } => {
                self.check(iter);
                self.check_stmt_values(stmt);
                self.effects(iter);
                if self.unrolled(stmt, target, iter, body) {
                    return;
                }
                let items = match self.eval(iter) {
                    Val::Strs { items, .. } => items,
                    _ => Vec::new(),
                };
                if self.non_empty(iter) {
                    let before = (self.env.clone(), self.bound_here.clone());
                    let mut first = self
                        .loop_elements(iter)
                        .and_then(|e| e.into_iter().next())
                        .or_else(|| torch::first_batch(self, iter))
                        .unwrap_or(Val::Unknown);
                    if let Expr::Call { func, args, .. } = iter {
                        if matches!(&**func, Expr::Name { id, .. } if id == "range" && self.is_builtin(id))
                        {
                            first = match args.as_slice() {
                                [_] => Val::Int(0),
                                [a, _] => match self.eval(a) {
                                    Val::Int(i) => Val::Int(i),
                                    _ => Val::Unknown,
                                },
                                _ => Val::Unknown,
                            };
                        }
                    }
                    self.bind(target, first, iter);
                    for s in body {
                        if contains_jump(std::slice::from_ref(s)) {
                            break;
                        }
                        self.stmt(s);
                    }
                    // Known strings (column names): a body without jumps runs for every one of
                    // them. At later iterations what the body binds or mutates is unknown.
                    if items.len() > 1 && items.len() <= 64 && !contains_jump(body) {
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
                                    if only_column_changed(f, g, &items) =>
                                {
                                    if f.has_nan != g.has_nan {
                                        f.has_nan = None;
                                    }
                                    per_column.insert(name.clone());
                                }
                                _ => *val = Val::Unknown,
                            }
                        }
                        for name in after_first.0.keys() {
                            later.0.entry(name.clone()).or_insert(Val::Unknown);
                        }
                        later.1.extend(after_first.1.iter().cloned());
                        let outer = self.passes;
                        self.passes = outer.saturating_mul(items.len());
                        for (k, item) in items.iter().enumerate().skip(1) {
                            (self.env, self.bound_here) = later.clone();
                            for name in &per_column {
                                if let Some(Val::Frame(f)) = self.env.get_mut(name) {
                                    for done in &items[..k] {
                                        f.column_info.remove(done);
                                    }
                                }
                            }
                            self.bind(target, Val::Str(item.clone()), iter);
                            self.block(body);
                        }
                        self.passes = outer;
                        (self.env, self.bound_here) = after_first;
                    }
                } else {
                    self.speculate(target, iter, body);
                }
                self.forget_all_in(std::slice::from_ref(stmt));
            }
            Stmt::While { test, .. } => {
                self.check(test);
                self.forget_all_in(std::slice::from_ref(stmt));
            }
            Stmt::If { test, .. } => {
                self.check(test);
                self.effects(test);
                self.forget_all_in(std::slice::from_ref(stmt));
            }
            Stmt::With { items, body, .. } => {
                let mut suppresses = false;
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
                        self.bind(t, Val::Unknown, e);
                    }
                }
                if suppresses {
                    self.forget_all_in(body);
                } else {
                    self.block(body);
                }
            }
            Stmt::Try { .. } | Stmt::Match { .. } => {
                if let Stmt::Match { subject, .. } = stmt {
                    self.check(subject);
                }
                self.forget_all_in(std::slice::from_ref(stmt));
            }
            Stmt::Delete { targets, .. } => {
                for t in targets {
                    let mut names = BTreeSet::new();
                    target_names(t, &mut names, true);
                    for n in names {
                        self.forget_name(&n);
                        self.bound_here.insert(n);
                    }
                }
            }
            Stmt::Global { .. } | Stmt::Nonlocal { .. } => {}
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
    fn unrolled(&mut self, stmt: &Stmt, target: &Target, iter: &Expr, body: &'a [Stmt]) -> bool {
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

    /// The elements a loop over `iter` visits, when the walker knows them all.
    fn loop_elements(&self, iter: &Expr) -> Option<Vec<Val>> {
        // `d.keys()`, `d.values()`
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
                        "keys" => Some(keys.into_iter().map(Val::Str).collect()),
                        "values" => Some(values),
                        _ => None,
                    };
                }
            }
        }
        match self.eval(iter) {
            Val::Items { items, .. } => Some(items),
            Val::Dict { keys, .. } => Some(keys.into_iter().map(Val::Str).collect()),
            Val::Strs { items, .. } => Some(items.into_iter().map(Val::Str).collect()),
            _ => None,
        }
    }

    /// `lst.append(x)` as a statement on a list the walker follows: the list with `x` added.
    fn appended(&self, value: &Expr) -> Option<(String, Val)> {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = value
        else {
            return None;
        };
        let (
            Expr::Attribute {
                value: list, attr, ..
            },
            [x],
            [],
        ) = (&**func, args.as_slice(), keywords.as_slice())
        else {
            return None;
        };
        let Expr::Name { id, .. } = &**list else {
            return None;
        };
        match self.get(id) {
            Val::Items {
                type_name,
                mut items,
            } if attr == "append" && type_name == "list" => {
                items.push(self.eval(x));
                Some((id.clone(), Val::Items { type_name, items }))
            }
            _ => None,
        }
    }

    /// A loop over an iterable that may be empty: its body may not run, so only findings about
    /// the code itself (an attribute the object's type lacks, a module called) are kept, those
    /// that hold whatever the data. Calls are not followed there, and functions it defines are
    /// forgotten after.
    fn speculate(&mut self, target: &Target, iter: &Expr, body: &'a [Stmt]) {
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
    fn check_target(&mut self, t: &Target) {
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

    fn bind(&mut self, t: &Target, val: Val, _value: &Expr) {
        match t {
            Target::Name { id, .. } => {
                self.bound_here.insert(id.clone());
                self.env.insert(id.clone(), val);
            }
            Target::Unpack { elts, .. } => {
                // `a, b = x, y`, a loop over pairs: the values the walker follows, in order.
                let parts = match val {
                    Val::Items { items, .. }
                        if items.len() == elts.len()
                            && !elts.iter().any(|e| matches!(e, Target::Starred { .. })) =>
                    {
                        items
                    }
                    _ => vec![Val::Unknown; elts.len()],
                };
                for (e, v) in elts.iter().zip(parts) {
                    self.bind(e, v, _value);
                }
            }
            Target::Starred { target, .. } => self.bind(target, Val::Unknown, _value),
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
                        if let Some(Val::Frame(mut f)) = self.env.get(id).cloned() {
                            if let Some(cols) = f.columns.as_mut() {
                                if !cols.iter().any(|c| c == col) {
                                    cols.push(col.to_string());
                                }
                            }
                            f.width = f.columns.as_ref().map(|c| c.len() as i64);
                            f.column_info.remove(col);
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
                                    ..f
                                };
                                self.env.insert(id.clone(), Val::Frame(renamed));
                                return;
                            }
                        }
                    }
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

    /// Runs the rules on what a statement iterates or unpacks, its expressions evaluated.
    fn check_stmt_values(&mut self, stmt: &Stmt) {
        let mut found = Vec::new();
        pytypes::check_stmt(self, stmt, &mut found);
        shapes::check_stmt(self, stmt, &mut found);
        frames::check_stmt(self, stmt, &mut found);
        self.out.extend(found);
    }

    /// Runs the rules on `expr` and on the sub-expressions that will certainly be evaluated.
    pub fn check(&mut self, expr: &Expr) {
        match expr {
            Expr::Lambda { .. } => return,
            Expr::Comprehension {
                elements,
                generators,
                ..
            } => {
                if let Some(g) = generators.first() {
                    self.check(&g.iter);
                }
                // One generator over a non-empty iterable, no condition: the elements are
                // evaluated at least once, with the target names unknown.
                if let [g] = generators.as_slice() {
                    if g.ifs.is_empty() && self.non_empty(&g.iter) {
                        let mut names = BTreeSet::new();
                        target_names(&g.target, &mut names, false);
                        let mark = self.shadowed.len();
                        let saved: Vec<(String, Option<Val>, bool)> = names
                            .into_iter()
                            .map(|n| {
                                let before = self.env.insert(n.clone(), Val::Unknown);
                                let fresh = self.bound_here.insert(n.clone());
                                let defined = self.defined_here.remove(&n);
                                if let Some(p) = defined {
                                    // Restored below; the element sees the loop variable.
                                    self.shadowed.push((n.clone(), p));
                                }
                                (n, before, fresh)
                            })
                            .collect();
                        for e in elements {
                            self.check(e);
                        }
                        for (n, before, fresh) in saved {
                            match before {
                                Some(v) => self.env.insert(n.clone(), v),
                                None => self.env.remove(&n),
                            };
                            if fresh {
                                self.bound_here.remove(&n);
                            }
                        }
                        let hidden: Vec<_> = self.shadowed.drain(mark..).collect();
                        for (n, p) in hidden {
                            self.defined_here.insert(n, p);
                        }
                    }
                }
                let mut found = Vec::new();
                pytypes::check(self, expr, &mut found);
                self.out.extend(found);
                return;
            }
            Expr::Other { children, range } => {
                if self.short_circuits(*range, children) {
                    return;
                }
                for c in children {
                    self.check(c);
                }
            }
            Expr::Attribute { value, .. } => self.check(value),
            Expr::Subscript { value, index, .. } => {
                self.check(value);
                self.check(index);
            }
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => {
                self.check(func);
                for a in args {
                    self.check(a);
                }
                for k in keywords {
                    self.check(&k.value);
                }
            }
            Expr::Seq { elts, .. } => elts.iter().for_each(|e| self.check(e)),
            Expr::Dict { keys, values, .. } => {
                keys.iter().flatten().for_each(|e| self.check(e));
                values.iter().for_each(|e| self.check(e));
            }
            Expr::Slice {
                lower, upper, step, ..
            } => {
                for e in [lower, upper, step].into_iter().flatten() {
                    self.check(e);
                }
            }
            Expr::Starred { value, .. } => self.check(value),
            Expr::BinOp { left, right, .. } => {
                self.check(left);
                self.check(right);
            }
            Expr::Walrus { value, .. } => self.check(value),
            Expr::Name { .. } | Expr::Literal { .. } => {}
        }
        let mut found = Vec::new();
        self.dropped_again(expr, &mut found);
        columns::check(self, expr, &mut found);
        join::check(self, expr, &mut found);
        sklearn::check(self, expr, &mut found);
        targets::check(self, expr, &mut found);
        shapes::check(self, expr, &mut found);
        plots::check(self, expr, &mut found);
        numpy_calls::check(self, expr, &mut found);
        frames::check(self, expr, &mut found);
        value_checks::check(self, expr, &mut found);
        api::check(self, expr, &mut found);
        pytypes::check(self, expr, &mut found);
        keras::check(self, expr, &mut found);
        torch::check(self, expr, &mut found);
        torch::check_tensor_ops(self, expr, &mut found);
        self.out.extend(found);
        if !self.speculating {
            self.follow_call(expr);
        }
    }

    /// `df.drop([10472], inplace=True)` ran already (an earlier cell, or this cell run again):
    /// the label is gone, and dropping it again raises KeyError.
    fn dropped_again(&self, expr: &Expr, out: &mut Vec<Diagnostic>) {
        let Some((name, spec)) = super::history::drop_spec(expr) else {
            return;
        };
        let Some(before) = self.drops.get(name) else {
            return;
        };
        // The object the kernel summarized (a drop since would have forgotten it otherwise).
        let summarized = self
            .ctx
            .summaries
            .and_then(|d| d.objects.get(name))
            .map(|o| from_summary(name, o));
        let frame = match summarized {
            Some(Val::Frame(f)) => Some(f),
            Some(Val::Series(_)) => None,
            _ => return,
        };
        let gone = spec.labels.iter().find(|l| {
            // The kernel still lists the column: something gave it back.
            let listed = spec.columns
                && before.iter().any(|b| !b.in_target)
                && frame.as_ref().is_some_and(|f| {
                    f.columns
                        .as_ref()
                        .is_none_or(|cols| cols.iter().any(|c| format!("'{c}'") == **l || c == *l))
                });
            !listed
                && before
                    .iter()
                    .any(|b| b.columns == spec.columns && b.labels.contains(l))
        });
        if let Some(label) = gone {
            let axis = if spec.columns { "columns" } else { "index" };
            // Not "an earlier drop" when the drop that ran is this cell's own.
            let own = self.ctx.ran
                && self
                    .ctx
                    .cell
                    .dropped
                    .contains(label.trim_matches(['\'', '"']));
            let which = if own {
                "this cell dropped it when it ran"
            } else {
                "an earlier drop ran"
            };
            out.push(Diagnostic::error(
                Rule::DroppedAgain,
                format!(
                    "{label} was already dropped from {name}'s {axis} in place ({which}), so dropping it again raises KeyError: not found in axis; re-create {name} first or pass errors='ignore'"
                ),
                expr.range(),
            ));
        }
    }

    /// `a and b`, `a or b`, `x if c else y`: some children may never be evaluated. The IR folds
    /// these into `Other`, so look at the source between the children.
    fn short_circuits(&self, range: TextRange, children: &[Expr]) -> bool {
        let mut gaps = String::new();
        let mut pos = range.start;
        for c in children {
            let r = c.range();
            if r.start >= pos {
                gaps.push_str(self.text(TextRange::new(pos, r.start)));
                gaps.push(' ');
                pos = r.end;
            }
        }
        gaps.push_str(self.text(TextRange::new(pos.min(range.end), range.end)));
        // Inside string literals (f-strings) these words are harmless but we stay conservative.
        gaps.split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| matches!(w, "and" | "or" | "if" | "else"))
    }

    /// Is the iterable certainly non-empty?
    pub fn non_empty(&self, iter: &Expr) -> bool {
        // A DataLoader, maybe wrapped (`tqdm(loader)`).
        if let Val::Loader { non_empty, .. } = self.eval(iter) {
            return non_empty;
        }
        match iter {
            Expr::Seq { elts, .. } => {
                !elts.is_empty() && !elts.iter().any(|e| matches!(e, Expr::Starred { .. }))
            }
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } if keywords.is_empty() => {
                let Expr::Name { id, .. } = &**func else {
                    return false;
                };
                if !self.is_builtin(id) {
                    return false;
                }
                let int = |e: &Expr| match self.eval(e) {
                    Val::Int(i) => Some(i),
                    _ => None,
                };
                match (id.as_str(), args.as_slice()) {
                    ("range", [n]) => matches!(int(n), Some(n) if n > 0),
                    ("range", [a, b]) => matches!((int(a), int(b)), (Some(a), Some(b)) if a < b),
                    ("enumerate", [x] | [x, _]) => self.non_empty(x),
                    _ => false,
                }
            }
            Expr::Name { .. } | Expr::Attribute { .. } => match self.eval(iter) {
                v @ (Val::Sized { .. }
                | Val::Strs { .. }
                | Val::Items { .. }
                | Val::Dict { .. }) => v.sized().is_some_and(|(_, n)| n > 0),
                Val::Array(a) => a.shape.first().is_some_and(|&n| n > 0),
                Val::Frame(f) => f.columns.is_some_and(|c| !c.is_empty()),
                _ => false,
            },
            _ => false,
        }
    }

    /// The abstract value of an expression (no diagnostics).
    pub fn eval(&self, expr: &Expr) -> Val {
        match expr {
            Expr::Name { id, .. } => self.get(id),
            Expr::Literal { value, .. } => match value {
                Literal::Int(i) => Val::Int(*i),
                Literal::Float(f) => Val::Float(*f),
                Literal::Str(s) => Val::Str(s.clone()),
                Literal::None => Val::None,
                _ => Val::Unknown,
            },
            Expr::Seq { kind, elts, .. }
                if !elts.is_empty()
                    && matches!(kind, SeqKind::List | SeqKind::Tuple)
                    && elts.iter().all(|e| e.as_str_literal().is_some()) =>
            {
                Val::Strs {
                    type_name: if *kind == SeqKind::List {
                        "list"
                    } else {
                        "tuple"
                    }
                    .into(),
                    items: elts
                        .iter()
                        .filter_map(|e| e.as_str_literal().map(str::to_string))
                        .collect(),
                }
            }
            Expr::Seq { kind, elts, .. }
                if !elts.iter().any(|e| matches!(e, Expr::Starred { .. })) =>
            {
                match kind {
                    SeqKind::List | SeqKind::Tuple => Val::Items {
                        type_name: if *kind == SeqKind::List {
                            "list"
                        } else {
                            "tuple"
                        }
                        .into(),
                        items: elts.iter().map(|e| self.eval(e)).collect(),
                    },
                    SeqKind::Set => Val::Sized {
                        type_name: "set".into(),
                        len: elts.len() as i64,
                    },
                }
            }
            Expr::Dict { keys, values, .. } => {
                let keys: Option<Vec<String>> = keys
                    .iter()
                    .map(|k| k.as_ref()?.as_str_literal().map(str::to_string))
                    .collect();
                match keys {
                    // A repeated key keeps its first place and its last value: not followed.
                    Some(keys) if keys.iter().collect::<BTreeSet<_>>().len() == keys.len() => {
                        Val::Dict {
                            keys,
                            values: values.iter().map(|v| self.eval(v)).collect(),
                        }
                    }
                    _ => Val::Unknown,
                }
            }
            Expr::Attribute { value, attr, .. } => self.attribute_value(&self.eval(value), attr),
            Expr::Subscript { value, index, .. } => {
                // `df.loc[mask]`: the rows where the mask holds.
                if let Expr::Attribute {
                    value: frame, attr, ..
                } = &**value
                {
                    if attr == "loc" {
                        if let Val::Frame(f) = self.eval(frame) {
                            if self.is_row_mask(index) {
                                return Val::Frame(rows_of(&f));
                            }
                        }
                        return Val::Unknown;
                    }
                    // `X.shape[1]`
                    if attr == "shape" {
                        let dims = match self.eval(frame) {
                            Val::Array(a) => a.shape.iter().map(|&d| Some(d)).collect(),
                            Val::Frame(f) => vec![f.n_rows, f.n_columns()],
                            Val::Series(s) => vec![s.len],
                            _ => return Val::Unknown,
                        };
                        let Val::Int(i) = self.eval(index) else {
                            return Val::Unknown;
                        };
                        let at = if i < 0 { i + dims.len() as i64 } else { i };
                        return match usize::try_from(at).ok().and_then(|at| dims.get(at)) {
                            Some(Some(d)) => Val::Int(*d),
                            _ => Val::Unknown,
                        };
                    }
                }
                let base = self.eval(value);
                match base {
                    Val::Strs { items, .. } => match position(items.len(), &self.eval(index)) {
                        Some(at) => Val::Str(items[at].clone()),
                        None => Val::Unknown,
                    },
                    Val::Items { items, .. } => match position(items.len(), &self.eval(index)) {
                        Some(at) => items[at].clone(),
                        None => Val::Unknown,
                    },
                    Val::Dict { keys, values } => match self.eval(index) {
                        Val::Str(key) => keys
                            .iter()
                            .position(|k| *k == key)
                            .map(|i| values[i].clone())
                            .unwrap_or(Val::Unknown),
                        _ => Val::Unknown,
                    },
                    Val::Array(a) if !a.shape.is_empty() => match self.eval(index) {
                        // One integer index drops the first dimension.
                        Val::Int(i) if i >= -a.shape[0] && i < a.shape[0] => Val::Array(ArrayVal {
                            shape: a.shape[1..].to_vec(),
                            origin: None,
                            non_integer: None,
                            ..a
                        }),
                        _ => Val::Unknown,
                    },
                    Val::Frame(f) => {
                        let label = match (index.as_str_literal(), &**index) {
                            (Some(col), _) => Some(col.to_string()),
                            (None, Expr::Name { .. }) => match self.eval(index) {
                                Val::Str(col) => Some(col),
                                _ => None,
                            },
                            _ => None,
                        };
                        if let Some(col) = label.as_deref() {
                            return if f.has(col) == Some(true) {
                                self.series_of(&f, col)
                            } else {
                                Val::Unknown
                            };
                        }
                        if let Some(cols) = str_list(index) {
                            return if cols.iter().all(|c| f.has(c) == Some(true)) {
                                Val::Frame(f.select(&cols))
                            } else {
                                Val::Unknown
                            };
                        }
                        if matches!(&**index, Expr::Slice { .. }) || self.is_row_mask(index) {
                            Val::Frame(rows_of(&f))
                        } else {
                            Val::Unknown
                        }
                    }
                    _ => Val::Unknown,
                }
            }
            Expr::Call {
                func,
                args,
                keywords,
                range,
            } => self.eval_call(func, args, keywords, *range),
            Expr::BinOp {
                op, left, right, ..
            } => {
                let (l, r) = (self.eval(left), self.eval(right));
                pytypes::binop_value(op, &l, &r).unwrap_or_else(|| shapes::binop_value(op, &l, &r))
            }
            Expr::Comprehension {
                elements, range, ..
            } => pytypes::comprehension_value(self.text(*range), elements.len()),
            _ => Val::Unknown,
        }
    }

    /// The value of attribute `attr` of an object of value `base`.
    fn attribute_value(&self, base: &Val, attr: &str) -> Val {
        match (base, attr) {
            (Val::Module(Some(p)), _) | (Val::Lib(p), _) => Val::Lib(format!("{p}.{attr}")),
            (Val::Frame(f), "values") => match (f.n_rows, f.n_columns()) {
                (Some(r), Some(c)) => Val::Array(ArrayVal {
                    lib: ArrayLib::Numpy,
                    shape: vec![r, c],
                    dtype: None,
                    has_nan: f.has_nan,
                    csv_object_column: None,
                    origin: None,
                    non_integer: None,
                }),
                _ => Val::Unknown,
            },
            (Val::Series(s), "values") => match s.len {
                Some(n) => numpy_calls::numpy_array(ArrayLib::Numpy, vec![n], None),
                None => Val::Unknown,
            },
            (Val::Frame(f), "columns") => match &f.columns {
                Some(cols) => Val::Strs {
                    type_name: "Index".into(),
                    items: cols.clone(),
                },
                None => Val::Unknown,
            },
            (Val::Strs { type_name, items }, "values") if type_name == "Index" => Val::Strs {
                type_name: "ndarray".into(),
                items: items.clone(),
            },
            (Val::Estimator(e), _) => sklearn::attribute_value(e, attr),
            (Val::Array(a), "shape") if a.lib == ArrayLib::Numpy => Val::Items {
                type_name: "tuple".into(),
                items: a.shape.iter().map(|&d| Val::Int(d)).collect(),
            },
            (Val::Array(a), "ndim") if a.lib == ArrayLib::Numpy => Val::Int(a.shape.len() as i64),
            (Val::Array(a), "size") if a.lib == ArrayLib::Numpy => {
                Val::Int(a.shape.iter().product())
            }
            (Val::Array(a), "T") => Val::Array(ArrayVal {
                shape: a.shape.iter().rev().copied().collect(),
                origin: None,
                ..a.clone()
            }),
            (Val::Frame(f), col) => match f.has(col) {
                Some(true) if !columns::is_frame_attribute(col) => self.series_of(f, col),
                _ => Val::Unknown,
            },
            _ => Val::Unknown,
        }
    }

    /// The number of distinct values of a kernel object the cell has not rebound (a lower bound
    /// when the summary was computed on a sample).
    pub fn distinct_values(&self, e: &Expr) -> Option<i64> {
        let Expr::Name { id, .. } = e else {
            return None;
        };
        // Rebound or changed in the cell: the summary no longer describes it.
        if self.bound_here.contains(id) || !matches!(self.get(id), Val::Series(_) | Val::Array(_)) {
            return None;
        }
        let obj = self.ctx.summaries?.objects.get(id)?;
        if obj.error.is_some() || !matches!(obj.kind.as_str(), "series" | "ndarray" | "tensor") {
            return None;
        }
        obj.value.get("unique")?.as_i64()
    }

    /// `left OP right` with one comparison operator (`a < b`, not `a < b < c`): its operands and
    /// operator.
    pub fn comparison<'e>(&self, e: &'e Expr) -> Option<(&'e Expr, &'static str, &'e Expr)> {
        let Expr::Other { children, range } = e else {
            return None;
        };
        let [left, right] = children.as_slice() else {
            return None;
        };
        // The text around and between the operands is one comparison operator.
        let head = self.text(TextRange::new(range.start, left.range().start));
        let tail = self.text(TextRange::new(right.range().end.min(range.end), range.end));
        if !head.trim().is_empty() || !tail.trim().is_empty() {
            return None;
        }
        let op = self.text(TextRange::new(left.range().end, right.range().start));
        let op = ["==", "!=", "<", ">", "<=", ">="]
            .into_iter()
            .find(|o| *o == op.trim())?;
        Some((left, op, right))
    }

    /// Is `e` certainly a boolean mask over rows: `a & b`, `a | b`, a comparison of a Series, or a
    /// Series method that gives one (`s.isin(...)`, `s.notna()`)?
    pub fn is_row_mask(&self, e: &Expr) -> bool {
        match e {
            Expr::BinOp { op: "&" | "|", .. } => true,
            Expr::Other { .. } => self
                .comparison(e)
                .is_some_and(|(left, _, _)| matches!(self.eval(left), Val::Series(_))),
            Expr::Call { func, .. } => match &**func {
                Expr::Attribute { value, attr, .. } => {
                    matches!(
                        attr.as_str(),
                        "isin" | "notna" | "notnull" | "isna" | "isnull" | "between" | "duplicated"
                    ) && matches!(self.eval(value), Val::Series(_))
                }
                _ => false,
            },
            _ => false,
        }
    }

    fn series_of(&self, f: &Frame, col: &str) -> Val {
        let info = f.column_info.get(col);
        Val::Series(SeriesVal {
            len: f.n_rows,
            str_examples: info.map(|i| i.str_examples.clone()).unwrap_or_default(),
            has_nan: info
                .and_then(|i| i.has_nan)
                .or(if f.has_nan == Some(false) {
                    Some(false)
                } else {
                    None
                }),
            name: Some(col.to_string()),
            non_integer: info.and_then(|i| i.non_integer),
        })
    }

    fn eval_call(&self, func: &Expr, args: &[Expr], keywords: &[Keyword], range: TextRange) -> Val {
        if let Some(r) = self.returns.get(&range) {
            return r.value.clone();
        }
        if let Some(v) = pytypes::call_result(self, func, args, keywords) {
            return v;
        }
        if let Some(path) = self.lib_path(func) {
            if let Some(est) = sklearn::construct(&path, keywords, range) {
                return Val::Estimator(est);
            }
            if let Some(v) = sklearn::lib_call_result(self, &path, args, keywords) {
                return v;
            }
            if let Some(v) = numpy_calls::call_result(self, &path, args, keywords)
                .or_else(|| shapes::pyplot_result(&path, keywords))
            {
                return v;
            }
            if let Some(v) = columns::new_frame(self, &path, args, keywords) {
                return v;
            }
            if let Some(v) = torch::construct(self, &path, args, keywords)
                .or_else(|| torch::new_tensor(self, &path, args, keywords))
                .or_else(|| torch::data_call(self, &path, args, keywords))
            {
                return v;
            }
            if path == "pandas.Categorical" {
                return Val::Typed("pandas.core.arrays.categorical.Categorical".into());
            }
            return Val::Unknown;
        }
        if let Some(class) = self.torch_class(func) {
            return Val::Torch(torch_layers::Layer::Net(class));
        }
        if let Some(batch) = torch::next_batch(self, func, args) {
            return batch;
        }
        // The receiver of a method call is evaluated once: evaluating it again for the method
        // would double the work at each call of a chain (`df.dropna().dropna()...`).
        let Expr::Attribute { value, attr, .. } = func else {
            if let Val::Torch(module) = self.eval(func) {
                return torch::call_result(self, &module, args, keywords);
            }
            return Val::Unknown;
        };
        let receiver = self.eval(value);
        if let Val::Torch(module) = self.attribute_value(&receiver, attr) {
            return torch::call_result(self, &module, args, keywords);
        }
        if let Some(v) = pytypes::method_result(&receiver, attr, args, keywords) {
            return v;
        }
        match receiver {
            Val::Torch(m) if torch_classes::RETURNS_MODULE.contains(&attr.as_str()) => {
                Val::Torch(m)
            }
            Val::Strs { items, .. } if attr == "tolist" && args.is_empty() => Val::Strs {
                type_name: "list".into(),
                items,
            },
            // `df.to_numpy()`, `s.to_numpy()`: the array `.values` gives.
            Val::Frame(_) | Val::Series(_)
                if attr == "to_numpy" && args.is_empty() && keywords.is_empty() =>
            {
                self.attribute_value(&receiver, "values")
            }
            Val::Frame(f) => columns::frame_method_result(self, &f, attr, args, keywords),
            // One group's rows: what the values of the whole frame showed may lie in others.
            Val::GroupBy(f) if attr == "get_group" => Val::Frame(rows_of(&f)),
            Val::Estimator(e) => sklearn::method_result(self, &e, attr, args),
            Val::Tensor(s) => {
                let int = |e: &Expr| match self.eval(e) {
                    Val::Int(i) => Some(i),
                    _ => torch_layers::const_int(e, self.ctx.source, &|_| None),
                };
                torch_layers::tensor_method(Some(&s), value, attr, args, keywords, &int)
                    .map_or(Val::Unknown, Val::Tensor)
            }
            Val::Array(a) if a.lib == ArrayLib::Torch => {
                let int = |e: &Expr| match self.eval(e) {
                    Val::Int(i) => Some(i),
                    _ => torch_layers::const_int(e, self.ctx.source, &|_| None),
                };
                let s = torch::shape_of(&Val::Array(a.clone()));
                match torch_layers::tensor_method(s.as_ref(), value, attr, args, keywords, &int) {
                    Some(s) => Val::Tensor(s),
                    None => numpy_calls::method_result(self, &a, attr, args, keywords),
                }
            }
            Val::Array(a) => numpy_calls::method_result(self, &a, attr, args, keywords),
            // `s.apply(str)`, `s.map(lambda x: str(x).split('-')[0])`: the NaN rows become a
            // known string ('nan'); nothing is known of the other rows.
            Val::Series(s)
                if matches!(attr.as_str(), "apply" | "map")
                    && s.has_nan == Some(true)
                    && keywords.is_empty() =>
            {
                match args {
                    [f] => match self.nan_as_string(f) {
                        Some(text) => Val::Series(SeriesVal {
                            len: s.len,
                            str_examples: vec![text],
                            has_nan: Some(false),
                            name: s.name,
                            non_integer: None,
                        }),
                        None => Val::Unknown,
                    },
                    _ => Val::Unknown,
                }
            }
            _ => Val::Unknown,
        }
    }

    /// What the function `f` (`str`, or a lambda of `str(x)` and string methods) returns for a
    /// float NaN, when certain.
    fn nan_as_string(&self, f: &Expr) -> Option<String> {
        match f {
            Expr::Name { id, .. } if id == "str" && self.is_builtin(id) => Some("nan".into()),
            Expr::Lambda { params, body, .. }
                if params.names.len() == 1
                    && params.positional == 1
                    && params.defaults.is_empty()
                    && self.is_builtin("str") =>
            {
                nan_through(body, &params.names[0])
            }
            _ => None,
        }
    }

    /// Side effects of evaluating `expr` on the names it mentions.
    fn effects(&mut self, expr: &Expr) {
        let mut calls = Vec::new();
        collect_calls(expr, &mut calls);
        for call in calls {
            let Expr::Call {
                func,
                args,
                keywords,
                ..
            } = call
            else {
                continue;
            };
            let mut pure = false;
            if let Expr::Attribute { value, attr, .. } = &**func {
                // `df['a'].fillna(0, inplace=True)` changes df (pandas 2 without copy-on-write).
                if !matches!(&**value, Expr::Name { .. }) && has_inplace(keywords) {
                    let root = base_name(value).map(|r| self.get(r));
                    if matches!(
                        root,
                        Some(
                            Val::Frame(_)
                                | Val::Series(_)
                                | Val::Array(_)
                                | Val::GroupBy(_)
                                | Val::Tensor(_)
                        )
                    ) {
                        self.forget_data();
                    }
                }
                // `models[0].fit(X)`, `d['k'].append(x)`: an element of a container may change.
                if !matches!(&**value, Expr::Name { .. }) {
                    if let Some(root) = base_name(value) {
                        if matches!(self.get(root), Val::Items { .. } | Val::Dict { .. }) {
                            self.forget_name(root);
                        }
                    }
                }
                if let Expr::Name { id, .. } = &**value {
                    match self.get(id) {
                        Val::Frame(f) => {
                            pure = true;
                            let inplace = keywords.iter().any(|k| {
                                k.name.as_deref() == Some("inplace")
                                    && !matches!(
                                        k.value,
                                        Expr::Literal {
                                            value: Literal::Bool(false),
                                            ..
                                        }
                                    )
                            });
                            let mutating = matches!(
                                attr.as_str(),
                                "pop" | "insert" | "update" | "eval" | "__setitem__"
                            );
                            if inplace {
                                let after =
                                    if matches!(attr.as_str(), "drop" | "rename" | "set_index") {
                                        columns::frame_method_result(self, &f, attr, args, keywords)
                                    } else {
                                        Val::Unknown
                                    };
                                // Another name may hold the same frame (`d = df`).
                                self.forget_after_frame_change();
                                self.env.insert(id.clone(), after);
                            } else if mutating {
                                self.forget_after_frame_change();
                            }
                        }
                        Val::Estimator(e) => {
                            pure = true;
                            let after = sklearn::after_method(self, &e, attr, args);
                            let before = Val::Estimator(e);
                            if after != before {
                                self.forget_object(&before, false);
                            }
                            self.env.insert(id.clone(), after);
                        }
                        Val::Tensor(_) if attr.ends_with('_') => self.forget_data(),
                        old @ Val::Torch(_) if !torch_classes::keeps_layers(attr) => {
                            self.forget_object(&old, false);
                            self.env.insert(id.clone(), Val::Unknown);
                        }
                        Val::Array(_) | Val::Series(_) | Val::GroupBy(_) => {
                            pure = true;
                            // `t.unsqueeze_(0)`: torch's in-place methods end with `_`.
                            let inplace = has_inplace(keywords) || attr.ends_with('_');
                            if inplace
                                || matches!(
                                    attr.as_str(),
                                    "resize"
                                        | "sort"
                                        | "fill"
                                        | "put"
                                        | "itemset"
                                        | "setflags"
                                        | "update"
                                )
                            {
                                // A Series or array may be a view of a frame or another array.
                                self.forget_data();
                            }
                        }
                        // scikit-learn objects do not change what their methods are given.
                        Val::Typed(t) if t.starts_with("sklearn.") => pure = true,
                        old @ (Val::Items { .. } | Val::Dict { .. }) => {
                            // List and dict methods may change the container, never its elements
                            // nor their arguments (`stmt_effects` follows a plain `lst.append(x)`).
                            pure = true;
                            let reads =
                                ["keys", "values", "items", "get", "copy", "index", "count"];
                            if !reads.contains(&attr.as_str()) {
                                self.forget_object(&old, false);
                            }
                        }
                        old @ (Val::Sized { .. } | Val::Strs { .. }) => {
                            // `lst.append(x)` and friends: the length changes.
                            self.forget_object(&old, false);
                            self.env.insert(id.clone(), Val::Unknown);
                        }
                        _ => {}
                    }
                }
            }
            if let Some(path) = self.lib_path(func) {
                pure = pure || is_pure_lib(&path);
            }
            if let Expr::Name { id, .. } = &**func {
                if self.is_builtin(id) && PURE_BUILTINS.contains(&id.as_str()) {
                    pure = true;
                }
            }
            // `np.round(p, out=p)`, `a.clip(0, 1, out=a)`: numpy writes into the `out` array.
            if keywords.iter().any(|k| k.name.as_deref() == Some("out")) {
                pure = false;
            }
            if let Some(root) = base_name(func) {
                for n in self.function_mentions(root) {
                    if !matches!(self.env.get(&n), Some(Val::Module(_) | Val::Lib(_))) {
                        self.forget_name(&n);
                    }
                }
            }
            if !pure {
                let mut names = BTreeSet::new();
                for a in args {
                    root_names(a, &mut names);
                }
                for k in keywords {
                    root_names(&k.value, &mut names);
                }
                for n in names {
                    if !matches!(self.get(&n), Val::Module(_) | Val::Lib(_)) {
                        self.forget_name(&n);
                    }
                }
            }
        }
    }
}

/// Does a call unpack arguments (`*args`, `**kwargs`): then which parameter gets what is unknown.
pub fn unpacks(args: &[Expr], keywords: &[Keyword]) -> bool {
    keywords.iter().any(|k| k.name.is_none())
        || args.iter().any(|a| matches!(a, Expr::Starred { .. }))
}

/// An `inplace=` keyword that is not literally `False`.
fn has_inplace(keywords: &[Keyword]) -> bool {
    keywords.iter().any(|k| {
        k.name.as_deref() == Some("inplace")
            && !matches!(
                k.value,
                Expr::Literal {
                    value: Literal::Bool(false),
                    ..
                }
            )
    })
}

/// The most passes over a statement the walker follows in nested loops it unrolls.
const MAX_PASSES: usize = 64;

const PURE_BUILTINS: [&str; 24] = [
    "print",
    "len",
    "display",
    "type",
    "isinstance",
    "str",
    "repr",
    "int",
    "float",
    "list",
    "tuple",
    "sorted",
    "sum",
    "min",
    "max",
    "range",
    "enumerate",
    "zip",
    "round",
    "abs",
    "set",
    "dict",
    "bool",
    "id",
];

fn is_pure_lib(path: &str) -> bool {
    let mutating_numpy = [
        "numpy.random.shuffle",
        "numpy.copyto",
        "numpy.put",
        "numpy.place",
        "numpy.fill_diagonal",
        "numpy.putmask",
    ];
    (path.starts_with("numpy.") && !mutating_numpy.contains(&path))
        || path.starts_with("matplotlib.")
        || path.starts_with("seaborn.")
        || path.starts_with("pandas.")
        || path.starts_with("sklearn.metrics.")
        || path == "sklearn.model_selection.train_test_split"
        || path.starts_with("scipy.stats.")
        // Progress bars iterate what they wrap (`tqdm.pandas()` is seen by `extends_pandas`).
        || path.starts_with("tqdm.")
}

/// Some rows of a frame: the same columns; what the values of the whole frame showed (example
/// strings, NaN) may lie in the rows left out.
pub fn rows_of(f: &Frame) -> Frame {
    Frame {
        n_rows: None,
        column_info: Default::default(),
        has_nan: if f.has_nan == Some(false) {
            Some(false)
        } else {
            None
        },
        ..f.clone()
    }
}

/// Forgets the elements of a container (and of the containers in it) that `gone` picks.
/// Frames, Series, arrays and groupbys: any of them may be a view of another's data.
fn is_data(v: &Val) -> bool {
    matches!(
        v,
        Val::Frame(_) | Val::Series(_) | Val::Array(_) | Val::GroupBy(_) | Val::Tensor(_)
    )
}

fn forget_elements(val: &mut Val, gone: &dyn Fn(&Val) -> bool) {
    for e in val.elements_mut() {
        if gone(e) {
            *e = Val::Unknown;
        } else {
            forget_elements(e, gone);
        }
    }
}

/// The position an integer index (negative from the end) picks in a sequence of `n` items.
fn position(n: usize, index: &Val) -> Option<usize> {
    let Val::Int(i) = *index else { return None };
    let n = n as i64;
    let at = if i < 0 { i + n } else { i };
    (0..n).contains(&at).then_some(at as usize)
}

fn int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Literal {
            value: Literal::Int(i),
            ..
        } => Some(*i),
        _ => None,
    }
}

/// Did a loop's first pass over the column names `items` change the frame `before` into
/// `after` only by replacing the first item's column (`df[col] = ...`)? Every item must be an
/// existing column, so that later passes replace columns too.
fn only_column_changed(before: &Frame, after: &Frame, items: &[String]) -> bool {
    let Some(cols) = before.columns.as_ref() else {
        return false;
    };
    if after.columns.as_ref() != Some(cols)
        || before.n_rows != after.n_rows
        || before.width != after.width
        || before.plain != after.plain
        || before.index_class != after.index_class
        || !items.iter().all(|i| cols.contains(i))
    {
        return false;
    }
    let keys: BTreeSet<&String> = before
        .column_info
        .keys()
        .chain(after.column_info.keys())
        .collect();
    keys.into_iter()
        .all(|k| before.column_info.get(k) == after.column_info.get(k) || *k == items[0])
}

/// `['a', 'b']` (a list of string literals).
pub fn str_list(e: &Expr) -> Option<Vec<String>> {
    match e {
        Expr::Seq {
            kind: SeqKind::List,
            elts,
            ..
        } => elts
            .iter()
            .map(|e| e.as_str_literal().map(str::to_string))
            .collect(),
        _ => None,
    }
}

fn base_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name { id, .. } => Some(id),
        Expr::Attribute { value, .. } | Expr::Subscript { value, .. } => base_name(value),
        Expr::Call { func, .. } => base_name(func),
        _ => None,
    }
}

/// Names whose objects an argument hands over (`f(df)`, `f(df.values)`, `f([a, b])`; not
/// `f(X.shape[1])`, a number).
pub fn root_names(e: &Expr, out: &mut BTreeSet<String>) {
    match e {
        Expr::Name { id, .. } => {
            out.insert(id.clone());
        }
        Expr::Attribute { attr, .. } if matches!(attr.as_str(), "shape" | "ndim") => {}
        Expr::Attribute { value, .. }
        | Expr::Subscript { value, .. }
        | Expr::Starred { value, .. } => root_names(value, out),
        Expr::Seq { elts, .. } => elts.iter().for_each(|e| root_names(e, out)),
        Expr::Dict { values, .. } => values.iter().for_each(|e| root_names(e, out)),
        _ => {}
    }
}

fn collect_calls<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } => {
            collect_calls(func, out);
            args.iter().for_each(|a| collect_calls(a, out));
            keywords.iter().for_each(|k| collect_calls(&k.value, out));
            out.push(e);
        }
        Expr::Lambda { .. } => {}
        _ => e.for_each_child(|c| collect_calls(c, out)),
    }
}

pub fn target_names(t: &Target, out: &mut BTreeSet<String>, with_stores: bool) {
    match t {
        Target::Name { id, .. } => {
            out.insert(id.clone());
        }
        Target::Unpack { elts, .. } => elts.iter().for_each(|e| target_names(e, out, with_stores)),
        Target::Starred { target, .. } => target_names(target, out, with_stores),
        Target::Store { expr, .. } => {
            if with_stores {
                if let Some(b) = base_name(expr) {
                    out.insert(b.to_string());
                }
            }
        }
    }
}

/// Every name a block mentions (read, written or mutated), function bodies included: after a block
/// we cannot follow, all of them are unknown.
pub fn mentioned_names(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    for s in stmts {
        s.for_each_name(&mut |name| {
            out.insert(name.to_owned());
        });
    }
}

/// Names whose objects a block may change without rebinding them: assignment to an item or
/// attribute, method calls on them, and objects passed to calls (function bodies excluded).
pub fn mutated_names(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    fn expr(e: &Expr, out: &mut BTreeSet<String>) {
        if let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        {
            if let Expr::Attribute { value, .. } = &**func {
                root_names(value, out);
            }
            args.iter().for_each(|a| root_names(a, out));
            keywords.iter().for_each(|k| root_names(&k.value, out));
        }
        if let Expr::Lambda { .. } = e {
            return;
        }
        e.for_each_child(|c| expr(c, out));
    }
    for s in stmts {
        match s {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| target_names(t, out, true))
            }
            Stmt::For { target, .. } => target_names(target, out, true),
            Stmt::With { items, .. } => {
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target_names(t, out, true);
                }
            }
            Stmt::Global { names, .. } | Stmt::TooDeep { names, .. } => {
                out.extend(names.iter().cloned())
            }
            // Their bodies run later; decorators and defaults do not mutate.
            Stmt::FunctionDef { .. } | Stmt::ClassDef { .. } => continue,
            _ => {}
        }
        s.for_each_expr(&mut |e| expr(e, out));
        s.for_each_block(|b| mutated_names(b, out));
    }
}

/// The names `facts` (of the cell whose statements these are) records as bound by the
/// statements: assignments, imports, definitions, loop and `with` targets, walruses, handlers,
/// match captures, and names a function of theirs declares `global` and binds.
pub fn bound_names(stmts: &[Stmt], facts: &CellFacts, out: &mut BTreeSet<String>) {
    for s in stmts {
        out.extend(facts.bound_within(s.range()).map(str::to_owned));
    }
}

/// Does the statement contain `break`, `continue`, `return`, `raise`, `pass` or the like (which the
/// IR keeps as `Stmt::Other`), outside nested functions?
fn contains_jump(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| {
        let mut jump = matches!(s, Stmt::Other { .. });
        s.for_each_block(|b| jump |= contains_jump(b));
        jump
    })
}

/// The names an import binds and what they hold.
pub fn import_bindings(from: Option<&str>, names: &[crate::ir::Alias]) -> Vec<(String, Val)> {
    let mut out = Vec::new();
    for a in names {
        if a.name == "*" {
            continue;
        }
        match from {
            None => match &a.asname {
                Some(alias) => out.push((alias.clone(), Val::Module(Some(a.name.clone())))),
                None => {
                    let root = a.name.split('.').next().unwrap_or("").to_string();
                    out.push((root.clone(), Val::Module(Some(root))));
                }
            },
            Some(module) if !module.starts_with('.') => {
                let name = a.asname.clone().unwrap_or_else(|| a.name.clone());
                // `from a import b`: b may be a submodule or a function; `Lib` covers both for paths.
                out.push((name, Val::Lib(format!("{module}.{}", a.name))));
            }
            Some(_) => {
                let name = a.asname.clone().unwrap_or_else(|| a.name.clone());
                out.push((name, Val::Unknown));
            }
        }
    }
    out
}

impl Walker<'_> {
    /// Forgets every frame, series and array: one of them changed in place, and the others may
    /// be views of it.
    fn forget_data(&mut self) {
        for val in self.env.values_mut() {
            if is_data(val) {
                *val = Val::Unknown;
            } else {
                forget_elements(val, &is_data);
            }
        }
    }

    /// A frame changed in place: every frame, series and array may be a view of it and is
    /// forgotten, but Series keep their names (a change to a frame renames none); the kernel's
    /// summaries of them no longer hold.
    fn forget_after_frame_change(&mut self) {
        for (name, val) in self.env.iter_mut() {
            *val = match std::mem::replace(val, Val::Unknown) {
                Val::Series(SeriesVal {
                    name: Some(label), ..
                }) => {
                    self.bound_here.insert(name.clone());
                    Val::Series(SeriesVal {
                        name: Some(label),
                        ..Default::default()
                    })
                }
                v if is_data(&v) => Val::Unknown,
                mut other => {
                    forget_elements(&mut other, &is_data);
                    other
                }
            };
        }
    }

    /// The object a value describes may have changed in place (and with `deep`, the objects it
    /// holds). Names and container elements holding an equal value may hold the same object
    /// (`m = gbr`, `[gbr, rfr]`, a loop's variable): they are forgotten too.
    fn forget_object(&mut self, old: &Val, deep: bool) {
        fn objects(v: &Val, deep: bool, out: &mut Vec<Val>) {
            if !matches!(
                v,
                Val::Unknown
                    | Val::Module(_)
                    | Val::Lib(_)
                    | Val::Int(_)
                    | Val::Float(_)
                    | Val::Str(_)
            ) {
                out.push(v.clone());
            }
            if deep {
                if let Val::Items { items: inner, .. } | Val::Dict { values: inner, .. } = v {
                    inner.iter().for_each(|e| objects(e, deep, out));
                }
            }
        }
        let mut gone = Vec::new();
        objects(old, deep, &mut gone);
        if gone.is_empty() {
            return;
        }
        let same = |v: &Val| gone.contains(v);
        for val in self.env.values_mut() {
            if same(val) {
                *val = Val::Unknown;
            } else {
                forget_elements(val, &same);
            }
        }
    }

    /// `name` may now hold another object, or its object (or what it holds) may have changed.
    fn forget_name(&mut self, name: &str) {
        let old = self.get(name);
        self.forget_object(&old, true);
        self.env.insert(name.to_string(), Val::Unknown);
    }

    /// A helper for rules: an estimator value if `e` evaluates to one.
    pub fn estimator(&self, e: &Expr) -> Option<Estimator> {
        match self.eval(e) {
            Val::Estimator(est) => Some(est),
            _ => None,
        }
    }
}

/// The string `body` computes from `str(param)` when the parameter is a float NaN: `str(x)`,
/// then `.strip()`, `.lower()`, `.upper()`, `.split(sep)[i]` and slices with literal bounds.
fn nan_through(body: &Expr, param: &str) -> Option<String> {
    match body {
        Expr::Call {
            func,
            args,
            keywords,
            ..
        } if keywords.is_empty() => match (&**func, args.as_slice()) {
            (Expr::Name { id, .. }, [Expr::Name { id: arg, .. }])
                if id == "str" && arg == param =>
            {
                Some("nan".into())
            }
            (Expr::Attribute { value, attr, .. }, []) => {
                let s = nan_through(value, param)?;
                match attr.as_str() {
                    "strip" | "lstrip" | "rstrip" => Some(s.trim().to_string()),
                    "lower" => Some(s.to_lowercase()),
                    "upper" => Some(s.to_uppercase()),
                    _ => None,
                }
            }
            _ => None,
        },
        Expr::Subscript { value, index, .. } => {
            // `str(x).split('-')[0]`
            if let Expr::Call {
                func,
                args,
                keywords,
                ..
            } = &**value
            {
                if let Expr::Attribute {
                    value: inner, attr, ..
                } = &**func
                {
                    if attr != "split" {
                        return slice_of(&nan_through(value, param)?, index);
                    }
                    if !keywords.is_empty() {
                        return None;
                    }
                    let s = nan_through(inner, param)?;
                    let parts: Vec<&str> = match args.as_slice() {
                        [] => s.split_whitespace().collect(),
                        [sep] => {
                            let sep = sep.as_str_literal().filter(|p| !p.is_empty())?;
                            s.split(sep).collect()
                        }
                        _ => return None,
                    };
                    let i = usize::try_from(int_literal(index)?).ok()?;
                    return parts.get(i).map(|p| p.to_string());
                }
            }
            slice_of(&nan_through(value, param)?, index)
        }
        _ => None,
    }
}

/// `s[lo:hi]` with literal non-negative bounds.
fn slice_of(s: &str, index: &Expr) -> Option<String> {
    let uint = |e: &Option<Box<Expr>>| -> Option<Option<usize>> {
        match e.as_deref() {
            None => Some(None),
            Some(e) => int_literal(e)
                .and_then(|i| usize::try_from(i).ok())
                .map(Some),
        }
    };
    match index {
        Expr::Slice {
            lower, upper, step, ..
        } if step.is_none() => {
            let (lo, hi) = (uint(lower)?, uint(upper)?);
            let chars: Vec<char> = s.chars().collect();
            let hi = hi.unwrap_or(chars.len()).min(chars.len());
            let lo = lo.unwrap_or(0).min(hi);
            Some(chars[lo..hi].iter().collect())
        }
        _ => None,
    }
}
