import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';

import init, {
  applySeverities,
  buildPrompt,
  checkCell,
  declineDryRun,
  dryRunCrash,
  judgeAnswers,
  resetCore,
  start
} from '../core/cellguard_core';
import type {
  CellReport,
  CheckRequest,
  Diagnostic,
  DryRunCrashRequest,
  DryRunDecline,
  Judgement,
  JudgeRequest,
  Prompt,
  PromptRequest,
  SeveritiesRequest,
  Verdict
} from './protocol';
import { ICellguardCore } from './tokens';

/** How many sources that made the core fail are remembered (and skipped) at most. */
const MAX_FAILED_SOURCES = 64;

/**
 * The WebAssembly core. Any exception from it (a panic surfaces as `RuntimeError: unreachable`,
 * a stack overflow as `RangeError`) leaves the instance unusable: the core is reset, and the next
 * call gets a fresh instance. The source that failed is remembered and not given to the core again
 * (a `core-failed` note instead), so one cell cannot make every check fail or freeze; the other
 * cells are checked as usual.
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
    if (this._failedSources.has(request.target_source)) {
      return failedReport(request.target_source);
    }
    return this._call('check', checkCell, request, request.target_source);
  }

  buildPrompt(request: PromptRequest): Prompt | null {
    return this._call('build a prompt', buildPrompt, request, null);
  }

  judgeAnswers(request: JudgeRequest): Judgement | null {
    return this._call('read the LLM answers', judgeAnswers, request, null);
  }

  applySeverities(request: SeveritiesRequest): Verdict | null {
    return this._call(
      'apply the severity settings',
      applySeverities,
      request,
      null
    );
  }

  declineDryRun(source: string): DryRunDecline | null | undefined {
    // Wrapped: `_call` says null for a failure, the core says null for "may be dry-run".
    const answer = this._call(
      'decline a dry run',
      (code: string) => [declineDryRun(code)],
      source,
      null
    );
    return answer === null ? undefined : answer[0];
  }

  dryRunCrash(request: DryRunCrashRequest): Diagnostic | null {
    return this._call('place a dry-run crash', dryRunCrash, request, null);
  }

  private _call<Q, R>(
    what: string,
    entry: (request: Q) => R,
    request: Q,
    source: string | null
  ): R | null {
    if (!this._loaded) {
      return null;
    }
    try {
      if (this._reset) {
        // The first call into a replaced instance should take no arguments (wasm-bindgen 0.2.130).
        start();
        this._reset = false;
      }
      return entry(request);
    } catch (error) {
      console.error(
        `cellguard: the analysis core failed to ${what} (a cellguard bug); it is restarted`,
        error,
        request
      );
      this._restart();
      if (source !== null) {
        this._failedSources.add(source);
        if (this._failedSources.size > MAX_FAILED_SOURCES) {
          const oldest = this._failedSources.values().next().value as string;
          this._failedSources.delete(oldest);
        }
      }
      return null;
    }
  }

  /** Schedules a fresh instance for the next call, whatever state the failure left. */
  private _restart(): void {
    this._reset = true;
    try {
      resetCore();
    } catch (error) {
      // A panic already scheduled one; nothing else can be done here.
      console.error('cellguard: the analysis core could not be reset', error);
    }
  }

  private _loaded = false;
  private _reset = false;
  /** Target sources whose check made the core fail, oldest first. */
  private _failedSources = new Set<string>();
}

/** The report for a source that made the core fail: one note on its first line. */
function failedReport(source: string): CellReport {
  const firstLine = source.split('\n', 1)[0];
  return {
    diagnostics: [
      {
        code: 'core-failed',
        severity: 'info',
        message:
          'cellguard could not analyse this cell: its analysis failed (a cellguard bug), so it is skipped until the cell changes',
        start: { line: 0, column: 0 },
        end: { line: 0, column: firstLine.length },
        fix: null
      }
    ],
    wants: { names: [], paths: [], callables: [], focus_columns: [] },
    crash_predicted: false
  };
}

export const corePlugin: JupyterFrontEndPlugin<ICellguardCore> = {
  id: 'jupyterlab-cellguard:core',
  description: 'Loads the cellguard analysis core (WebAssembly) once.',
  autoStart: true,
  provides: ICellguardCore,
  activate: (_app: JupyterFrontEnd): ICellguardCore => new Core()
};
