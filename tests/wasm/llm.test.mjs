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

test('answers are voted on and a crash resting on a refuted claim is downgraded', () => {
  const judgement = judgeAnswers({
    answers: [
      '```json\n{"reasoning": "Column \'Age\' is missing from df.", "detection": true, "line": 1}\n```',
      "{'reasoning': 'Column Age does not exist in df', 'detection': True, 'line': 1,}",
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
  assert.match(judgement.reason, /Age/);
  assert.ok(judgement.claims.some(c => c.outcome === 'refuted'));
});

test('garbage answers give a clear error, never a verdict', () => {
  const judgement = judgeAnswers({
    answers: ['<script>alert(1)</script>', ''],
    target: 'x'
  });
  assert.ok(judgement.error.length > 0);
  assert.equal(judgement.detection, undefined);
});
