//! The notebook's own classes: what calling one, calling a method of an instance, or reading an
//! attribute of an instance does, for classes Python builds the plain way (no base but `object`,
//! no metaclass or decorator, no hook that changes how instances are made or their attributes
//! found). `torch_classes.rs` follows the `nn.Module` subclasses.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::ir::{Expr, Params, Stmt, Target};

/// A `class` statement without decorators at the top level of a cell.
#[derive(Debug)]
pub struct NotebookClass {
    pub name: String,
    pub bases: Vec<Expr>,
    pub body: Vec<Stmt>,
    /// The source of the cell that defines it (the body's ranges index into it).
    pub source: Rc<str>,
}

/// Each `class` statement that runs makes another class: two are equal only when one.
impl PartialEq for NotebookClass {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// Names in a class body that change how instances are made or how their attributes are found.
const HOOKS: &[&str] = &[
    "__getattr__",
    "__getattribute__",
    "__new__",
    "__slots__",
    "__dict__",
    "__class__",
    "__init_subclass__",
];

impl NotebookClass {
    /// Is the class built the plain way: no base but `object`, no metaclass, and a body of
    /// method definitions, assignments to names, docstrings and `pass`, none of them a hook?
    pub fn plain(&self) -> bool {
        let object_only = self
            .bases
            .iter()
            .all(|b| matches!(b, Expr::Name { id, .. } if id == "object"));
        object_only
            && self.body.iter().all(|s| match s {
                Stmt::FunctionDef { name, .. } => !HOOKS.contains(&name.as_str()),
                Stmt::Assign { targets, .. } => targets
                    .iter()
                    .all(|t| matches!(t, Target::Name { id, .. } if !HOOKS.contains(&id.as_str()))),
                Stmt::Expr {
                    value: Expr::Literal { .. },
                    ..
                } => true,
                Stmt::Pass { .. } => true,
                _ => false,
            })
    }

    /// The names the class body binds, in order, with repetitions.
    fn bound(&self) -> impl Iterator<Item = &str> {
        self.body.iter().flat_map(|s| match s {
            Stmt::FunctionDef { name, .. } => vec![name.as_str()],
            Stmt::Assign { targets, .. } => targets
                .iter()
                .filter_map(|t| match t {
                    Target::Name { id, .. } => Some(id.as_str()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        })
    }

    /// The parameters of the method `name` (`self` first): when one `def` without decorators
    /// binds it, and nothing else in the body.
    pub fn method(&self, name: &str) -> Option<&Params> {
        if self.bound().filter(|b| *b == name).count() != 1 {
            return None;
        }
        self.body.iter().find_map(|s| match s {
            Stmt::FunctionDef {
                name: n,
                decorators,
                params,
                ..
            } if n == name && decorators.is_empty() => Some(params),
            _ => None,
        })
    }

    /// The literal the body binds `name` to, when one plain assignment of a literal to it alone
    /// is all that binds it (`RED = 'red'`).
    pub fn constant(&self, name: &str) -> Option<&Expr> {
        if self.bound().filter(|b| *b == name).count() != 1 {
            return None;
        }
        self.body.iter().find_map(|s| match s {
            Stmt::Assign {
                targets,
                op: crate::ir::AssignOp::Plain,
                value: Some(value @ Expr::Literal { .. }),
                ..
            } if matches!(targets.as_slice(), [Target::Name { id, .. }] if id == name) => {
                Some(value)
            }
            _ => None,
        })
    }

    /// Does the class body bind `name` at all?
    pub fn binds(&self, name: &str) -> bool {
        self.bound().any(|b| b == name)
    }

    /// The attribute names the class's methods store to on any object (`self.n = n`).
    pub fn stored(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        super::torch_classes::stored_attributes(&self.body, &mut out);
        out
    }

    /// The attributes an instance may have: what the class body binds and what its methods
    /// store, sorted.
    pub fn attributes(&self) -> BTreeSet<String> {
        let mut out = self.stored();
        out.extend(self.bound().map(str::to_string));
        out
    }

    /// Might an instance have the attribute `attr` (dunders: every object has some)?
    pub fn may_have(&self, attr: &str) -> bool {
        attr.starts_with("__") || self.attributes().contains(attr)
    }
}
