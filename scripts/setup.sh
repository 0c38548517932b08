#!/usr/bin/env bash
# Installs everything cellguard needs on a fresh machine (idempotent: a second run only checks).
# Rust tools go to .tools/ (scripts/env.sh), Python packages to .venv/, npm packages to
# node_modules/, Debian's chromium system-wide.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '\n== setup: %s\n' "$*"; }

# `cargo install --locked` uses the tool's own lockfile, which may pin a version the registry
# reachable here does not serve (wasm-bindgen-cli 0.2.130 pins webpki-roots 1.0.11): then the tool
# is resolved afresh against the registry, said in one line.
cargo_install() {
  local name=$1 version=$2
  if ! cargo install -q --locked --root "$CELLGUARD_TOOLS" "$name" --version "$version" 2>"$CELLGUARD_TOOLS/$name.log"; then
    echo "setup: $name $version does not resolve with its own lockfile here ($(grep -m1 -o 'failed to select a version for[^,]*' "$CELLGUARD_TOOLS/$name.log" || tail -n1 "$CELLGUARD_TOOLS/$name.log")); installing it with versions resolved against the registry"
    cargo install -q --root "$CELLGUARD_TOOLS" "$name" --version "$version"
  fi
}

step "rust: wasm32 target, wasm-bindgen-cli (the Cargo.lock version), wasm-pack, into $CELLGUARD_TOOLS"
mkdir -p "$CELLGUARD_TOOLS"
rustup target add wasm32-unknown-unknown >/dev/null
wbg_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
if [ ! -x "$CELLGUARD_TOOLS/bin/wasm-bindgen" ] || [ "$("$CELLGUARD_TOOLS/bin/wasm-bindgen" --version | awk '{print $2}')" != "$wbg_version" ]; then
  cargo_install wasm-bindgen-cli "$wbg_version"
fi
[ -x "$CELLGUARD_TOOLS/bin/wasm-pack" ] || cargo_install wasm-pack 0.15.1

step "python: .venv with JupyterLab, ipykernel, pandas, scikit-learn and the test tools"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt

step "browser: Debian's chromium for the UI tests"
if ! command -v chromium >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

step "npm: the extension's packages (jlpm is JupyterLab's yarn; no browser download)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 .venv/bin/jlpm install --immutable
