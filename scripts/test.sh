#!/usr/bin/env bash
# Runs every test of cellguard; does all set-up first (scripts/setup.sh), so a fresh clone works.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

step() { printf '\n== test: %s\n' "$*"; }

bash scripts/setup.sh
step "python: real TensorFlow for the kernel side's Keras tests"
.venv/bin/pip install -q --disable-pip-version-check -r requirements-ml.txt

step "rust: formatting, unit, snapshot, rule, CLI, JunoBench and property tests (native)"
cargo fmt --all -- --check
cargo test --locked -p cellguard

step "python: kernel side against a real ipykernel"
.venv/bin/python -m pytest -q -p no:cacheprovider tests/kernel

step "python: LLM client, worker and server extension against a local replaying endpoint"
.venv/bin/python -m pytest -q -p no:cacheprovider tests/llm

step "webassembly: the core's API under node"
bash scripts/build-wasm.sh
node --test tests/wasm/

step "ui: Galata in headless chromium against a real JupyterLab and ipykernel"
bash scripts/test-ui.sh
