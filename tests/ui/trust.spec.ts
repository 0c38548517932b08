// Trustworthy squiggles on real-sized notebooks (issue 19): Run All, Shift+Enter walks, restarts,
// long cells, cells that ran fine, idioms that are no crash, syntax errors while typing, requests the
// kernel need not answer.
import {
  expect,
  galata,
  IJupyterLabPageFixture,
  test
} from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';

import {
  cell,
  collectConsole,
  commRequests,
  hoverTooltip,
  newNotebook,
  notebookJson,
  scrollToCell,
  squiggles,
  status
} from './helpers';

/** Cells of the Run All notebook: enough that the kernel is busy for longer than a request waits. */
const RUN_ALL_CELLS = Number(process.env.CELLGUARD_RUN_ALL_CELLS ?? 300);

/**
 * A notebook of `n` code cells, each reading what the cell before it defined and sleeping a little
 * (the kernel stays busy for ~n * 30 ms, longer than the 5 s request timeout).
 */
function chainNotebook(n: number): string {
  const sources = [
    'import time\nimport numpy as np\nimport pandas as pd\nvalue_0 = np.arange(3)'
  ];
  for (let i = 1; i < n; i++) {
    sources.push(
      `time.sleep(0.03)\nframe_${i} = pd.DataFrame({"v": value_${i - 1} + ${i}})\nvalue_${i} = frame_${i}["v"].to_numpy()`
    );
  }
  return notebookJson(sources);
}

/** The execution count of a cell from the notebook model (the cell may be scrolled away). */
async function executionCount(
  page: IJupyterLabPageFixture,
  index: number
): Promise<number | null> {
  return page.evaluate(i => {
    const panel = window.jupyterapp.shell.currentWidget as any;
    return panel.content.model.cells.get(i).executionCount ?? null;
  }, index);
}

/** Every squiggle in the open notebook. */
const allSquiggles = (page: IJupyterLabPageFixture): Locator =>
  page.locator(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .cm-lintRange'
  );

test.describe('cellguard on a large notebook', () => {
  test.setTimeout(240000);

  test(`Run All of ${RUN_ALL_CELLS} cells: no diagnostics afterwards, and the facts are fresh`, async ({
    page,
    tmpPath
  }) => {
    const logs = collectConsole(page);
    const name = `${tmpPath}/run-all.ipynb`;
    await page.contents.uploadContent(
      chainNotebook(RUN_ALL_CELLS),
      'text',
      name
    );
    await page.filebrowser.open(name);
    await expect(status(page)).toHaveText(/kernel linked/, { timeout: 60000 });
    await page.evaluate(() =>
      window.jupyterapp.commands.execute('cellguard:show-diagnostics')
    );
    const panel = page.locator('.jp-cellguard-panel');
    // Before running, every cell reads a name no cell that ran defines.
    await expect(panel).toContainText('is not defined');

    await page.menu.clickMenuItem('Run>Run All Cells');
    // While cells are queued the kernel's facts are stale: nothing is a certain error.
    await expect
      .poll(() => executionCount(page, 10), { timeout: 60000 })
      .not.toBeNull();
    await expect(panel.locator('.jp-cellguard-error')).toHaveCount(0, {
      timeout: 10000
    });
    await expect
      .poll(() => executionCount(page, RUN_ALL_CELLS - 1), { timeout: 180000 })
      .toBe(RUN_ALL_CELLS);
    // Done: no diagnostics on the cells, which all ran fine.
    await expect(panel).toContainText('No problems found', { timeout: 30000 });
    await expect(allSquiggles(page)).toHaveCount(0);
    expect(logs.filter(line => /facts stay stale/.test(line))).toEqual([]);

    // The kernel's answers after the run are in: a new cell may use the last cell's names, and a
    // name nothing defines is a certain error again. (The panel lists every cell; the notebook
    // renders only the cells in view.)
    await page.evaluate(n => {
      const panel = window.jupyterapp.shell.currentWidget as any;
      panel.content.model.sharedModel.insertCell(n, {
        cell_type: 'code',
        source: `print(frame_${n - 1}.shape, value_0, no_such_name)`
      });
    }, RUN_ALL_CELLS);
    // One diagnostic in the whole notebook, an error, for the one name nothing defines.
    const items = panel.locator('.jp-cellguard-item');
    await expect(items, logs.join('\n')).toHaveCount(1);
    await expect(items).toHaveClass(/jp-cellguard-error/);
    await expect(items).toContainText('`no_such_name` is not defined');
  });
});

test.describe('cellguard on a notebook longer than the window', () => {
  test('a cell out of view gets its squiggle when scrolled into view; the panel lists it at once', async ({
    page,
    tmpPath
  }) => {
    const logs = collectConsole(page);
    const last = 79;
    const sources = Array.from({ length: last }, (_, i) => `x_${i} = ${i}`);
    sources.push('print(x_3, no_such_thing)');
    const name = `${tmpPath}/long.ipynb`;
    await page.contents.uploadContent(notebookJson(sources), 'text', name);
    await page.filebrowser.open(name);
    await expect(status(page)).toHaveText(/kernel linked/, { timeout: 60000 });
    await page.evaluate(() =>
      window.jupyterapp.commands.execute('cellguard:show-diagnostics')
    );
    // The panel reads the checker: exact whatever the editors show.
    const items = page.locator('.jp-cellguard-panel .jp-cellguard-item');
    await expect(items.filter({ hasText: 'no_such_thing' })).toHaveCount(1);
    // Scrolled to again while waiting: JupyterLab may still move the cells as it draws them.
    await expect
      .poll(
        async () => {
          await scrollToCell(page, last);
          return squiggles(page, last).allTextContents();
        },
        { message: logs.join('\n'), timeout: 20000 }
      )
      .toEqual(['x_3', 'no_such_thing']);
  });
});

test.describe('cellguard check before run', () => {
  test.use({
    mockSettings: {
      ...galata.DEFAULT_SETTINGS,
      'jupyterlab-cellguard:settings': { checkBeforeRun: true }
    }
  });

  test('a Shift+Enter walk on a fresh kernel never trips the guard', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'walk.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      'import time\nimport numpy as np\ntime.sleep(3)'
    );
    await page.notebook.addCell('code', 'base = np.arange(3)');
    await page.notebook.addCell('code', 'doubled = base * 2');
    await cell(page, 0).locator('.cm-content').click();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Enter');
      await page.waitForTimeout(500);
    }
    await expect(page.locator('.jp-Dialog')).toHaveCount(0);
    await expect(cell(page, 2).locator('.jp-InputPrompt')).toHaveText('[3]:', {
      timeout: 30000
    });
    await expect(page.locator('.jp-Dialog')).toHaveCount(0);
    await expect(allSquiggles(page), logs.join('\n')).toHaveCount(0);
  });

  test('the toolbar run button and Run All are guarded as Shift+Enter is', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'guard-everywhere.ipynb');
    await page.notebook.setCell(0, 'code', 'doubled = helper(21)');
    await page.notebook.addCell('code', 'def helper(x):\n    return 2 * x');
    await expect(squiggles(page, 0), logs.join('\n')).toHaveCount(1);
    const dialog = page.locator('.jp-Dialog');
    const prompt = cell(page, 0).locator('.jp-InputPrompt');

    await page.notebook.selectCells(0);
    await page
      .locator(
        '.jp-NotebookPanel-toolbar [data-command="notebook:run-cell-and-select-next"]'
      )
      .click();
    await expect(dialog).toContainText('helper');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(prompt).toHaveText('[ ]:');

    // Run All: cell 1 runs before the cell defining `helper`.
    await page.menu.clickMenuItem('Run>Run All Cells');
    await expect(dialog).toContainText('helper');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(prompt).toHaveText('[ ]:');
    await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText('[ ]:');

    // In a good order nothing is predicted: Run All runs without asking.
    await page.notebook.setCell(0, 'code', 'def helper(x):\n    return 2 * x');
    await page.notebook.setCell(1, 'code', 'doubled = helper(21)');
    await page.menu.clickMenuItem('Run>Run All Cells');
    await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText('[2]:');
    await expect(dialog).toHaveCount(0);
  });
});

test.describe('cellguard fixes and running cells', () => {
  // Galata's kernel tracking answers restarts with 201, which JupyterLab rejects (cellguard.spec.ts).
  test.use({ kernels: null });

  test('after a restart, "run first" runs the chain of defining cells in order', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'chain.ipynb');
    await page.notebook.setCell(0, 'code', 'import numpy as np');
    await page.notebook.addCell('code', 'base = np.arange(4)');
    await page.notebook.addCell('code', 'scaled = base * 2');
    await page.notebook.addCell('code', 'total = scaled.sum()');
    for (let i = 0; i < 4; i++) {
      await page.notebook.runCell(i);
    }
    await expect(allSquiggles(page)).toHaveCount(0);

    await page.menu.clickMenuItem('Kernel>Restart Kernel…');
    await page.locator('.jp-Dialog .jp-mod-accept').click();
    await expect(squiggles(page, 3), logs.join('\n')).toHaveText(['scaled']);
    const tooltip = await hoverTooltip(page, squiggles(page, 3), 'scaled');
    const fix = tooltip.locator('.cm-diagnosticAction');
    await expect(fix).toHaveText('Run the 3 cells it needs first, in order');
    await fix.click();
    // Cell 1 first (numpy), then 2, then 3; the target stays as it is.
    await expect(cell(page, 2).locator('.jp-InputPrompt')).toHaveText('[3]:');
    await expect(cell(page, 0).locator('.jp-InputPrompt')).toHaveText('[1]:');
    await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText('[2]:');
    await expect(cell(page, 1).locator('.jp-OutputArea-output')).toHaveCount(0);
    await expect(cell(page, 2).locator('.jp-OutputArea-output')).toHaveCount(0);
    await expect(squiggles(page, 3)).toHaveCount(0);
  });

  test('while a long cell runs, the names it is about to define are not flagged', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'long-cell.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      'import time\ntime.sleep(8)\nlate_value = 1'
    );
    await page.notebook.addCell('code', 'print(late_value)');
    await expect(squiggles(page, 1), logs.join('\n')).toHaveText([
      'late_value'
    ]);
    await cell(page, 0).locator('.cm-content').click();
    await page.keyboard.press('Control+Enter');
    await expect(cell(page, 0).locator('.jp-InputPrompt')).toHaveText('[*]:');
    await expect(squiggles(page, 1)).toHaveCount(0);
    // Typing in the waiting cell meanwhile: still not flagged.
    await cell(page, 1).locator('.cm-content').click();
    await page.keyboard.press('End');
    await page.keyboard.type('\nprint(late_value + 1)', { delay: 40 });
    await page.waitForTimeout(1000);
    await expect(cell(page, 0).locator('.jp-InputPrompt')).toHaveText('[*]:');
    await expect(squiggles(page, 1)).toHaveCount(0);
    await expect(cell(page, 0).locator('.jp-InputPrompt')).toHaveText('[1]:', {
      timeout: 30000
    });
    await expect(squiggles(page, 1)).toHaveCount(0);
  });

  test('a cell that ran fine is not red for what a second run would do; said quietly when edited', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'ran-fine.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      'import pandas as pd\ndf = pd.DataFrame({"Name": ["Ann", "Bo"], "Fare": [7.25, 71.3]})'
    );
    await page.notebook.addCell(
      'code',
      'df.drop(columns=["Name"], inplace=True)'
    );
    await page.notebook.runCell(0);
    await page.notebook.runCell(1);
    await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText('[2]:');
    await page.waitForTimeout(1500);
    await expect(squiggles(page, 1), logs.join('\n')).toHaveCount(0);

    // Edited: the second run's failure is information, with no fix and no "did you mean 'Fare'".
    await page.notebook.setCell(
      1,
      'code',
      'df.drop(columns=["Name"], inplace=True)\nrows = len(df)'
    );
    // One squiggle, split by the syntax highlighting into several marks.
    await expect(cell(page, 1).locator('.cm-lintRange-info')).not.toHaveCount(
      0
    );
    await expect(
      cell(page, 1).locator('.cm-lintRange-error, .cm-lintRange-warning')
    ).toHaveCount(0);
    const tooltip = await hoverTooltip(
      page,
      squiggles(page, 1).first(),
      'running it again fails'
    );
    await expect(tooltip).toContainText('this cell dropped it when it ran');
    await expect(tooltip).not.toContainText('did you mean');
    await expect(tooltip).not.toContainText('earlier cell');
    await expect(tooltip.locator('.cm-diagnosticAction')).toHaveCount(0);

    // A new cell reading the dropped column is a certain crash: an error, with no suggestion.
    // (Running the last cell left an empty one below it.)
    await page.notebook.setCell(2, 'code', 'names = df["Name"]');
    await expect(cell(page, 2).locator('.cm-lintRange-error')).not.toHaveCount(
      0
    );
    const error = await hoverTooltip(
      page,
      squiggles(page, 2).first(),
      'an earlier cell dropped it'
    );
    await expect(error).not.toContainText('did you mean');
  });

  test('the columns a cell uses are still summarized in detail after the cells above run', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'focus-columns.ipynb');
    // Column 31 of 40: beyond the 20 columns summarized in detail unless a cell mentions it.
    await page.notebook.setCell(
      0,
      'code',
      'import pandas as pd\nwide = pd.DataFrame({f"c{i}": [1.0, 2.0] for i in range(40)})\nwide["c31"] = ["Oslo", "Rome"]'
    );
    // Typed before the frame exists; the crash is caught once the cell above has run.
    await page.notebook.addCell('code', 'codes = pd.to_numeric(wide["c31"])');
    await expect(squiggles(page, 1), logs.join('\n')).toHaveText([
      'pd',
      'wide'
    ]);
    await page.notebook.runCell(0);
    // The squiggle spans the call, split by the syntax highlighting into several marks.
    await expect(
      cell(page, 1).locator('.cm-lintRange-error'),
      logs.join('\n')
    ).not.toHaveCount(0);
    await hoverTooltip(page, squiggles(page, 1).first(), 'Oslo');
  });

  test('valid idioms are no crash: try/except NameError, exec', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'idioms.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      'try:\n    cache\nexcept NameError:\n    cache = {}'
    );
    await page.notebook.addCell('code', 'exec("dyn = 5")\nprint(dyn)');
    await page.notebook.addCell('code', 'print(nothing_defines_this)');
    // The checks ran: the twin with a real NameError is flagged.
    await expect(squiggles(page, 2), logs.join('\n')).toHaveText([
      'nothing_defines_this'
    ]);
    await expect(squiggles(page, 0)).toHaveCount(0);
    await expect(squiggles(page, 1)).toHaveCount(0);
  });

  test('a syntax error waits for a longer pause and is said in plain words', async ({
    page
  }) => {
    const logs = collectConsole(page);
    await newNotebook(page, 'syntax.ipynb');
    await page.notebook.setCell(0, 'code', 'rows = [1, 2]');
    await cell(page, 0).locator('.cm-content').click();
    await page.keyboard.press('End');
    await page.keyboard.type('\nfor row in rows:', { delay: 40 });
    // At the end of the cell the error is a point, not a range.
    const marks = cell(page, 0).locator('.cm-lintRange, .cm-lintPoint');
    // A pause as when thinking about the next line: no squiggle yet.
    await page.waitForTimeout(1000);
    await expect(marks).toHaveCount(0);
    await expect(marks, logs.join('\n')).toHaveCount(1, { timeout: 10000 });
    await page.evaluate(() =>
      window.jupyterapp.commands.execute('cellguard:show-diagnostics')
    );
    await expect(page.locator('.jp-cellguard-panel')).toContainText(
      /SyntaxError: (a line ending with `:` needs an indented block|the cell ends in the middle of a statement)/
    );
  });
});

test.describe('cellguard asks the kernel only what it can answer', () => {
  test('names the kernel lacks are not asked about, until a cell defines them', async ({
    page
  }) => {
    const requests = commRequests(page);
    const askedAbout = (name: string) =>
      requests({ type: 'summarize' }).filter(frame =>
        frame.includes(`"${name}"`)
      );
    await newNotebook(page, 'absent-names.ipynb');
    await page.notebook.setCell(
      0,
      'code',
      'import pandas as pd\nframe = pd.DataFrame({"a": [1, 2]})'
    );
    await page.notebook.addCell('code', 'later = frame["a"] * 2');
    await page.notebook.addCell('code', 'print(frame["a"], later.sum())');
    // Checked before anything ran: both names are in no namespace, and neither is asked about.
    await expect(squiggles(page, 2)).toHaveText(['frame', 'later']);
    expect(askedAbout('frame')).toEqual([]);

    await page.notebook.runCell(0);
    // Now the last cell's check asks about `frame`; `later`, wanted in the same request, is still
    // in no namespace: asking would only re-check the notebook to learn so.
    await expect.poll(() => askedAbout('frame').length).toBeGreaterThan(0);
    expect(askedAbout('later')).toEqual([]);
    await expect(squiggles(page, 2)).toHaveText(['later']);

    await page.notebook.runCell(1);
    await expect.poll(() => askedAbout('later').length).toBeGreaterThan(0);
    await expect(squiggles(page, 2)).toHaveCount(0);
  });
});
