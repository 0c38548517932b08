// The browser benchmarks (benchmarks/ui/*.bench.ts): the UI tests' set-up (real JupyterLab,
// ipykernel, Debian's chromium), figures printed, nothing asserted on time.
// Run with scripts/bench-ui.sh.
const path = require('path');
const uiConfig = require('../../tests/ui/playwright.config.js');

module.exports = {
  ...uiConfig,
  testDir: __dirname,
  testMatch: '*.bench.ts',
  outputDir: path.join(__dirname, '..', '..', 'test-results', 'bench-ui'),
  reporter: [['list']],
  timeout: 600000,
  use: {
    ...uiConfig.use,
    // Trace recording snapshots the page's DOM after every action, on the page's main thread: on
    // a 300-cell notebook that is a 0.5-1 s task after each typed word, inside every figure.
    trace: 'off'
  }
};
