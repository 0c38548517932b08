//! cellguard's analysis core: predicts whether a notebook cell will crash, from the cells that ran,
//! the cell's code and kernel summaries. Builds natively (CLI) and for WebAssembly (the browser).

/// `print!` for the CLI (`outln!`: `println!`). When the reader of stdout went away (`cellguard
/// check nb.ipynb | head -1`) the program ends quietly with success, as ripgrep does; `print!`
/// would panic.
#[cfg(not(target_arch = "wasm32"))]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(error) = write!(std::io::stdout(), $($arg)*) {
            $crate::stdout_failed(error);
        }
    }};
}

#[cfg(not(target_arch = "wasm32"))]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(error) = writeln!(std::io::stdout(), $($arg)*) {
            $crate::stdout_failed(error);
        }
    }};
}

#[cfg(not(target_arch = "wasm32"))]
fn stdout_failed(error: std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    panic!("failed printing to stdout: {error}");
}

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod builtins;
pub mod check;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod codes;
pub mod diagnostic;
pub mod did_you_mean;
pub mod dryrun;
pub mod facts;
pub mod ir;
pub mod ir_scan;
pub mod llm;
pub mod notebook;
pub mod order;
pub mod ordered;
pub mod position;
pub mod python;
pub mod rules;
pub mod semantics;
pub mod summary;
pub mod text_hash;
pub mod walker;
#[cfg(target_arch = "wasm32")]
mod wasm;
