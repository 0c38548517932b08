// Galata UI tests in Debian's headless chromium against a real JupyterLab and ipykernel.
// Run with scripts/test-ui.sh (it sets TMPDIR and JUPYTERLAB_GALATA_ROOT_DIR inside the project).
const path = require('path');
const baseConfig = require('@jupyterlab/galata/lib/playwright-config');

const root = path.resolve(__dirname, '..', '..');

module.exports = {
  ...baseConfig,
  testDir: __dirname,
  outputDir: path.join(root, 'test-results', 'ui'),
  reporter: [
    ['list'],
    [
      'html',
      { open: 'never', outputFolder: path.join(root, 'playwright-report') }
    ]
  ],
  retries: 0,
  workers: 1,
  timeout: 120000,
  expect: { timeout: 20000 },
  use: {
    ...baseConfig.use,
    baseURL: 'http://localhost:8899',
    trace: 'retain-on-failure',
    video: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    }
  },
  webServer: [
    {
      command: `${path.join(root, '.venv', 'bin', 'jupyter')} lab --config ${path.join(__dirname, 'jupyter_server_test_config.py')}`,
      url: 'http://localhost:8899/lab',
      timeout: 120000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe'
    },
    {
      // The fake LLM endpoint the Jupyter server is configured with (jupyter_server_test_config.py).
      command: `${path.join(root, '.venv', 'bin', 'python')} ${path.join(__dirname, 'fake_llm.py')} 8898`,
      url: 'http://127.0.0.1:8898/seen',
      timeout: 30000,
      reuseExistingServer: false
    }
  ]
};
