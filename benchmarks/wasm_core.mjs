// Prints the WebAssembly core's figures under node: a generated 300-cell notebook of pandas /
// scikit-learn code (20 lines per cell), checked whole and one cell at a time, and the bundle size.
// Figures only: nothing here asserts a timing. Targets: one cell <= 0.5 ms, 300 cells <= 50 ms,
// bundle <= 1 MB gzipped.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';

import { checkCell, checkNotebook, request } from '../tests/wasm/core.mjs';
import { generateCells } from './notebook_gen.mjs';

const CELLS = 300;
const LINES = 20;
const RUNS = 21;

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(runs, body) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    body(i);
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const cells = generateCells(CELLS, LINES);
const chars = cells.reduce((sum, cell) => sum + cell.length, 0);
const target = CELLS - 1;
const history = cells.slice(0, target);

// The whole notebook, parsed from scratch each run (checkNotebook keeps no cache).
const wholeNotebook = time(RUNS, () => checkNotebook({ cells }));

// One keystroke in the last cell: the other 299 cells are cached, the edited cell is new text;
// its statements above the edited line are those of its previous version, not parsed again.
checkCell(
  request({
    cells,
    target_source: cells[target],
    target_index: target,
    history
  })
);
const keystroke = time(RUNS * 10, i =>
  checkCell(
    request({
      cells,
      target_source: `${cells[target]}\nx_${i} = ${i}`,
      target_index: target,
      history
    })
  )
);

// The same keystroke at the top of the cell: no statement above the edit to reuse, the whole
// cell is parsed again.
const keystrokeAtTop = time(RUNS * 10, i =>
  checkCell(
    request({
      cells,
      target_source: `x_${i} = ${i}\n${cells[target]}`,
      target_index: target,
      history
    })
  )
);

// One cell alone, no notebook around it (distinct text each run, so it is always parsed).
const oneCell = time(RUNS * 10, i =>
  checkCell(request({ target_source: `${cells[150]}\ny_${i} = ${i}` }))
);

const wasm = readFileSync(
  new URL('../labextension/core/cellguard_core_bg.wasm', import.meta.url)
);

console.log(
  `notebook: ${CELLS} cells x ${LINES} lines, ${(chars / 1024).toFixed(0)} KiB of code`
);
console.log(
  `whole notebook (cold, all cells):      median ${wholeNotebook.toFixed(2)} ms   (target <= 50 ms)`
);
console.log(
  `one cell edited in the 300-cell notebook: median ${keystroke.toFixed(3)} ms   (target <= 0.5 ms)`
);
console.log(
  `the same, edited at its first line:     median ${keystrokeAtTop.toFixed(3)} ms`
);
console.log(
  `one cell alone:                         median ${oneCell.toFixed(3)} ms`
);
console.log(
  `bundle: ${(wasm.length / 1024).toFixed(0)} KiB raw, ${(gzipSync(wasm).length / 1024).toFixed(0)} KiB gzipped   (target <= 1024 KiB gzipped)`
);

// Hostile shapes of ordinary code (issue 17), each a fresh text every run so that it is parsed:
// a 40-call method chain (analysed through), a 1000-term sum (too deep: one note), a 10k-line cell.
const frame = "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\n";
const hostile = {
  '40-call chain': i => `${frame}df${'.dropna()'.repeat(40)}['a']\nz = ${i}`,
  '1000-term sum': i =>
    `a = 1\nb = ${Array(1000).fill('a').join(' + ')}\nz = ${i}`,
  '10k-line cell': i =>
    `${Array.from({ length: 10000 }, (_, n) => `x${n} = ${n} + 1`).join('\n')}\nz = ${i}`
};
for (const [name, source] of Object.entries(hostile)) {
  const median_ms = time(RUNS, i =>
    checkCell(request({ target_source: source(i) }))
  );
  console.log(`${`${name}:`.padEnd(40)} median ${median_ms.toFixed(2)} ms`);
}
