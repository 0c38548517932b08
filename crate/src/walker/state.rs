//! Values flowing through the target cell. The walker visits the statements that will certainly run
//! (top-level straight-line code, `with` bodies, `try` bodies up to the first statement that may
//! raise what a handler catches, a `try`'s `else` after a body that cannot raise, `finally`
//! blocks, the branch an `if` of a known bool (or `__name__ == "__main__"`) takes, the `case` of
//! a `match` that certainly matches, the first pass of `while True` and of a loop over a
//! non-empty iterable, every pass of a loop over elements it knows, a loop's `else` when the body
//! cannot break), keeps an abstract value per name, and asks the rules about every expression
//! those statements evaluate. In a `try` body with handlers, a finding is kept only where no
//! handler can catch its exception (`Rule::raised`) and nothing caught may be raised before it.
//! Whatever it cannot follow becomes `Unknown`: names assigned in branches (unless every branch
//! gives what the others give, `join`), loops, `try` bodies that may stop early, walruses that
//! may not run; objects passed to functions that may mutate them; in-place methods it does not
//! model. Names and container elements with equal values may hold one object: a change of it
//! forgets them all, and what the changed name holds is kept only until one of them changes
//! (`note_change`). Calls of the notebook's own functions (`def`s and lambdas bound to a name)
//! are followed into their bodies (`calls`), and what they leave in the lists and dicts passed
//! to them is what the arguments' names hold after.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::diagnostic::Diagnostic;
use crate::facts::CellFacts;
use crate::ir::{Expr, Literal, Stmt, TextRange};

use super::calls::Callee;
use super::{Checks, RuleContext};
use crate::semantics::abstract_value::{
    from_summary, ArrayLib, ArrayVal, Estimator, Frame, SeriesVal, Val,
};
use crate::semantics::eval::{Eval, LibPath};
use crate::semantics::notebook_classes::NotebookClass;
use crate::semantics::{torch_classes, torch_layers};

pub struct Walker<'a> {
    /// The rules the walker reports to.
    pub(super) checks: &'a dyn Checks,
    pub ctx: &'a RuleContext<'a>,
    pub env: BTreeMap<String, Val>,
    /// Names the cell itself bound so far (they shadow kernel names and builtins).
    pub bound_here: BTreeSet<String>,
    /// No executed cell could have given a frame a named index: for a frame the kernel summarized
    /// without its index names, `by=` names only columns (`columns::not_an_index_level`).
    pub index_unnamed: bool,
    /// An executed cell or the target may add attributes to every DataFrame.
    pub pandas_extended: bool,
    /// Functions the target (or the function walked) defined so far by a plain `def`: the `def`.
    pub defined_here: BTreeMap<String, &'a Stmt>,
    /// `nn.Module` classes the target cell defined so far at its top level, not rebound since.
    pub(super) torch_classes_here: BTreeMap<String, std::rc::Rc<torch_classes::UserClass>>,
    /// Classes the target cell defined so far at its top level, not rebound since.
    pub(super) classes_here: BTreeMap<String, std::rc::Rc<NotebookClass>>,
    /// A statement ran that may have rebound any name (`%run`, `exec`).
    pub rebound_all: bool,
    /// Labels executed cells (or this one) dropped in place from the object a name holds, the
    /// name not rebound or possibly changed since (`history::HistoryState::drops`).
    pub drops: BTreeMap<String, Vec<crate::semantics::pandas::DropSpec>>,
    /// Some value is a column's values that may be a view of its frame (`csv_object_column`):
    /// only the kernel's summaries make them, so a walker without them at the start never has
    /// any, and skips looking for them after each statement.
    pub(super) csv_views: bool,
    /// Functions of the cell a comprehension's variable hides while its elements are checked.
    pub(super) shadowed: Vec<(String, &'a Stmt)>,
    /// The calls being followed into functions of the notebook, outermost first (empty while
    /// the target cell itself is walked).
    pub(crate) calls: Vec<String>,
    /// The names local to the function walked (empty for the target cell).
    pub(crate) locals: BTreeSet<String>,
    /// Statements the walks into called functions may still visit, shared by all depths.
    pub(crate) budget: usize,
    /// What the calls followed in the current statement return, by the call's range.
    pub(crate) returns: BTreeMap<TextRange, super::calls::Returned>,
    /// What the calls followed in the current statement left in the globals their functions
    /// declare `global`, in the order they ran: bound once the statement's effects are done.
    pub(crate) global_writes: Vec<(String, Val)>,
    /// What the calls followed in the current statement left in the lists and dicts passed to
    /// them by name (`add(ys)` of `def add(xs): xs.append(1)`), by the call's range: bound once
    /// the statement's effects are done, when the call is the statement's whole value.
    pub(crate) argument_writes: Vec<(TextRange, String, Val)>,
    /// Names forgotten because they may hold an object changed through another name, whose
    /// value was kept (`note_change`).
    pub(super) aliases_forgotten: BTreeSet<String>,
    /// In a followed call, the names the calling cell binds only after the call
    /// (`calls::bound_after`): read by the function, they are not defined yet.
    pub(crate) bound_after_call: BTreeSet<String>,
    /// In a followed call, a cell calling it has a star import, which may bind any name.
    pub(crate) star_imported: bool,
    /// In a followed call, the function's locals that are no parameters and that no statement
    /// walked so far may have bound: reading one raises UnboundLocalError.
    pub(crate) unassigned_locals: BTreeSet<String>,
    /// Names whose value was kept after a change of their object that other names may hold.
    pub(super) kept_shared: BTreeSet<String>,
    /// Inside a loop body that may not run: calls are not followed.
    pub(super) speculating: bool,
    /// Inside the body of a `try` with handlers: what a followed call finds is dropped (an
    /// earlier statement of the function may raise what a handler catches).
    pub(super) in_handled_try: bool,
    /// How many times the loops being walked pass over the statement at hand (the product of
    /// their lengths), bounded by `MAX_PASSES`.
    pub(super) passes: usize,
    /// The history as the cell's top-level statements before the one at an index left it, for
    /// the Keras rules (`keras::state_before`): computed once per statement.
    pub(crate) states_before:
        std::cell::RefCell<BTreeMap<usize, std::rc::Rc<super::history::HistoryState>>>,
    /// Whether the Keras rules may have anything to replay (`keras::keras_in_reach`): it
    /// depends on the history and the cell's source only, so it is asked once per walker.
    pub(crate) keras_in_reach: std::cell::OnceCell<bool>,
    /// While the rules look at a call (`dispatch`): its callee and the callee's `lib_path`, which
    /// the rules ask for many times. The names cannot change while the rules look (they borrow
    /// the walker), and the callee stays alive at its address, so the address identifies it.
    pub(super) callee_path: Option<(*const Expr, Option<LibPath>)>,
    /// While the rules look at an expression (`dispatch`): it and its operands, with their values
    /// once evaluated, since several rules evaluate each. Sound for the reason `callee_path` is;
    /// only nodes of the walked code are listed, whose addresses no value the rules build reuses.
    pub(super) looked_at: std::cell::RefCell<Vec<(*const Expr, Option<Val>)>>,
    /// Where `lib_path` builds a path before sharing it: one allocation per path, not two.
    path_buffer: std::cell::RefCell<String>,
    /// The changes made to every matching value, in order (`Forget`).
    pub(crate) forgotten: Vec<Forget>,
    pub out: Vec<Diagnostic>,
}

impl<'a> Walker<'a> {
    pub fn new(ctx: &'a RuleContext<'a>, checks: &'a dyn Checks) -> Self {
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
        load_history_values(ctx, &mut env);
        let mut walker = Walker::bare(ctx, env, checks);
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
        // Instances of the notebook's plain classes an executed cell made, when the kernel agrees.
        for (name, class) in &ctx.history.instances {
            let summary = ctx.summaries.and_then(|d| d.objects.get(name));
            let agrees = match summary {
                Some(obj) => {
                    obj.error.is_none()
                        && crate::semantics::abstract_value::normalize_type(&obj.type_name)
                            == format!("__main__.{}", class.name)
                }
                None => ctx.kernel_names.is_none_or(|names| names.contains(name)),
            };
            if agrees && !ctx.history.global_names.contains(name) {
                walker
                    .env
                    .insert(name.clone(), Val::Instance(std::rc::Rc::clone(class)));
            }
        }
        walker.drops = ctx.history.drops.clone();
        walker.drops.retain(|name, _| !mentioned(name));
        walker
    }

    /// A walker of `ctx.body` that knows the values `env` holds and nothing more of the cell.
    pub(crate) fn bare(
        ctx: &'a RuleContext<'a>,
        env: BTreeMap<String, Val>,
        checks: &'a dyn Checks,
    ) -> Self {
        let csv_views = env
            .values()
            .any(|v| matches!(v, Val::Array(a) if a.csv_object_column.is_some()));
        Walker {
            checks,
            ctx,
            drops: BTreeMap::new(),
            csv_views,
            env,
            bound_here: BTreeSet::new(),
            index_unnamed: ctx.history.index_unnamed,
            defined_here: BTreeMap::new(),
            torch_classes_here: BTreeMap::new(),
            classes_here: BTreeMap::new(),
            rebound_all: false,
            shadowed: Vec::new(),
            calls: Vec::new(),
            locals: BTreeSet::new(),
            budget: super::calls::BUDGET,
            returns: BTreeMap::new(),
            global_writes: Vec::new(),
            argument_writes: Vec::new(),
            aliases_forgotten: BTreeSet::new(),
            bound_after_call: BTreeSet::new(),
            star_imported: false,
            unassigned_locals: BTreeSet::new(),
            kept_shared: BTreeSet::new(),
            speculating: false,
            in_handled_try: false,
            passes: 1,
            pandas_extended: ctx.history.extends_pandas || ctx.cell.extends_pandas,
            states_before: Default::default(),
            keras_in_reach: Default::default(),
            callee_path: None,
            looked_at: std::cell::RefCell::new(Vec::new()),
            path_buffer: std::cell::RefCell::new(String::new()),
            forgotten: Vec::new(),
            out: Vec::new(),
        }
    }

    /// The names the bodies of the notebook's functions (or classes) called `name` mention.
    pub fn function_mentions(&self, name: &str) -> Vec<String> {
        function_mentions(self.ctx, name).cloned().collect()
    }

    pub fn run(self) -> Vec<Diagnostic> {
        self.run_keeping_globals().0
    }

    /// `run`, and what the cell left in the globals.
    pub fn run_keeping_globals(mut self) -> (Vec<Diagnostic>, super::CellGlobals) {
        let body = self.ctx.body;
        self.block(body);
        // A later cell may change an object through a name this one forgot.
        for name in std::mem::take(&mut self.kept_shared) {
            self.env.insert(name, Val::Unknown);
        }
        let globals = super::CellGlobals {
            env: self.env,
            forgotten: self.forgotten,
        };
        (self.out, globals)
    }

    /// Walking a loop body that may not run.
    pub fn speculating(&self) -> bool {
        self.speculating
    }

    /// What `name` holds (a value too large to follow is unknown: `Val::bounded`; every value
    /// built on a name's value reads it here, so none grows without bound).
    pub fn get(&self, name: &str) -> Val {
        self.env
            .get(name)
            .cloned()
            .map_or(Val::Unknown, Val::bounded)
    }

    pub fn text(&self, range: TextRange) -> &str {
        self.ctx
            .source
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
    }

    /// The source text of `e` for messages, or `or` when it is empty, long or spans lines.
    pub fn shown<'s>(&'s self, e: &Expr, or: &'s str) -> &'s str {
        self.shown_range(e.range(), or)
    }

    /// The source text of `range` for messages, or `or` when it is empty, long or spans lines.
    pub fn shown_range<'s>(&'s self, range: TextRange, or: &'s str) -> &'s str {
        let t = self.text(range);
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
            result: f.result.as_ref(),
        })
    }

    /// The notebook's class `func` names, when a `class` statement of this cell or of an
    /// executed one defined it and the name is not rebound since (the kernel, when it summarized
    /// the name, saw a class).
    pub fn notebook_class(&self, func: &Expr) -> Option<std::rc::Rc<NotebookClass>> {
        let Expr::Name { id, .. } = func else {
            return None;
        };
        if let Some(class) = self.classes_here.get(id) {
            return Some(std::rc::Rc::clone(class));
        }
        if self.bound_here.contains(id) || self.rebound_all {
            return None;
        }
        let class = self.ctx.history.classes.get(id)?;
        if let Some(obj) = self.ctx.summaries.and_then(|d| d.objects.get(id)) {
            if obj.error.is_some() || obj.kind != "class" {
                return None;
            }
        }
        Some(std::rc::Rc::clone(class))
    }

    /// The notebook's `nn.Module` class `func` names, when an executed cell defined it, the name is
    /// not rebound since, and nothing may rewire its instances.
    pub(crate) fn torch_class(&self, func: &Expr) -> Option<std::rc::Rc<torch_classes::UserClass>> {
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
    pub(super) fn torch_rewired(&self, class: &torch_classes::UserClass) -> bool {
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

    /// Is `name` certainly Python's builtin of that name here: bound by no cell, no star import or
    /// `exec` anywhere that may have bound it?
    pub fn certainly_builtin(&self, name: &str) -> bool {
        let history = self.ctx.history;
        self.is_builtin(name)
            && !self.rebound_all
            && !self.ctx.facts.star_import
            && !history.binds_unknown_names
            && !history.bound_globals.contains(name)
            && !history.global_names.contains(name)
            && !self.ctx.cell.global_names.contains(name)
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
    pub fn lib_path(&self, func: &Expr) -> Option<LibPath> {
        if let Some((callee, path)) = &self.callee_path {
            if std::ptr::eq(*callee, func) {
                return path.clone();
            }
        }
        let mut root = func;
        while let Expr::Attribute { value, .. } = root {
            root = value;
        }
        let Expr::Name { id, .. } = root else {
            return None;
        };
        let (Val::Lib(module) | Val::Module(Some(module))) = self.env.get(id)? else {
            return None;
        };
        // Built in one string, from the root out.
        fn push_attributes(e: &Expr, path: &mut String) {
            if let Expr::Attribute { value, attr, .. } = e {
                push_attributes(value, path);
                path.push('.');
                path.push_str(attr);
            }
        }
        let mut path = self.path_buffer.borrow_mut();
        path.clear();
        path.push_str(module);
        push_attributes(func, &mut path);
        Some(LibPath::from(path.as_str()))
    }
}

/// The most passes over a statement the walker follows in nested loops it unrolls.
pub(super) const MAX_PASSES: usize = 64;

/// Forgets the elements of a container (and of the containers in it) that `gone` picks.
/// Frames, Series, arrays and groupbys: any of them may be a view of another's data.
pub(super) fn is_data(v: &Val) -> bool {
    matches!(
        v,
        Val::Frame(_) | Val::Series(_) | Val::Array(_) | Val::GroupBy(_) | Val::Tensor(_)
    )
}

pub(super) fn forget_elements(val: &mut Val, gone: &dyn Fn(&Val) -> bool) {
    for e in val.elements_mut() {
        if gone(e) {
            *e = Val::Unknown;
        } else {
            forget_elements(e, gone);
        }
    }
}

/// The position an integer index (negative from the end) picks in a sequence of `n` items.
pub(super) fn position(n: usize, index: &Val) -> Option<usize> {
    let Val::Int(i) = *index else { return None };
    let n = n as i64;
    let at = if i < 0 { i + n } else { i };
    (0..n).contains(&at).then_some(at as usize)
}

pub(super) fn int_literal(e: &Expr) -> Option<i64> {
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
pub(super) fn only_column_changed(before: &Frame, after: &Frame, items: &[String]) -> bool {
    let Some(cols) = before.columns.as_ref() else {
        return false;
    };
    if after.columns.as_ref() != Some(cols)
        || before.n_rows != after.n_rows
        || before.width != after.width
        || before.plain != after.plain
        || before.index_class != after.index_class
        || before.index_names != after.index_names
        || before.index_labels != after.index_labels
        || !items.iter().all(|i| cols.contains(i))
    {
        return false;
    }
    let keys = crate::ordered::set_of(before.column_info.keys().chain(after.column_info.keys()));
    keys.into_iter()
        .all(|k| before.column_info.get(k) == after.column_info.get(k) || *k == items[0])
}

/// The names `facts` (of the cell whose statements these are) records as bound by the
/// statements: assignments, imports, definitions, loop and `with` targets, walruses, handlers,
/// match captures, and names a function of theirs declares `global` and binds.
pub fn bound_names(stmts: &[Stmt], facts: &CellFacts, out: &mut BTreeSet<String>) {
    for s in stmts {
        out.extend(facts.bound_within(s.range()).map(str::to_owned));
    }
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
                let path = format!("{module}.{}", a.name);
                // `from a import b`: b may be a submodule or a function; `Lib` covers both for
                // paths, unless b is known to be a submodule.
                let submodule = crate::semantics::python::IMPORTED_SUBMODULES
                    .contains(&(module, a.name.as_str()));
                out.push((
                    name,
                    if submodule {
                        Val::Module(Some(path))
                    } else {
                        Val::Lib(path)
                    },
                ));
            }
            Some(_) => {
                let name = a.asname.clone().unwrap_or_else(|| a.name.clone());
                out.push((name, Val::Unknown));
            }
        }
    }
    out
}

/// The names the bodies of the notebook's functions (or classes) called `name` mention: those of
/// the cell's and those of executed cells.
fn function_mentions<'c>(ctx: &'c RuleContext, name: &'c str) -> impl Iterator<Item = &'c String> {
    let here = ctx
        .cell
        .function_mentions
        .iter()
        .filter(move |(n, _)| n == name);
    let history = ctx.history.function_mentions.get(name);
    here.map(|(_, names)| names).chain(history).flatten()
}

/// Loads what the executed cells left in the globals the cell may read: the names it reads
/// before binding them and, transitively, those the notebook's functions they name mention. A
/// kernel summary of a name says more than code read offline; a name the kernel lacks holds
/// nothing.
fn load_history_values(ctx: &RuleContext, env: &mut BTreeMap<String, Val>) {
    if ctx.history.values.is_empty() {
        return;
    }
    let mut reach = crate::ordered::set_of(ctx.facts.free_names.iter().map(|u| u.name.clone()));
    let mut todo: Vec<String> = reach.iter().cloned().collect();
    while let Some(name) = todo.pop() {
        for mention in function_mentions(ctx, &name) {
            if reach.insert(mention.clone()) {
                todo.push(mention.clone());
            }
        }
    }
    for name in reach {
        let kernel_knows = ctx.summaries.is_some_and(|d| d.objects.contains_key(&name));
        if env.contains_key(&name)
            || kernel_knows
            || ctx.kernel_names.is_some_and(|k| !k.contains(&name))
        {
            continue;
        }
        let Some(val) = ctx.history.values.get(&name) else {
            continue;
        };
        // A function of the notebook may have run since without a call in sight (a widget's
        // callback, a hook): one that declares the name `global` may have rebound it, one that
        // mentions it may have changed the object it holds.
        let functions_may_change = ctx.history.global_names.contains(&name)
            || (!immutable(val)
                && ctx
                    .history
                    .function_mentions
                    .values()
                    .any(|mentions| mentions.contains(&name)));
        let crosses = match val {
            // Instances of the notebook's modules cross as `HistoryState::torch_instances`, which
            // knows when an executed cell may have rewired their layers.
            Val::Torch(layer) => {
                !torch_layers::holds_notebook_module(layer) && !modules_rewired(ctx)
            }
            _ => true,
        };
        if !functions_may_change && crosses {
            env.insert(name, val.clone());
        }
    }
}

/// May the notebook have changed a `torch.nn` module otherwise than through the name that holds
/// it (which forgets the value): rewired modules, cast their floats (`.double()` of a container
/// holding it), or stored to an attribute its `forward` reads (`seq[0].weight = ...`)?
fn modules_rewired(ctx: &RuleContext) -> bool {
    let (history, cell) = (ctx.history, ctx.cell);
    history.rewires_modules
        || cell.rewires_modules
        || history.casts_module_floats
        || cell.casts_module_floats
        || torch_layers::FORWARD_ATTRIBUTES
            .iter()
            .any(|a| history.stored_attributes.contains(*a) || cell.stored_attributes.contains(*a))
}

/// A value no call can change in place: only rebinding the name changes what it holds.
pub(super) fn immutable(val: &Val) -> bool {
    matches!(
        val,
        Val::None
            | Val::Bool(_)
            | Val::Int(_)
            | Val::Float(_)
            | Val::Str(_)
            | Val::Module(_)
            | Val::Lib(_)
    )
}

/// A change a walk made to every value that matched it, not to one name: replayed on the
/// history's values the walk did not load (`history::HistoryState::absorb`), as if they had been
/// in its environment all along.
#[derive(Clone, Debug)]
pub enum Forget {
    /// These objects may have changed in place: equal values may be the same object.
    Objects(Vec<Val>),
    /// A frame, series, array or tensor changed in place: the others may be views of it.
    Data,
    /// A frame changed in place: as `Data`, but Series keep their names.
    FrameChanged,
    /// `from module import *`: names its exports share may hold them now.
    StarImport(String),
    /// `%run`, `exec`, `globals()[...] = ...`: any name may hold anything.
    Everything,
}

impl Forget {
    /// What the change leaves of `val`, the value of `name`.
    pub fn apply(&self, name: &str, val: &mut Val) {
        // Most values are not touched: ruled out without rebuilding them.
        let container = matches!(val, Val::Items { .. } | Val::Dict { .. });
        let touched = match self {
            Forget::Objects(gone) => container || gone.contains(val),
            Forget::Data | Forget::FrameChanged => container || is_data(val),
            Forget::StarImport(_) => matches!(val, Val::Module(_)),
            Forget::Everything => true,
        };
        if !touched {
            return;
        }
        let is_gone = |v: &Val| match self {
            Forget::Objects(gone) => gone.contains(v),
            Forget::Data | Forget::FrameChanged => is_data(v),
            Forget::StarImport(module) => super::history::star_may_rebind(name, v, module),
            Forget::Everything => true,
        };
        *val = match std::mem::replace(val, Val::Unknown) {
            Val::Series(SeriesVal {
                name: Some(label), ..
            }) if matches!(self, Forget::FrameChanged) => Val::Series(SeriesVal {
                name: Some(label),
                ..Default::default()
            }),
            v if is_gone(&v) => Val::Unknown,
            // A star import rebinds names, not what containers hold.
            other if matches!(self, Forget::StarImport(_)) => other,
            mut other => {
                forget_elements(&mut other, &is_gone);
                other
            }
        };
    }
}

impl Walker<'_> {
    /// Applies `change` to every value the walk knows, and records it for the history.
    pub(super) fn forget_everywhere(&mut self, change: Forget) {
        for (name, val) in self.env.iter_mut() {
            change.apply(name, val);
            // A change to a frame renames no Series: the name stays the walker's own knowledge.
            if matches!(change, Forget::FrameChanged) && matches!(val, Val::Series(_)) {
                self.bound_here.insert(name.clone());
            }
        }
        // Forgetting data twice in a row forgets no more: replayed once on the history.
        let repeated = matches!(
            (self.forgotten.last(), &change),
            (Some(Forget::Data), Forget::Data) | (Some(Forget::FrameChanged), Forget::FrameChanged)
        );
        if !repeated {
            self.forgotten.push(change);
        }
    }

    /// Forgets every frame, series and array: one of them changed in place, and the others may
    /// be views of it.
    pub(super) fn forget_data(&mut self) {
        self.forget_everywhere(Forget::Data);
    }

    /// The values of an array changed in place, not its shape or dtype: every frame, series and
    /// array may be a view of it; arrays keep their shape and dtype, the others are forgotten.
    pub(super) fn forget_values_of_data(&mut self) {
        fn values_forgotten(v: &mut Val) {
            match v {
                Val::Array(a) => {
                    a.has_nan = None;
                    a.csv_object_column = None;
                    a.origin = None;
                    a.non_integer = None;
                    a.int_bounds = None;
                }
                v if is_data(v) => *v = Val::Unknown,
                v => v.elements_mut().iter_mut().for_each(values_forgotten),
            }
        }
        self.env.values_mut().for_each(values_forgotten);
    }

    /// A frame changed in place: every frame, series and array may be a view of it and is
    /// forgotten, but Series keep their names (a change to a frame renames none); the kernel's
    /// summaries of them no longer hold.
    pub(super) fn forget_after_frame_change(&mut self) {
        self.forget_everywhere(Forget::FrameChanged);
    }

    /// The object a value describes may have changed in place (and with `deep`, the objects it
    /// holds). Names and container elements holding an equal value may hold the same object
    /// (`m = gbr`, `[gbr, rfr]`, a loop's variable): they are forgotten too.
    pub(super) fn forget_object(&mut self, old: &Val, deep: bool) {
        fn objects(v: &Val, deep: bool, out: &mut Vec<Val>) {
            if !matches!(
                v,
                Val::Unknown
                    | Val::Module(_)
                    | Val::Lib(_)
                    | Val::Bool(_)
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
        if !gone.is_empty() {
            self.forget_everywhere(Forget::Objects(gone));
        }
    }

    /// A change through `name` of the list or dict `before` it held. Other names (of this cell or
    /// of earlier ones) and containers holding an equal value may hold the same object
    /// (`al = xs`, `d = {'k': xs}`): they are forgotten (`forget_object`), and a later change
    /// through one of them would go unseen. So they are noted, and what `name` holds after the
    /// change is kept only until a statement changes one of them (`forget_kept_shared`), and
    /// not past the walk (`kept_value`).
    pub(super) fn note_change(&mut self, name: &str, before: &Val) {
        let holders = self.holders(name, before);
        if !holders.is_empty() {
            self.aliases_forgotten.extend(holders);
            self.kept_shared.insert(name.to_string());
        }
    }

    /// The names other than `name` (of this cell or of earlier ones) that hold a list or dict
    /// equal to `value`, or a container holding one: they may hold its object.
    pub(super) fn holders(&self, name: &str, value: &Val) -> BTreeSet<String> {
        if !crate::semantics::containers::is_list_or_dict(value) {
            return BTreeSet::new();
        }
        fn holds(v: &Val, value: &Val) -> bool {
            match v {
                Val::Items { items, .. } | Val::Dict { values: items, .. } => {
                    items.iter().any(|e| e == value || holds(e, value))
                }
                _ => false,
            }
        }
        let earlier = (self.ctx.history.values.iter()).filter(|(n, _)| !self.env.contains_key(*n));
        (self.env.iter().chain(earlier))
            .filter(|(n, v)| (n.as_str() != name && *v == value) || holds(v, value))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// After a statement that may have changed the objects of the names `changed`: when one
    /// is a name `note_change` forgot, what the names changed alongside hold is unknown too.
    pub(super) fn forget_kept_shared(&mut self, changed: &BTreeSet<String>) {
        if !changed.iter().any(|n| self.aliases_forgotten.contains(n)) {
            return;
        }
        for name in std::mem::take(&mut self.kept_shared) {
            self.forget_name(&name);
        }
        self.aliases_forgotten.clear();
    }

    /// What `name` holding `value` passes on to the caller of the function walked: unknown when
    /// kept although a name may hold its object that neither dies with the call nor is seen
    /// sharing it by the caller (none of `gone`; `note_change`).
    pub(crate) fn kept_value(&self, name: &str, value: Val, gone: &BTreeSet<String>) -> Val {
        let shared = self.kept_shared.contains(name)
            && self.aliases_forgotten.iter().any(|n| !gone.contains(n));
        if shared {
            Val::Unknown
        } else {
            value
        }
    }

    /// `name` may now hold another object, or its object (or what it holds) may have changed.
    pub(super) fn forget_name(&mut self, name: &str) {
        let old = self.get(name);
        self.forget_object(&old, true);
        self.env.insert(name.to_string(), Val::Unknown);
    }

    /// A helper for rules: an estimator value if `e` evaluates to one.
    pub fn estimator(&self, e: &Expr) -> Option<Rc<Estimator>> {
        match self.eval(e) {
            Val::Estimator(est) => Some(est),
            _ => None,
        }
    }
}

/// The string `body` computes from `str(param)` when the parameter is a float NaN: `str(x)`,
/// then `.strip()`, `.lower()`, `.upper()`, `.split(sep)[i]` and slices with literal bounds.
pub(super) fn nan_through(body: &Expr, param: &str) -> Option<String> {
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
pub(super) fn slice_of(s: &str, index: &Expr) -> Option<String> {
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

impl Eval for Walker<'_> {
    fn eval(&self, e: &Expr) -> Val {
        Walker::eval(self, e)
    }

    fn lib_path(&self, func: &Expr) -> Option<LibPath> {
        Walker::lib_path(self, func)
    }

    fn is_builtin(&self, name: &str) -> bool {
        Walker::is_builtin(self, name)
    }

    fn get(&self, name: &str) -> Val {
        Walker::get(self, name)
    }

    fn attribute_rewired(&self, attr: &str) -> bool {
        Walker::attribute_rewired(self, attr)
    }

    fn distinct_values(&self, e: &Expr) -> Option<i64> {
        Walker::distinct_values(self, e)
    }

    fn certainly_builtin(&self, name: &str) -> bool {
        Walker::certainly_builtin(self, name)
    }

    fn source(&self) -> &str {
        self.ctx.source
    }

    fn call_value(&self, f: &Expr, args: &[Val]) -> Option<Val> {
        Walker::call_value(self, f, args)
    }
}
