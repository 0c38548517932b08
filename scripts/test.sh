#!/usr/bin/env bash
# Runs every test of cellguard; does all set-up first (scripts/setup.sh), so a fresh clone works.
# Prints the time each stage took.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

started=$SECONDS
stage_start=$SECONDS
stage_name=""
times=()
step() {
  if [ -n "$stage_name" ]; then times+=("$(printf '%5ds  %s' $((SECONDS - stage_start)) "$stage_name")"); fi
  stage_name=$*
  stage_start=$SECONDS
  printf '\n== test: %s\n' "$*"
}
summary() {
  step ""
  printf '\n== stage times\n'
  printf '%s\n' "${times[@]}"
  printf '%5ds  total\n' $((SECONDS - started))
}
trap summary EXIT

step "set-up (scripts/setup.sh) and real TensorFlow for the kernel side's Keras tests"
bash scripts/setup.sh
.venv/bin/pip install -q --disable-pip-version-check -r requirements-ml.txt

step "lint: rustfmt, clippy, ruff (lint + format), prettier + ESLint"
cargo fmt --all -- --check
cargo clippy --locked --all-targets -- -D warnings
.venv/bin/ruff check cellguard tests benchmarks
.venv/bin/ruff format --check cellguard tests benchmarks
jlpm lint:check

step "rust: unit, snapshot, rule, CLI, JunoBench and property tests (native)"
cargo test --locked -p cellguard

# The release build of the WebAssembly core ends in a long link-time optimization on one core:
# the Python suites run beside it on the other, their output printed when both are done.
step "webassembly: the core's API under node; beside it, python: the kernel side against a real ipykernel, the LLM client, worker and server extension against a local replaying endpoint"
python_log=$(mktemp)
(
  .venv/bin/python -m pytest -q -p no:cacheprovider tests/kernel &&
    .venv/bin/python -m pytest -q -p no:cacheprovider tests/llm
) >"$python_log" 2>&1 &
python_tests=$!
bash scripts/build-wasm.sh
node --test tests/wasm/
python_status=0
wait "$python_tests" || python_status=$?
cat "$python_log"
rm -f "$python_log"
if [ "$python_status" != 0 ]; then
  echo "test: the Python suites failed (output above)" >&2
  exit "$python_status"
fi

step "ui: Galata in headless chromium against a real JupyterLab and ipykernel"
bash scripts/test-ui.sh
