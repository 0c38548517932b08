#!/usr/bin/env bash
# Installs everything cellguard needs on a fresh machine (idempotent: a second run only checks).
# Rust tools go to ~/.cargo/bin, Python packages to .venv/, npm packages to node_modules/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== setup: %s\n' "$*"; }

step "rust: wasm32 target, wasm-bindgen-cli (the Cargo.lock version), wasm-pack"
rustup target add wasm32-unknown-unknown >/dev/null
wbg_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wbg_version" ]; then
  cargo install --locked wasm-bindgen-cli --version "$wbg_version"
fi
command -v wasm-pack >/dev/null || cargo install --locked wasm-pack --version 0.15.1

step "python: .venv with JupyterLab, ipykernel, pandas, scikit-learn and the test tools"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt

step "browser: Debian's chromium for the UI tests"
if ! command -v chromium >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

step "npm: the extension's packages (jlpm is JupyterLab's yarn; no browser download)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 .venv/bin/jlpm install --immutable
