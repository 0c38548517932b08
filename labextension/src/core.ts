import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';

import init, {
  buildPrompt,
  checkCell,
  judgeAnswers,
  start
} from '../core/cellguard_core';
import type {
  CellReport,
  CheckRequest,
  Judgement,
  JudgeRequest,
  Prompt,
  PromptRequest
} from './protocol';
import { ICellguardCore } from './tokens';

/** Consecutive failures after which the core is left off for this page (a bug we cannot outrun). */
const MAX_FAILURES = 5;

/**
 * The WebAssembly core. A panic inside it surfaces as `RuntimeError: unreachable`; the core's panic
 * hook schedules a fresh instance, which the wasm-bindgen glue swaps in on the next call.
 */
class Core implements ICellguardCore {
  readonly ready: Promise<void>;

  constructor() {
    // The bundler emits the .wasm next to the extension's chunks and rewrites this URL to it.
    const wasmUrl = new URL('../core/cellguard_core_bg.wasm', import.meta.url);
    this.ready = init({ module_or_path: wasmUrl }).then(() => {
      this._loaded = true;
    });
    this.ready.catch(reason =>
      console.error('cellguard: the analysis core did not load', reason)
    );
  }

  check(request: CheckRequest): CellReport | null {
    return this._call('check', checkCell, request);
  }

  buildPrompt(request: PromptRequest): Prompt | null {
    return this._call('build a prompt', buildPrompt, request);
  }

  judgeAnswers(request: JudgeRequest): Judgement | null {
    return this._call('read the LLM answers', judgeAnswers, request);
  }

  private _call<Q, R>(
    what: string,
    entry: (request: Q) => R,
    request: Q
  ): R | null {
    if (!this._loaded || this._failures >= MAX_FAILURES) {
      return null;
    }
    try {
      if (this._failures > 0) {
        // The first call into a replaced instance should take no arguments (wasm-bindgen 0.2.130).
        start();
      }
      const result = entry(request);
      this._failures = 0;
      return result;
    } catch (error) {
      this._failures++;
      console.error(
        `cellguard: the analysis core failed to ${what} (a cellguard bug); it is restarted`,
        error,
        request
      );
      return null;
    }
  }

  private _loaded = false;
  private _failures = 0;
}

export const corePlugin: JupyterFrontEndPlugin<ICellguardCore> = {
  id: 'jupyterlab-cellguard:core',
  description: 'Loads the cellguard analysis core (WebAssembly) once.',
  autoStart: true,
  provides: ICellguardCore,
  activate: (_app: JupyterFrontEnd): ICellguardCore => new Core()
};
