#!/usr/bin/env bash
# Prints cellguard's performance figures (nothing is asserted): the WebAssembly core under node and
# the kernel side's summary latency.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
bash scripts/setup.sh >/dev/null
bash scripts/build-wasm.sh >/dev/null 2>&1

echo "== WebAssembly core (node $(node --version))"
node benchmarks/wasm_core.mjs
echo
echo "== kernel side: summary latency"
.venv/bin/python benchmarks/kernel_summary.py
