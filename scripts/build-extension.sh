#!/usr/bin/env bash
# Builds the JupyterLab extension (WebAssembly core, kernel agent, TypeScript, bundle) and installs
# it into .venv in development mode. Needs scripts/setup.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

bash scripts/build-wasm.sh
jlpm install --immutable
jlpm build
# Editable: the Python package (and the server extension's config under .venv/etc) from the tree.
# The build hook skips the front end, built just above.
pip install -q --disable-pip-version-check --no-build-isolation -e .
jupyter labextension develop --overwrite . >/dev/null
jupyter labextension list 2>&1 | grep -i cellguard
