import { expect, galata, test } from '@jupyterlab/galata';

import { cell, newNotebook, notRun } from './helpers';

test.describe('cellguard dry run', () => {
  test('the check button runs the cell on a copy of the kernel: crash squiggle and panel', async ({
    page
  }) => {
    await newNotebook(page, 'dry-run.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      "import pandas as pd\ndf = pd.DataFrame({'Age': [22, 38]})"
    );
    await page.notebook.runCell(0);
    // The key is computed, so no rule can know it: only running the cell shows the crash.
    const crashing = "key = ''.join(['Fa', 're'])\nfare = df[key]";
    await page.notebook.setCell(1, 'code', crashing);
    await page.notebook.selectCells(1);
    await page
      .locator(
        '.jp-NotebookPanel-toolbar [data-command="cellguard:check-active-cell"]'
      )
      .click();

    const panel = page.locator('.jp-cellguard-dryrun');
    await expect(panel).toContainText(
      `${notRun(crashing)}: raised KeyError: 'Fare' at line 2`,
      { timeout: 30000 }
    );
    await expect(panel).toContainText(
      /Isolation: audit hook, inherited files closed/
    );

    // CodeMirror marks the range token by token: together they cover the line that raised.
    const squiggle = cell(page, 1).locator('.cm-lintRange-error');
    await expect
      .poll(async () => (await squiggle.allTextContents()).join(''))
      .toBe('fare = df[key]');
    const tooltip = page.locator('.cm-tooltip-lint');
    await expect(async () => {
      await page.mouse.move(0, 0);
      await squiggle.first().hover();
      await expect(tooltip).toContainText(
        "Running this cell on a copy of the kernel raised KeyError: 'Fare' at line 2 (your kernel was not changed)",
        { timeout: 1000 }
      );
    }).toPass();

    // The copy ran the cell, the kernel did not: `key` is still undefined there.
    await page.notebook.setCell(1, 'code', "print('key' in dir())");
    await page.notebook.runCell(1);
    await expect(cell(page, 1).locator('.jp-OutputArea-output')).toHaveText(
      'False'
    );
  });

  test('a cell that writes a file is declined, and the panel says which line', async ({
    page
  }) => {
    await newNotebook(page, 'dry-run-declined.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      "x = 1\nopen('out.txt', 'w').write('x')"
    );
    await page.notebook.selectCells(0);
    await page
      .locator(
        '.jp-NotebookPanel-toolbar [data-command="cellguard:check-active-cell"]'
      )
      .click();
    await expect(page.locator('.jp-cellguard-dryrun')).toContainText(
      'Cell [ ] "x = 1": not dry-run: line 2 writes a file (open).'
    );
  });
});

test.describe('cellguard dry run before run', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      'jupyterlab-cellguard:settings': {
        checkBeforeRun: true,
        dryRunBeforeRun: true
      }
    }
  });

  test('Shift+Enter dry-runs the cell first and asks when the copy crashed', async ({
    page
  }) => {
    await newNotebook(page, 'dry-run-before-run.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      "import pandas as pd\ndf = pd.DataFrame({'Age': [22, 38]})"
    );
    await page.notebook.runCell(0);
    await page.notebook.setCell(
      1,
      'code',
      "key = ''.join(['Fa', 're'])\nfare = df[key]"
    );

    const prompt = cell(page, 1).locator('.jp-InputPrompt');
    const dialog = page.locator('.jp-Dialog');
    await cell(page, 1).locator('.cm-content').click();
    await page.keyboard.press('Shift+Enter');
    await expect(dialog).toContainText('cellguard predicts a crash', {
      timeout: 30000
    });
    await expect(dialog).toContainText(
      `Cell [ ] "key = ''.join(['Fa', 're'])", line 2: Running this cell on a copy of the kernel raised KeyError: 'Fare' at line 2`
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(prompt).toHaveText('[ ]:');
  });
});
