//! Handing what is evaluated to the rules: each statement's iterated or unpacked values, and
//! every expression that will certainly be evaluated.

use std::collections::BTreeSet;

use crate::ir::{Expr, Stmt, Target, TextRange};

use crate::semantics::abstract_value::Val;

use super::state::Walker;
use crate::ir_scan::target_names;

impl<'a> Walker<'a> {
    /// Does evaluating `e` call nothing that may change a value (a method of a name other than
    /// `own`, the comprehension's variables, or a function of the notebook), nor bind a walrus?
    fn changes_nothing(&self, e: &Expr, own: &BTreeSet<String>) -> bool {
        let mut calm = true;
        let mut visit = |c: &Expr| calm &= self.changes_nothing(c, own);
        match e {
            Expr::Walrus { .. } | Expr::Lambda { .. } | Expr::Comprehension { .. } => return false,
            Expr::Call { func, .. } => {
                let safe = match &**func {
                    Expr::Name { id, .. } => self.user_function(id).is_none(),
                    Expr::Attribute { value, .. } => {
                        matches!(&**value, Expr::Name { id, .. } if own.contains(id))
                    }
                    _ => false,
                };
                if !safe {
                    return false;
                }
            }
            _ => {}
        }
        e.for_each_child(&mut visit);
        calm
    }

    /// Runs the rules on what a statement iterates or unpacks, its expressions evaluated.
    pub(super) fn check_stmt_values(&mut self, stmt: &Stmt) {
        let mut found = Vec::new();
        self.checks.statement(self, stmt, &mut found);
        self.out.extend(found);
    }

    /// Runs the rules on `expr` and on the sub-expressions that will certainly be evaluated.
    pub fn check(&mut self, expr: &Expr) {
        match expr {
            Expr::Lambda { params, .. } => {
                params
                    .defaults
                    .iter()
                    .for_each(|d| self.forget_walrus_targets(d));
                return;
            }
            Expr::Comprehension {
                elements,
                generators,
                ..
            } => {
                if let Some(g) = generators.first() {
                    self.check(&g.iter);
                }
                // One generator over a non-empty iterable, no condition: the elements are
                // evaluated at least once, the target names holding the first element where
                // that is known (what every element shares, as a row's shape); each element
                // in turn, up to the first finding, when the walker knows them all and the
                // element calls nothing that may change what the next one sees.
                if let [g] = generators.as_slice() {
                    if g.ifs.is_empty() && self.non_empty(&g.iter) {
                        let mut names = BTreeSet::new();
                        target_names(&g.target, &mut names, false);
                        let passes = self
                            .loop_elements(&g.iter)
                            .filter(|all| {
                                !all.is_empty()
                                    && all.len() <= 64
                                    && elements.iter().all(|e| self.changes_nothing(e, &names))
                            })
                            .unwrap_or_else(|| vec![self.first_element(&g.iter)]);
                        let found_before = self.out.len();
                        for element in passes {
                            if self.out.len() > found_before {
                                break;
                            }
                            let mut bindings = Vec::new();
                            element_bindings(&g.target, element, &mut bindings);
                            let mark = self.shadowed.len();
                            let saved: Vec<(String, Option<Val>, bool)> = names
                                .iter()
                                .cloned()
                                .map(|n| {
                                    let val = bindings
                                        .iter()
                                        .find(|(name, _)| *name == n)
                                        .map_or(Val::Unknown, |(_, v)| v.clone());
                                    let before = self.env.insert(n.clone(), val);
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
                }
                let mut found = Vec::new();
                self.checks.comprehension(self, expr, &mut found);
                self.out.extend(found);
                // A walrus in it binds in this scope, maybe never, maybe at every element.
                self.forget_walrus_targets(expr);
                return;
            }
            Expr::Other { children, range } => {
                if let Some([test, body, orelse]) = self.conditional(expr) {
                    // `x if c else y`: the test runs, one branch of the two (known when the
                    // test's truth is).
                    self.check(test);
                    match crate::semantics::python::truth(&self.eval(test)) {
                        Some(true) => self.check(body),
                        Some(false) => self.check(orelse),
                        None => {
                            self.forget_walrus_targets(body);
                            self.forget_walrus_targets(orelse);
                        }
                    }
                    return;
                }
                if self.short_circuits(*range, children) {
                    // `a and b`, `a or b`: the first operand always runs, and the rules see
                    // the operator ask for its truth.
                    if let [first, second, ..] = children.as_slice() {
                        let op = self.text(TextRange::new(first.range().end, second.range().start));
                        let op =
                            op.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
                        if matches!(op, "and" | "or") {
                            // An operand runs when the one before it did not decide:
                            // a true one for `and`, a false one for `or`.
                            let and = op == "and";
                            self.check(first);
                            let mut decided_at = 1;
                            while decided_at < children.len()
                                && crate::semantics::python::truth(
                                    &self.eval(&children[decided_at - 1]),
                                ) == Some(and)
                            {
                                self.check(&children[decided_at]);
                                decided_at += 1;
                            }
                            children[decided_at..]
                                .iter()
                                .for_each(|c| self.forget_walrus_targets(c));
                            let mut found = Vec::new();
                            self.checks.expression(self, expr, &mut found);
                            self.out.extend(found);
                            return;
                        }
                    }
                    children.iter().for_each(|c| self.forget_walrus_targets(c));
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
            Expr::Walrus { target, value, .. } => {
                self.check(value);
                // `(df := ...)` binds the name in this scope when it runs.
                let val = self.eval(expr);
                self.bound_here.insert(target.clone());
                self.env.insert(target.clone(), val);
            }
            Expr::Name { .. } | Expr::Literal { .. } => {}
        }
        let mut found = Vec::new();
        if let Expr::Call { func, .. } = expr {
            self.callee_path = Some((&**func, self.lib_path(func)));
        }
        self.look_at(expr);
        self.checks.expression(self, expr, &mut found);
        self.looked_at.get_mut().clear();
        self.callee_path = None;
        self.out.extend(found);
        if !self.speculating {
            self.follow_call(expr);
        }
    }

    /// The names walruses in `e` bind may or may not be bound (a branch that may not run, a
    /// comprehension's elements): what they hold is unknown.
    pub(super) fn forget_walrus_targets(&mut self, e: &Expr) {
        let mut targets = BTreeSet::new();
        walrus_targets(e, &mut targets);
        for name in targets {
            self.forget_name(&name);
            self.bound_here.insert(name);
        }
    }

    /// Lists `expr`, its first direct operands and a method's receiver for `eval` to keep their
    /// values while the rules look at `expr`. Comprehensions and lambdas are left out: their parts
    /// are evaluated with their own variables. `eval` scans the list: a call of 20,000 arguments
    /// keeps the first few only.
    fn look_at(&mut self, expr: &Expr) {
        const OPERANDS_KEPT: usize = 8;
        let looked_at = self.looked_at.get_mut();
        looked_at.push((expr, None));
        if matches!(expr, Expr::Comprehension { .. } | Expr::Lambda { .. }) {
            return;
        }
        expr.for_each_child(|child| {
            if looked_at.len() <= OPERANDS_KEPT {
                looked_at.push((child, None));
            }
        });
        if let Expr::Call { func, .. } = expr {
            if let Expr::Attribute { value, .. } = &**func {
                looked_at.push((&**value, None));
            }
        }
    }

    /// `a and b`, `a or b`, `x if c else y`: some children may never be evaluated. The IR folds
    /// these into `Other`, so look at the source between the children.
    pub(super) fn short_circuits(&self, range: TextRange, children: &[Expr]) -> bool {
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
}

/// The names the walruses in `e` bind in its scope (those in comprehensions too, not in lambda
/// bodies).
fn walrus_targets(e: &Expr, out: &mut BTreeSet<String>) {
    match e {
        Expr::Walrus { target, value, .. } => {
            out.insert(target.clone());
            walrus_targets(value, out);
        }
        Expr::Lambda { params, .. } => params.defaults.iter().for_each(|d| walrus_targets(d, out)),
        _ => e.for_each_child(|c| walrus_targets(c, out)),
    }
}

/// The names a target binds to parts of `val`, as assignment unpacks them (`i, row` of a pair);
/// parts not known one by one are unknown.
fn element_bindings(t: &Target, val: Val, out: &mut Vec<(String, Val)>) {
    match t {
        Target::Name { id, .. } => out.push((id.clone(), val)),
        Target::Unpack { elts, .. } => {
            for (e, v) in elts
                .iter()
                .zip(super::statements::unpacked_parts(val, elts))
            {
                element_bindings(e, v, out);
            }
        }
        Target::Starred { target, .. } => element_bindings(target, val, out),
        Target::Store { .. } => {}
    }
}
