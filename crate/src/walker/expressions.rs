//! The evaluator: the abstract value of an expression, and what evaluating it does to the
//! objects it touches.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::ir::{Expr, Keyword, Literal, SeqKind, Target, TextRange};
use crate::summary::{Category, ObjectSummary};

use crate::semantics::abstract_value::{
    join, ArrayLib, ArrayVal, DictKey, Frame, GroupSelection, Grouped, SeriesVal, Val,
};
use crate::semantics::pandas::rows_of;
use crate::semantics::{torch_classes, torch_layers};

use super::state::{nan_through, position, Walker};
use crate::ir_scan::{base_name, collect_calls, root_names, str_list};
use crate::semantics::mutation::{
    has_inplace, is_pure_lib, keeps_arguments, CONTAINER_READERS, DATA_MUTATORS, FRAME_MUTATORS,
    INPLACE_FOLLOWED, PURE_BUILTINS,
};

impl<'a> Walker<'a> {
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
            // `enumerate(x)`, `enumerate(x, 1)`, `enumerate(x, start=1)`
            Expr::Call { func, args, .. } if matches!(&**func, Expr::Name { id, .. } if id == "enumerate" && self.is_builtin(id)) => {
                args.first().is_some_and(|x| self.non_empty(x))
            }
            Expr::Call {
                func,
                args,
                keywords,
                ..
            } if keywords.is_empty() => {
                let Expr::Name { id, .. } = &**func else {
                    return self.holds_elements(iter);
                };
                if !self.is_builtin(id) {
                    return self.holds_elements(iter);
                }
                let int = |e: &Expr| match self.eval(e) {
                    Val::Int(i) => Some(i),
                    _ => None,
                };
                match (id.as_str(), args.as_slice()) {
                    ("zip", [_, ..]) => args.iter().all(|x| self.non_empty(x)),
                    ("range", [n]) => matches!(int(n), Some(n) if n > 0),
                    ("range", [a, b]) => matches!((int(a), int(b)), (Some(a), Some(b)) if a < b),
                    _ => self.holds_elements(iter),
                }
            }
            Expr::Name { .. }
            | Expr::Attribute { .. }
            | Expr::Call { .. }
            | Expr::Subscript { .. } => self.holds_elements(iter),
            _ => false,
        }
    }

    /// Does `iter` evaluate to a value of elements known to be there (a list, str or dict of
    /// known length, an array whose first axis is not empty, a frame with columns)?
    fn holds_elements(&self, iter: &Expr) -> bool {
        match self.eval(iter) {
            v @ (Val::Sized { .. } | Val::Strs { .. } | Val::Items { .. } | Val::Dict { .. }) => {
                v.sized().is_some_and(|(_, n)| n > 0)
            }
            Val::Array(a) => a.shape.first().is_some_and(|&n| n > 0),
            Val::Frame(f) => f.columns.is_some_and(|c| !c.is_empty()),
            _ => false,
        }
    }

    /// The abstract value of an expression (no diagnostics).
    pub fn eval(&self, expr: &Expr) -> Val {
        let looked_at = self
            .looked_at
            .borrow()
            .iter()
            .position(|(e, _)| std::ptr::eq(*e, expr));
        let Some(slot) = looked_at else {
            return self.eval_fresh(expr);
        };
        if let Some(val) = &self.looked_at.borrow()[slot].1 {
            return val.clone();
        }
        let val = self.eval_fresh(expr);
        self.looked_at.borrow_mut()[slot].1 = Some(val.clone());
        val
    }

    fn eval_fresh(&self, expr: &Expr) -> Val {
        match expr {
            Expr::Name { id, .. } => self.get(id),
            Expr::Literal { value, .. } => match value {
                Literal::Int(i) => Val::Int(*i),
                Literal::Float(f) => Val::Float(*f),
                Literal::Str(s) => Val::Str(s.clone()),
                Literal::None => Val::None,
                Literal::Bool(b) => Val::Bool(*b),
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
                    // Equal elements make one (`{1, 1}` has one): the length is known when
                    // every element is a known int or text, or there is at most one.
                    SeqKind::Set => {
                        let mut keys: Vec<Option<DictKey>> =
                            elts.iter().map(|e| DictKey::of(&self.eval(e))).collect();
                        if elts.len() > 1 && keys.iter().any(Option::is_none) {
                            return Val::Typed("set".into());
                        }
                        keys.sort_unstable();
                        keys.dedup();
                        Val::Sized {
                            type_name: "set".into(),
                            len: keys.len() as i64,
                        }
                    }
                }
            }
            // `[*base, 'extra']`, `(*a, *b)`: the elements of lists and tuples the walker follows.
            Expr::Seq { kind, elts, .. } if *kind != SeqKind::Set => {
                let mut items = Vec::new();
                for e in elts {
                    match e {
                        Expr::Starred { value, .. } => match self.eval(value) {
                            Val::Items {
                                type_name,
                                items: inner,
                            } if matches!(type_name.as_str(), "list" | "tuple") => {
                                items.extend(inner)
                            }
                            Val::Strs {
                                type_name,
                                items: inner,
                            } if matches!(type_name.as_str(), "list" | "tuple") => {
                                items.extend(inner.into_iter().map(Val::Str))
                            }
                            _ => return Val::Unknown,
                        },
                        _ => items.push(self.eval(e)),
                    }
                }
                let type_name = if *kind == SeqKind::List {
                    "list"
                } else {
                    "tuple"
                };
                crate::semantics::abstract_value::sequence_of(type_name, items)
            }
            // Literal str and int keys, and `**d` of dicts the walker follows.
            Expr::Dict { keys, values, .. } => {
                let (mut all_keys, mut all_values) = (Vec::new(), Vec::new());
                for (key, value) in keys.iter().zip(values) {
                    match key {
                        Some(key) => match key {
                            Expr::Literal {
                                value: Literal::Str(s),
                                ..
                            } => {
                                all_keys.push(DictKey::Str(s.clone()));
                                all_values.push(self.eval(value));
                            }
                            Expr::Literal {
                                value: Literal::Int(i),
                                ..
                            } => {
                                all_keys.push(DictKey::Int(*i));
                                all_values.push(self.eval(value));
                            }
                            _ => return Val::Unknown,
                        },
                        None => match self.eval(value) {
                            Val::Dict { keys, values } => {
                                all_keys.extend(keys);
                                all_values.extend(values);
                            }
                            _ => return Val::Unknown,
                        },
                    }
                }
                // A repeated key keeps its first place and its last value: not followed.
                if crate::ordered::set_of(&all_keys).len() == all_keys.len() {
                    Val::Dict {
                        keys: all_keys,
                        values: all_values,
                    }
                } else {
                    Val::Unknown
                }
            }
            Expr::Attribute { value, attr, .. } => self
                .class_constant(value, attr)
                .unwrap_or_else(|| self.attribute_value(&self.eval(value), attr)),
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
                    // `df.iloc[:, :-1]`, `df.iloc[:, [0, 2]]`, `df.iloc[:, -1]`: columns by position.
                    if let (
                        "iloc",
                        Expr::Seq {
                            kind: SeqKind::Tuple,
                            elts,
                            ..
                        },
                    ) = (attr.as_str(), &**index)
                    {
                        return match (self.eval(frame), elts.as_slice()) {
                            (Val::Frame(f), [rows, columns]) => {
                                self.columns_at(&f, rows, columns).unwrap_or(Val::Unknown)
                            }
                            _ => Val::Unknown,
                        };
                    }
                    // `df.iloc[:5]`, `df.iloc[[0, 2]]`: rows by position, every column.
                    if attr == "iloc" {
                        let rows = match &**index {
                            Expr::Slice { .. } => true,
                            Expr::Seq {
                                kind: SeqKind::List,
                                elts,
                                ..
                            } => elts.iter().all(|e| matches!(self.eval(e), Val::Int(_))),
                            _ => false,
                        };
                        return match self.eval(frame) {
                            Val::Frame(f) if rows => Val::Frame(rows_of(&f)),
                            _ => Val::Unknown,
                        };
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
                // `bunch['data']`: a Bunch's keys are its attributes.
                if let (Val::Bunch(_), Some(key)) = (&base, index.as_str_literal()) {
                    return self.attribute_value(&base, key);
                }
                if let Expr::Slice {
                    lower, upper, step, ..
                } = &**index
                {
                    // Bounds that are ints or None (written or left out).
                    let bound = |b: &Option<Box<Expr>>| match b.as_deref().map(|e| self.eval(e)) {
                        None | Some(Val::None) => Some(None),
                        Some(Val::Int(i)) => Some(Some(i)),
                        _ => None,
                    };
                    if let (Some(l), Some(u), Some(s)) = (bound(lower), bound(upper), bound(step)) {
                        if let Some(v) = crate::semantics::python::sliced(&base, l, u, s) {
                            return v;
                        }
                    }
                }
                match base {
                    Val::Strs { items, .. } => match position(items.len(), &self.eval(index)) {
                        Some(at) => Val::Str(items[at].clone()),
                        None => Val::Unknown,
                    },
                    Val::Items { items, .. } => match position(items.len(), &self.eval(index)) {
                        Some(at) => items[at].clone(),
                        None => Val::Unknown,
                    },
                    Val::Dict { keys, values } => match DictKey::of(&self.eval(index)) {
                        Some(key) => keys
                            .iter()
                            .position(|k| *k == key)
                            .map(|i| values[i].clone())
                            .unwrap_or(Val::Unknown),
                        None => Val::Unknown,
                    },
                    Val::Array(a) if !a.shape.is_empty() => {
                        match crate::semantics::numpy::indexed_shape(self, &a.shape, index) {
                            Some(shape) => Val::Array(ArrayVal {
                                shape,
                                origin: None,
                                non_integer: None,
                                int_bounds: None,
                                ..a
                            }),
                            None => Val::Unknown,
                        }
                    }
                    Val::GroupBy(g) if g.selection.is_none() => {
                        let selection = match (index.as_str_literal(), str_list(index)) {
                            (Some(col), _) => GroupSelection::Column(col.to_string()),
                            (None, Some(cols)) => GroupSelection::Columns(cols),
                            _ => return Val::Unknown,
                        };
                        let present = match &selection {
                            GroupSelection::Column(c) => g.frame.has(c) == Some(true),
                            GroupSelection::Columns(cols) => {
                                cols.iter().all(|c| g.frame.has(c) == Some(true))
                            }
                        };
                        if !present {
                            return Val::Unknown;
                        }
                        Val::GroupBy(Grouped {
                            selection: Some(selection),
                            ..g
                        })
                    }
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
                            // (A label the frame may lack: if it runs on, it selected a column.)
                            let selects = match f.has(col) {
                                Some(has) => has,
                                None => f.unique_columns,
                            };
                            return if selects {
                                self.series_of(&f, col)
                            } else {
                                Val::Unknown
                            };
                        }
                        // `df[['a', 'b']]`, or `df[features]` of a list of known strings.
                        let listed = str_list(index).or_else(|| match self.eval(index) {
                            Val::Strs { type_name, items } if type_name == "list" => Some(items),
                            _ => None,
                        });
                        if let Some(cols) = listed {
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
                crate::semantics::python::binop_value(op, &l, &r)
                    .or_else(|| crate::semantics::torch_objects::tracked_binop(op, &l, &r))
                    .unwrap_or_else(|| crate::semantics::shapes::binop_value(op, &l, &r))
            }
            Expr::Comprehension {
                elements,
                generators,
                range,
            } => self
                .list_comprehension_value(elements, generators, *range)
                .or_else(|| self.dict_comprehension_value(elements, generators))
                .unwrap_or_else(|| {
                    crate::semantics::python::comprehension_value(self.text(*range), elements.len())
                }),
            // `x if c else y`: the branch a known test takes, else what both give, as far as
            // they agree.
            Expr::Other { .. } if self.conditional(expr).is_some() => {
                let [test, body, orelse] = self.conditional(expr).unwrap();
                match crate::semantics::python::truth(&self.eval(test)) {
                    Some(true) => self.eval(body),
                    Some(false) => self.eval(orelse),
                    None => join(&self.eval(body), &self.eval(orelse)),
                }
            }
            Expr::Walrus { target, value, .. } => {
                // After the walrus ran, the name holds what the value gave; a value that reads
                // the name itself gave what is not known any more.
                let mut reads_target = false;
                value.for_each_name(&mut |n| reads_target |= n == target);
                if reads_target {
                    Val::Unknown
                } else {
                    self.eval(value)
                }
            }
            Expr::Other { range, children } => match self.comparison(expr) {
                Some((left, op, right)) => {
                    let (l, r) = (self.eval(left), self.eval(right));
                    match crate::semantics::python::compared(op, &l, &r) {
                        Some(b) => Val::Bool(b),
                        None => crate::semantics::shapes::comparison_value(op, &l, &r),
                    }
                }
                None if self.boolean_operation(expr).is_some() => {
                    self.boolean_value(expr).unwrap_or(Val::Unknown)
                }
                None => match &children[..] {
                    // `-a`, `+a`: an array of the same shape.
                    [operand]
                        if matches!(
                            self.text(TextRange::new(range.start, operand.range().start))
                                .trim(),
                            "-" | "+"
                        ) && operand.range().end == range.end =>
                    {
                        crate::semantics::shapes::negated(self.eval(operand))
                    }
                    _ => crate::semantics::python::fstring_value(self.text(*range))
                        .unwrap_or(Val::Unknown),
                },
            },
            _ => Val::Unknown,
        }
    }

    /// `[e for x in xs]` of one generator without conditions over an iterable of known length:
    /// a list of that length; of its elements too when `e` reads no name the loop binds (each
    /// element is then what `e` gives, evaluated anew).
    fn list_comprehension_value(
        &self,
        elements: &[Expr],
        generators: &[crate::ir::Comprehension],
        range: TextRange,
    ) -> Option<Val> {
        let ([element], [g]) = (elements, generators) else {
            return None;
        };
        if !g.ifs.is_empty() || !self.text(range).starts_with('[') {
            return None;
        }
        let n = self.loop_count(&g.iter)?;
        let mut bound = BTreeSet::new();
        crate::ir_scan::target_names(&g.target, &mut bound, false);
        // A function of the notebook may give another value at each call (a counter).
        let mut independent = true;
        element.for_each_name(&mut |name| {
            independent &= !bound.contains(name) && self.user_function(name).is_none()
        });
        if !independent || n > 64 {
            return Some(Val::Sized {
                type_name: "list".into(),
                len: n,
            });
        }
        let value = self.eval(element);
        Some(Val::Items {
            type_name: "list".into(),
            items: vec![value; n as usize],
        })
    }

    /// `{k: v for k in keys}` of one generator without conditions, keyed by its loop variable:
    /// a dict of the keys the iterable gives, when they are known.
    fn dict_comprehension_value(
        &self,
        elements: &[Expr],
        generators: &[crate::ir::Comprehension],
    ) -> Option<Val> {
        let ([Expr::Name { id: key, .. }, _], [g]) = (elements, generators) else {
            return None;
        };
        if !g.ifs.is_empty() || !matches!(&g.target, Target::Name { id, .. } if id == key) {
            return None;
        }
        crate::semantics::containers::dict_of_keys(&self.eval(&g.iter))
    }

    /// `Color.RED` of a plain class of the notebook whose body binds `RED` once, to a literal,
    /// and no code of the notebook stores to an attribute of that name: the literal.
    fn class_constant(&self, class: &Expr, attr: &str) -> Option<Val> {
        let class = self.notebook_class(class)?;
        if !class.plain() || self.attribute_rewired(attr) {
            return None;
        }
        class.constant(attr).map(|literal| self.eval(literal))
    }

    /// The value of attribute `attr` of an object of value `base`.
    pub(super) fn attribute_value(&self, base: &Val, attr: &str) -> Val {
        use crate::semantics::properties::{bound_method, property_value};
        match self.followed_attribute(base, attr) {
            Val::Unknown if !self.pandas_extended => match bound_method(base, attr) {
                Some(method) => Val::Typed(method.name().to_string()),
                None => property_value(base, attr),
            },
            Val::Unknown => property_value(base, attr),
            v => v,
        }
    }

    /// What is known of `base.attr` beyond the class of a property's value.
    fn followed_attribute(&self, base: &Val, attr: &str) -> Val {
        match (base, attr) {
            (Val::Module(Some(p)), _) | (Val::Lib(p), _) => Val::Lib(format!("{p}.{attr}")),
            (Val::Bunch(fields), _) => fields
                .iter()
                .find(|(name, _)| *name == attr)
                .map_or(Val::Unknown, |(_, v)| v.clone()),
            (Val::Frame(_) | Val::Series(_), "values") => {
                crate::semantics::pandas::values_array(base).map_or(Val::Unknown, Val::Array)
            }
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
            (Val::Estimator(e), _) => crate::semantics::sklearn::attribute_value(e, attr),
            (Val::Array(a), "shape") if a.lib == ArrayLib::Numpy => Val::Items {
                type_name: "tuple".into(),
                items: a.shape.iter().map(|&d| Val::Int(d)).collect(),
            },
            // A Series' shape is (rows,), whatever is known of them.
            (Val::Series(s), "shape") => Val::Items {
                type_name: "tuple".into(),
                items: vec![s.len.map_or(Val::Unknown, Val::Int)],
            },
            // A DataFrame's shape is (rows, columns), whatever is known of them.
            (Val::Frame(f), "shape") if f.plain => Val::Items {
                type_name: "tuple".into(),
                items: [f.n_rows, f.n_columns()]
                    .map(|d| d.map_or(Val::Unknown, Val::Int))
                    .into(),
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
            (Val::Frame(f), col) => {
                let column = !crate::semantics::pandas::is_frame_attribute(col)
                    && match f.has(col) {
                        Some(has) => has,
                        // (Libraries may add attributes; and `_x` may be the frame's own.)
                        None => {
                            f.unique_columns
                                && f.plain
                                && !self.pandas_extended
                                && !col.starts_with('_')
                        }
                    };
                if column {
                    self.series_of(f, col)
                } else {
                    Val::Unknown
                }
            }
            _ => Val::Unknown,
        }
    }

    /// The kernel's summary of the Series or array `e` names, when the cell has not rebound it.
    fn kernel_data(&self, e: &Expr) -> Option<&ObjectSummary> {
        let Expr::Name { id, .. } = e else {
            return None;
        };
        // Rebound or changed in the cell: the summary no longer describes it.
        if self.bound_here.contains(id) || !matches!(self.get(id), Val::Series(_) | Val::Array(_)) {
            return None;
        }
        let obj = self.ctx.summaries?.objects.get(id)?;
        let data =
            obj.error.is_none() && matches!(obj.kind.as_str(), "series" | "ndarray" | "tensor");
        data.then_some(obj)
    }

    /// The number of distinct values of a kernel object the cell has not rebound (a lower bound
    /// when the summary was computed on a sample).
    pub fn distinct_values(&self, e: &Expr) -> Option<i64> {
        self.kernel_data(e)?.value.get("unique")?.as_i64()
    }

    /// Strings a numpy array from the kernel certainly holds: the distinct values of an array of
    /// text (dtype `<U...`), the examples of an object array.
    pub fn kernel_array_texts(&self, e: &Expr) -> Option<Vec<String>> {
        let obj = self.kernel_data(e)?;
        let dtype = obj.str_fact(Category::R, "dtype")?;
        let key = match dtype {
            "object" => "examples",
            _ if dtype.starts_with("<U") => "unique_values",
            _ => return None,
        };
        if obj.kind != "ndarray" {
            return None;
        }
        obj.str_list_fact(Category::V, key)
            .map(|texts| texts.into_iter().map(str::to_string).collect())
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

    /// `not a`, `a and b and ...`, `a or b or ...`, `a is b`, `a is not b`: the operator and the
    /// operands.
    pub fn boolean_operation<'e>(&self, e: &'e Expr) -> Option<(&'static str, &'e [Expr])> {
        let Expr::Other { children, range } = e else {
            return None;
        };
        let (first, last) = (children.first()?, children.last()?);
        let head = self.text(TextRange::new(range.start, first.range().start));
        let tail = self.text(TextRange::new(last.range().end.min(range.end), range.end));
        fn bare(t: &str) -> &str {
            t.trim_matches(|c: char| c.is_whitespace() || c == '(' || c == ')')
        }
        if !bare(tail).is_empty() {
            return None;
        }
        if children.len() == 1 {
            return (bare(head) == "not").then_some(("not", children.as_slice()));
        }
        if !bare(head).is_empty() {
            return None;
        }
        let separators: Vec<String> = children
            .windows(2)
            .map(|w| {
                let between = self.text(TextRange::new(w[0].range().end, w[1].range().start));
                bare(between)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let op = ["and", "or", "is", "is not"]
            .into_iter()
            .find(|op| separators.iter().all(|s| s == op))?;
        (!op.starts_with("is") || children.len() == 2).then_some((op, children.as_slice()))
    }

    /// The value of a `boolean_operation`, when the truth of the operands it reads is known:
    /// `not` gives a bool, `and` / `or` the operand that decides (`0 or 'a'` is `'a'`).
    fn boolean_value(&self, e: &Expr) -> Option<Val> {
        let (op, operands) = self.boolean_operation(e)?;
        match op {
            "not" => Some(Val::Bool(!crate::semantics::python::truth(
                &self.eval(&operands[0]),
            )?)),
            "is" | "is not" => crate::semantics::python::compared(
                op,
                &self.eval(&operands[0]),
                &self.eval(&operands[1]),
            )
            .map(Val::Bool),
            _ => {
                let (last, decided) = operands.split_last()?;
                for operand in decided {
                    let value = self.eval(operand);
                    // `and` stops at the first false operand, `or` at the first true one.
                    if crate::semantics::python::truth(&value)? == (op == "or") {
                        return Some(value);
                    }
                }
                Some(self.eval(last))
            }
        }
    }

    /// `body if test else orelse` as `[test, body, orelse]`: the IR keeps it as `Other` with the
    /// children in that order, the only `Other` whose children are not in source order.
    pub fn conditional<'e>(&self, e: &'e Expr) -> Option<[&'e Expr; 3]> {
        let Expr::Other { children, .. } = e else {
            return None;
        };
        let [test, body, orelse] = children.as_slice() else {
            return None;
        };
        (body.range().end <= test.range().start && test.range().end <= orelse.range().start)
            .then_some([test, body, orelse])
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

    /// `f.iloc[rows, columns]` for rows by position (`:`, a slice, a list of ints) and columns
    /// by position: a slice or a list of ints gives a frame of those columns (of a known count
    /// when their names are not), one int the column as a Series.
    fn columns_at(&self, f: &Frame, rows: &Expr, columns: &Expr) -> Option<Val> {
        let every_row = matches!(
            rows,
            Expr::Slice {
                lower: None,
                upper: None,
                step: None,
                ..
            }
        );
        let taken = if every_row {
            f.clone()
        } else {
            match (rows, f.n_rows) {
                (Expr::Slice { .. } | Expr::Seq { .. }, Some(n)) => Frame {
                    n_rows: Some(self.positions(rows, n)?.len() as i64),
                    ..rows_of(f)
                },
                (Expr::Slice { .. }, None) => rows_of(f),
                _ => return None,
            }
        };
        let width = f.n_columns()?;
        let positions = match columns {
            Expr::Slice { .. } | Expr::Seq { .. } => self.positions(columns, width)?,
            _ => {
                let at = super::state::position(width as usize, &self.eval(columns))?;
                let name = f.columns.as_ref()?.get(at)?;
                return Some(self.series_of(&taken, name));
            }
        };
        Some(Val::Frame(match &f.columns {
            Some(names) => {
                let kept: Vec<String> = positions.iter().map(|&p| names[p].clone()).collect();
                taken.select(&kept)
            }
            None => Frame {
                width: Some(positions.len() as i64),
                column_info: Default::default(),
                has_nan: taken.has_nan.filter(|has| !has),
                ..taken
            },
        }))
    }

    /// The positions a slice of int bounds or a list of ints takes from `n` rows or columns
    /// (None for a list with one past them: `.iloc` raises).
    fn positions(&self, e: &Expr, n: i64) -> Option<Vec<usize>> {
        match e {
            Expr::Slice {
                lower, upper, step, ..
            } => {
                let bound = |b: &Option<Box<Expr>>| match b.as_deref().map(|e| self.eval(e)) {
                    None | Some(Val::None) => Some(None),
                    Some(Val::Int(i)) => Some(Some(i)),
                    _ => None,
                };
                crate::semantics::python::slice_positions(
                    n,
                    bound(lower)?,
                    bound(upper)?,
                    bound(step)?,
                )
            }
            Expr::Seq {
                kind: SeqKind::List,
                elts,
                ..
            } => elts
                .iter()
                .map(|e| super::state::position(n as usize, &self.eval(e)))
                .collect(),
            _ => None,
        }
    }

    pub(super) fn series_of(&self, f: &Frame, col: &str) -> Val {
        // A label two columns share selects both: a DataFrame.
        if f.columns
            .as_ref()
            .is_some_and(|cols| cols.iter().filter(|c| *c == col).count() > 1)
        {
            return Val::Unknown;
        }
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
            index_keys: f.index_keys(),
            dtype: info.and_then(|i| i.dtype.clone()).filter(|_| f.plain),
            row_numbers: f.row_numbers,
            names_since: f.columns_since,
        })
    }

    pub(super) fn eval_call(
        &self,
        func: &Expr,
        args: &[Expr],
        keywords: &[Keyword],
        range: TextRange,
    ) -> Val {
        if let Some(r) = self.returns.get(&range) {
            return r.value.clone();
        }
        if let Some(v) = crate::semantics::python::call_result(self, func, args, keywords) {
            return v;
        }
        if let Some(path) = self.lib_path(func) {
            if let Some(est) =
                crate::semantics::sklearn::construct(self, &path, args, keywords, range)
            {
                return Val::Estimator(Rc::new(est));
            }
            if let Some(v) = crate::semantics::sklearn::lib_call_result(self, &path, args, keywords)
            {
                return v;
            }
            if let Some(v) = crate::semantics::numpy::call_result(self, &path, args, keywords)
                .or_else(|| crate::semantics::tensorflow::call_result(self, &path, args, keywords))
                .or_else(|| crate::semantics::matplotlib::pyplot_result(&path, keywords))
                .or_else(|| {
                    crate::semantics::keras_build::array_result(self, &path, args, keywords)
                })
                .or_else(|| crate::semantics::keras_build::model_result(&path))
            {
                return v;
            }
            if let Some(v) = crate::semantics::pandas::new_frame(self, &path, args, keywords) {
                return v;
            }
            if let Some(v) = crate::semantics::torch_objects::construct(self, &path, args, keywords)
                .or_else(|| {
                    crate::semantics::torch_objects::new_tensor(self, &path, args, keywords)
                })
                .or_else(|| crate::semantics::torch_objects::data_call(self, &path, args, keywords))
                .or_else(|| {
                    crate::semantics::torch_objects::tracked_function(self, &path, args, keywords)
                })
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
        if let Some(class) = self.notebook_class(func).filter(|c| c.plain()) {
            return Val::Instance(class);
        }
        if let Some(batch) = crate::semantics::torch_objects::next_batch(self, func, args) {
            return batch;
        }
        // The receiver of a method call is evaluated once: evaluating it again for the method
        // would double the work at each call of a chain (`df.dropna().dropna()...`).
        let Expr::Attribute { value, attr, .. } = func else {
            if let Val::Torch(module) = self.eval(func) {
                return crate::semantics::torch_objects::call_result(self, &module, args, keywords);
            }
            return Val::Unknown;
        };
        let receiver = self.eval(value);
        if let Val::Torch(module) = self.attribute_value(&receiver, attr) {
            return crate::semantics::torch_objects::call_result(self, &module, args, keywords);
        }
        if let Some(v) = crate::semantics::python::method_result(&receiver, attr, args, keywords) {
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
            // A list, of the Series' or the array's length (a 0-d array gives one number).
            Val::Series(_) if matches!(attr.as_str(), "tolist" | "to_list") && args.is_empty() => {
                Val::Typed("list".into())
            }
            Val::Array(a)
                if a.lib == ArrayLib::Numpy
                    && !a.maybe_not_ndarray
                    && !a.shape.is_empty()
                    && attr == "tolist"
                    && args.is_empty() =>
            {
                Val::Sized {
                    type_name: "list".into(),
                    len: a.shape[0],
                }
            }
            // `df.to_numpy()`, `s.to_numpy()`: the array `.values` gives.
            Val::Frame(_) | Val::Series(_)
                if attr == "to_numpy" && args.is_empty() && keywords.is_empty() =>
            {
                match self.attribute_value(&receiver, "values") {
                    // `to_numpy` gives an ndarray whatever the dtype.
                    Val::Array(a) => Val::Array(ArrayVal {
                        maybe_not_ndarray: false,
                        ..a
                    }),
                    v => v,
                }
            }
            Val::Frame(f) => {
                crate::semantics::pandas::frame_method_result(self, &f, attr, args, keywords)
            }
            // One group's rows: what the values of the whole frame showed may lie in others.
            Val::GroupBy(g) if attr == "get_group" => Val::Frame(rows_of(&g.frame)),
            Val::GroupBy(g) => crate::semantics::pandas::grouped_result(&g, attr, args, keywords),
            Val::Estimator(e) => crate::semantics::sklearn::method_result(self, &e, attr, args),
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
                let s = crate::semantics::torch_objects::shape_of(&Val::Array(a.clone()));
                match torch_layers::tensor_method(s.as_ref(), value, attr, args, keywords, &int) {
                    // What a method makes of a tensor autograd does not track is not tracked
                    // either (`t.sum()`): an array, which `backward()` refuses. (But for
                    // `requires_grad_()`, which turns tracking on.)
                    Some(s) if !s.requires_grad && attr != "requires_grad_" => match s.dims {
                        Some(dims) if dims.iter().all(Option::is_some) => {
                            let dims = dims.into_iter().flatten().collect();
                            crate::semantics::numpy::numpy_array(ArrayLib::Torch, dims, None)
                        }
                        _ => Val::Tensor(s),
                    },
                    Some(s) => Val::Tensor(s),
                    None => crate::semantics::numpy::method_result(self, &a, attr, args, keywords),
                }
            }
            Val::Array(a) if a.lib == ArrayLib::Tensorflow => {
                crate::semantics::tensorflow::method_result(&a, attr, args, keywords)
            }
            Val::Array(a) => a.passes_type_on(crate::semantics::numpy::method_result(
                self, &a, attr, args, keywords,
            )),
            Val::Typed(class) => {
                crate::semantics::numpy::generator_method(self, &class, attr, args, keywords)
            }
            Val::Series(s)
                if matches!(
                    attr.as_str(),
                    "rename" | "value_counts" | "reset_index" | "to_frame"
                ) || crate::semantics::pandas::SERIES_METHODS_KEEPING_DTYPE
                    .contains(&attr.as_str()) =>
            {
                crate::semantics::pandas::series_method_result(s, attr, args, keywords)
            }
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
                            index_keys: s.index_keys,
                            dtype: None,
                            row_numbers: s.row_numbers,
                            names_since: s.names_since,
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
    pub(super) fn nan_as_string(&self, f: &Expr) -> Option<String> {
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

    /// A lambda in the expression may run now (`map`, `sorted`'s key, `df.apply`): what its body
    /// may change (the objects it calls methods of or passes to calls, the globals the notebook's
    /// functions it calls mention) is forgotten. Its parameters are its own.
    fn forget_lambda_effects(&mut self, expr: &Expr) {
        let Expr::Lambda { params, body, .. } = expr else {
            let mut lambdas = Vec::new();
            expr.for_each_child(|c| lambdas.push(c));
            lambdas
                .into_iter()
                .for_each(|c| self.forget_lambda_effects(c));
            return;
        };
        let mut changed = BTreeSet::new();
        crate::ir_scan::mutated_in(body, &mut changed);
        let mut calls = Vec::new();
        collect_calls(body, &mut calls);
        for call in calls {
            if let Expr::Call { func, .. } = call {
                if let Some(root) = base_name(func) {
                    changed.extend(self.function_mentions(root));
                }
            }
        }
        for n in changed {
            let immutable = super::state::immutable(&self.get(&n));
            if self.env.contains_key(&n) && !params.names.contains(&n) && !immutable {
                self.forget_name(&n);
            }
        }
        self.forget_lambda_effects(body);
    }

    /// Side effects of evaluating `expr` on the names it mentions.
    pub(super) fn effects(&mut self, expr: &Expr) {
        self.forget_lambda_effects(expr);
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
                // `LinearRegression().fit(X, y)`: a scikit-learn estimator keeps its input as it
                // is, unless told to work in place (`copy=False`).
                if !matches!(&**value, Expr::Name { .. })
                    && matches!(self.eval(value), Val::Estimator(e) if e.is_sklearn() && !e.params.contains_key("copy"))
                {
                    pure = true;
                }
                if let Expr::Name { id, .. } = &**value {
                    match self.get(id) {
                        Val::Frame(f) => {
                            pure = true;
                            if has_inplace(keywords) {
                                let after = if INPLACE_FOLLOWED.contains(&attr.as_str()) {
                                    crate::semantics::pandas::frame_method_result(
                                        self, &f, attr, args, keywords,
                                    )
                                } else {
                                    Val::Unknown
                                };
                                // Another name may hold the same frame (`d = df`).
                                self.forget_after_frame_change();
                                self.env.insert(id.clone(), after);
                            } else if FRAME_MUTATORS.contains(&attr.as_str()) {
                                self.forget_after_frame_change();
                                // `df.pop('c')`: the frame without the column.
                                if let ("pop", [column]) = (attr.as_str(), args.as_slice()) {
                                    if let Val::Str(column) = self.eval(column) {
                                        let after =
                                            crate::semantics::pandas::without_column(&f, &column);
                                        self.env.insert(id.clone(), after);
                                    }
                                }
                            }
                        }
                        Val::Estimator(e) => {
                            pure = true;
                            let after =
                                crate::semantics::sklearn::after_method(self, &e, attr, args);
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
                            if inplace || DATA_MUTATORS.contains(&attr.as_str()) {
                                // A Series or array may be a view of a frame or another array.
                                self.forget_data();
                            }
                        }
                        Val::Typed(t) if keeps_arguments(&t) => pure = true,
                        old @ (Val::Items { .. } | Val::Dict { .. }) => {
                            // List and dict methods may change the container, never its elements
                            // nor their arguments (`stmt_effects` follows a plain `lst.append(x)`).
                            pure = true;
                            if !CONTAINER_READERS.contains(&attr.as_str()) {
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
                    // A builtin (`astype(float)`) is a function or type no call changes; forgetting
                    // it would also shadow it for the rest of the cell. Nor can a call change a
                    // number, a text or None in place (`json.dumps(path)`).
                    if !self.is_builtin(&n) && !super::state::immutable(&self.get(&n)) {
                        self.forget_name(&n);
                    }
                }
            }
        }
    }
}
