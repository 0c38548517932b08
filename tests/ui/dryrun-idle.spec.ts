import {
  expect,
  galata,
  IJupyterLabPageFixture,
  test
} from '@jupyterlab/galata';

import {
  cell,
  commRequests,
  hoverTooltip,
  literally,
  newNotebook,
  notRun
} from './helpers';

const DELAY_MS = 1500;
// Notebook names never contain "idle": Galata waits for a run to end by finding "Idle" in the
// status bar, where the notebook's name shows too.

const FRAME = "import pandas as pd\ndf = pd.DataFrame({'Age': [22, 38]})";
// Computed keys, so no rule can know them: only running the cell shows whether it crashes.
const CRASHING = "key = ''.join(['Fa', 're'])\nfare = df[key]";
const FINE = "key = ''.join(['Ag', 'e'])\nage = df[key]";

const SLOW = 'import time\ntime.sleep(2.5)';

/** The id of a request, as the front end numbered it. */
const requestId = (frame: string) => /"id":"([^"]+)"/.exec(frame)?.[1];

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
    await newNotebook(page, 'pause-crash.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, CRASHING);

    const squiggle = cell(page, 1).locator('.cm-lintRange-error');
    await expect
      .poll(async () => (await squiggle.allTextContents()).join(''), {
        timeout: 30000
      })
      .toBe('fare = df[key]');
    await expect(dryRunView(page)).toContainText(
      `${notRun(CRASHING)}: raised KeyError: 'Fare' at line 2`
    );
    await expect(dryRunView(page)).toContainText(
      /in \d+ ms \(your kernel was not changed\)/
    );
    await expect(dryRunView(page)).toContainText(
      /Isolation: audit hook, inherited files closed/
    );
    await hoverTooltip(
      page,
      squiggle.first(),
      "Running this cell on a copy of the kernel raised KeyError: 'Fare' at line 2 (your kernel was not changed)"
    );

    // The same text in the same kernel state is not run again, however long the cell rests.
    await page.waitForTimeout(2 * DELAY_MS + 1000);
    expect(requests({ type: 'dry_run', code: CRASHING })).toHaveLength(1);

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
    await newNotebook(page, 'pause-fine.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, FINE);

    await expect(dryRunView(page)).toContainText(
      new RegExp(
        `${literally(notRun(FINE))}: ran to its end in \\d+ ms on a copy of the kernel: no crash\\.`
      ),
      { timeout: 30000 }
    );
    await expect(dryRunView(page)).toContainText(/Isolation: audit hook/);
    expect(requests({ type: 'dry_run', code: FINE })).toHaveLength(1);
    await expect(cell(page, 1).locator('.cm-lintRange-error')).toHaveCount(0);
  });

  const cancellers: {
    what: string;
    notebook: string;
    act: (page: IJupyterLabPageFixture) => Promise<unknown>;
  }[] = [
    {
      what: 'an edit',
      notebook: 'pause-edit.ipynb',
      act: page => page.keyboard.type('  # edited')
    },
    {
      what: 'a cell starting to run',
      notebook: 'pause-run.ipynb',
      act: page => page.notebook.runCell(0)
    }
  ];
  for (const { what, notebook, act } of cancellers) {
    test(`${what} cancels the idle dry run in flight`, async ({ page }) => {
      const requests = commRequests(page);
      await newNotebook(page, notebook);
      await showPanel(page);
      await typeAfterFrame(page, SLOW);
      await expect(dryRunView(page)).toContainText(
        `${notRun(SLOW)}: running on a copy of the kernel`,
        { timeout: 30000 }
      );
      const sent = requests({ type: 'dry_run', code: SLOW });
      expect(sent).toHaveLength(1);
      const run = requestId(sent[0]);
      expect(run).toBeDefined();
      expect(requests({ type: 'dry_run_cancel', run })).toHaveLength(0);
      await act(page);
      await expect
        .poll(() => requests({ type: 'dry_run_cancel', run }).length)
        .toBe(1);
    });
  }

  test('a run cancelled with the panel button is not started again for the same text', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'pause-cancelled.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, SLOW);
    const view = dryRunView(page);
    await expect(view).toContainText(
      `${notRun(SLOW)}: running on a copy of the kernel`,
      { timeout: 30000 }
    );
    const run = requestId(requests({ type: 'dry_run', code: SLOW })[0]);
    await view.getByRole('button', { name: 'Cancel' }).click();
    await expect(view).toContainText(`${notRun(SLOW)}: Cancelled.`);
    expect(requests({ type: 'dry_run_cancel', run })).toHaveLength(1);
    // Long past the delay: the cancelled text is not sent again.
    await page.waitForTimeout(DELAY_MS + 2000);
    await expect(view).toContainText(`${notRun(SLOW)}: Cancelled.`);
    expect(requests({ type: 'dry_run', code: SLOW })).toHaveLength(1);
  });

  test('the check button during an idle run replaces it, and the kernel is not found busy', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'pause-check.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, SLOW);
    await expect(dryRunView(page)).toContainText(
      `${notRun(SLOW)}: running on a copy of the kernel`,
      { timeout: 30000 }
    );
    const run = requestId(requests({ type: 'dry_run', code: SLOW })[0]);
    await page
      .locator(
        '.jp-NotebookPanel-toolbar [data-command="cellguard:check-active-cell"]'
      )
      .click();
    await expect(dryRunView(page)).toContainText(
      new RegExp(
        `${literally(notRun(SLOW))}: ran to its end in \\d+ ms on a copy of the kernel: no crash\\.`
      ),
      { timeout: 30000 }
    );
    expect(requests({ type: 'dry_run_cancel', run })).toHaveLength(1);
    expect(requests({ type: 'dry_run', code: SLOW })).toHaveLength(2);
  });
});

test.describe('cellguard dry run when idle, off (the default)', () => {
  test('typing and pausing runs the rules but never dry-runs; the check button still does', async ({
    page
  }) => {
    const requests = commRequests(page);
    await newNotebook(page, 'pause-off.ipynb');
    await showPanel(page);
    await typeAfterFrame(page, CRASHING);

    // The checks ran on the typed cell: they asked the kernel about `df`.
    await expect
      .poll(() => requests({ type: 'summarize' }).length)
      .toBeGreaterThan(0);
    // Long past the delay (and the 3 s budget of a run that would have started then).
    await page.waitForTimeout(DELAY_MS + 4000);
    expect(requests({ type: 'dry_run' })).toHaveLength(0);
    await expect(dryRunView(page)).not.toContainText('Cell [');
    await expect(cell(page, 1).locator('.cm-lintRange-error')).toHaveCount(0);

    // The same cell does crash on a dry run, and such a request is seen when one is sent.
    await page
      .locator(
        '.jp-NotebookPanel-toolbar [data-command="cellguard:check-active-cell"]'
      )
      .click();
    await expect(dryRunView(page)).toContainText(
      `${notRun(CRASHING)}: raised KeyError: 'Fare' at line 2`,
      { timeout: 30000 }
    );
    expect(requests({ type: 'dry_run', code: CRASHING })).toHaveLength(1);
  });
});
