import {
  expect,
  galata,
  IJupyterLabPageFixture,
  test
} from '@jupyterlab/galata';

import { cell, newNotebook } from './helpers';

const DELAY_MS = 1500;

const FRAME = "import pandas as pd\ndf = pd.DataFrame({'Age': [22, 38]})";
// Computed keys, so no rule can know them: only running the cell shows whether it crashes.
const CRASHING = "key = ''.join(['Fa', 're'])\nfare = df[key]";
const FINE = "key = ''.join(['Ag', 'e'])\nage = df[key]";

/**
 * Counts the requests of a type (for `code` only, given one) the page sends on the `cellguard`
 * comm from now on, read off the kernel websocket's frames: the comm data is JSON in every wire
 * protocol.
 */
function commRequests(
  page: IJupyterLabPageFixture
): (type: string, code?: string) => number {
  const sent: string[] = [];
  page.on('websocket', socket =>
    socket.on('framesent', frame => sent.push(String(frame.payload)))
  );
  return (type, code) =>
    sent.filter(
      text =>
        text.includes(`"type":"${type}"`) &&
        (code === undefined || text.includes(`"code":${JSON.stringify(code)}`))
    ).length;
}

/** Runs the frame-building cell, then types `source` into the next cell as a user would. */
async function typeAfterFrame(
  page: IJupyterLabPageFixture,
  source: string
): Promise<void> {
  await page.notebook.setCell(0, 'code', FRAME);
  await page.notebook.runCell(0);
  await cell(page, 1).locator('.cm-content').click();
  await page.keyboard.type(source);
  // CodeMirror closes brackets and quotes as they are typed: the text must still be the source.
  await expect.poll(() => page.notebook.getCellTextInput(1)).toBe(source);
}

const dryRunView = (page: IJupyterLabPageFixture) =>
  page.locator('.jp-cellguard-dryrun');

async function showPanel(page: IJupyterLabPageFixture): Promise<void> {
  await page.evaluate(() =>
    window.jupyterapp.commands.execute('cellguard:show-diagnostics')
  );
}

test.describe('cellguard dry run when idle', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      'jupyterlab-cellguard:settings': {
        dryRunWhenIdle: true,
        dryRunIdleDelayMs: DELAY_MS
      }
    }
  });

  test('typing a crashing cell and pausing shows the dry-run squiggle without a click', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'dry-run-idle.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, CRASHING);

    const squiggle = cell(page, 1).locator('.cm-lintRange-error');
    await expect
      .poll(async () => (await squiggle.allTextContents()).join(''), {
        timeout: 30000
      })
      .toBe('fare = df[key]');
    await expect(dryRunView(page)).toContainText(
      "Cell 2: raised KeyError: 'Fare' at line 2"
    );
    await expect(dryRunView(page)).toContainText(
      /in \d+ ms \(your kernel was not changed\)/
    );
    await expect(dryRunView(page)).toContainText(
      /Isolation: audit hook, inherited files closed/
    );
    const tooltip = page.locator('.cm-tooltip-lint');
    await expect(async () => {
      await page.mouse.move(0, 0);
      await squiggle.first().hover();
      await expect(tooltip).toContainText(
        "Running this cell on a copy of the kernel raised KeyError: 'Fare' at line 2 (your kernel was not changed)",
        { timeout: 1000 }
      );
    }).toPass();

    // The same text in the same kernel state is not run again, however long the cell rests.
    await page.waitForTimeout(2 * DELAY_MS + 1000);
    expect(requests('dry_run', CRASHING)).toBe(1);

    // A stale result goes with the text it was about.
    await cell(page, 1).locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('  # edited');
    await expect(squiggle).toHaveCount(0);
  });

  test('its twin that does not crash shows no squiggle, and the panel says it completed', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'dry-run-idle-fine.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, FINE);

    await expect(dryRunView(page)).toContainText(
      /Cell 2: ran to its end in \d+ ms on a copy of the kernel: no crash\./,
      { timeout: 30000 }
    );
    await expect(dryRunView(page)).toContainText(/Isolation: audit hook/);
    expect(requests('dry_run', FINE)).toBe(1);
    await expect(cell(page, 1).locator('.cm-lintRange-error')).toHaveCount(0);
  });

  test('an edit cancels the idle dry run in flight', async ({ page }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'dry-run-idle-cancel.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, 'import time\ntime.sleep(2.5)');
    await expect(dryRunView(page)).toContainText(
      'Cell 2: running on a copy of the kernel',
      { timeout: 30000 }
    );
    expect(requests('dry_run_cancel')).toBe(0);
    await page.keyboard.type('  # edited');
    await expect.poll(() => requests('dry_run_cancel')).toBe(1);
  });

  test('a cell starting to run cancels the idle dry run in flight', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'dry-run-idle-busy.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, 'import time\ntime.sleep(2.5)');
    await expect(dryRunView(page)).toContainText(
      'Cell 2: running on a copy of the kernel',
      { timeout: 30000 }
    );
    expect(requests('dry_run_cancel')).toBe(0);
    await page.notebook.runCell(0);
    await expect.poll(() => requests('dry_run_cancel')).toBe(1);
  });
});

test.describe('cellguard dry run when idle, off (the default)', () => {
  test('typing and pausing runs the rules but never dry-runs; the check button still does', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'dry-run-idle-off.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, CRASHING);

    // The checks ran on the typed cell: they asked the kernel about `df`.
    await expect.poll(() => requests('summarize')).toBeGreaterThan(0);
    // Long past the delay (and the 3 s budget of a run that would have started then).
    await page.waitForTimeout(DELAY_MS + 4000);
    expect(requests('dry_run')).toBe(0);
    await expect(dryRunView(page)).not.toContainText('Cell 2');
    await expect(cell(page, 1).locator('.cm-lintRange-error')).toHaveCount(0);

    // The same cell does crash on a dry run, and such a request is seen when one is sent.
    await page
      .locator(
        '.jp-NotebookPanel-toolbar [data-command="cellguard:check-active-cell"]'
      )
      .click();
    await expect(dryRunView(page)).toContainText(
      "Cell 2: raised KeyError: 'Fare' at line 2",
      { timeout: 30000 }
    );
    expect(requests('dry_run')).toBe(1);
  });
});
