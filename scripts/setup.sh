#!/usr/bin/env bash
# Installs everything cellguard needs on a fresh machine (idempotent: a second run only checks).
# Rust tools go to .tools/ (scripts/env.sh), Python packages to .venv/, npm packages to
# node_modules/, Debian's chromium system-wide.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '\n== setup: %s\n' "$*"; }

# The Rust tools are built in debug mode: they run for seconds at most (wasm-bindgen takes 4 s
# instead of 1 s on our module), while a release build of them costs minutes of CPU. Both share one
# build directory, so their common dependencies are compiled once.
# `cargo install --locked` uses the tool's own lockfile, which may pin a version the registry
# reachable here does not serve (wasm-bindgen-cli 0.2.130 pins webpki-roots 1.0.11): then the tool
# is resolved afresh against the registry, said in one line.
cargo_install() {
  local name=$1 version=$2
  local args=(-q --debug --root "$CELLGUARD_TOOLS" --target-dir "$CELLGUARD_TOOLS/build" "$name" --version "$version")
  if ! cargo install --locked "${args[@]}" 2>"$CELLGUARD_TOOLS/$name.log"; then
    echo "setup: $name $version does not resolve with its own lockfile here ($(grep -m1 -o 'failed to select a version for[^,]*' "$CELLGUARD_TOOLS/$name.log" || tail -n1 "$CELLGUARD_TOOLS/$name.log")); installing it with versions resolved against the registry"
    cargo install "${args[@]}"
  fi
}

install_rust_tools() {
  local wbg_version
  wbg_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' Cargo.lock)
  if [ ! -x "$CELLGUARD_TOOLS/bin/wasm-bindgen" ] || [ "$("$CELLGUARD_TOOLS/bin/wasm-bindgen" --version | awk '{print $2}')" != "$wbg_version" ]; then
    cargo_install wasm-bindgen-cli "$wbg_version"
  fi
  [ -x "$CELLGUARD_TOOLS/bin/wasm-pack" ] || cargo_install wasm-pack 0.15.1
  rm -rf "$CELLGUARD_TOOLS/build"
}

# Compiling the Rust tools takes the CPU while the Python and npm installs mostly wait on the disk:
# they run side by side.
step "rust: wasm32 target; wasm-bindgen-cli (the Cargo.lock version) and wasm-pack into $CELLGUARD_TOOLS, in the background"
mkdir -p "$CELLGUARD_TOOLS"
rustup target add wasm32-unknown-unknown >/dev/null
install_rust_tools >"$CELLGUARD_TOOLS/install.log" 2>&1 &
rust_tools=$!

step "python: .venv with JupyterLab, ipykernel, pandas, scikit-learn and the test tools"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt

step "browser: Debian's chromium for the UI tests"
if ! command -v chromium >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

step "npm: the extension's packages (jlpm is JupyterLab's yarn; no browser download)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 .venv/bin/jlpm install --immutable

step "rust: waiting for wasm-bindgen-cli and wasm-pack"
if ! wait "$rust_tools"; then
  cat "$CELLGUARD_TOOLS/install.log" >&2
  echo "setup: installing the Rust tools failed (log above, and $CELLGUARD_TOOLS/*.log)" >&2
  exit 1
fi
cat "$CELLGUARD_TOOLS/install.log"
