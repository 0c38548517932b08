#!/usr/bin/env bash
# UI tests: builds the extension, installs it into .venv (development mode), and runs the Galata
# specs in tests/ui/ with Debian's headless chromium against a real JupyterLab and ipykernel.
# Screenshots and failure traces go to test-results/ui/. Extra arguments go to `playwright test`;
# CELLGUARD_UI_CONFIG picks another Playwright config (scripts/bench-ui.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

bash scripts/build-extension.sh

# Everything the server, kernels and browser write stays inside the project.
tmp="$PWD/tests/ui/.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/tmp" "$tmp/root"
export TMPDIR="$tmp/tmp"
export JUPYTERLAB_GALATA_ROOT_DIR="$tmp/root"
export JUPYTER_CONFIG_DIR="$tmp/config" JUPYTER_RUNTIME_DIR="$tmp/runtime"

jlpm playwright test --config "${CELLGUARD_UI_CONFIG:-tests/ui/playwright.config.js}" "$@"
