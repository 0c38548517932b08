#!/usr/bin/env bash
# Builds the Rust core to WebAssembly for the browser: labextension/core/ (generated, not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# The wasm-bindgen CLI on PATH has the Cargo.lock version (scripts/setup.sh): no download is tried.
wasm-pack build crate --release --target web --out-dir ../labextension/core --out-name cellguard_core --no-pack --mode no-install "$@"
# The generated glue is an ES module; say so, for node (tests, benchmarks) and bundlers alike.
echo '{"type": "module"}' > labextension/core/package.json
