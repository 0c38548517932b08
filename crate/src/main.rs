#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cellguard::cli::run(std::env::args().skip(1).collect())
}

// The CLI is native only; the WebAssembly build is the library (crate/src/wasm.rs).
#[cfg(target_arch = "wasm32")]
fn main() {}
