//! Lowers rustpython's AST to `crate::ir` with explicit matches (rustpython's visitor skips
//! keywords, `with` items, comprehensions, defaults and import aliases, so it is not used).

use rustpython_parser::ast::{self, Constant, Operator, Ranged};

use crate::ir::{
    Alias, AssignOp, Comprehension, Expr, Handler, Keyword, Literal, Params, SeqKind, Stmt, Target,
    TextRange,
};

pub fn lower_suite(suite: Vec<ast::Stmt>) -> Vec<Stmt> {
    suite.into_iter().map(lower_stmt).collect()
}

fn range_of(node: &impl Ranged) -> TextRange {
    let range = node.range();
    TextRange::new(range.start().into(), range.end().into())
}

fn lower_stmt(stmt: ast::Stmt) -> Stmt {
    let range = range_of(&stmt);
    match stmt {
        ast::Stmt::FunctionDef(f) => function(
            f.name,
            f.decorator_list,
            *f.args,
            f.returns,
            !f.type_params.is_empty(),
            f.body,
            range,
        ),
        ast::Stmt::AsyncFunctionDef(f) => function(
            f.name,
            f.decorator_list,
            *f.args,
            f.returns,
            !f.type_params.is_empty(),
            f.body,
            range,
        ),
        ast::Stmt::ClassDef(c) => Stmt::ClassDef {
            name: c.name.to_string(),
            decorators: exprs(c.decorator_list),
            bases: exprs(c.bases)
                .into_iter()
                .chain(c.keywords.into_iter().map(|k| lower_expr(k.value)))
                .collect(),
            body: lower_suite(c.body),
            range,
        },
        ast::Stmt::Return(r) => other(r.value.into_iter().map(|v| *v), range),
        ast::Stmt::Delete(d) => Stmt::Delete {
            targets: d.targets.into_iter().map(target).collect(),
            range,
        },
        ast::Stmt::Assign(a) => Stmt::Assign {
            targets: a.targets.into_iter().map(target).collect(),
            op: AssignOp::Plain,
            value: Some(lower_expr(*a.value)),
            range,
        },
        // `type X = ...` binds `X`; its value is evaluated lazily, so it reads nothing now.
        ast::Stmt::TypeAlias(t) => Stmt::Assign {
            targets: vec![target(*t.name)],
            op: AssignOp::Plain,
            value: Some(Expr::Other {
                children: Vec::new(),
                range: range_of(&*t.value),
            }),
            range,
        },
        ast::Stmt::AugAssign(a) => Stmt::Assign {
            targets: vec![target(*a.target)],
            op: AssignOp::Augmented(augmented_operator(a.op)),
            value: Some(lower_expr(*a.value)),
            range,
        },
        ast::Stmt::AnnAssign(a) => Stmt::Assign {
            targets: vec![target(*a.target)],
            op: AssignOp::Annotated,
            value: a.value.map(|v| lower_expr(*v)),
            range,
        },
        ast::Stmt::For(f) => for_loop(*f.target, *f.iter, f.body, f.orelse, range),
        ast::Stmt::AsyncFor(f) => for_loop(*f.target, *f.iter, f.body, f.orelse, range),
        ast::Stmt::While(w) => Stmt::While {
            test: lower_expr(*w.test),
            body: lower_suite(w.body),
            orelse: lower_suite(w.orelse),
            range,
        },
        ast::Stmt::If(i) => Stmt::If {
            test: lower_expr(*i.test),
            body: lower_suite(i.body),
            orelse: lower_suite(i.orelse),
            range,
        },
        ast::Stmt::With(w) => with(w.items, w.body, range),
        ast::Stmt::AsyncWith(w) => with(w.items, w.body, range),
        ast::Stmt::Match(m) => Stmt::Match {
            subject: lower_expr(*m.subject),
            cases: m
                .cases
                .into_iter()
                .map(|case| {
                    let mut names = Vec::new();
                    pattern_names(&case.pattern, &mut names);
                    (
                        names,
                        case.guard.map(|g| lower_expr(*g)),
                        lower_suite(case.body),
                    )
                })
                .collect(),
            range,
        },
        ast::Stmt::Raise(r) => other(r.exc.into_iter().chain(r.cause).map(|e| *e), range),
        ast::Stmt::Try(t) => try_statement(t.body, t.handlers, t.orelse, t.finalbody, range),
        ast::Stmt::TryStar(t) => try_statement(t.body, t.handlers, t.orelse, t.finalbody, range),
        ast::Stmt::Assert(a) => other(std::iter::once(*a.test).chain(a.msg.map(|m| *m)), range),
        ast::Stmt::Import(i) => Stmt::Import {
            from: None,
            names: aliases(i.names),
            range,
        },
        ast::Stmt::ImportFrom(i) => {
            let dots = ".".repeat(i.level.map_or(0, |level| level.to_usize()));
            let module = i.module.map_or_else(String::new, |m| m.to_string());
            Stmt::Import {
                from: Some(dots + &module),
                names: aliases(i.names),
                range,
            }
        }
        ast::Stmt::Global(g) => Stmt::Global {
            names: g.names.into_iter().map(|n| n.to_string()).collect(),
            range,
        },
        ast::Stmt::Nonlocal(n) => Stmt::Nonlocal {
            names: n.names.into_iter().map(|n| n.to_string()).collect(),
            range,
        },
        ast::Stmt::Expr(e) => Stmt::Expr {
            value: lower_expr(*e.value),
            range,
        },
        ast::Stmt::Pass(_) | ast::Stmt::Break(_) | ast::Stmt::Continue(_) => {
            other(std::iter::empty(), range)
        }
    }
}

fn other(exprs: impl Iterator<Item = ast::Expr>, range: TextRange) -> Stmt {
    Stmt::Other {
        exprs: exprs.map(lower_expr).collect(),
        range,
    }
}

fn function(
    name: ast::Identifier,
    decorators: Vec<ast::Expr>,
    args: ast::Arguments,
    returns: Option<Box<ast::Expr>>,
    has_type_params: bool,
    body: Vec<ast::Stmt>,
    range: TextRange,
) -> Stmt {
    let mut params = params(args, !has_type_params);
    // With type parameters (`def f[T](x: T)`), annotations name them: they are not read here.
    if !has_type_params {
        params.defaults.extend(returns.map(|r| lower_expr(*r)));
    }
    Stmt::FunctionDef {
        name: name.to_string(),
        decorators: exprs(decorators),
        params,
        body: lower_suite(body),
        range,
    }
}

/// Parameter names, and the defaults and (when `with_annotations`) annotations evaluated when the
/// function is defined.
fn params(args: ast::Arguments, with_annotations: bool) -> Params {
    let mut params = Params::default();
    let add = |arg: ast::Arg, default: Option<Box<ast::Expr>>, params: &mut Params| {
        params.names.push(arg.arg.to_string());
        params.defaults.extend(default.map(|d| lower_expr(*d)));
        if with_annotations {
            params
                .defaults
                .extend(arg.annotation.map(|a| lower_expr(*a)));
        }
    };
    params.posonly = args.posonlyargs.len();
    for arg in args.posonlyargs.into_iter().chain(args.args) {
        params.positional += 1;
        if arg.default.is_some() {
            params.positional_defaults += 1;
        }
        add(arg.def, arg.default, &mut params);
    }
    if let Some(vararg) = args.vararg {
        params.vararg = true;
        add(*vararg, None, &mut params);
    }
    for arg in args.kwonlyargs {
        params.keyword_only_required.push(arg.default.is_none());
        add(arg.def, arg.default, &mut params);
    }
    if let Some(kwarg) = args.kwarg {
        params.kwarg = true;
        add(*kwarg, None, &mut params);
    }
    params
}

fn for_loop(
    loop_target: ast::Expr,
    iter: ast::Expr,
    body: Vec<ast::Stmt>,
    orelse: Vec<ast::Stmt>,
    range: TextRange,
) -> Stmt {
    Stmt::For {
        target: target(loop_target),
        iter: lower_expr(iter),
        body: lower_suite(body),
        orelse: lower_suite(orelse),
        range,
    }
}

fn with(items: Vec<ast::WithItem>, body: Vec<ast::Stmt>, range: TextRange) -> Stmt {
    Stmt::With {
        items: items
            .into_iter()
            .map(|item| {
                (
                    lower_expr(item.context_expr),
                    item.optional_vars.map(|v| target(*v)),
                )
            })
            .collect(),
        body: lower_suite(body),
        range,
    }
}

fn try_statement(
    body: Vec<ast::Stmt>,
    handlers: Vec<ast::ExceptHandler>,
    orelse: Vec<ast::Stmt>,
    finalbody: Vec<ast::Stmt>,
    range: TextRange,
) -> Stmt {
    Stmt::Try {
        body: lower_suite(body),
        handlers: handlers
            .into_iter()
            .map(|ast::ExceptHandler::ExceptHandler(handler)| Handler {
                range: range_of(&handler),
                kind: handler.type_.map(|t| lower_expr(*t)),
                name: handler.name.map(|n| n.to_string()),
                body: lower_suite(handler.body),
            })
            .collect(),
        orelse: lower_suite(orelse),
        finalbody: lower_suite(finalbody),
        range,
    }
}

fn aliases(names: Vec<ast::Alias>) -> Vec<Alias> {
    names
        .into_iter()
        .map(|alias| Alias {
            range: range_of(&alias),
            name: alias.name.to_string(),
            asname: alias.asname.map(|a| a.to_string()),
        })
        .collect()
}

/// The names a `case` pattern binds.
fn pattern_names(pattern: &ast::Pattern, names: &mut Vec<String>) {
    match pattern {
        ast::Pattern::MatchValue(_) | ast::Pattern::MatchSingleton(_) => {}
        ast::Pattern::MatchSequence(p) => p.patterns.iter().for_each(|p| pattern_names(p, names)),
        ast::Pattern::MatchMapping(p) => {
            p.patterns.iter().for_each(|p| pattern_names(p, names));
            names.extend(p.rest.as_ref().map(|r| r.to_string()));
        }
        ast::Pattern::MatchClass(p) => p
            .patterns
            .iter()
            .chain(&p.kwd_patterns)
            .for_each(|p| pattern_names(p, names)),
        ast::Pattern::MatchStar(p) => names.extend(p.name.as_ref().map(|n| n.to_string())),
        ast::Pattern::MatchAs(p) => {
            if let Some(inner) = &p.pattern {
                pattern_names(inner, names);
            }
            names.extend(p.name.as_ref().map(|n| n.to_string()));
        }
        ast::Pattern::MatchOr(p) => p.patterns.iter().for_each(|p| pattern_names(p, names)),
    }
}

fn target(expr: ast::Expr) -> Target {
    let range = range_of(&expr);
    match expr {
        ast::Expr::Name(n) => Target::Name {
            id: n.id.to_string(),
            range,
        },
        ast::Expr::Tuple(ast::ExprTuple { elts, .. })
        | ast::Expr::List(ast::ExprList { elts, .. }) => Target::Unpack {
            elts: elts.into_iter().map(target).collect(),
            range,
        },
        ast::Expr::Starred(s) => Target::Starred {
            target: Box::new(target(*s.value)),
            range,
        },
        other => Target::Store {
            expr: lower_expr(other),
            range,
        },
    }
}

fn exprs(list: Vec<ast::Expr>) -> Vec<Expr> {
    list.into_iter().map(lower_expr).collect()
}

fn boxed(expr: ast::Expr) -> Box<Expr> {
    Box::new(lower_expr(expr))
}

fn lower_expr(expr: ast::Expr) -> Expr {
    let range = range_of(&expr);
    match expr {
        ast::Expr::Name(n) => Expr::Name {
            id: n.id.to_string(),
            range,
        },
        ast::Expr::Attribute(a) => Expr::Attribute {
            value: boxed(*a.value),
            attr: a.attr.to_string(),
            range,
        },
        ast::Expr::Subscript(s) => Expr::Subscript {
            value: boxed(*s.value),
            index: boxed(*s.slice),
            range,
        },
        ast::Expr::Call(c) => Expr::Call {
            func: boxed(*c.func),
            args: exprs(c.args),
            keywords: c
                .keywords
                .into_iter()
                .map(|k| Keyword {
                    range: range_of(&k),
                    name: k.arg.map(|a| a.to_string()),
                    value: lower_expr(k.value),
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
            let operand = lower_expr(*u.operand);
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
        ast::Expr::List(l) => seq(SeqKind::List, l.elts, range),
        ast::Expr::Tuple(t) => seq(SeqKind::Tuple, t.elts, range),
        ast::Expr::Set(s) => seq(SeqKind::Set, s.elts, range),
        ast::Expr::Dict(d) => Expr::Dict {
            keys: d.keys.into_iter().map(|k| k.map(lower_expr)).collect(),
            values: exprs(d.values),
            range,
        },
        ast::Expr::Slice(s) => Expr::Slice {
            lower: s.lower.map(|e| boxed(*e)),
            upper: s.upper.map(|e| boxed(*e)),
            step: s.step.map(|e| boxed(*e)),
            range,
        },
        ast::Expr::Starred(s) => Expr::Starred {
            value: boxed(*s.value),
            range,
        },
        ast::Expr::BinOp(b) => Expr::BinOp {
            op: operator(b.op),
            left: boxed(*b.left),
            right: boxed(*b.right),
            range,
        },
        ast::Expr::NamedExpr(n) => match *n.target {
            ast::Expr::Name(name) => Expr::Walrus {
                target: name.id.to_string(),
                value: boxed(*n.value),
                range,
            },
            target => Expr::Other {
                children: vec![lower_expr(target), lower_expr(*n.value)],
                range,
            },
        },
        ast::Expr::Lambda(l) => Expr::Lambda {
            params: params(*l.args, false),
            body: boxed(*l.body),
            range,
        },
        ast::Expr::ListComp(c) => comprehension(vec![*c.elt], c.generators, range),
        ast::Expr::SetComp(c) => comprehension(vec![*c.elt], c.generators, range),
        ast::Expr::GeneratorExp(c) => comprehension(vec![*c.elt], c.generators, range),
        ast::Expr::DictComp(c) => comprehension(vec![*c.key, *c.value], c.generators, range),
        ast::Expr::BoolOp(b) => other_expr(b.values, range),
        ast::Expr::Compare(c) => other_expr(
            std::iter::once(*c.left).chain(c.comparators).collect(),
            range,
        ),
        ast::Expr::IfExp(i) => other_expr(vec![*i.test, *i.body, *i.orelse], range),
        ast::Expr::UnaryOp(u) => other_expr(vec![*u.operand], range),
        ast::Expr::Await(a) => other_expr(vec![*a.value], range),
        ast::Expr::Yield(y) => other_expr(y.value.into_iter().map(|v| *v).collect(), range),
        ast::Expr::YieldFrom(y) => other_expr(vec![*y.value], range),
        ast::Expr::JoinedStr(j) => other_expr(j.values, range),
        ast::Expr::FormattedValue(f) => other_expr(
            std::iter::once(*f.value)
                .chain(f.format_spec.map(|s| *s))
                .collect(),
            range,
        ),
    }
}

fn other_expr(children: Vec<ast::Expr>, range: TextRange) -> Expr {
    Expr::Other {
        children: exprs(children),
        range,
    }
}

fn seq(kind: SeqKind, elts: Vec<ast::Expr>, range: TextRange) -> Expr {
    Expr::Seq {
        kind,
        elts: exprs(elts),
        range,
    }
}

fn comprehension(
    elements: Vec<ast::Expr>,
    generators: Vec<ast::Comprehension>,
    range: TextRange,
) -> Expr {
    Expr::Comprehension {
        elements: exprs(elements),
        generators: generators
            .into_iter()
            .map(|g| Comprehension {
                target: target(g.target),
                iter: lower_expr(g.iter),
                ifs: exprs(g.ifs),
            })
            .collect(),
        range,
    }
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
