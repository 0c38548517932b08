//! The interpreter over cellguard's IR: follows values through the target cell, the notebook's
//! own functions and what the cells that ran did.

pub mod calls;
mod dispatch;
mod expressions;
pub mod history;
pub mod state;
mod statements;

pub use state::Walker;
