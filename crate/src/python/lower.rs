//! Lowers rustpython's AST to `crate::ir` with explicit matches (rustpython's visitor skips
//! keywords, `with` items, comprehensions, defaults and import aliases, so it is not used).

use rustpython_parser::ast::{self, Constant, Operator, Ranged};

use crate::ir::{
    Alias, AssignOp, CasePattern, Comprehension, Expr, Handler, Keyword, Literal, MatchCase,
    Params, SeqKind, Stmt, Target, TextRange,
};

/// How deeply a top-level statement's IR may nest (statements, expressions and targets counted
/// alike): the passes over the IR recurse, and WebAssembly's stack (about 1 MB) overflowed from
/// about 380 levels. A deeper statement becomes `Stmt::TooDeep`. A chain of 45 method calls
/// (two levels each) fits.
pub const MAX_DEPTH: u32 = 100;

/// Lowers a suite of top-level statements: each deeper than `MAX_DEPTH` becomes `Stmt::TooDeep`.
pub fn lower_suite(suite: Vec<ast::Stmt>) -> Vec<Stmt> {
    suite.into_iter().map(lower_top_level).collect()
}

fn lower_top_level(stmt: ast::Stmt) -> Stmt {
    let range = range_of(&stmt);
    let mut lowering = Lowering::default();
    let lowered = lowering.stmt(stmt);
    if !lowering.too_deep {
        return lowered;
    }
    let mut names = lowering.names;
    lowered.for_each_name(&mut |name| names.push(name.to_owned()));
    names.sort_unstable();
    names.dedup();
    Stmt::TooDeep { names, range }
}

/// The lowering of one top-level statement. Recursion stops at `MAX_DEPTH`: what lies deeper is
/// taken apart without recursion (`dismantle`), as is every part of the AST the IR leaves out,
/// since dropping a deep AST recurses as deep as it nests.
#[derive(Default)]
struct Lowering {
    depth: u32,
    /// Some part lay deeper than `MAX_DEPTH`.
    too_deep: bool,
    /// The names the parts taken apart mention.
    names: Vec<String>,
}

/// A part of rustpython's AST, for `dismantle`'s stack.
enum Node {
    Stmt(ast::Stmt),
    Expr(ast::Expr),
    Pattern(ast::Pattern),
}

fn range_of(node: &impl Ranged) -> TextRange {
    let range = node.range();
    TextRange::new(range.start().into(), range.end().into())
}

impl Lowering {
    /// Lowers `node` one level deeper with `lower`, or takes it apart and gives `placeholder()`
    /// when it lies deeper than `MAX_DEPTH`.
    fn nested<N, T>(
        &mut self,
        node: N,
        as_node: fn(N) -> Node,
        lower: impl FnOnce(&mut Self, N) -> T,
        placeholder: impl FnOnce() -> T,
    ) -> T {
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            self.dismantle(as_node(node));
            return placeholder();
        }
        self.depth += 1;
        let lowered = lower(self, node);
        self.depth -= 1;
        lowered
    }

    fn suite(&mut self, suite: Vec<ast::Stmt>) -> Vec<Stmt> {
        suite.into_iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, stmt: ast::Stmt) -> Stmt {
        let range = range_of(&stmt);
        self.nested(
            stmt,
            Node::Stmt,
            |lowering, stmt| lowering.stmt_inner(stmt, range),
            || Stmt::Other {
                exprs: Vec::new(),
                range,
            },
        )
    }

    fn stmt_inner(&mut self, stmt: ast::Stmt, range: TextRange) -> Stmt {
        match stmt {
            ast::Stmt::FunctionDef(f) => self.function(
                f.name,
                f.decorator_list,
                *f.args,
                f.returns,
                f.type_params,
                f.body,
                range,
            ),
            ast::Stmt::AsyncFunctionDef(f) => self.function(
                f.name,
                f.decorator_list,
                *f.args,
                f.returns,
                f.type_params,
                f.body,
                range,
            ),
            ast::Stmt::ClassDef(c) => {
                self.discard_type_params(c.type_params);
                Stmt::ClassDef {
                    name: String::from(c.name),
                    decorators: self.exprs(c.decorator_list),
                    bases: c
                        .bases
                        .into_iter()
                        .chain(c.keywords.into_iter().map(|k| k.value))
                        .map(|e| self.expr(e))
                        .collect(),
                    body: self.suite(c.body),
                    range,
                }
            }
            ast::Stmt::Return(r) => self.other(r.value.into_iter().map(|v| *v), range),
            ast::Stmt::Delete(d) => Stmt::Delete {
                targets: self.targets(d.targets),
                range,
            },
            ast::Stmt::Assign(a) => Stmt::Assign {
                targets: self.targets(a.targets),
                op: AssignOp::Plain,
                value: Some(self.expr(*a.value)),
                range,
            },
            // `type X = ...` binds `X`; its value is evaluated lazily, so it reads nothing now.
            ast::Stmt::TypeAlias(t) => {
                self.discard_type_params(t.type_params);
                let value_range = range_of(&*t.value);
                self.dismantle(Node::Expr(*t.value));
                Stmt::Assign {
                    targets: vec![self.target(*t.name)],
                    op: AssignOp::Plain,
                    value: Some(Expr::Other {
                        children: Vec::new(),
                        range: value_range,
                    }),
                    range,
                }
            }
            ast::Stmt::AugAssign(a) => Stmt::Assign {
                targets: vec![self.target(*a.target)],
                op: AssignOp::Augmented(augmented_operator(a.op)),
                value: Some(self.expr(*a.value)),
                range,
            },
            ast::Stmt::AnnAssign(a) => Stmt::Assign {
                targets: vec![self.target(*a.target)],
                op: AssignOp::Annotated,
                value: {
                    self.dismantle(Node::Expr(*a.annotation));
                    a.value.map(|v| self.expr(*v))
                },
                range,
            },
            ast::Stmt::For(f) => self.for_loop(*f.target, *f.iter, f.body, f.orelse, range),
            ast::Stmt::AsyncFor(f) => self.for_loop(*f.target, *f.iter, f.body, f.orelse, range),
            ast::Stmt::While(w) => Stmt::While {
                test: self.expr(*w.test),
                body: self.suite(w.body),
                orelse: self.suite(w.orelse),
                range,
            },
            ast::Stmt::If(i) => Stmt::If {
                test: self.expr(*i.test),
                body: self.suite(i.body),
                orelse: self.suite(i.orelse),
                range,
            },
            ast::Stmt::With(w) => self.with(w.items, w.body, range),
            ast::Stmt::AsyncWith(w) => self.with(w.items, w.body, range),
            ast::Stmt::Match(m) => Stmt::Match {
                subject: self.expr(*m.subject),
                cases: m
                    .cases
                    .into_iter()
                    .map(|case| {
                        let names = pattern_names(&case.pattern);
                        let pattern = self.case_pattern(&case.pattern, 0);
                        self.dismantle(Node::Pattern(case.pattern));
                        MatchCase {
                            names,
                            pattern,
                            guard: case.guard.map(|g| self.expr(*g)),
                            body: self.suite(case.body),
                        }
                    })
                    .collect(),
                range,
            },
            ast::Stmt::Raise(r) => self.other(r.exc.into_iter().chain(r.cause).map(|e| *e), range),
            ast::Stmt::Try(t) => {
                self.try_statement(t.body, t.handlers, t.orelse, t.finalbody, range)
            }
            ast::Stmt::TryStar(t) => {
                self.try_statement(t.body, t.handlers, t.orelse, t.finalbody, range)
            }
            ast::Stmt::Assert(a) => {
                self.other(std::iter::once(*a.test).chain(a.msg.map(|m| *m)), range)
            }
            ast::Stmt::Import(i) => Stmt::Import {
                from: None,
                names: aliases(i.names),
                range,
            },
            ast::Stmt::ImportFrom(i) => {
                let dots = ".".repeat(i.level.map_or(0, |level| level.to_usize()));
                let module = i.module.map_or_else(String::new, String::from);
                Stmt::Import {
                    from: Some(dots + &module),
                    names: aliases(i.names),
                    range,
                }
            }
            ast::Stmt::Global(g) => Stmt::Global {
                names: g.names.into_iter().map(String::from).collect(),
                range,
            },
            ast::Stmt::Nonlocal(n) => Stmt::Nonlocal {
                names: n.names.into_iter().map(String::from).collect(),
                range,
            },
            ast::Stmt::Expr(e) => Stmt::Expr {
                value: self.expr(*e.value),
                range,
            },
            ast::Stmt::Pass(_) => Stmt::Pass { range },
            ast::Stmt::Break(_) | ast::Stmt::Continue(_) => self.other(std::iter::empty(), range),
        }
    }

    fn other(&mut self, exprs: impl Iterator<Item = ast::Expr>, range: TextRange) -> Stmt {
        Stmt::Other {
            exprs: exprs.map(|e| self.expr(e)).collect(),
            range,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn function(
        &mut self,
        name: ast::Identifier,
        decorators: Vec<ast::Expr>,
        args: ast::Arguments,
        returns: Option<Box<ast::Expr>>,
        type_params: Vec<ast::TypeParam>,
        body: Vec<ast::Stmt>,
        range: TextRange,
    ) -> Stmt {
        let has_type_params = !type_params.is_empty();
        self.discard_type_params(type_params);
        let mut params = self.params(args, !has_type_params);
        // With type parameters (`def f[T](x: T)`), annotations name them: they are not read here.
        match returns {
            Some(r) if !has_type_params => params.defaults.push(self.expr(*r)),
            Some(r) => self.dismantle(Node::Expr(*r)),
            None => {}
        }
        Stmt::FunctionDef {
            name: String::from(name),
            decorators: self.exprs(decorators),
            params,
            body: self.suite(body),
            range,
        }
    }

    /// Parameter names, and the defaults and (when `with_annotations`) annotations evaluated when
    /// the function is defined.
    fn params(&mut self, args: ast::Arguments, with_annotations: bool) -> Params {
        let mut params = Params::default();
        let add = |lowering: &mut Self,
                   arg: ast::Arg,
                   default: Option<Box<ast::Expr>>,
                   params: &mut Params| {
            params.names.push(String::from(arg.arg));
            params.default_of.push(default.map(|d| {
                params.defaults.push(lowering.expr(*d));
                params.defaults.len() - 1
            }));
            match arg.annotation {
                Some(a) if with_annotations => params.defaults.push(lowering.expr(*a)),
                Some(a) => lowering.dismantle(Node::Expr(*a)),
                None => {}
            }
        };
        params.posonly = args.posonlyargs.len();
        for arg in args.posonlyargs.into_iter().chain(args.args) {
            params.positional += 1;
            if arg.default.is_some() {
                params.positional_defaults += 1;
            }
            add(self, arg.def, arg.default, &mut params);
        }
        if let Some(vararg) = args.vararg {
            params.vararg = true;
            add(self, *vararg, None, &mut params);
        }
        for arg in args.kwonlyargs {
            params.keyword_only_required.push(arg.default.is_none());
            add(self, arg.def, arg.default, &mut params);
        }
        if let Some(kwarg) = args.kwarg {
            params.kwarg = true;
            add(self, *kwarg, None, &mut params);
        }
        params
    }

    fn discard_type_params(&mut self, type_params: Vec<ast::TypeParam>) {
        for param in type_params {
            if let ast::TypeParam::TypeVar(var) = param {
                if let Some(bound) = var.bound {
                    self.dismantle(Node::Expr(*bound));
                }
            }
        }
    }

    fn for_loop(
        &mut self,
        loop_target: ast::Expr,
        iter: ast::Expr,
        body: Vec<ast::Stmt>,
        orelse: Vec<ast::Stmt>,
        range: TextRange,
    ) -> Stmt {
        Stmt::For {
            target: self.target(loop_target),
            iter: self.expr(iter),
            body: self.suite(body),
            orelse: self.suite(orelse),
            range,
        }
    }

    fn with(&mut self, items: Vec<ast::WithItem>, body: Vec<ast::Stmt>, range: TextRange) -> Stmt {
        Stmt::With {
            items: items
                .into_iter()
                .map(|item| {
                    (
                        self.expr(item.context_expr),
                        item.optional_vars.map(|v| self.target(*v)),
                    )
                })
                .collect(),
            body: self.suite(body),
            range,
        }
    }

    fn try_statement(
        &mut self,
        body: Vec<ast::Stmt>,
        handlers: Vec<ast::ExceptHandler>,
        orelse: Vec<ast::Stmt>,
        finalbody: Vec<ast::Stmt>,
        range: TextRange,
    ) -> Stmt {
        Stmt::Try {
            body: self.suite(body),
            handlers: handlers
                .into_iter()
                .map(|ast::ExceptHandler::ExceptHandler(handler)| Handler {
                    range: range_of(&handler),
                    kind: handler.type_.map(|t| self.expr(*t)),
                    name: handler.name.map(String::from),
                    body: self.suite(handler.body),
                })
                .collect(),
            orelse: self.suite(orelse),
            finalbody: self.suite(finalbody),
            range,
        }
    }

    fn targets(&mut self, targets: Vec<ast::Expr>) -> Vec<Target> {
        targets.into_iter().map(|t| self.target(t)).collect()
    }

    fn target(&mut self, expr: ast::Expr) -> Target {
        let range = range_of(&expr);
        let placeholder = || Target::Store {
            expr: Expr::Other {
                children: Vec::new(),
                range,
            },
            range,
        };
        self.nested(
            expr,
            Node::Expr,
            |lowering, expr| match expr {
                ast::Expr::Name(n) => Target::Name {
                    id: String::from(n.id),
                    range,
                },
                ast::Expr::Tuple(ast::ExprTuple { elts, .. })
                | ast::Expr::List(ast::ExprList { elts, .. }) => Target::Unpack {
                    elts: lowering.targets(elts),
                    range,
                },
                ast::Expr::Starred(s) => Target::Starred {
                    target: Box::new(lowering.target(*s.value)),
                    range,
                },
                other => Target::Store {
                    expr: lowering.expr(other),
                    range,
                },
            },
            placeholder,
        )
    }

    fn exprs(&mut self, list: Vec<ast::Expr>) -> Vec<Expr> {
        list.into_iter().map(|e| self.expr(e)).collect()
    }

    fn boxed(&mut self, expr: ast::Expr) -> Box<Expr> {
        Box::new(self.expr(expr))
    }

    fn expr(&mut self, expr: ast::Expr) -> Expr {
        let range = range_of(&expr);
        self.nested(
            expr,
            Node::Expr,
            |lowering, expr| lowering.expr_inner(expr, range),
            || Expr::Other {
                children: Vec::new(),
                range,
            },
        )
    }

    fn expr_inner(&mut self, expr: ast::Expr, range: TextRange) -> Expr {
        match expr {
            ast::Expr::Name(n) => Expr::Name {
                id: String::from(n.id),
                range,
            },
            ast::Expr::Attribute(a) => Expr::Attribute {
                value: self.boxed(*a.value),
                attr: String::from(a.attr),
                range,
            },
            ast::Expr::Subscript(s) => Expr::Subscript {
                value: self.boxed(*s.value),
                index: self.boxed(*s.slice),
                range,
            },
            ast::Expr::Call(c) => Expr::Call {
                func: self.boxed(*c.func),
                args: self.exprs(c.args),
                keywords: c
                    .keywords
                    .into_iter()
                    .map(|k| Keyword {
                        range: range_of(&k),
                        name: k.arg.map(String::from),
                        value: self.expr(k.value),
                    })
                    .collect(),
                range,
            },
            ast::Expr::Constant(c) => match literal(c.value) {
                Some(value) => Expr::Literal { value, range },
                None => Expr::Other {
                    children: Vec::new(),
                    range,
                },
            },
            // `-1` is a literal to the analysis (`reshape(-1, 1)`, `axis=-1`).
            ast::Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => {
                let operand = self.expr(*u.operand);
                if let Expr::Literal { value, .. } = &operand {
                    if let Some(value) = negate(value) {
                        return Expr::Literal { value, range };
                    }
                }
                Expr::Other {
                    children: vec![operand],
                    range,
                }
            }
            ast::Expr::List(l) => self.seq(SeqKind::List, l.elts, range),
            ast::Expr::Tuple(t) => self.seq(SeqKind::Tuple, t.elts, range),
            ast::Expr::Set(s) => self.seq(SeqKind::Set, s.elts, range),
            ast::Expr::Dict(d) => Expr::Dict {
                keys: d
                    .keys
                    .into_iter()
                    .map(|k| k.map(|k| self.expr(k)))
                    .collect(),
                values: self.exprs(d.values),
                range,
            },
            ast::Expr::Slice(s) => Expr::Slice {
                lower: s.lower.map(|e| self.boxed(*e)),
                upper: s.upper.map(|e| self.boxed(*e)),
                step: s.step.map(|e| self.boxed(*e)),
                range,
            },
            ast::Expr::Starred(s) => Expr::Starred {
                value: self.boxed(*s.value),
                range,
            },
            ast::Expr::BinOp(b) => Expr::BinOp {
                op: operator(b.op),
                left: self.boxed(*b.left),
                right: self.boxed(*b.right),
                range,
            },
            ast::Expr::NamedExpr(n) => match *n.target {
                ast::Expr::Name(name) => Expr::Walrus {
                    target: String::from(name.id),
                    value: self.boxed(*n.value),
                    range,
                },
                target => Expr::Other {
                    children: vec![self.expr(target), self.expr(*n.value)],
                    range,
                },
            },
            ast::Expr::Lambda(l) => Expr::Lambda {
                params: self.params(*l.args, false),
                body: self.boxed(*l.body),
                range,
            },
            ast::Expr::ListComp(c) => self.comprehension(vec![*c.elt], c.generators, range),
            ast::Expr::SetComp(c) => self.comprehension(vec![*c.elt], c.generators, range),
            ast::Expr::GeneratorExp(c) => self.comprehension(vec![*c.elt], c.generators, range),
            ast::Expr::DictComp(c) => {
                self.comprehension(vec![*c.key, *c.value], c.generators, range)
            }
            ast::Expr::BoolOp(b) => self.other_expr(b.values, range),
            ast::Expr::Compare(c) => self.other_expr(
                std::iter::once(*c.left).chain(c.comparators).collect(),
                range,
            ),
            ast::Expr::IfExp(i) => self.other_expr(vec![*i.test, *i.body, *i.orelse], range),
            ast::Expr::UnaryOp(u) => self.other_expr(vec![*u.operand], range),
            ast::Expr::Await(a) => self.other_expr(vec![*a.value], range),
            ast::Expr::Yield(y) => {
                self.other_expr(y.value.into_iter().map(|v| *v).collect(), range)
            }
            ast::Expr::YieldFrom(y) => self.other_expr(vec![*y.value], range),
            ast::Expr::JoinedStr(j) => self.other_expr(j.values, range),
            ast::Expr::FormattedValue(f) => self.other_expr(
                std::iter::once(*f.value)
                    .chain(f.format_spec.map(|s| *s))
                    .collect(),
                range,
            ),
        }
    }

    fn other_expr(&mut self, children: Vec<ast::Expr>, range: TextRange) -> Expr {
        Expr::Other {
            children: self.exprs(children),
            range,
        }
    }

    fn seq(&mut self, kind: SeqKind, elts: Vec<ast::Expr>, range: TextRange) -> Expr {
        Expr::Seq {
            kind,
            elts: self.exprs(elts),
            range,
        }
    }

    fn comprehension(
        &mut self,
        elements: Vec<ast::Expr>,
        generators: Vec<ast::Comprehension>,
        range: TextRange,
    ) -> Expr {
        Expr::Comprehension {
            elements: self.exprs(elements),
            generators: generators
                .into_iter()
                .map(|g| Comprehension {
                    target: self.target(g.target),
                    iter: self.expr(g.iter),
                    ifs: self.exprs(g.ifs),
                })
                .collect(),
            range,
        }
    }

    /// Takes a part of the AST apart with a stack of its own, collecting the names it mentions
    /// (as `Stmt::for_each_name` does): dropping it whole would recurse as deep as it nests.
    /// What a `case` pattern matches (`ir::CasePattern`), `depth` patterns deep (past
    /// `MAX_PATTERN_DEPTH`, `Other`: patterns nest without limit).
    fn case_pattern(&mut self, pattern: &ast::Pattern, depth: usize) -> CasePattern {
        if depth > MAX_PATTERN_DEPTH {
            return CasePattern::Other;
        }
        let inner = |lowering: &mut Self, p: &ast::Pattern| lowering.case_pattern(p, depth + 1);
        match pattern {
            ast::Pattern::MatchAs(p) => {
                let matched = match &p.pattern {
                    None => CasePattern::Any,
                    Some(p) => inner(self, p),
                };
                match &p.name {
                    None => matched,
                    Some(name) => CasePattern::Capture {
                        name: name.as_str().to_owned(),
                        pattern: Box::new(matched),
                    },
                }
            }
            ast::Pattern::MatchSingleton(p) => {
                literal(p.value.clone()).map_or(CasePattern::Other, CasePattern::Literal)
            }
            ast::Pattern::MatchValue(p) => match pattern_literal(&p.value) {
                Some(l) => CasePattern::Literal(l),
                None if matches!(&*p.value, ast::Expr::Attribute(_)) => {
                    CasePattern::Value(self.expr((*p.value).clone()))
                }
                None => CasePattern::Other,
            },
            ast::Pattern::MatchSequence(p) => {
                let mut items = Vec::new();
                let mut star = None;
                for (i, item) in p.patterns.iter().enumerate() {
                    match item {
                        ast::Pattern::MatchStar(s) => {
                            star = Some((i, s.name.as_ref().map(|n| n.as_str().to_owned())))
                        }
                        _ => items.push(inner(self, item)),
                    }
                }
                CasePattern::Sequence { items, star }
            }
            ast::Pattern::MatchMapping(p) => {
                let keys: Option<Vec<Literal>> = p.keys.iter().map(pattern_literal).collect();
                let Some(keys) = keys else {
                    return CasePattern::Other;
                };
                CasePattern::Mapping {
                    keys,
                    values: p.patterns.iter().map(|v| inner(self, v)).collect(),
                    rest: p.rest.as_ref().map(|n| n.as_str().to_owned()),
                }
            }
            ast::Pattern::MatchOr(p) => {
                CasePattern::Or(p.patterns.iter().map(|a| inner(self, a)).collect())
            }
            ast::Pattern::MatchClass(p) if p.kwd_patterns.is_empty() => CasePattern::Class {
                class: self.expr((*p.cls).clone()),
                args: p.patterns.iter().map(|a| inner(self, a)).collect(),
            },
            ast::Pattern::MatchClass(_) | ast::Pattern::MatchStar(_) => CasePattern::Other,
        }
    }

    fn dismantle(&mut self, root: Node) {
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            match node {
                Node::Stmt(stmt) => self.dismantle_stmt(stmt, &mut stack),
                Node::Expr(expr) => self.dismantle_expr(expr, &mut stack),
                Node::Pattern(pattern) => self.dismantle_pattern(pattern, &mut stack),
            }
        }
    }

    fn dismantle_stmt(&mut self, stmt: ast::Stmt, stack: &mut Vec<Node>) {
        let mut exprs: Vec<ast::Expr> = Vec::new();
        let mut stmts: Vec<ast::Stmt> = Vec::new();
        let arguments = |args: ast::Arguments, exprs: &mut Vec<ast::Expr>| {
            for arg in args
                .posonlyargs
                .into_iter()
                .chain(args.args)
                .chain(args.kwonlyargs)
            {
                exprs.extend(arg.default.map(|d| *d));
                exprs.extend(arg.def.annotation.map(|a| *a));
            }
            for arg in args.vararg.into_iter().chain(args.kwarg) {
                exprs.extend(arg.annotation.map(|a| *a));
            }
        };
        let bounds = |params: Vec<ast::TypeParam>, exprs: &mut Vec<ast::Expr>| {
            for param in params {
                if let ast::TypeParam::TypeVar(var) = param {
                    exprs.extend(var.bound.map(|b| *b));
                }
            }
        };
        match stmt {
            ast::Stmt::FunctionDef(f) => {
                self.names.push(String::from(f.name));
                exprs.extend(f.decorator_list);
                arguments(*f.args, &mut exprs);
                exprs.extend(f.returns.map(|r| *r));
                bounds(f.type_params, &mut exprs);
                stmts.extend(f.body);
            }
            ast::Stmt::AsyncFunctionDef(f) => {
                self.names.push(String::from(f.name));
                exprs.extend(f.decorator_list);
                arguments(*f.args, &mut exprs);
                exprs.extend(f.returns.map(|r| *r));
                bounds(f.type_params, &mut exprs);
                stmts.extend(f.body);
            }
            ast::Stmt::ClassDef(c) => {
                self.names.push(String::from(c.name));
                exprs.extend(c.decorator_list);
                exprs.extend(c.bases);
                exprs.extend(c.keywords.into_iter().map(|k| k.value));
                bounds(c.type_params, &mut exprs);
                stmts.extend(c.body);
            }
            ast::Stmt::Return(r) => exprs.extend(r.value.map(|v| *v)),
            ast::Stmt::Delete(d) => exprs.extend(d.targets),
            ast::Stmt::Assign(a) => {
                exprs.extend(a.targets);
                exprs.push(*a.value);
            }
            ast::Stmt::TypeAlias(t) => {
                exprs.push(*t.name);
                exprs.push(*t.value);
                bounds(t.type_params, &mut exprs);
            }
            ast::Stmt::AugAssign(a) => exprs.extend([*a.target, *a.value]),
            ast::Stmt::AnnAssign(a) => {
                exprs.extend([*a.target, *a.annotation]);
                exprs.extend(a.value.map(|v| *v));
            }
            ast::Stmt::For(f) => {
                exprs.extend([*f.target, *f.iter]);
                stmts.extend(f.body.into_iter().chain(f.orelse));
            }
            ast::Stmt::AsyncFor(f) => {
                exprs.extend([*f.target, *f.iter]);
                stmts.extend(f.body.into_iter().chain(f.orelse));
            }
            ast::Stmt::While(w) => {
                exprs.push(*w.test);
                stmts.extend(w.body.into_iter().chain(w.orelse));
            }
            ast::Stmt::If(i) => {
                exprs.push(*i.test);
                stmts.extend(i.body.into_iter().chain(i.orelse));
            }
            ast::Stmt::With(w) => {
                for item in w.items {
                    exprs.push(item.context_expr);
                    exprs.extend(item.optional_vars.map(|v| *v));
                }
                stmts.extend(w.body);
            }
            ast::Stmt::AsyncWith(w) => {
                for item in w.items {
                    exprs.push(item.context_expr);
                    exprs.extend(item.optional_vars.map(|v| *v));
                }
                stmts.extend(w.body);
            }
            ast::Stmt::Match(m) => {
                exprs.push(*m.subject);
                for case in m.cases {
                    stack.push(Node::Pattern(case.pattern));
                    exprs.extend(case.guard.map(|g| *g));
                    stmts.extend(case.body);
                }
            }
            ast::Stmt::Raise(r) => exprs.extend(r.exc.into_iter().chain(r.cause).map(|e| *e)),
            ast::Stmt::Try(t) => {
                self.handlers(t.handlers, &mut exprs, &mut stmts);
                stmts.extend(t.body.into_iter().chain(t.orelse).chain(t.finalbody));
            }
            ast::Stmt::TryStar(t) => {
                self.handlers(t.handlers, &mut exprs, &mut stmts);
                stmts.extend(t.body.into_iter().chain(t.orelse).chain(t.finalbody));
            }
            ast::Stmt::Assert(a) => {
                exprs.push(*a.test);
                exprs.extend(a.msg.map(|m| *m));
            }
            ast::Stmt::Import(i) => self.import_names(aliases(i.names)),
            ast::Stmt::ImportFrom(i) => self.import_names(aliases(i.names)),
            ast::Stmt::Global(g) => self
                .names
                .extend(g.names.iter().map(|n| n.as_str().to_owned())),
            ast::Stmt::Nonlocal(n) => self
                .names
                .extend(n.names.iter().map(|n| n.as_str().to_owned())),
            ast::Stmt::Expr(e) => exprs.push(*e.value),
            ast::Stmt::Pass(_) | ast::Stmt::Break(_) | ast::Stmt::Continue(_) => {}
        }
        stack.extend(exprs.into_iter().map(Node::Expr));
        stack.extend(stmts.into_iter().map(Node::Stmt));
    }

    fn handlers(
        &mut self,
        handlers: Vec<ast::ExceptHandler>,
        exprs: &mut Vec<ast::Expr>,
        stmts: &mut Vec<ast::Stmt>,
    ) {
        for ast::ExceptHandler::ExceptHandler(handler) in handlers {
            self.names.extend(handler.name.map(String::from));
            exprs.extend(handler.type_.map(|t| *t));
            stmts.extend(handler.body);
        }
    }

    fn import_names(&mut self, aliases: Vec<Alias>) {
        self.names.extend(
            aliases
                .iter()
                .filter_map(Alias::bound_name)
                .map(str::to_owned),
        );
    }

    fn dismantle_expr(&mut self, expr: ast::Expr, stack: &mut Vec<Node>) {
        let mut push = |e: ast::Expr| stack.push(Node::Expr(e));
        match expr {
            ast::Expr::Name(n) => self.names.push(String::from(n.id)),
            ast::Expr::BoolOp(b) => b.values.into_iter().for_each(push),
            ast::Expr::NamedExpr(n) => [*n.target, *n.value].into_iter().for_each(push),
            ast::Expr::BinOp(b) => [*b.left, *b.right].into_iter().for_each(push),
            ast::Expr::UnaryOp(u) => push(*u.operand),
            ast::Expr::Lambda(l) => {
                let args = *l.args;
                for arg in args
                    .posonlyargs
                    .into_iter()
                    .chain(args.args)
                    .chain(args.kwonlyargs)
                {
                    arg.default.into_iter().for_each(|d| push(*d));
                    arg.def.annotation.into_iter().for_each(|a| push(*a));
                }
                push(*l.body);
            }
            ast::Expr::IfExp(i) => [*i.test, *i.body, *i.orelse].into_iter().for_each(push),
            ast::Expr::Dict(d) => {
                d.keys.into_iter().flatten().for_each(&mut push);
                d.values.into_iter().for_each(push);
            }
            ast::Expr::Set(s) => s.elts.into_iter().for_each(push),
            ast::Expr::ListComp(c) => {
                push(*c.elt);
                generators(c.generators, &mut push);
            }
            ast::Expr::SetComp(c) => {
                push(*c.elt);
                generators(c.generators, &mut push);
            }
            ast::Expr::GeneratorExp(c) => {
                push(*c.elt);
                generators(c.generators, &mut push);
            }
            ast::Expr::DictComp(c) => {
                push(*c.key);
                push(*c.value);
                generators(c.generators, &mut push);
            }
            ast::Expr::Await(a) => push(*a.value),
            ast::Expr::Yield(y) => y.value.into_iter().for_each(|v| push(*v)),
            ast::Expr::YieldFrom(y) => push(*y.value),
            ast::Expr::Compare(c) => {
                push(*c.left);
                c.comparators.into_iter().for_each(push);
            }
            ast::Expr::Call(c) => {
                push(*c.func);
                c.args.into_iter().for_each(&mut push);
                c.keywords.into_iter().for_each(|k| push(k.value));
            }
            ast::Expr::FormattedValue(f) => {
                push(*f.value);
                f.format_spec.into_iter().for_each(|s| push(*s));
            }
            ast::Expr::JoinedStr(j) => j.values.into_iter().for_each(push),
            ast::Expr::Constant(_) => {}
            ast::Expr::Attribute(a) => push(*a.value),
            ast::Expr::Subscript(s) => [*s.value, *s.slice].into_iter().for_each(push),
            ast::Expr::Starred(s) => push(*s.value),
            ast::Expr::List(l) => l.elts.into_iter().for_each(push),
            ast::Expr::Tuple(t) => t.elts.into_iter().for_each(push),
            ast::Expr::Slice(s) => [s.lower, s.upper, s.step]
                .into_iter()
                .flatten()
                .for_each(|e| push(*e)),
        }
    }

    fn dismantle_pattern(&mut self, pattern: ast::Pattern, stack: &mut Vec<Node>) {
        let mut push = |p: ast::Pattern| stack.push(Node::Pattern(p));
        match pattern {
            ast::Pattern::MatchValue(p) => stack.push(Node::Expr(*p.value)),
            ast::Pattern::MatchSingleton(_) => {}
            ast::Pattern::MatchSequence(p) => p.patterns.into_iter().for_each(push),
            ast::Pattern::MatchMapping(p) => {
                self.names.extend(p.rest.map(String::from));
                p.patterns.into_iter().for_each(push);
                stack.extend(p.keys.into_iter().map(Node::Expr));
            }
            ast::Pattern::MatchClass(p) => {
                p.patterns.into_iter().chain(p.kwd_patterns).for_each(push);
                stack.push(Node::Expr(*p.cls));
            }
            ast::Pattern::MatchStar(p) => self.names.extend(p.name.map(String::from)),
            ast::Pattern::MatchAs(p) => {
                self.names.extend(p.name.map(String::from));
                p.pattern.into_iter().for_each(|p| push(*p));
            }
            ast::Pattern::MatchOr(p) => p.patterns.into_iter().for_each(push),
        }
    }
}

fn generators(generators: Vec<ast::Comprehension>, push: &mut impl FnMut(ast::Expr)) {
    for g in generators {
        push(g.target);
        push(g.iter);
        g.ifs.into_iter().for_each(&mut *push);
    }
}

fn aliases(names: Vec<ast::Alias>) -> Vec<Alias> {
    names
        .into_iter()
        .map(|alias| Alias {
            range: range_of(&alias),
            name: String::from(alias.name),
            asname: alias.asname.map(String::from),
        })
        .collect()
}

/// The names a `case` pattern binds, in order, with a stack of its own (patterns nest without
/// limit).
fn pattern_names(pattern: &ast::Pattern) -> Vec<String> {
    enum Item<'p> {
        Pattern(&'p ast::Pattern),
        Name(&'p ast::Identifier),
    }
    let mut names = Vec::new();
    let mut stack = vec![Item::Pattern(pattern)];
    fn patterns(list: &[ast::Pattern]) -> impl Iterator<Item = Item<'_>> {
        list.iter().rev().map(Item::Pattern)
    }
    while let Some(item) = stack.pop() {
        let pattern = match item {
            Item::Name(name) => {
                names.push(name.as_str().to_owned());
                continue;
            }
            Item::Pattern(pattern) => pattern,
        };
        match pattern {
            ast::Pattern::MatchValue(_) | ast::Pattern::MatchSingleton(_) => {}
            ast::Pattern::MatchSequence(p) => stack.extend(patterns(&p.patterns)),
            ast::Pattern::MatchMapping(p) => {
                stack.extend(p.rest.as_ref().map(Item::Name));
                stack.extend(patterns(&p.patterns));
            }
            ast::Pattern::MatchClass(p) => {
                stack.extend(patterns(&p.kwd_patterns));
                stack.extend(patterns(&p.patterns));
            }
            ast::Pattern::MatchStar(p) => {
                names.extend(p.name.as_ref().map(|n| n.as_str().to_owned()))
            }
            ast::Pattern::MatchAs(p) => {
                stack.extend(p.name.as_ref().map(Item::Name));
                stack.extend(p.pattern.as_deref().map(Item::Pattern));
            }
            ast::Pattern::MatchOr(p) => stack.extend(patterns(&p.patterns)),
        }
    }
    names
}

fn literal(constant: Constant) -> Option<Literal> {
    Some(match constant {
        Constant::None => Literal::None,
        Constant::Bool(b) => Literal::Bool(b),
        Constant::Str(s) => Literal::Str(s),
        Constant::Bytes(_) => Literal::Bytes,
        Constant::Int(i) => match i64::try_from(&i) {
            Ok(small) => Literal::Int(small),
            Err(_) => Literal::BigInt(i.to_string()),
        },
        Constant::Float(f) => Literal::Float(f),
        Constant::Ellipsis => Literal::Ellipsis,
        Constant::Tuple(_) | Constant::Complex { .. } => return None,
    })
}

/// How deep `case` patterns are followed.
const MAX_PATTERN_DEPTH: usize = 16;

/// The literal a pattern's constant is (`3`, `-1`, `'a'`).
fn pattern_literal(value: &ast::Expr) -> Option<Literal> {
    match value {
        ast::Expr::Constant(c) => literal(c.value.clone()),
        ast::Expr::UnaryOp(u) if u.op == ast::UnaryOp::USub => match &*u.operand {
            ast::Expr::Constant(c) => literal(c.value.clone()).and_then(|l| negate(&l)),
            _ => None,
        },
        _ => None,
    }
}

fn negate(value: &Literal) -> Option<Literal> {
    match value {
        Literal::Int(i) => i.checked_neg().map(Literal::Int),
        Literal::Float(f) => Some(Literal::Float(-f)),
        Literal::BigInt(digits) => Some(Literal::BigInt(format!("-{digits}"))),
        _ => None,
    }
}

fn operator(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "**",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

fn augmented_operator(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+=",
        Operator::Sub => "-=",
        Operator::Mult => "*=",
        Operator::MatMult => "@=",
        Operator::Div => "/=",
        Operator::Mod => "%=",
        Operator::Pow => "**=",
        Operator::LShift => "<<=",
        Operator::RShift => ">>=",
        Operator::BitOr => "|=",
        Operator::BitXor => "^=",
        Operator::BitAnd => "&=",
        Operator::FloorDiv => "//=",
    }
}
