import assert from 'node:assert/strict';
import { test } from 'node:test';

import { buildPrompt, judgeAnswers, titanicSummaries } from './core.mjs';

test('the prompt holds the executed cells, the runtime facts and the target', () => {
  const prompt = buildPrompt({
    history: ['import pandas as pd', "df = pd.read_csv('titanic.csv')"],
    target: "df['Age'].mean()",
    summaries: titanicSummaries
  });
  assert.match(prompt.system, /JSON/);
  assert.match(prompt.user, /read_csv/);
  assert.match(prompt.user, /Age:float64/);
  assert.match(prompt.user, /df\['Age'\]\.mean\(\)/);
  assert.equal(prompt.chars, prompt.system.length + prompt.user.length);
  assert.ok(prompt.tokens_estimate > 0);
  // The answer schema is a plain object for the endpoint's structured output.
  assert.equal(prompt.schema.type, 'object');
  assert.ok(prompt.schema.properties.line);
  assert.equal(prompt.schema.properties.claims.type, 'array');
  assert.match(prompt.system, /"claim":"missing_column"/);
});

test('leaving out runtime facts or a category changes the prompt', () => {
  const request = {
    history: [],
    target: "df['Age'].mean()",
    summaries: titanicSummaries
  };
  const full = buildPrompt(request).user;
  const noRuntime = buildPrompt({
    ...request,
    options: { runtime: false }
  }).user;
  const noTypes = buildPrompt({
    ...request,
    options: { categories: { S: true, R: false, V: true } }
  }).user;
  assert.match(full, /float64/);
  assert.doesNotMatch(noRuntime, /float64/);
  assert.doesNotMatch(noTypes, /float64/);
  assert.match(noTypes, /891/);
});

test('answers are voted on and crash answers resting on a refuted claim are downgraded', () => {
  const ageMissing =
    '[{"claim": "missing_column", "object": "df", "column": "Age"}]';
  const judgement = judgeAnswers({
    answers: [
      '```json\n{"reasoning": "Column \'Age\' is missing from df.", "detection": true, "line": 1, "claims": ' +
        ageMissing +
        '}\n```',
      "{'reasoning': 'Column Age does not exist in df', 'detection': True, 'line': 1, 'claims': [{'claim': 'missing_column', 'object': 'df', 'column': 'Age'}],}",
      'no idea'
    ],
    target: "df['Age'].mean()",
    summaries: titanicSummaries
  });
  assert.equal(judgement.llm_detection, true);
  assert.equal(judgement.crash_votes, 2);
  assert.equal(judgement.valid_answers, 2);
  assert.equal(judgement.answer_errors.length, 1);
  assert.equal(judgement.downgraded, true);
  assert.equal(judgement.detection, false);
  assert.match(
    judgement.reason,
    /“df has no column 'Age'”, but df has a column 'Age'/
  );
  assert.deepEqual(
    judgement.claims.map(c => [
      c.stated.claim,
      c.statement,
      c.outcome,
      c.evidence
    ]),
    [
      [
        'missing_column',
        "df has no column 'Age'",
        'refuted',
        "df has a column 'Age'"
      ]
    ]
  );
});

test('an answer without structured claims is never downgraded', () => {
  const judgement = judgeAnswers({
    answers: [
      '{"reasoning": "Column \'Age\' is missing from df.", "detection": true, "line": 1}'
    ],
    target: "df['Age'].mean()",
    summaries: titanicSummaries
  });
  assert.equal(judgement.detection, true);
  assert.equal(judgement.downgraded, false);
  assert.deepEqual(judgement.claims, []);
  assert.equal(judgement.line, 1);
  assert.equal(judgement.line_source, 'answer');
});

test('a crash answer without a line is located from its decisive claim', () => {
  const judgement = judgeAnswers({
    answers: [
      '{"reasoning": "No Fare.", "detection": true, "line": null, "claims": [{"claim": "missing_column", "object": "df", "column": "Fare"}]}'
    ],
    target: "x = df['Age'].mean()\ny = df['Fare'].mean()",
    summaries: titanicSummaries
  });
  assert.equal(judgement.detection, true);
  assert.equal(judgement.line, 2);
  assert.equal(judgement.line_source, 'claim');
  assert.equal(judgement.claims[0].outcome, 'confirmed');
});

test('garbage answers give a clear error, never a verdict', () => {
  const judgement = judgeAnswers({
    answers: ['<script>alert(1)</script>', ''],
    target: 'x'
  });
  assert.ok(judgement.error.length > 0);
  assert.equal(judgement.detection, undefined);
});
