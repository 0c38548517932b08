// Browser figures on a 300-cell notebook, cellguard on and off: keystroke -> frame latency while
// typing with pauses, Run All time, last keystroke -> squiggle. Printed, never asserted.
import {
  expect,
  galata,
  IJupyterLabPageFixture,
  test
} from '@jupyterlab/galata';
import { execFileSync } from 'child_process';
import * as path from 'path';

import { notebookJson } from '../../tests/ui/helpers';

const CELLS = Number(process.env.CELLGUARD_BENCH_CELLS ?? 300);
const GENERATOR = path.join(__dirname, '..', 'notebook_gen.mjs');

/** benchmarks/notebook_gen.mjs's realistic pandas / scikit-learn cells (20 lines each). */
function realisticCells(): string[] {
  const script = `import(${JSON.stringify(GENERATOR)}).then(m => process.stdout.write(JSON.stringify(m.generateCells(${CELLS}, 20))))`;
  return JSON.parse(
    execFileSync('node', ['--input-type=module', '-e', script]).toString()
  );
}

/** Cells that run quickly, each reading what the one before defined. */
function runnableCells(): string[] {
  const sources = [
    'import numpy as np\nimport pandas as pd\nvalue_0 = np.arange(3)'
  ];
  for (let i = 1; i < CELLS; i++) {
    sources.push(
      `frame_${i} = pd.DataFrame({"v": value_${i - 1} + ${i}})\nvalue_${i} = frame_${i}["v"].to_numpy()`
    );
  }
  return sources;
}

async function open(
  page: IJupyterLabPageFixture,
  dir: string,
  name: string,
  sources: string[]
) {
  await page.contents.uploadContent(
    notebookJson(sources),
    'text',
    `${dir}/${name}`
  );
  await page.filebrowser.open(`${dir}/${name}`);
  await expect(page.locator('.jp-Notebook .jp-Cell').first()).toBeVisible({
    timeout: 60000
  });
  await page.waitForFunction(
    () =>
      (window.jupyterapp.shell.currentWidget as any)?.sessionContext?.session
        ?.kernel?.status === 'idle',
    undefined,
    { timeout: 60000 }
  );
  // JupyterLab renders a long notebook's cells in idle time after it opens (seconds of main thread
  // for 300 cells of 20 lines, cellguard off too): measure once it has, as a person editing would.
  const start = Date.now();
  await page.waitForFunction(
    () =>
      (
        window.jupyterapp.shell.currentWidget as any
      ).content.widgets.every((cell: any) => !cell.isPlaceholder()),
    undefined,
    { timeout: 120000, polling: 250 }
  );
  const rendered = ((Date.now() - start) / 1000).toFixed(1);
  await page.waitForTimeout(3000);
  return rendered;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[
      Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
    ] ?? NaN
  );
}

const figures = (values: number[]) =>
  `n=${values.length} median=${percentile(values, 50).toFixed(0)} ms p95=${percentile(values, 95).toFixed(0)} ms max=${Math.max(...values).toFixed(0)} ms`;

for (const enabled of [true, false]) {
  const label = `cellguard ${enabled ? 'on' : 'off'}`;

  test.describe(label, () => {
    test.use({
      mockSettings: {
        ...galata.DEFAULT_SETTINGS,
        'jupyterlab-cellguard:settings': { enabled, debounceMs: 250 }
      }
    });

    test(`typing in a ${CELLS}-cell notebook: keystroke -> frame`, async ({
      page,
      tmpPath
    }) => {
      const rendered = await open(
        page,
        tmpPath,
        'typing.ipynb',
        realisticCells()
      );
      console.log(
        `[bench] ${label}: ${CELLS} cells rendered ${rendered} s after the kernel was idle`
      );
      await page.evaluate(() => {
        const w = window as any;
        w.__latencies = [];
        document.addEventListener(
          'keydown',
          event => {
            const start = event.timeStamp;
            requestAnimationFrame(() =>
              w.__latencies.push(performance.now() - start)
            );
          },
          true
        );
      });
      const target = page
        .locator('.jp-Notebook .jp-Cell')
        .nth(5)
        .locator('.cm-content');
      await target.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      // Words typed key by key, with a pause after each as a person thinking.
      for (const word of [
        'scaled',
        ' = ',
        'features_5',
        '.mean(',
        'axis',
        '=0)',
        ' * ',
        'ratio'
      ]) {
        await page.keyboard.type(word, { delay: 40 });
        await page.waitForTimeout(1200);
      }
      const latencies: number[] = await page.evaluate(
        () => (window as any).__latencies
      );
      console.log(`[bench] ${label}: keystroke -> frame ${figures(latencies)}`);
    });

    test(`Run All of ${CELLS} cells`, async ({ page, tmpPath }) => {
      await open(page, tmpPath, 'run-all.ipynb', runnableCells());
      const start = Date.now();
      await page.menu.clickMenuItem('Run>Run All Cells');
      await page.waitForFunction(
        n =>
          (
            window.jupyterapp.shell.currentWidget as any
          ).content.model.cells.get(n - 1).executionCount === n,
        CELLS,
        { timeout: 300000, polling: 100 }
      );
      console.log(
        `[bench] ${label}: Run All of ${CELLS} cells ${((Date.now() - start) / 1000).toFixed(1)} s`
      );
    });
  });
}

for (const debounceMs of [250, 1000]) {
  test.describe(`squiggle delay, debounce ${debounceMs} ms`, () => {
    test.use({
      mockSettings: {
        ...galata.DEFAULT_SETTINGS,
        'jupyterlab-cellguard:settings': { debounceMs }
      }
    });

    test(`last keystroke -> squiggle in a ${CELLS}-cell notebook`, async ({
      page,
      tmpPath
    }) => {
      await open(page, tmpPath, 'squiggle.ipynb', realisticCells());
      const cell = page.locator('.jp-Notebook .jp-Cell').nth(2);
      const delays: number[] = [];
      for (let round = 0; round < 5; round++) {
        await cell.locator('.cm-content').click();
        await page.keyboard.press('Control+End');
        await page.evaluate(() => {
          const w = window as any;
          w.__lastKey = 0;
          document.addEventListener(
            'keydown',
            event => (w.__lastKey = event.timeStamp),
            {
              capture: true
            }
          );
        });
        await page.keyboard.type(`\nprint(missing_${round})`, { delay: 40 });
        const handle = await page.waitForFunction(
          name => {
            const w = window as any;
            const marks = [
              ...document.querySelectorAll(
                '.jp-Notebook .jp-Cell:nth-child(3) .cm-lintRange'
              )
            ];
            return marks.some(mark => mark.textContent?.includes(name))
              ? performance.now() - w.__lastKey
              : null;
          },
          `missing_${round}`,
          { timeout: 20000, polling: 'raf' }
        );
        delays.push((await handle.jsonValue()) as number);
      }
      console.log(
        `[bench] debounce ${debounceMs} ms: last keystroke -> squiggle ${figures(delays)}`
      );
    });
  });
}
