import assert from 'node:assert/strict';
import { test } from 'node:test';

import { checkCell, request, resetCore, start } from './core.mjs';

// Hostile shapes of ordinary code (issue 17) under WebAssembly's own stack: each returns a report,
// and the instance keeps answering afterwards (a stack overflow used to leave it broken).
const frame =
  "import pandas as pd\nframe = pd.DataFrame({'city': ['Oslo'], 'temp': [3.5]})\n";
const missing = "frame['tmp'].mean()\n";

function codes(report) {
  return report.diagnostics.map(d => d.code);
}

function assertStillWorks() {
  const report = checkCell(request({ target_source: `${frame}${missing}` }));
  assert.deepEqual(codes(report), ['missing-column']);
}

test('a 1000-term sum gets one too-deep note and the rest of the cell is checked', () => {
  for (let run = 0; run < 3; run++) {
    const sum = `total = ${Array(1000).fill('x').join(' + ')}\n`;
    const report = checkCell(
      request({ target_source: `x = 1\n${frame}${sum}${missing}` })
    );
    assert.deepEqual(codes(report), ['too-deep', 'missing-column']);
    assert.equal(report.diagnostics[0].severity, 'info');
    assert.deepEqual(report.diagnostics[0].start, { line: 3, column: 0 });
  }
  assertStillWorks();
});

test('deeply nested cells of every kind return a report', () => {
  const n = 5000;
  const shapes = [
    `nested = ${'['.repeat(n)}${']'.repeat(n)}\n`,
    `nested = ${'f('.repeat(n)}1${')'.repeat(n)}\n`,
    `nested = x${'.a()'.repeat(n)}\n`,
    `nested = ${Array(n).fill('x').join(' ** ')}\n`,
    `nested = ${'lambda: '.repeat(n)}1\n`,
    `if x == 0:\n    y = 0\n${Array.from({ length: n }, (_, i) => `elif x == ${i}:\n    y = ${i}\n`).join('')}`
  ];
  for (const shape of shapes) {
    const report = checkCell(
      request({ target_source: `x = 1\n${frame}${shape}${missing}` })
    );
    assert.deepEqual(
      codes(report),
      ['too-deep', 'missing-column'],
      shape.slice(0, 40)
    );
  }
  assertStillWorks();
});

test('a 40-call chain is analysed through', () => {
  const chain = `frame${'.dropna()'.repeat(40)}`;
  assert.deepEqual(
    codes(checkCell(request({ target_source: `${frame}${chain}['tmp']` }))),
    ['missing-column']
  );
  assert.deepEqual(
    codes(checkCell(request({ target_source: `${frame}${chain}['temp']` }))),
    []
  );
});

test('a reset core answers with a fresh instance', () => {
  checkCell(request({ target_source: 'x = 1' }));
  resetCore();
  // The first call into the replaced instance takes no arguments (as the extension does).
  start();
  assertStillWorks();
});

test('containers nested thousands deep, in one cell or one per cell, return a report', () => {
  const nests = 5000;
  const cell = `x = 1\n${'x = [x]\n'.repeat(nests)}x[0][0][0][0][1]\n`;
  assert.deepEqual(codes(checkCell(request({ target_source: cell }))), [
    'index-out-of-range'
  ]);
  const history = ['x = 1', ...Array(nests).fill('x = [x]')];
  const report = checkCell(
    request({ cells: history, history, target_source: 'x[0][0][0][0][1]' })
  );
  assert.deepEqual(codes(report), ['index-out-of-range']);
  assertStillWorks();
});
