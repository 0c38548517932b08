//! What library semantics may ask the interpreter about the code where a call runs (the walker
//! answers): semantics needs the values of a call's arguments, not how they are followed.

use crate::ir::Expr;

use super::abstract_value::Val;

pub trait Eval {
    /// The abstract value of an expression evaluated there.
    fn eval(&self, e: &Expr) -> Val;
    /// The library path a callee names through the imports (`np.zeros` -> `numpy.zeros`).
    fn lib_path(&self, func: &Expr) -> Option<String>;
    /// Does the name still mean Python's builtin?
    fn is_builtin(&self, name: &str) -> bool;
    /// What a name holds.
    fn get(&self, name: &str) -> Val;
    /// May the notebook have replaced attribute `attr` of modules (`model.conv1 = ...`)?
    fn attribute_rewired(&self, attr: &str) -> bool;
    /// How many distinct values the kernel counted in the series or array a name holds, while
    /// the name still holds what the kernel summarised.
    fn distinct_values(&self, e: &Expr) -> Option<i64>;
    /// The source of the code being walked (ranges index into it).
    fn source(&self) -> &str;
}
