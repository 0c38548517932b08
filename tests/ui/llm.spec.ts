// LLM checks through the server extension, against tests/ui/fake_llm.py: each test picks the
// fake's answer with the `llm.model` setting (a recording's name).
import {
  expect,
  galata,
  IJupyterLabPageFixture,
  test
} from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';
import * as path from 'path';

import {
  cell,
  collectConsole,
  literally,
  newNotebook,
  notRun,
  SCREENSHOTS,
  squiggles,
  status
} from './helpers';

/** The Jupyter server's API key (jupyter_server_test_config.py). */
const KEY = 'sk-test-SECRET-1234';
const FAKE_LLM = 'http://127.0.0.1:8898';
const FRAME =
  'import pandas as pd\ndf = pd.DataFrame({"Age": [22.0, 38.0], "Sex": ["male", "female"]})';
/** Nothing the rules can prove: the LLM is asked. */
const TARGET = 'row = df.sample(1).squeeze()\nfare = row["Fare"]';

function useModel(model: string, endpoint = ''): void {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      // The LLM alone: a dry run that saw the cell crash or complete would leave it unasked.
      'jupyterlab-cellguard:settings': {
        dryRun: false,
        llm: { model, endpoint }
      }
    }
  });
}

const llmView = (page: IJupyterLabPageFixture): Locator =>
  page.locator('.jp-cellguard-llm');

/**
 * Every request and response of the page (URL, headers, body) and every websocket frame, as text,
 * from now on; the returned function waits for the bodies.
 */
function recordTraffic(page: IJupyterLabPageFixture): () => Promise<string[]> {
  const parts: Promise<string>[] = [];
  const text = (promise: Promise<string>) =>
    parts.push(promise.catch(() => ''));
  page.on('request', request =>
    text(
      request
        .allHeaders()
        .then(
          headers =>
            `${request.method()} ${request.url()}\n${JSON.stringify(headers)}\n${request.postData() ?? ''}`
        )
    )
  );
  page.on('response', response =>
    text(
      Promise.all([
        response.allHeaders(),
        response.text().catch(() => '')
      ]).then(
        ([headers, body]) =>
          `${response.status()} ${response.url()}\n${JSON.stringify(headers)}\n${body}`
      )
    )
  );
  page.on('websocket', socket => {
    socket.on('framesent', frame =>
      text(Promise.resolve(String(frame.payload)))
    );
    socket.on('framereceived', frame =>
      text(Promise.resolve(String(frame.payload)))
    );
  });
  return () => Promise.all(parts);
}

async function checkActiveCell(
  page: IJupyterLabPageFixture,
  index: number
): Promise<void> {
  await page.notebook.selectCells(index);
  await page
    .locator(
      '.jp-NotebookPanel-toolbar [data-command="cellguard:check-active-cell"]'
    )
    .click();
}

test.describe('cellguard LLM check', () => {
  test.use({ viewport: { width: 1400, height: 850 } });
  useModel('ui-verdict');

  for (const theme of ['light', 'dark'] as const) {
    test(`the LLM's verdict, reasoning and squiggle; the key never reaches the browser (${theme})`, async ({
      page
    }) => {
      const logs = collectConsole(page);
      const traffic = recordTraffic(page);
      // From the first request of the app on (its LLM status request included).
      await page.reload();
      if (theme === 'dark') {
        await page.theme.setDarkTheme();
      }
      await newNotebook(page, `llm-verdict-${theme}.ipynb`);
      await expect(status(page)).toContainText('LLM: ui-verdict@127.0.0.1');
      await page.notebook.setCell(0, 'code', FRAME);
      await page.notebook.runCell(0);
      await page.notebook.setCell(1, 'code', TARGET);
      await checkActiveCell(page, 1);

      const view = llmView(page);
      await expect(view, logs.join('\n')).toContainText(
        `${notRun(TARGET)}: likely crash at line 2`
      );
      await expect(view).toContainText(
        "df has no column 'Fare', so row['Fare'] raises a KeyError."
      );
      // The claim about df was checked against the kernel's summary of it.
      await expect(view.locator('.jp-cellguard-claim-confirmed')).toHaveCount(
        1
      );
      // CodeMirror splits the range into one span per syntax token: all of line 2, nothing else.
      const squiggle = cell(page, 1).locator('.cm-lintRange-warning');
      await expect(async () =>
        expect((await squiggle.allTextContents()).join('')).toBe(
          'fare = row["Fare"]'
        )
      ).toPass();
      await page.sidebar.close('left');
      await page.screenshot({
        path: path.join(SCREENSHOTS, `llm-verdict-${theme}.png`)
      });

      const texts = await traffic();
      expect(texts.some(t => t.includes('/cellguard/llm/check'))).toBe(true);
      expect(texts.some(t => t.includes('/cellguard/llm/status'))).toBe(true);
      // The key or a part of it; only the start of a leaking text is shown.
      const leaks = texts
        .filter(t => /sk-test|SECRET-1234/.test(t))
        .map(t => t.slice(0, 300));
      expect(leaks).toEqual([]);
      // The server did send it, to the endpoint.
      const seen = (await (await fetch(`${FAKE_LLM}/seen`)).json()) as {
        authorizations: string[];
      };
      expect(seen.authorizations).toContain(`Bearer ${KEY}`);
    });
  }

  test('a rule that proves the crash: the LLM is not asked', async ({
    page
  }) => {
    await newNotebook(page, 'llm-rule.ipynb');
    await page.notebook.setCell(0, 'code', 'total = subtotal + 1');
    await checkActiveCell(page, 0);
    await expect(llmView(page)).toContainText(
      'a rule already proves the crash, so the LLM was not asked'
    );
    await expect(page.locator('.jp-cellguard-panel')).toContainText(
      '`subtotal` is not defined'
    );
  });
});

test.describe('cellguard LLM claim refuted', () => {
  useModel('ui-refuted');

  test("a crash resting on a claim the kernel's facts refute is downgraded, with the evidence", async ({
    page
  }) => {
    await newNotebook(page, 'llm-refuted.ipynb');
    await page.notebook.setCell(0, 'code', FRAME);
    await page.notebook.runCell(0);
    await page.notebook.setCell(
      1,
      'code',
      'row = df.sample(1).squeeze()\nage = row["Age"]'
    );
    await checkActiveCell(page, 1);
    const view = llmView(page);
    await expect(view).toContainText(
      'Cell [ ] "row = df.sample(1).squeeze()": the LLM predicted a crash at line 2, downgraded by claim checking'
    );
    await expect(view).toContainText('✗ refuted');
    await expect(view).toContainText('Age');
    // No crash is shown for the cell.
    await expect(squiggles(page, 1)).toHaveCount(0);
  });
});

test.describe('cellguard with no LLM configured', () => {
  useModel('');

  test('rules only: said in the status bar and the panel, the LLM is never asked', async ({
    page
  }) => {
    // A server extension with no endpoint answers its status like this (cellguard/server).
    await page.route(/\/cellguard\/llm\/status/, route =>
      route.fulfill({
        json: {
          configured: false,
          model: '',
          host: '',
          votes: 1,
          structured: true
        }
      })
    );
    const asked: string[] = [];
    page.on('request', request => {
      if (request.url().includes('/cellguard/llm/check')) {
        asked.push(request.url());
      }
    });
    await page.reload();
    await newNotebook(page, 'llm-off.ipynb');
    await expect(status(page)).toContainText('LLM off');
    await page.notebook.setCell(0, 'code', 'x = 1\ny = x + 1');
    await checkActiveCell(page, 0);
    await expect(llmView(page).locator('.jp-cellguard-llm-heading')).toHaveText(
      'LLM not configured: rules only'
    );
    // Said once, in the heading: no per-cell note that goes stale when the cell changes.
    await expect(llmView(page).locator('.jp-cellguard-llm-run')).toHaveCount(0);
    // The rules still prove what they can.
    await page.notebook.addCell('code', 'total = subtotal + 1');
    await checkActiveCell(page, 1);
    await expect(page.locator('.jp-cellguard-panel')).toContainText(
      '`subtotal` is not defined'
    );
    expect(asked).toEqual([]);
  });
});

test.describe('cellguard LLM garbled answer', () => {
  useModel('garbage');

  test("a garbled answer: could not read the LLM's answer, no verdict", async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'llm-garbage.ipynb');
    await page.notebook.setCell(0, 'code', 'x = 1\ny = x + 1');
    await checkActiveCell(page, 0);
    const view = llmView(page);
    await expect(view, logs.join('\n')).toContainText(
      "Could not read the LLM's answer."
    );
    await expect(view.locator('.jp-cellguard-llm-verdict')).toHaveCount(0);
    await expect(squiggles(page, 0)).toHaveCount(0);
  });
});

test.describe('cellguard LLM answer with HTML', () => {
  useModel('ui-html');

  test('HTML and <script> in the answer are shown as text', async ({
    page
  }) => {
    const dialogs: string[] = [];
    page.on('dialog', dialog => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await newNotebook(page, 'llm-html.ipynb');
    await page.notebook.setCell(0, 'code', 'x = 1\ny = x + 1');
    await checkActiveCell(page, 0);
    const reasoning = llmView(page).locator('.jp-cellguard-llm-reasoning');
    await expect(reasoning).toHaveText(
      '<script>window.__cellguardPwned = 1</script><img src=x onerror="window.__cellguardPwned = 2"> <b>not bold</b>'
    );
    await expect(llmView(page).locator('script, img, b')).toHaveCount(0);
    expect(
      await page.evaluate(
        () => (window as unknown as Record<string, unknown>).__cellguardPwned
      )
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    await expect(page.locator('.jp-Dialog')).toHaveCount(0);
  });
});

for (const failure of [
  {
    model: 'ui-unauthorized',
    endpoint: '',
    message: 'The LLM endpoint refused the API key',
    detail: 'HTTP 401'
  },
  // Port 9 (discard) has no listener here.
  {
    model: 'any',
    endpoint: 'http://127.0.0.1:9/v1',
    message: 'The LLM endpoint could not be reached',
    detail: 'unreachable'
  }
]) {
  test.describe(`cellguard LLM failure: ${failure.message}`, () => {
    useModel(failure.model, failure.endpoint);

    test(`${failure.message}: said in the panel, no dialog`, async ({
      page
    }) => {
      await newNotebook(page, `llm-${failure.model}.ipynb`);
      await page.notebook.setCell(0, 'code', 'x = 1');
      await checkActiveCell(page, 0);
      const view = llmView(page);
      await expect(view.locator('.jp-cellguard-llm-error')).toContainText(
        `Cell [ ] "x = 1": ${failure.message}`
      );
      await expect(view).toContainText(failure.detail);
      await expect(page.locator('.jp-Dialog')).toHaveCount(0);
    });
  });
}

test.describe('cellguard LLM cancel', () => {
  useModel('slow');

  test('a running check shows progress and can be cancelled', async ({
    page
  }) => {
    await newNotebook(page, 'llm-cancel.ipynb');
    await page.notebook.setCell(0, 'code', 'x = 1');
    await checkActiveCell(page, 0);
    const view = llmView(page);
    await expect(view).toContainText('Cell [ ] "x = 1": asking slow…');
    await expect(view.locator('progress')).toBeVisible();
    await view.getByRole('button', { name: 'Cancel' }).click();
    await expect(view).toContainText('Cell [ ] "x = 1": LLM check cancelled.');
  });
});

test.describe('cellguard prompt preview', () => {
  test.use({ viewport: { width: 1400, height: 850 } });

  for (const theme of ['light', 'dark'] as const) {
    test(`the prompt of the active cell with the kernel's facts; R toggles dtypes (${theme})`, async ({
      page
    }) => {
      const logs = collectConsole(page);
      const checks: string[] = [];
      page.on('request', request => {
        if (request.url().includes('/cellguard/llm/check')) {
          checks.push(request.url());
        }
      });
      if (theme === 'dark') {
        await page.theme.setDarkTheme();
      }
      await newNotebook(page, `prompt-preview-${theme}.ipynb`);
      await page.notebook.setCell(0, 'code', FRAME);
      await page.notebook.runCell(0);
      await page.notebook.setCell(1, 'code', TARGET);
      await page.notebook.selectCells(1);
      await page.sidebar.close('left');
      await page.evaluate(() =>
        window.jupyterapp.commands.execute('cellguard:preview-llm-prompt')
      );

      const preview = page.locator('.jp-cellguard-preview');
      await expect(preview, logs.join('\n')).toContainText('[Target Cell]');
      await expect(preview).toContainText('columns: Age:float64');
      await expect(preview).toContainText(' 2| fare = row["Fare"]');
      await expect(preview.locator('.jp-cellguard-preview-size')).toContainText(
        new RegExp(
          `${literally(notRun(TARGET))} of .*: [\\d,]+ characters, ~[\\d,]+ tokens`
        )
      );
      await expect(preview.getByRole('button', { name: 'Copy' })).toBeVisible();
      await page.screenshot({
        path: path.join(SCREENSHOTS, `prompt-preview-${theme}.png`)
      });

      await preview.getByLabel('R', { exact: true }).uncheck();
      await expect(preview).not.toContainText('float64');
      await expect(preview).toContainText('Age');
      await preview.getByLabel('R', { exact: true }).check();
      await expect(preview).toContainText('Age:float64');
      expect(checks).toEqual([]);
    });
  }
});
