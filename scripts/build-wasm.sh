#!/usr/bin/env bash
# Builds the Rust core to WebAssembly for the browser: labextension/core/ (generated, not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# The wasm-bindgen CLI on PATH has the Cargo.lock version (scripts/setup.sh): no download is tried.
wasm-pack build crate --release --target web --out-dir ../labextension/core --out-name cellguard_core --no-pack --mode no-install "$@"
# wasm-opt from npm's binaryen (Debian's binaryen 108 emits modules that fail to load), in about a
# minute; the result is kept in .cache/ and reused while the unoptimized module is the same.
# CELLGUARD_WASM_OPT=0 skips it. -Os rather than -O3: at 46ea6d7+, 1019.6 KiB gzipped rather than
# 1024.5, and under node no slower (two runs each: the 300-cell notebook 241 / 230 ms against
# 232 / 235 ms, one edited cell 0.52 / 0.50 ms against 0.55 / 0.84 ms).
if [ "${CELLGUARD_WASM_OPT:-1}" != 0 ]; then
  wasm=labextension/core/cellguard_core_bg.wasm
  mkdir -p .cache
  key=.cache/wasm-opt-Os-$(sha256sum "$wasm" | cut -c1-16).wasm
  if [ ! -f "$key" ]; then
    rm -f .cache/wasm-opt-*.wasm
    node_modules/.bin/wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$wasm" -o "$key"
  fi
  cp "$key" "$wasm"
fi
# The generated glue is an ES module; say so, for node (tests, benchmarks) and bundlers alike.
echo '{"type": "module"}' > labextension/core/package.json
