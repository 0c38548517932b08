//! The notebook's own `nn.Module` subclasses: the layers `__init__` assigns in straight code,
//! and `forward` followed statement by statement while it stays straight (it stops at anything it
//! cannot follow); and what may rewire a module (attributes stored to anywhere, containers of
//! layers changed in place, `setattr`, `add_module`, hooks).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::ir::{AssignOp, Expr, Params, Stmt, Target};

use super::torch_layers::{
    apply, const_int, flatten, layer_of, nn_class, tensor_method, Layer, Mismatch, Shape,
};
use crate::ir_scan::unpacks;

/// A `nn.Module` subclass the notebook defines.
#[derive(Debug, PartialEq)]
pub struct UserClass {
    pub name: String,
    /// The layers `__init__` assigns to attributes in straight code; an attribute it assigns
    /// anything else (or in a branch) is `Opaque`.
    pub layers: BTreeMap<String, Layer>,
    /// Its methods: the parameters and body.
    pub methods: BTreeMap<String, (Params, Vec<Stmt>)>,
    /// The source of the cell that defines it (the bodies' ranges index into it).
    pub source: Rc<str>,
    /// The attribute and module class `__init__` assigns a module to before anything that may
    /// call `nn.Module.__init__` (`self.fc = nn.Linear(3, 1)` as its first statement): building
    /// an instance raises AttributeError.
    pub module_before_init: Option<(String, String)>,
}

impl UserClass {
    /// The attribute names whose rebinding would change what the class computes.
    /// `forward` always: an instance given one gains what the class lacks.
    pub fn watched(&self) -> impl Iterator<Item = &str> {
        self.layers
            .keys()
            .chain(self.methods.keys())
            .map(String::as_str)
            .chain(std::iter::once("forward"))
    }
}

/// Functions of a tensor that keep its shape (`F.relu(x)`, `torch.sigmoid(x)`).
const SAME_FUNCTIONS: &[&str] = &[
    "relu",
    "relu6",
    "leaky_relu",
    "elu",
    "selu",
    "gelu",
    "silu",
    "mish",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
    "softplus",
    "dropout",
    "hardtanh",
];

/// The module class of a pooling function (`max_pool2d` -> `MaxPool2d`).
fn pooling_class(f: &str) -> Option<String> {
    let (kind, n) = f.rsplit_once("_pool")?;
    let kind = match kind {
        "max" => "Max",
        "avg" => "Avg",
        "adaptive_avg" => "AdaptiveAvg",
        "adaptive_max" => "AdaptiveMax",
        _ => return None,
    };
    matches!(n, "1d" | "2d" | "3d").then(|| format!("{kind}Pool{n}"))
}

/// Calls `forward` of an instance of `class` on arguments of the given shapes: the shape of what
/// it returns (when one tensor of known rank), or where it certainly raises.
pub fn run_forward(
    class: &UserClass,
    args: &[Option<Shape>],
    depth: usize,
) -> Result<Option<Shape>, Mismatch> {
    run_method(class, "forward", args, depth)
}

fn run_method(
    class: &UserClass,
    method: &str,
    args: &[Option<Shape>],
    depth: usize,
) -> Result<Option<Shape>, Mismatch> {
    let Some((params, body)) = class.methods.get(method) else {
        return Ok(None);
    };
    if depth > 4
        || params.vararg
        || params.kwarg
        || params.positional != params.names.len()
        || params.positional != args.len() + 1
    {
        return Ok(None);
    }
    let mut run = Forward {
        class,
        me: &params.names[0],
        locals: crate::ordered::map_of(params.names[1..].iter().cloned().zip(args.iter().cloned())),
        depth: depth + 1,
    };
    run.body(body).map_err(|m| Mismatch {
        at: if m.at.starts_with(&class.name) {
            m.at
        } else {
            format!("{}.{method}: {}", class.name, m.at)
        },
        problem: m.problem,
    })
}

/// Following a method of a notebook class on tensors of known shapes.
struct Forward<'c> {
    class: &'c UserClass,
    /// The name of its `self` parameter.
    me: &'c str,
    /// Local names and the shapes of the tensors they hold (`None`: unknown).
    locals: BTreeMap<String, Option<Shape>>,
    depth: usize,
}

impl Forward<'_> {
    /// The shape the body returns; it stops (`Ok(None)`) at a statement it cannot follow.
    fn body(&mut self, body: &[Stmt]) -> Result<Option<Shape>, Mismatch> {
        for s in body {
            match s {
                Stmt::Expr {
                    value: Expr::Literal { .. },
                    ..
                }
                | Stmt::Pass { .. } => {}
                Stmt::Expr {
                    value: Expr::Call { func, args, .. },
                    ..
                } if matches!(&**func, Expr::Name { id, .. } if id == "print") => {
                    for a in args {
                        self.eval(a)?;
                    }
                }
                Stmt::Assign {
                    targets,
                    op: AssignOp::Plain,
                    value: Some(value),
                    ..
                } => {
                    let v = self.eval(value)?;
                    match targets.as_slice() {
                        [Target::Name { id, .. }] if id != self.me => {
                            self.locals.insert(id.clone(), v);
                        }
                        _ => return Ok(None),
                    }
                }
                Stmt::Other { exprs, .. }
                    if crate::ir_scan::stmt_keyword(s, &self.class.source) == Some("return") =>
                {
                    return match exprs.as_slice() {
                        [e] => self.eval(e),
                        _ => Ok(None),
                    };
                }
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    fn int(&self, e: &Expr) -> Option<i64> {
        const_int(e, &self.class.source, &|_| None)
    }

    /// Is `e` `self.<attr>`?
    fn own_attr<'e>(&self, e: &'e Expr) -> Option<&'e str> {
        match e {
            Expr::Attribute { value, attr, .. } if matches!(&**value, Expr::Name { id, .. } if id == self.me) => {
                Some(attr)
            }
            _ => None,
        }
    }

    /// The shape of the tensor `e` gives, evaluating what certainly runs.
    fn eval(&mut self, e: &Expr) -> Result<Option<Shape>, Mismatch> {
        match e {
            Expr::Name { id, .. } => Ok(self.locals.get(id).cloned().flatten()),
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } => {
                let shapes: Vec<Option<Shape>> = args
                    .iter()
                    .map(|a| self.eval(a))
                    .collect::<Result<_, _>>()?;
                for k in keywords {
                    self.eval(&k.value)?;
                }
                if unpacks(args, keywords) {
                    return Ok(None);
                }
                let first = shapes.first().cloned().flatten();
                // `self.fc1(x)`, `self.block(x)`
                if let Some(attr) = self.own_attr(func) {
                    if let Some(layer) = self.class.layers.get(attr) {
                        if !keywords.is_empty() || args.len() != 1 {
                            return Ok(None);
                        }
                        let x = first.unwrap_or_else(Shape::unknown);
                        return apply(layer, &x, self.depth)
                            .map(|s| (s != Shape::unknown()).then_some(s))
                            .map_err(|m| Mismatch {
                                at: format!("{}.{attr}{}", self.class.name, m.at),
                                problem: m.problem,
                            });
                    }
                    if self.class.methods.contains_key(attr) && keywords.is_empty() {
                        return run_method(self.class, attr, &shapes, self.depth);
                    }
                    return Ok(None);
                }
                match &**func {
                    // `x.view(-1, 32 * 128 * 128)`, `x.relu()`
                    Expr::Attribute { value, attr, .. } => {
                        let base = self.eval(value)?;
                        let path = func.dotted_path();
                        let function = match path.as_deref() {
                            Some([m, f]) if matches!(*m, "F" | "torch") => Some(*f),
                            _ => None,
                        };
                        if let Some(f) = function {
                            if SAME_FUNCTIONS.contains(&f) {
                                return Ok(first);
                            }
                            // `F.max_pool2d(x, 2)`: the arguments after the input in the order
                            // of the module's (as far as the dilation).
                            if let (Some(class), Some(x), true) =
                                (pooling_class(f), first.as_ref(), args.len() <= 5)
                            {
                                let int = |e: &Expr| self.int(e);
                                let layer = layer_of(&class, &args[1..], keywords, &int, &|_| {
                                    Layer::Opaque
                                });
                                return Ok(apply(&layer, x, self.depth).ok());
                            }
                            if f == "flatten" {
                                let start = args.get(1).map_or(Some(0), |e| self.int(e));
                                let end = args.get(2).map_or(Some(-1), |e| self.int(e));
                                return Ok(match (first, start, end, keywords.is_empty()) {
                                    (Some(x), Some(s), Some(e), true) => Some(flatten(&x, s, e)),
                                    (None, Some(s), Some(-1), true) if s >= 0 => {
                                        Some(flatten(&Shape::unknown(), s, -1))
                                    }
                                    _ => None,
                                });
                            }
                            return Ok(None);
                        }
                        Ok(tensor_method(
                            base.as_ref(),
                            value,
                            attr,
                            args,
                            keywords,
                            &|e| self.int(e),
                        ))
                    }
                    _ => Ok(None),
                }
            }
            Expr::Attribute { value, .. } | Expr::Subscript { value, .. } => {
                self.eval(value)?;
                Ok(None)
            }
            _ => Ok(None),
        }
    }
}

/// Module methods that return the module itself, its layers unchanged (`model.to(device)`).
pub const RETURNS_MODULE: &[&str] = &[
    "to",
    "cuda",
    "cpu",
    "train",
    "eval",
    "float",
    "double",
    "half",
    "requires_grad_",
];

/// The class a notebook's `class name(nn.Module)` statement defines, when its base is
/// `torch.nn.Module` (`resolve` gives the library path of a base) and nothing in it changes how
/// an instance is called or looks up attributes.
pub fn user_class(
    name: &str,
    bases: &[Expr],
    body: &[Stmt],
    source: Rc<str>,
    resolve: &dyn Fn(&Expr) -> Option<String>,
) -> Option<UserClass> {
    let [base] = bases else { return None };
    if !matches!(
        resolve(base).as_deref(),
        Some("torch.nn.Module" | "torch.nn.modules.module.Module")
    ) {
        return None;
    }
    let mut methods = BTreeMap::new();
    for s in body {
        match s {
            Stmt::FunctionDef {
                name,
                decorators,
                params,
                body,
                ..
            } => {
                if !decorators.is_empty()
                    || matches!(
                        name.as_str(),
                        "__call__"
                            | "__getattr__"
                            | "__getattribute__"
                            | "__setattr__"
                            | "_call_impl"
                    )
                {
                    return None;
                }
                methods.insert(name.clone(), (params.clone(), body.clone()));
            }
            Stmt::Expr { .. } | Stmt::Pass { .. } | Stmt::Other { .. } => {}
            // Class attributes (`__call__ = ...`) may change anything.
            _ => return None,
        }
    }
    let mut layers = BTreeMap::new();
    let mut module_before_init = None;
    if let Some((params, init)) = methods.get("__init__") {
        let me = params.names.first()?;
        module_before_init = module_assigned_first(init, me, resolve);
        let params: BTreeSet<&String> = crate::ordered::set_of(&params.names);
        let int = |e: &Expr| const_int(e, &source, &|_| None);
        fn build(
            e: &Expr,
            params: &BTreeSet<&String>,
            resolve: &dyn Fn(&Expr) -> Option<String>,
            int: &dyn Fn(&Expr) -> Option<i64>,
        ) -> Layer {
            let Expr::Call {
                func,
                args,
                keywords,
                ..
            } = e
            else {
                return Layer::Opaque;
            };
            let root = func
                .dotted_path()
                .and_then(|p| p.first().map(|s| s.to_string()));
            if root.is_some_and(|r| params.contains(&r)) {
                return Layer::Opaque;
            }
            match resolve(func).as_deref().and_then(nn_class) {
                Some(class) => layer_of(class, args, keywords, int, &|e| {
                    build(e, params, resolve, int)
                }),
                None => Layer::Opaque,
            }
        }
        for s in init {
            match s {
                Stmt::Assign {
                    targets,
                    op: AssignOp::Plain,
                    value: Some(value),
                    ..
                } if targets.len() == 1 => {
                    if let Target::Store {
                        expr:
                            Expr::Attribute {
                                value: obj, attr, ..
                            },
                        ..
                    } = &targets[0]
                    {
                        if matches!(&**obj, Expr::Name { id, .. } if id == me) {
                            layers.insert(attr.clone(), build(value, &params, resolve, &int));
                            continue;
                        }
                    }
                    forget_stores(std::slice::from_ref(s), &mut layers);
                }
                other => forget_stores(std::slice::from_ref(other), &mut layers),
            }
        }
    }
    Some(UserClass {
        name: name.to_string(),
        layers,
        methods,
        source,
        module_before_init,
    })
}

/// The attribute of `me` and the `torch.nn` class of the module (or `nn.Parameter`) that the
/// first statements of `__init__` assign, when no statement before it calls anything (a call
/// may reach `nn.Module.__init__`).
fn module_assigned_first(
    init: &[Stmt],
    me: &str,
    resolve: &dyn Fn(&Expr) -> Option<String>,
) -> Option<(String, String)> {
    for s in init {
        let Stmt::Assign {
            targets,
            op: AssignOp::Plain,
            value: Some(value),
            ..
        } = s
        else {
            // A docstring.
            if matches!(
                s,
                Stmt::Expr {
                    value: Expr::Literal { .. },
                    ..
                }
            ) {
                continue;
            }
            return None;
        };
        if let [Target::Store {
            expr: Expr::Attribute {
                value: obj, attr, ..
            },
            ..
        }] = targets.as_slice()
        {
            if let Expr::Call { func, .. } = value {
                let class = resolve(func).and_then(|p| nn_class(&p).map(str::to_string));
                if matches!(&**obj, Expr::Name { id, .. } if id == me)
                    && class
                        .as_deref()
                        .is_some_and(|c| c.starts_with(|ch: char| ch.is_ascii_uppercase()))
                {
                    return Some((attr.clone(), class?));
                }
            }
        } else if !targets.iter().all(|t| {
            matches!(
                t,
                Target::Store {
                    expr: Expr::Name { .. },
                    ..
                }
            )
        }) {
            return None;
        }
        let mut calls = false;
        crate::ir_scan::for_each_expr(std::slice::from_ref(s), &mut |e| {
            calls |= matches!(e, Expr::Call { .. });
        });
        if calls {
            return None;
        }
    }
    None
}

/// Attributes the statements may assign (or change as containers): not followed.
fn forget_stores(stmts: &[Stmt], layers: &mut BTreeMap<String, Layer>) {
    let mut attrs = BTreeSet::new();
    stored_attributes(stmts, &mut attrs);
    for a in attrs {
        layers.insert(a, Layer::Opaque);
    }
}

/// The attribute names the statements store to or delete (`x.fc = ...`, `x.fc[0] = ...`,
/// `del x.fc`), function and class bodies included, but for those on `self` in an `__init__`
/// (they build the object, not change one).
pub fn stored_attributes(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    stores_in(stmts, None, out);
}

fn stores_in(stmts: &[Stmt], skip: Option<&str>, out: &mut BTreeSet<String>) {
    fn target(t: &Target, skip: Option<&str>, out: &mut BTreeSet<String>) {
        match t {
            Target::Store { expr, .. } => {
                let root = expr.dotted_path().and_then(|p| p.first().copied());
                if root.is_none() || root != skip {
                    attrs_in(expr, out);
                }
            }
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| target(t, skip, out)),
            Target::Starred { target: t, .. } => target(t, skip, out),
            Target::Name { .. } => {}
        }
    }
    fn attrs_in(e: &Expr, out: &mut BTreeSet<String>) {
        match e {
            Expr::Attribute { value, attr, .. } => {
                out.insert(attr.clone());
                attrs_in(value, out);
            }
            Expr::Subscript { value, .. } => attrs_in(value, out),
            _ => {}
        }
    }
    // `self.head.append(layer)`: a container of layers changed (in `__init__` too, where the
    // layers it assigned are then not known).
    crate::ir_scan::for_each_expr(stmts, &mut |e| {
        if let Expr::Call { func, .. } = e {
            if let Expr::Attribute { value, attr, .. } = &**func {
                if CHANGES_CONTAINER.contains(&attr.as_str()) {
                    attrs_in(value, out);
                }
            }
        }
    });
    for s in stmts {
        match s {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| target(t, skip, out))
            }
            Stmt::For { target: t, .. } => target(t, skip, out),
            Stmt::With { items, .. } => {
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target(t, skip, out);
                }
            }
            Stmt::ClassDef { body, .. } => {
                for m in body {
                    match m {
                        Stmt::FunctionDef {
                            name, params, body, ..
                        } if name == "__init__" => {
                            stores_in(body, params.names.first().map(String::as_str), out)
                        }
                        other => stores_in(std::slice::from_ref(other), None, out),
                    }
                }
                continue;
            }
            Stmt::FunctionDef { body, .. } => stores_in(body, skip, out),
            _ => {}
        }
        s.for_each_block(|b| stores_in(b, skip, out));
    }
}

/// Methods that change a container of layers (`nn.Sequential`, `nn.ModuleList`, `nn.ModuleDict`).
const CHANGES_CONTAINER: &[&str] = &[
    "append",
    "insert",
    "extend",
    "pop",
    "update",
    "clear",
    "add_module",
    "register_module",
    "__setitem__",
    "__delitem__",
];

/// Does the module method leave the module's layers as they are (those that return the module,
/// and those that only read or load its parameters)?
pub fn keeps_layers(method: &str) -> bool {
    RETURNS_MODULE.contains(&method) || READS_LAYERS.contains(&method)
}

/// Module methods that read its layers or parameters, or load values into them.
const READS_LAYERS: &[&str] = &[
    "parameters",
    "named_parameters",
    "buffers",
    "named_buffers",
    "children",
    "named_children",
    "modules",
    "named_modules",
    "state_dict",
    "load_state_dict",
    "zero_grad",
];

/// May the statements change the module `name` holds in place: a method other than those that
/// keep its layers, the module passed to a call, stored into, or bound to another name? (Its
/// layers replaced through attributes are seen by `stored_attributes` anywhere.)
pub fn module_changed(stmts: &[Stmt], name: &str) -> bool {
    let mut aliased = BTreeSet::new();
    crate::ir_scan::aliased_names(stmts, &mut aliased);
    let mut stored = BTreeSet::new();
    crate::ir_scan::mutated_names(stmts, &mut stored);
    if aliased.contains(name) || !stored.contains(name) {
        return aliased.contains(name);
    }
    // `mutated_names` counts every method called on it: look closer.
    let mut changed = false;
    crate::ir_scan::for_each_expr(stmts, &mut |e| {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        else {
            return;
        };
        if let Expr::Attribute { value, attr, .. } = &**func {
            if matches!(&**value, Expr::Name { id, .. } if id == name) && !keeps_layers(attr) {
                changed = true;
            }
        }
        let mut passed = BTreeSet::new();
        args.iter()
            .for_each(|a| crate::ir_scan::root_names(a, &mut passed));
        keywords
            .iter()
            .for_each(|k| crate::ir_scan::root_names(&k.value, &mut passed));
        changed |= passed.contains(name);
    });
    let mut targets = BTreeSet::new();
    stored_targets(stmts, &mut targets);
    changed || targets.contains(name)
}

/// The names whose objects the statements store into or delete from (`x.a = ...`, `x[0] = ...`,
/// `del x[0]`), nested blocks included.
fn stored_targets(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    fn target(t: &Target, out: &mut BTreeSet<String>) {
        match t {
            Target::Store { expr, .. } => crate::ir_scan::root_names(expr, out),
            Target::Unpack { elts, .. } => elts.iter().for_each(|t| target(t, out)),
            Target::Starred { target: t, .. } => target(t, out),
            Target::Name { .. } => {}
        }
    }
    for s in stmts {
        match s {
            Stmt::Assign { targets, .. } | Stmt::Delete { targets, .. } => {
                targets.iter().for_each(|t| target(t, out))
            }
            Stmt::For { target: t, .. } => target(t, out),
            Stmt::With { items, .. } => {
                for t in items.iter().filter_map(|(_, t)| t.as_ref()) {
                    target(t, out);
                }
            }
            _ => {}
        }
        s.for_each_block(|b| stored_targets(b, out));
    }
}

/// Does the code rewire modules (or other objects) in ways not seen as attribute stores:
/// `setattr`, `add_module`, `register_module`, forward hooks, `__dict__`, `vars`? Function
/// and class bodies included (a call may run them).
/// May the statements (function and class bodies included) give a module's weights another
/// floating-point dtype than float32: `.double()`, `.half()`, `.bfloat16()`, `.type(...)`,
/// `.to(...)` given anything but a device, `torch.set_default_dtype`, a `dtype=` given to a
/// constructor of `torch.nn`?
pub fn casts_module_floats(stmts: &[Stmt]) -> bool {
    with_bodies(stmts, casts_here)
}

fn casts_here(stmts: &[Stmt]) -> bool {
    // `.to('cuda')`, `.to(device)`, `.to(torch.device(...))`, `.to(self.device)`.
    fn device(e: &Expr) -> bool {
        match e {
            Expr::Literal {
                value: crate::ir::Literal::Str(_),
                ..
            } => true,
            Expr::Name { id, .. } | Expr::Attribute { attr: id, .. } => {
                id.to_ascii_lowercase().contains("device") || id == "dev"
            }
            Expr::Call { func, .. } => {
                matches!(&**func, Expr::Attribute { attr, .. } | Expr::Name { id: attr, .. } if attr == "device")
            }
            _ => false,
        }
    }
    let mut found = false;
    crate::ir_scan::for_each_expr(stmts, &mut |e| {
        let Expr::Call {
            func,
            args,
            keywords,
            ..
        } = e
        else {
            return;
        };
        let name = match &**func {
            Expr::Name { id, .. } => id.as_str(),
            Expr::Attribute { attr, .. } => attr.as_str(),
            _ => return,
        };
        found |= match name {
            "double"
            | "half"
            | "bfloat16"
            | "type"
            | "set_default_dtype"
            | "set_default_tensor_type" => true,
            "to" => {
                !args.iter().all(device)
                    || keywords
                        .iter()
                        .any(|k| !matches!(k.name.as_deref(), Some("device" | "non_blocking")))
            }
            _ => {
                keywords.iter().any(|k| k.name.as_deref() == Some("dtype"))
                    && name.starts_with(|c: char| c.is_ascii_uppercase())
            }
        };
    });
    found
}

pub fn rewires_modules(stmts: &[Stmt]) -> bool {
    with_bodies(stmts, rewires_here)
}

fn rewires_here(stmts: &[Stmt]) -> bool {
    let mut found = false;
    crate::ir_scan::for_each_expr(stmts, &mut |e| {
        let name = match e {
            Expr::Name { id, .. } => id.as_str(),
            Expr::Attribute { attr, .. } => attr.as_str(),
            _ => return,
        };
        found |= matches!(
            name,
            "setattr"
                | "__setattr__"
                | "vars"
                | "add_module"
                | "register_module"
                | "register_forward_hook"
                | "register_forward_pre_hook"
                | "register_module_forward_hook"
                | "register_module_forward_pre_hook"
                | "__dict__"
                | "__class__"
        );
    });
    found
}

/// Does `found_here` hold of the statements, or of a function or class body among them at any
/// depth (the expressions `ir_scan::for_each_expr` visits leave those bodies out)?
fn with_bodies(stmts: &[Stmt], found_here: fn(&[Stmt]) -> bool) -> bool {
    fn bodies(stmts: &[Stmt], found_here: fn(&[Stmt]) -> bool, found: &mut bool) {
        for s in stmts {
            match s {
                Stmt::FunctionDef { body, .. } | Stmt::ClassDef { body, .. } => {
                    *found |= with_bodies(body, found_here)
                }
                _ => s.for_each_block(|b| bodies(b, found_here, found)),
            }
        }
    }
    let mut found = found_here(stmts);
    bodies(stmts, found_here, &mut found);
    found
}
