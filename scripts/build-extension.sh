#!/usr/bin/env bash
# Builds the JupyterLab extension (WebAssembly core, kernel agent, TypeScript, bundle) and installs
# it into .venv in development mode. Needs scripts/setup.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.venv/bin:$HOME/.cargo/bin:$PATH"

bash scripts/build-wasm.sh
jlpm install --immutable
jlpm build
if ! pip show -q jupyterlab-cellguard 2>/dev/null; then
  # The editable install's build hook would build again: the bundle above is already there.
  pip install -q --disable-pip-version-check --no-build-isolation -e .
fi
jupyter labextension develop --overwrite . >/dev/null
jupyter labextension list 2>&1 | grep -i cellguard
