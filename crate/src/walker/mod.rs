//! The interpreter over cellguard's IR: follows values through the target cell, the notebook's
//! own functions and what the cells that ran did.

pub mod calls;
pub mod flow;
pub mod history;
