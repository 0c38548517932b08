//! The syntax errors CPython raises that rustpython-parser 0.4 accepts: targets that cannot be
//! assigned or deleted (`True = 5`, `f() = 1`, `a + b = 1`, `del 1`), and `return`, `break`,
//! `continue` where they are not allowed. CPython's messages, with the offending node's offset.

use rustpython_parser::ast::{self, Constant, Ranged};
use rustpython_parser::text_size::TextSize;

/// The first statement CPython refuses to compile: its message and offset.
pub fn first_error(suite: &[ast::Stmt]) -> Option<(String, TextSize)> {
    statements(suite, Context::default())
}

#[derive(Clone, Copy, Default)]
struct Context {
    in_function: bool,
    in_loop: bool,
}

fn statements(suite: &[ast::Stmt], context: Context) -> Option<(String, TextSize)> {
    suite.iter().find_map(|stmt| statement(stmt, context))
}

fn statement(stmt: &ast::Stmt, context: Context) -> Option<(String, TextSize)> {
    let at = |message: &str| Some((message.to_owned(), stmt.range().start()));
    let function = Context {
        in_function: true,
        in_loop: false,
    };
    let class = Context {
        in_function: false,
        in_loop: false,
    };
    let in_loop = Context {
        in_loop: true,
        ..context
    };
    match stmt {
        ast::Stmt::Assign(s) => s.targets.iter().find_map(|t| target(t, Action::Assign)),
        ast::Stmt::AugAssign(s) => augmented_target(&s.target),
        ast::Stmt::AnnAssign(s) => match &*s.target {
            ast::Expr::Tuple(_) => at("only single target (not tuple) can be annotated"),
            ast::Expr::List(_) => at("only single target (not list) can be annotated"),
            other => target(other, Action::Assign),
        },
        ast::Stmt::Delete(s) => s.targets.iter().find_map(|t| target(t, Action::Delete)),
        ast::Stmt::For(s) => target(&s.target, Action::Assign)
            .or_else(|| statements(&s.body, in_loop))
            .or_else(|| statements(&s.orelse, context)),
        ast::Stmt::AsyncFor(s) => target(&s.target, Action::Assign)
            .or_else(|| statements(&s.body, in_loop))
            .or_else(|| statements(&s.orelse, context)),
        ast::Stmt::While(s) => {
            statements(&s.body, in_loop).or_else(|| statements(&s.orelse, context))
        }
        ast::Stmt::With(s) => with_items(&s.items).or_else(|| statements(&s.body, context)),
        ast::Stmt::AsyncWith(s) => with_items(&s.items).or_else(|| statements(&s.body, context)),
        ast::Stmt::If(s) => statements(&s.body, context).or_else(|| statements(&s.orelse, context)),
        ast::Stmt::Try(s) => try_statement(&s.body, &s.handlers, &s.orelse, &s.finalbody, context),
        ast::Stmt::TryStar(s) => {
            try_statement(&s.body, &s.handlers, &s.orelse, &s.finalbody, context)
        }
        ast::Stmt::Match(s) => s
            .cases
            .iter()
            .find_map(|case| statements(&case.body, context)),
        ast::Stmt::FunctionDef(s) => statements(&s.body, function),
        ast::Stmt::AsyncFunctionDef(s) => statements(&s.body, function),
        ast::Stmt::ClassDef(s) => statements(&s.body, class),
        ast::Stmt::Return(_) if !context.in_function => at("'return' outside function"),
        ast::Stmt::Break(_) if !context.in_loop => at("'break' outside loop"),
        ast::Stmt::Continue(_) if !context.in_loop => at("'continue' not properly in loop"),
        _ => None,
    }
}

fn try_statement(
    body: &[ast::Stmt],
    handlers: &[ast::ExceptHandler],
    orelse: &[ast::Stmt],
    finalbody: &[ast::Stmt],
    context: Context,
) -> Option<(String, TextSize)> {
    statements(body, context)
        .or_else(|| {
            handlers.iter().find_map(|handler| {
                let ast::ExceptHandler::ExceptHandler(handler) = handler;
                statements(&handler.body, context)
            })
        })
        .or_else(|| statements(orelse, context))
        .or_else(|| statements(finalbody, context))
}

fn with_items(items: &[ast::WithItem]) -> Option<(String, TextSize)> {
    items
        .iter()
        .filter_map(|item| item.optional_vars.as_deref())
        .find_map(|vars| target(vars, Action::Assign))
}

#[derive(Clone, Copy, PartialEq)]
enum Action {
    Assign,
    Delete,
}

/// CPython's name for what an expression is, in "cannot assign to ...".
fn describe(expr: &ast::Expr) -> &'static str {
    match expr {
        ast::Expr::Constant(c) => match c.value {
            Constant::Bool(true) => "True",
            Constant::Bool(false) => "False",
            Constant::None => "None",
            Constant::Ellipsis => "ellipsis",
            _ => "literal",
        },
        ast::Expr::Call(_) => "function call",
        ast::Expr::Lambda(_) => "lambda",
        ast::Expr::IfExp(_) => "conditional expression",
        ast::Expr::Compare(_) => "comparison",
        ast::Expr::Dict(_) => "dict literal",
        ast::Expr::Set(_) => "set display",
        ast::Expr::JoinedStr(_) | ast::Expr::FormattedValue(_) => "f-string expression",
        ast::Expr::ListComp(_) => "list comprehension",
        ast::Expr::SetComp(_) => "set comprehension",
        ast::Expr::DictComp(_) => "dict comprehension",
        ast::Expr::GeneratorExp(_) => "generator expression",
        ast::Expr::Await(_) => "await expression",
        ast::Expr::Yield(_) | ast::Expr::YieldFrom(_) => "yield expression",
        ast::Expr::NamedExpr(_) => "named expression",
        _ => "expression",
    }
}

fn target(expr: &ast::Expr, action: Action) -> Option<(String, TextSize)> {
    let verb = match action {
        Action::Assign => "assign to",
        Action::Delete => "delete",
    };
    let at = |message: String| Some((message, expr.range().start()));
    match expr {
        ast::Expr::Name(name) if name.id.as_str() == "__debug__" => {
            at(format!("cannot {verb} __debug__"))
        }
        ast::Expr::Name(_) | ast::Expr::Attribute(_) | ast::Expr::Subscript(_) => None,
        ast::Expr::Starred(_) if action == Action::Delete => at("cannot delete starred".into()),
        ast::Expr::Starred(_) => at("starred assignment target must be in a list or tuple".into()),
        ast::Expr::Tuple(ast::ExprTuple { elts, .. })
        | ast::Expr::List(ast::ExprList { elts, .. }) => {
            let starred = elts
                .iter()
                .filter(|e| matches!(e, ast::Expr::Starred(_)))
                .count();
            if action == Action::Assign && starred > 1 {
                return at("multiple starred expressions in assignment".into());
            }
            elts.iter().find_map(|element| match element {
                ast::Expr::Starred(s) if action == Action::Assign => target(&s.value, action),
                other => target(other, action),
            })
        }
        other => at(format!("cannot {verb} {}", describe(other))),
    }
}

fn augmented_target(expr: &ast::Expr) -> Option<(String, TextSize)> {
    let kind = match expr {
        ast::Expr::Name(_) | ast::Expr::Attribute(_) | ast::Expr::Subscript(_) => {
            return target(expr, Action::Assign)
        }
        ast::Expr::Tuple(_) => "tuple",
        ast::Expr::List(_) => "list",
        ast::Expr::Starred(_) => "starred",
        other => describe(other),
    };
    Some((
        format!("'{kind}' is an illegal expression for augmented assignment"),
        expr.range().start(),
    ))
}
