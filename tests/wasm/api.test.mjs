import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  applySeverities,
  checkCell,
  checkNotebook,
  request,
  titanicSummaries
} from './core.mjs';

test('a name defined only by a cell that has not run gets "run cell [n] first"', () => {
  const cells = [
    'import pandas as pd',
    "df = pd.DataFrame({'a': [1]})",
    'print(df.shape)'
  ];
  const report = checkCell(
    request({
      cells,
      target_source: cells[2],
      target_index: 2,
      history: [cells[0]]
    })
  );
  assert.equal(report.diagnostics.length, 1);
  const [diagnostic] = report.diagnostics;
  assert.equal(diagnostic.code, 'undefined-name');
  assert.equal(diagnostic.severity, 'error');
  assert.match(diagnostic.message, /df/);
  assert.deepEqual(diagnostic.start, { line: 0, column: 6 });
  assert.deepEqual(diagnostic.end, { line: 0, column: 8 });
  assert.deepEqual(diagnostic.fix.run_cells, [1]);
});

test('columns count UTF-16 code units and magics do not shift positions', () => {
  const source = "%matplotlib inline\ns = '😀'; print(missing)";
  const report = checkCell(request({ target_source: source }));
  const [diagnostic] = report.diagnostics;
  assert.equal(diagnostic.code, 'undefined-name');
  // `s = '😀'; print(` is 16 UTF-16 units: the emoji counts two.
  assert.deepEqual(diagnostic.start, { line: 1, column: 16 });
});

test('a cell being edited gets one syntax error and still reports what it can', () => {
  const source = "x = df['Age'\ny = model.predict(X)";
  const report = checkCell(
    request({ target_source: source, kernel_names: ['df', 'model', 'X'] })
  );
  const syntax = report.diagnostics.filter(d => d.code === 'syntax-error');
  assert.equal(syntax.length, 1);
  assert.ok(syntax[0].message.length > 0);
  assert.ok(report.wants.names.includes('model'));
});

test('wants name the objects, paths, callables and columns to ask the kernel about', () => {
  const source =
    "y = df['Survived']\nmodel.fit(df[['Age', 'Sex']], y)\nprint(model.classes_)";
  const report = checkCell(
    request({ target_source: source, kernel_names: ['df', 'model'] })
  );
  assert.deepEqual(report.wants.names.sort(), ['df', 'model']);
  assert.ok(report.wants.paths.includes('model.classes_'));
  assert.ok(report.wants.callables.includes('model.fit'));
  assert.deepEqual(report.wants.focus_columns, ['Survived', 'Age', 'Sex']);
  assert.deepEqual(report.diagnostics, []);
});

test('wants also name the globals that the notebook functions the cell calls read', () => {
  const cells = [
    'import numpy as np',
    'def predict(X):\n    return sigmoid(np.dot(X, w) + b)',
    'def sigmoid(z):\n    return 1 / (1 + np.exp(-z * scale))',
    'predict(X_test)'
  ];
  const report = checkCell(
    request({
      cells,
      target_source: cells[3],
      target_index: 3,
      history: cells.slice(0, 3),
      kernel_names: ['np', 'predict', 'sigmoid', 'w', 'b', 'scale', 'X_test']
    })
  );
  // `w` and `b` through predict, `scale` through the sigmoid it calls; not the parameters, the
  // module nor the functions themselves.
  assert.deepEqual(report.wants.names.sort(), [
    'X_test',
    'b',
    'predict',
    'scale',
    'w'
  ]);
});

test('kernel summaries reach the rules: a missing column is an error with a fix', () => {
  const report = checkCell(
    request({
      target_source: "df['Agee'].mean()",
      kernel_names: ['df'],
      summaries: titanicSummaries
    })
  );
  const [diagnostic] = report.diagnostics;
  assert.equal(diagnostic.code, 'missing-column');
  assert.match(diagnostic.message, /Agee/);
  assert.match(diagnostic.fix.message, /Age/);
  assert.equal(diagnostic.fix.edits[0].content.includes('Age'), true);
});

test('a malformed request is a clear error and leaves the instance usable', () => {
  assert.throws(() => checkCell({ cells: 'not a list' }), /bad check request/);
  const report = checkCell(request({ target_source: 'print(1)' }));
  assert.deepEqual(report.diagnostics, []);
});

test('arbitrary text never breaks the core', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = [
    '(',
    ')',
    '[',
    ']',
    '"',
    "'",
    '\\',
    '\n',
    '\t',
    ' ',
    '%',
    '!',
    '?',
    ':',
    'é',
    '😀',
    'x',
    '=',
    'def ',
    'f"{',
    '#'
  ];
  for (let i = 0; i < 500; i++) {
    const length = Math.floor(random() * 60);
    let source = '';
    for (let j = 0; j < length; j++)
      source += alphabet[Math.floor(random() * alphabet.length)];
    const report = checkCell(
      request({ target_source: source, history: [source] })
    );
    assert.ok(Array.isArray(report.diagnostics));
  }
});

test('a whole notebook is checked in the assumed order, with no kernel', () => {
  const cells = ['print(total)', 'total = 1', '', 'print(total)'];
  const report = checkNotebook({ cells, order: [1, 3, 0] });
  const reports = report.cells;
  assert.deepEqual(
    reports.map(r => r.index),
    [1, 3, 0]
  );
  assert.deepEqual(reports[1].diagnostics, []);
  // Cell 0 runs last here, after cell 1 defined `total`: no error either.
  assert.deepEqual(reports[2].diagnostics, []);
  assert.equal(report.crash_predicted, false);
  const topToBottom = checkNotebook({ cells });
  assert.equal(topToBottom.cells[0].diagnostics[0].code, 'undefined-name');
  assert.deepEqual(topToBottom.cells[0].diagnostics[0].fix.run_cells, [1]);
  assert.equal(topToBottom.crash_predicted, true);
});

test("the user's severity overrides decide whether a crash is predicted", () => {
  const source = 'print(nowhere)';
  const ask = severities =>
    checkCell(
      request({
        cells: [source],
        target_source: source,
        target_index: 0,
        severities
      })
    );
  const plain = ask(undefined);
  assert.equal(plain.crash_predicted, true);
  assert.equal(plain.diagnostics[0].severity, 'error');
  const warned = ask({ 'undefined-name': 'warning' });
  assert.equal(warned.crash_predicted, false);
  assert.equal(warned.diagnostics[0].severity, 'warning');
  const off = ask({ 'undefined-name': 'off' });
  assert.equal(off.crash_predicted, false);
  assert.deepEqual(off.diagnostics, []);
  // Findings from outside the core (the LLM's) take the overrides the same way.
  const llm = {
    ...plain.diagnostics[0],
    code: 'llm-likely-crash',
    severity: 'warning'
  };
  const kept = applySeverities({ diagnostics: [llm], severities: {} });
  assert.deepEqual(kept, { diagnostics: [llm], crash_predicted: false });
  const raised = applySeverities({
    diagnostics: [llm],
    severities: { 'llm-likely-crash': 'error' }
  });
  assert.equal(raised.crash_predicted, true);
  assert.equal(raised.diagnostics[0].severity, 'error');
  assert.equal(raised.diagnostics[0].message, llm.message);
  assert.throws(
    () => applySeverities({ diagnostics: [{ code: 'x' }], severities: {} }),
    /bad severities request/
  );
});

test('strings kept across calls follow edits, in-place changes of the arrays included', () => {
  const cells = ['import pandas as pd', 'x = 1', 'print(x, pd)'];
  const history = [cells[0], cells[1]];
  const target = cells[2];
  const ask = () =>
    checkCell(
      request({ cells, target_source: target, target_index: null, history })
    ).diagnostics;
  assert.deepEqual(ask(), []);
  // The same arrays, changed in place: `x` no longer ran.
  history[1] = 'y = 1';
  cells[1] = 'y = 1';
  assert.deepEqual(
    ask().map(d => d.code),
    ['undefined-name']
  );
  history.pop();
  cells.splice(1, 1);
  assert.deepEqual(
    ask().map(d => d.code),
    ['undefined-name']
  );
  history.push('x = 2');
  assert.deepEqual(ask(), []);
});

test('summaries and kernel names are read again when a new object is passed, reused otherwise', () => {
  const summaries = titanicSummaries;
  const names = ['pd', 'df'];
  const ask = (s, k) =>
    checkCell(
      request({ target_source: "df['Agee']", kernel_names: k, summaries: s })
    ).diagnostics;
  assert.equal(ask(summaries, names).length, 1);
  // The same objects again: the same answer.
  assert.equal(ask(summaries, names).length, 1);
  // New objects saying otherwise: a frame with the column, a kernel without `df`.
  const withColumn = structuredClone(summaries);
  withColumn.objects.df.R.columns.push('Agee');
  assert.deepEqual(ask(withColumn, names), []);
  const undefinedFrame = ask(null, ['pd']);
  assert.equal(undefinedFrame.length, 1);
  assert.equal(undefinedFrame[0].code, 'undefined-name');
});
