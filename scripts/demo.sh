#!/usr/bin/env bash
# The demo: sets everything up, builds cellguard, installs it into .venv, and opens JupyterLab on
# demo/cellguard-demo.ipynb. No LLM is needed. Extra arguments go to `jupyter lab` (e.g. --port).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

bash scripts/setup.sh
bash scripts/build-extension.sh

args=()
[ "$(id -u)" = 0 ] && args+=(--allow-root)
printf '\n== demo: JupyterLab on demo/cellguard-demo.ipynb (Ctrl+C twice to stop)\n'
exec jupyter lab "${args[@]}" demo/cellguard-demo.ipynb "$@"
