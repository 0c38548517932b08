// Loads the WebAssembly core (built by scripts/build-wasm.sh) in node, as the browser does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import init, * as core from '../../labextension/core/cellguard_core.js';

const wasmPath = fileURLToPath(
  new URL('../../labextension/core/cellguard_core_bg.wasm', import.meta.url)
);
await init({ module_or_path: readFileSync(wasmPath) });

export const {
  applySeverities,
  checkCell,
  checkNotebook,
  buildPrompt,
  judgeAnswers,
  resetCore,
  start
} = core;

/** A check request with the defaults the extension sends for a fresh notebook. */
export function request(fields) {
  return {
    cells: [],
    target_source: '',
    target_index: null,
    history: [],
    kernel_names: null,
    summaries: null,
    ...fields
  };
}

/** A kernel summary of a small Titanic frame, as the kernel side reports it. */
export const titanicSummaries = {
  schema: 1,
  partial: false,
  objects: {
    df: {
      type: 'pandas.core.frame.DataFrame',
      kind: 'dataframe',
      S: { shape: [891, 3] },
      R: {
        columns: ['Age', 'Sex', 'Survived'],
        dtypes: { Age: 'float64', Sex: 'object', Survived: 'int64' }
      },
      V: { has_nan: true, nan_columns: ['Age'] }
    }
  }
};
