#!/usr/bin/env bash
# Browser benchmarks (print figures, assert nothing): keystroke -> frame latency while typing in a
# 300-cell notebook, Run All time, and last keystroke -> squiggle, with cellguard on and off. The
# UI tests' set-up (scripts/test-ui.sh); extra arguments go to `playwright test`.
set -euo pipefail
cd "$(dirname "$0")/.."
CELLGUARD_UI_CONFIG=benchmarks/ui/playwright.config.js exec bash scripts/test-ui.sh "$@"
