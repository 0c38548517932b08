# Sourced by every script: where the project's own tools live. The Rust tools (wasm-bindgen-cli,
# wasm-pack) are installed per clone into .tools/ (CELLGUARD_TOOLS overrides it), never taken from
# ~/.cargo/bin, so a run on a machine that has them by hand behaves as on a fresh one.
CELLGUARD_TOOLS="${CELLGUARD_TOOLS:-$PWD/.tools}"
export CELLGUARD_TOOLS
export PATH="$CELLGUARD_TOOLS/bin:$PWD/.venv/bin:$HOME/.cargo/bin:$PATH"
