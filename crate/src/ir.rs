//! cellguard's own syntax tree for a notebook cell.
//!
//! `crate::python` lowers rustpython's AST into these types; nothing else in the crate sees the
//! parser's AST, so the parser can be swapped without touching the analysis or the rules. The tree
//! keeps what the analysis needs (names, attribute chains, subscripts, calls with literal arguments,
//! scopes) and folds everything else into `Expr::Other`, whose children are still walked.

use serde::Serialize;

/// Byte offsets into the cell source as the user wrote it (magics included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub fn new(start: u32, end: u32) -> Self {
        Self { start, end }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Literal {
    Str(String),
    Int(i64),
    /// An integer that does not fit in i64, as written.
    BigInt(String),
    Float(f64),
    Bool(bool),
    None,
    Ellipsis,
    Bytes,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Keyword {
    /// `None` for `**kwargs`.
    pub name: Option<String>,
    pub value: Expr,
    pub range: TextRange,
}

/// The value passed as keyword `name`, if the call names it.
pub fn keyword<'e>(keywords: &'e [Keyword], name: &str) -> Option<&'e Expr> {
    keywords
        .iter()
        .find(|k| k.name.as_deref() == Some(name))
        .map(|k| &k.value)
}

/// Are all keywords named, and named among `allowed` (no `**kwargs`, no other keyword)?
/// The argument at `pos` or the keyword `name`.
pub fn argument<'e>(
    args: &'e [Expr],
    keywords: &'e [Keyword],
    pos: usize,
    name: &str,
) -> Option<&'e Expr> {
    args.get(pos).or_else(|| keyword(keywords, name))
}

pub fn keywords_within(keywords: &[Keyword], allowed: &[&str]) -> bool {
    keywords
        .iter()
        .all(|k| k.name.as_deref().is_some_and(|n| allowed.contains(&n)))
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SeqKind {
    List,
    Tuple,
    Set,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comprehension {
    pub target: Target,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Expr {
    Name {
        id: String,
        range: TextRange,
    },
    Attribute {
        value: Box<Expr>,
        attr: String,
        range: TextRange,
    },
    Subscript {
        value: Box<Expr>,
        index: Box<Expr>,
        range: TextRange,
    },
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        keywords: Vec<Keyword>,
        range: TextRange,
    },
    Literal {
        value: Literal,
        range: TextRange,
    },
    Seq {
        kind: SeqKind,
        elts: Vec<Expr>,
        range: TextRange,
    },
    Dict {
        /// `None` for `**other` entries.
        keys: Vec<Option<Expr>>,
        values: Vec<Expr>,
        range: TextRange,
    },
    Slice {
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
        range: TextRange,
    },
    Starred {
        value: Box<Expr>,
        range: TextRange,
    },
    /// `a op b` for arithmetic and matrix operators; `op` is the Python token (`+`, `@`, ...).
    BinOp {
        op: &'static str,
        left: Box<Expr>,
        right: Box<Expr>,
        range: TextRange,
    },
    /// `name := value`
    Walrus {
        target: String,
        value: Box<Expr>,
        range: TextRange,
    },
    /// `lambda params: body`: its own scope.
    Lambda {
        params: Params,
        body: Box<Expr>,
        range: TextRange,
    },
    /// List/set/dict comprehensions and generator expressions: their own scope. `elements` is the
    /// element expression (two for a dict comprehension).
    Comprehension {
        elements: Vec<Expr>,
        generators: Vec<Comprehension>,
        range: TextRange,
    },
    /// Anything else (comparisons, boolean operators, f-strings, conditional expressions, await,
    /// yield, ...): only its sub-expressions matter to the analysis.
    Other {
        children: Vec<Expr>,
        range: TextRange,
    },
}

impl Expr {
    pub fn range(&self) -> TextRange {
        match self {
            Expr::Name { range, .. }
            | Expr::Attribute { range, .. }
            | Expr::Subscript { range, .. }
            | Expr::Call { range, .. }
            | Expr::Literal { range, .. }
            | Expr::Seq { range, .. }
            | Expr::Dict { range, .. }
            | Expr::Slice { range, .. }
            | Expr::Starred { range, .. }
            | Expr::BinOp { range, .. }
            | Expr::Walrus { range, .. }
            | Expr::Lambda { range, .. }
            | Expr::Comprehension { range, .. }
            | Expr::Other { range, .. } => *range,
        }
    }

    /// The dotted path of a pure name/attribute chain: `np.linalg.norm` -> `["np", "linalg", "norm"]`.
    pub fn dotted_path(&self) -> Option<Vec<&str>> {
        match self {
            Expr::Name { id, .. } => Some(vec![id.as_str()]),
            Expr::Attribute { value, attr, .. } => {
                let mut path = value.dotted_path()?;
                path.push(attr.as_str());
                Some(path)
            }
            _ => None,
        }
    }

    /// Calls `f` on each direct sub-expression in source order, lambda defaults and bodies and
    /// comprehension iterables, conditions and elements included (not comprehension targets).
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match self {
            Expr::Name { .. } | Expr::Literal { .. } => {}
            Expr::Attribute { value, .. }
            | Expr::Starred { value, .. }
            | Expr::Walrus { value, .. } => f(value),
            Expr::Subscript { value, index, .. } => {
                f(value);
                f(index);
            }
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => {
                f(func);
                args.iter().for_each(&mut f);
                keywords.iter().for_each(|k| f(&k.value));
            }
            Expr::Seq { elts, .. } | Expr::Other { children: elts, .. } => elts.iter().for_each(f),
            Expr::Dict { keys, values, .. } => {
                for (key, value) in keys.iter().zip(values) {
                    if let Some(key) = key {
                        f(key);
                    }
                    f(value);
                }
            }
            Expr::Slice {
                lower, upper, step, ..
            } => [lower, upper, step]
                .into_iter()
                .flatten()
                .for_each(|e| f(e)),
            Expr::BinOp { left, right, .. } => {
                f(left);
                f(right);
            }
            Expr::Lambda { params, body, .. } => {
                params.defaults.iter().for_each(&mut f);
                f(body);
            }
            Expr::Comprehension {
                elements,
                generators,
                ..
            } => {
                for generator in generators {
                    f(&generator.iter);
                    generator.ifs.iter().for_each(&mut f);
                }
                elements.iter().for_each(f);
            }
        }
    }

    /// Calls `f` on every name the expression reads or binds (walruses), lambda bodies and
    /// comprehensions included.
    pub fn for_each_name<'a>(&'a self, f: &mut dyn FnMut(&'a str)) {
        match self {
            Expr::Name { id, .. } => f(id),
            Expr::Walrus { target, value, .. } => {
                f(target);
                value.for_each_name(f);
            }
            _ => self.for_each_child(|child| child.for_each_name(f)),
        }
    }

    pub fn as_str_literal(&self) -> Option<&str> {
        match self {
            Expr::Literal {
                value: Literal::Str(s),
                ..
            } => Some(s),
            _ => None,
        }
    }
}

/// An assignment target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Target {
    Name {
        id: String,
        range: TextRange,
    },
    /// `a, (b, *c)` and `[a, b]`.
    Unpack {
        elts: Vec<Target>,
        range: TextRange,
    },
    Starred {
        target: Box<Target>,
        range: TextRange,
    },
    /// `x.attr = ...` or `x[key] = ...`: mutates an object, binds no name. `expr` is the whole target.
    Store {
        expr: Expr,
        range: TextRange,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Params {
    /// Every parameter name, in order (positional, *args, keyword-only, **kwargs).
    pub names: Vec<String>,
    /// Default values and annotations: evaluated in the enclosing scope.
    pub defaults: Vec<Expr>,
    /// For each of `names`, the index in `defaults` of its default value.
    pub default_of: Vec<Option<usize>>,
    /// How arguments bind to `names`: positional-only and positional-or-keyword parameters come
    /// first (`positional` of them, the last `positional_defaults` with a default), then `*args`
    /// when `vararg`, then the keyword-only ones (`keyword_only_required[i]` when it has no
    /// default), then `**kwargs` when `kwarg`.
    pub positional: usize,
    pub posonly: usize,
    pub positional_defaults: usize,
    pub vararg: bool,
    pub keyword_only_required: Vec<bool>,
    pub kwarg: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alias {
    /// `import a.b` -> `a.b`; `from m import x` -> `x`; `*` for a star import.
    pub name: String,
    pub asname: Option<String>,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum AssignOp {
    Plain,
    Annotated,
    /// `+=` and friends: the target is read before it is written.
    Augmented(&'static str),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Handler {
    pub kind: Option<Expr>,
    pub name: Option<String>,
    pub body: Vec<Stmt>,
    pub range: TextRange,
}

/// One `case` of a `match`: its pattern is kept as the names it binds and what it matches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchCase {
    pub names: Vec<String>,
    pub pattern: CasePattern,
    pub guard: Option<Expr>,
    pub body: Vec<Stmt>,
}

/// What a `case` pattern matches, as far as the analysis needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum CasePattern {
    /// The wildcard (`case _:`, `[_, x]`): any subject.
    Any,
    /// A capture (`case x:`) or `P as x`: a subject `pattern` matches, bound to `name`.
    Capture {
        name: String,
        pattern: Box<CasePattern>,
    },
    /// A literal (`case 3:`, `case 'a':`, `case None:`): a subject equal to it (identical, for
    /// `None`, `True` and `False`).
    Literal(Literal),
    /// A value pattern (`case Color.RED:`): a subject equal to what the dotted name holds.
    Value(Expr),
    /// `[p, q]`, `(p, *rest)`: a sequence (a list or tuple, never a str) of as many elements
    /// as `items` (at least as many with a star), each matching its pattern; `star` is the
    /// position of `*name` among the items and its name (`None` for `*_`).
    Sequence {
        items: Vec<CasePattern>,
        star: Option<(usize, Option<String>)>,
    },
    /// `{'k': p, **rest}`: a mapping holding the literal keys, their values matching.
    Mapping {
        keys: Vec<Literal>,
        values: Vec<CasePattern>,
        rest: Option<String>,
    },
    /// `p | q`: the first alternative that matches.
    Or(Vec<CasePattern>),
    /// A class pattern without keyword patterns (`case int():`, `case str(s):`): an instance of
    /// the class, its positional patterns matched as the class says.
    Class { class: Expr, args: Vec<CasePattern> },
    /// Anything else (keyword patterns of classes, keys that are not literals, patterns nested
    /// too deep).
    Other,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Stmt {
    Expr {
        value: Expr,
        range: TextRange,
    },
    /// Also `type X = ...`, lowered as a plain assignment of a value that reads nothing (it is
    /// evaluated lazily).
    Assign {
        targets: Vec<Target>,
        op: AssignOp,
        /// `None` for a bare annotation `x: int`.
        value: Option<Expr>,
        range: TextRange,
    },
    Import {
        /// `None` for `import a`, the module for `from module import ...` (dots kept for relative).
        from: Option<String>,
        names: Vec<Alias>,
        range: TextRange,
    },
    FunctionDef {
        name: String,
        decorators: Vec<Expr>,
        params: Params,
        body: Vec<Stmt>,
        range: TextRange,
    },
    ClassDef {
        name: String,
        decorators: Vec<Expr>,
        bases: Vec<Expr>,
        body: Vec<Stmt>,
        range: TextRange,
    },
    For {
        target: Target,
        iter: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
        range: TextRange,
    },
    While {
        test: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
        range: TextRange,
    },
    If {
        test: Expr,
        body: Vec<Stmt>,
        orelse: Vec<Stmt>,
        range: TextRange,
    },
    With {
        items: Vec<(Expr, Option<Target>)>,
        body: Vec<Stmt>,
        range: TextRange,
    },
    Try {
        body: Vec<Stmt>,
        handlers: Vec<Handler>,
        orelse: Vec<Stmt>,
        finalbody: Vec<Stmt>,
        range: TextRange,
    },
    /// `match subject: case ...`
    Match {
        subject: Expr,
        cases: Vec<MatchCase>,
        range: TextRange,
    },
    Delete {
        targets: Vec<Target>,
        range: TextRange,
    },
    Global {
        names: Vec<String>,
        range: TextRange,
    },
    Nonlocal {
        names: Vec<String>,
        range: TextRange,
    },
    /// `pass`: does nothing, and leaves no block.
    Pass {
        range: TextRange,
    },
    /// `return`, `raise`, `assert`, `break`, `continue`: only the expressions they evaluate
    /// matter.
    Other {
        exprs: Vec<Expr>,
        range: TextRange,
    },
    /// A top-level statement nested more deeply than `crate::python::MAX_DEPTH`: not analysed.
    /// Only the names it mentions are kept (sorted, once each); it may bind, delete or change any
    /// of them, and nothing else is known of it.
    TooDeep {
        names: Vec<String>,
        range: TextRange,
    },
}

impl Target {
    /// Calls `f` on the names a target binds (what it stores into is an expression).
    fn for_each_name<'a>(&'a self, f: &mut dyn FnMut(&'a str)) {
        match self {
            Target::Name { id, .. } => f(id),
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| t.for_each_name(f)),
            Target::Starred { target, .. } => target.for_each_name(f),
            Target::Store { .. } => {}
        }
    }

    /// Calls `f` on the expressions a target evaluates (`obj[key]` and `obj.attr` parts).
    pub fn for_each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Target::Name { .. } => {}
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| t.for_each_expr(f)),
            Target::Starred { target, .. } => target.for_each_expr(f),
            Target::Store { expr, .. } => f(expr),
        }
    }
}

impl Stmt {
    /// Calls `f` on the expressions of this statement itself, in source order (decorators,
    /// defaults, bases, tests, iterables, values, targets' stored parts, handler types), not on
    /// those of the statements nested in it (see `for_each_block`).
    pub fn for_each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Stmt::Expr { value, .. } => f(value),
            Stmt::Assign { targets, value, .. } => {
                targets.iter().for_each(|t| t.for_each_expr(f));
                value.iter().for_each(f);
            }
            Stmt::FunctionDef {
                decorators, params, ..
            } => decorators.iter().chain(&params.defaults).for_each(f),
            Stmt::ClassDef {
                decorators, bases, ..
            } => decorators.iter().chain(bases).for_each(f),
            Stmt::For { target, iter, .. } => {
                target.for_each_expr(f);
                f(iter);
            }
            Stmt::While { test, .. } | Stmt::If { test, .. } => f(test),
            Stmt::With { items, .. } => {
                for (context, target) in items {
                    f(context);
                    if let Some(target) = target {
                        target.for_each_expr(f);
                    }
                }
            }
            Stmt::Try { handlers, .. } => {
                handlers.iter().filter_map(|h| h.kind.as_ref()).for_each(f)
            }
            Stmt::Match { subject, cases, .. } => {
                f(subject);
                cases.iter().filter_map(|c| c.guard.as_ref()).for_each(f);
            }
            Stmt::Delete { targets, .. } => targets.iter().for_each(|t| t.for_each_expr(f)),
            Stmt::Other { exprs, .. } => exprs.iter().for_each(f),
            Stmt::Import { .. }
            | Stmt::Global { .. }
            | Stmt::Nonlocal { .. }
            | Stmt::Pass { .. }
            | Stmt::TooDeep { .. } => {}
        }
    }

    /// Calls `f` on each block of statements nested in this one that runs as part of it (not
    /// function and class bodies, which run later or in their own scope).
    pub fn for_each_block<'a>(&'a self, mut f: impl FnMut(&'a [Stmt])) {
        match self {
            Stmt::For { body, orelse, .. }
            | Stmt::While { body, orelse, .. }
            | Stmt::If { body, orelse, .. } => {
                f(body);
                f(orelse);
            }
            Stmt::With { body, .. } => f(body),
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
                ..
            } => {
                f(body);
                handlers.iter().for_each(|h| f(&h.body));
                f(orelse);
                f(finalbody);
            }
            Stmt::Match { cases, .. } => cases.iter().for_each(|c| f(&c.body)),
            _ => {}
        }
    }

    pub fn range(&self) -> TextRange {
        match self {
            Stmt::Expr { range, .. }
            | Stmt::Assign { range, .. }
            | Stmt::Import { range, .. }
            | Stmt::FunctionDef { range, .. }
            | Stmt::ClassDef { range, .. }
            | Stmt::For { range, .. }
            | Stmt::While { range, .. }
            | Stmt::If { range, .. }
            | Stmt::With { range, .. }
            | Stmt::Try { range, .. }
            | Stmt::Match { range, .. }
            | Stmt::Delete { range, .. }
            | Stmt::Global { range, .. }
            | Stmt::Nonlocal { range, .. }
            | Stmt::Pass { range }
            | Stmt::Other { range, .. }
            | Stmt::TooDeep { range, .. } => *range,
        }
    }

    /// Calls `f` on every name the statement mentions as a variable, read, bound, deleted or
    /// declared, in its nested blocks and in function and class bodies too (not parameters,
    /// attributes or keyword names).
    pub fn for_each_name<'a>(&'a self, f: &mut dyn FnMut(&'a str)) {
        match self {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| t.for_each_name(f))
            }
            Stmt::For { target, .. } => target.for_each_name(f),
            Stmt::With { items, .. } => items
                .iter()
                .filter_map(|(_, t)| t.as_ref())
                .for_each(|t| t.for_each_name(f)),
            Stmt::Import { names, .. } => {
                names.iter().filter_map(Alias::bound_name).for_each(&mut *f)
            }
            Stmt::FunctionDef { name, body, .. } | Stmt::ClassDef { name, body, .. } => {
                f(name);
                body.iter().for_each(|s| s.for_each_name(f));
            }
            Stmt::Try { handlers, .. } => handlers
                .iter()
                .filter_map(|h| h.name.as_deref())
                .for_each(&mut *f),
            Stmt::Match { cases, .. } => cases.iter().flat_map(|c| &c.names).for_each(|n| f(n)),
            Stmt::Global { names, .. }
            | Stmt::Nonlocal { names, .. }
            | Stmt::TooDeep { names, .. } => names.iter().for_each(|n| f(n)),
            Stmt::Expr { .. }
            | Stmt::If { .. }
            | Stmt::While { .. }
            | Stmt::Pass { .. }
            | Stmt::Other { .. } => {}
        }
        self.for_each_expr(&mut |e| e.for_each_name(f));
        self.for_each_block(|b| b.iter().for_each(|s| s.for_each_name(f)));
    }
}

impl Alias {
    /// The name the import binds: `import a.b` binds `a`; `None` for a star import.
    pub fn bound_name(&self) -> Option<&str> {
        match (&self.asname, self.name.as_str()) {
            (_, "*") => None,
            (Some(alias), _) => Some(alias),
            (None, name) => name.split('.').next(),
        }
    }
}
