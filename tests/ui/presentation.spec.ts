// How diagnostics are presented (issue 19, the smaller items): cells named as JupyterLab shows them,
// severity not by colour alone, a tooltip that wraps beside the code, Copy that says it copied, an
// icon that is not JupyterLab's trust shield; and the screenshots of both themes in docs/.
import { expect, IJupyterLabPageFixture, test } from '@jupyterlab/galata';
import * as path from 'path';

import {
  collectConsole,
  hoverTooltip,
  newNotebook,
  notebookJson,
  ROOT,
  squiggles,
  status
} from './helpers';

const DOCS_SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');

const FRAME =
  'import pandas as pd\ndf = pd.DataFrame({"Age": [22.0, 38.0, 26.0, 35.0], "Fare": [7.25, 71.3, 7.9, 53.1]})';
/** A column that is not there: an error, with a message long enough to need wrapping. */
const MISSING_COLUMN =
  'ages = df["Age"]\nfares_per_year = df["Fare"] / df["Agee"] + ages.mean()';
/** A name defined only by a cell that has not run. */
const LATER = 'summary = df.describe()';
const USES_LATER = 'print(summary)';

async function showPanel(page: IJupyterLabPageFixture) {
  await page.evaluate(() =>
    window.jupyterapp.commands.execute('cellguard:show-diagnostics')
  );
  return page.locator('.jp-cellguard-panel');
}

/**
 * Four cells: the frame ([1]), a cell that ran fine ([2]) and was then edited to read a missing
 * column, a cell not run, and a cell that needs it.
 */
async function fourCells(page: IJupyterLabPageFixture, dir: string) {
  await page.contents.uploadContent(
    notebookJson([FRAME, 'ages = df["Age"]', LATER, USES_LATER]),
    'text',
    `${dir}/presentation.ipynb`
  );
  await page.filebrowser.open(`${dir}/presentation.ipynb`);
  await expect(status(page)).toHaveText(/kernel linked/, { timeout: 60000 });
  await page.notebook.runCell(0);
  await page.notebook.runCell(1);
  await page.notebook.setCell(1, 'code', MISSING_COLUMN);
}

test.describe('cellguard presentation', () => {
  test.use({ viewport: { width: 1400, height: 850 } });

  test('panel: cells by execution count, severity by symbol and word', async ({
    page,
    tmpPath
  }) => {
    const logs = collectConsole(page);
    await fourCells(page, tmpPath);
    const panel = await showPanel(page);
    await expect(panel, logs.join('\n')).toContainText("'Agee'");
    const headings = panel.locator('.jp-cellguard-cell');
    // As the prompts show them: [2] for the cell that ran second, [ ] for one not run.
    await expect(headings).toHaveText([
      '[2]: ages = df["Age"]',
      '[ ]: print(summary)'
    ]);
    const item = panel.locator('.jp-cellguard-item').first();
    await expect(item.locator('.jp-cellguard-severity')).toHaveText('✖ Error');
    await expect(item).toContainText("line 2: 'Agee' is not a column of df");
    // Clicking a heading goes to its cell.
    await headings.last().click();
    expect(
      await page.evaluate(
        () =>
          (window.jupyterapp.shell.currentWidget as any).content.activeCellIndex
      )
    ).toBe(3);
  });

  test('the tooltip wraps in a box narrower than the editor', async ({
    page,
    tmpPath
  }) => {
    await fourCells(page, tmpPath);
    const tooltip = await hoverTooltip(page, squiggles(page, 1), "'Agee'");
    const box = (await tooltip.boundingBox())!;
    const editor = (await page
      .locator('.jp-Notebook .jp-Cell')
      .nth(1)
      .locator('.cm-editor')
      .boundingBox())!;
    expect(box.width).toBeLessThan(editor.width * 0.75);
    const message = tooltip.locator('.cm-diagnosticText').first();
    const fontSize = await message.evaluate(node =>
      parseFloat(getComputedStyle(node).fontSize)
    );
    // Two lines or more: the message wraps instead of running across the code.
    expect((await message.boundingBox())!.height).toBeGreaterThan(fontSize * 2);
  });

  test('Copy in the prompt preview says it copied', async ({ page }) => {
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write']);
    await newNotebook(page, 'copy.ipynb');
    await page.notebook.setCell(0, 'code', FRAME);
    await page.notebook.selectCells(0);
    await page.evaluate(() =>
      window.jupyterapp.commands.execute('cellguard:preview-llm-prompt')
    );
    const preview = page.locator('.jp-cellguard-preview');
    await expect(preview).toContainText('[Target Cell]');
    const copy = preview.locator('.jp-cellguard-copy');
    await expect(copy).toHaveText('Copy');
    await copy.click();
    await expect(copy).toHaveText('Copied ✓');
    await expect(copy).toHaveText('Copy', { timeout: 5000 });
  });

  test('the prompt preview lists no run that raised among the cells that ran successfully', async ({
    page
  }) => {
    await newNotebook(page, 'crashed-run.ipynb');
    await page.notebook.setCell(0, 'code', FRAME);
    await page.notebook.runCell(0);
    // A crash no rule predicts (so running it is not stopped), with a name to look for.
    await page.notebook.setCell(
      1,
      'code',
      'import json\nsettings_crashed = json.loads("{")'
    );
    await page.notebook.runCell(1);
    await expect(
      page.locator('.jp-Notebook .jp-Cell').nth(1).locator('.jp-OutputArea')
    ).toContainText('JSONDecodeError');
    await page.notebook.selectCells(1);
    await page.evaluate(() =>
      window.jupyterapp.commands.execute('cellguard:preview-llm-prompt')
    );
    const preview = page.locator('.jp-cellguard-preview');
    await expect(preview).toContainText('[Target Cell]');
    await expect(preview).toContainText('pd.DataFrame');
    const text = await preview.innerText();
    const from = text.lastIndexOf('[Executed Cells]');
    const executed = text.slice(from, text.indexOf('[Target Cell]', from));
    expect(from).toBeGreaterThan(-1);
    expect(executed).toContain('pd.DataFrame');
    expect(executed).not.toContain('settings_crashed');
  });

  test("the panel's icon is not JupyterLab's trust shield", async ({
    page
  }) => {
    await newNotebook(page, 'icon.ipynb');
    const tab = page.locator('.jp-SideBar [data-id="cellguard-diagnostics"]');
    const icon = tab.locator('svg');
    await expect(icon).toHaveAttribute(
      'data-icon',
      'jupyterlab-cellguard:cell-alert'
    );
    // Not the old shield, which read as JupyterLab's notebook trust indicator.
    expect(await icon.evaluate(node => node.outerHTML)).not.toContain(
      'M12 1.5'
    );
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`screenshot: squiggle, tooltip and panel (${theme} theme)`, async ({
      page,
      tmpPath
    }) => {
      if (theme === 'dark') {
        await page.theme.setDarkTheme();
      }
      await fourCells(page, tmpPath);
      await page.sidebar.close('left');
      const panel = await showPanel(page);
      await expect(panel).toContainText('`summary` is not defined');
      await hoverTooltip(page, squiggles(page, 1), "'Agee'");
      await page.screenshot({
        path: path.join(DOCS_SCREENSHOTS, `cellguard-${theme}.png`),
        scale: 'css'
      });
    });
  }
});
