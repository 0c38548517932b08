import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type { ICellModel } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { ISignal, Signal } from '@lumino/signaling';

import type { CheckRequest, IDryRunReply } from './protocol';
import {
  DistributiveOmit,
  DryRun,
  IDryRunOutcome,
  ICellguardChecker,
  ICellguardCore,
  ICellguardDryRun,
  ICellguardKernels,
  ICellguardSettings,
  ISourceResult
} from './tokens';

/** The dry run's id among the checker's extra sources. */
export const DRY_RUN_SOURCE = 'dry-run';

const NOTHING: ISourceResult = { diagnostics: [], conclusive: false };

/**
 * Runs a cell on an isolated copy of the kernel (the kernel forks: cellguard/kernel/dryrun.py) on
 * explicit checks, after the rules and before the LLM. The core declines cells that evidently act
 * outside the kernel; a crash becomes the core's `dry-run-crash` error on the line that raised it;
 * a run that completed makes the check conclusive (the LLM is not asked).
 */
class DryRunner implements ICellguardDryRun {
  constructor(
    private readonly _core: ICellguardCore,
    private readonly _kernels: ICellguardKernels,
    private readonly _settings: ICellguardSettings
  ) {}

  get runChanged(): ISignal<ICellguardDryRun, NotebookPanel> {
    return this._runChanged;
  }

  lastRun(panel: NotebookPanel): DryRun | null {
    return this._runs.get(panel) ?? null;
  }

  triedAlready(panel: NotebookPanel, cell: ICellModel): boolean {
    const tried = this._tried.get(panel);
    return (
      tried?.codeVersion === this._kernels.linkFor(panel).codeVersion &&
      tried.keys.has(triedKey(cell, cell.sharedModel.getSource()))
    );
  }

  async check(
    request: CheckRequest,
    panel: NotebookPanel,
    signal?: AbortSignal
  ): Promise<ISourceResult> {
    const index = request.target_index ?? -1;
    const cell = panel.content.model?.cells.get(index);
    if (!cell) {
      return NOTHING;
    }
    if (!this._settings.current.dryRun) {
      this._show(panel, cell, { state: 'off' });
      return NOTHING;
    }
    const rule = this._core
      .check(request)
      ?.diagnostics.find(d => d.severity === 'error');
    if (rule) {
      this._show(panel, cell, { state: 'skipped', rule: rule.message });
      this._recordTried(
        panel,
        cell,
        cell.sharedModel.getSource(),
        this._kernels.linkFor(panel).codeVersion
      );
      return NOTHING;
    }
    const outcome = await this.run(panel, cell, signal);
    return {
      diagnostics: outcome.crash ? [outcome.crash] : [],
      conclusive: outcome.conclusive
    };
  }

  async run(
    panel: NotebookPanel,
    cell: ICellModel,
    signal?: AbortSignal
  ): Promise<IDryRunOutcome> {
    const inconclusive = { crash: null, conclusive: false };
    if (signal?.aborted) {
      return inconclusive;
    }
    const source = cell.sharedModel.getSource();
    const link = this._kernels.linkFor(panel);
    const codeVersion = link.codeVersion;
    const show = (state: DistributiveOmit<DryRun, 'cellId'>) =>
      this._show(panel, cell, state);
    // The last state of a run: this text counts as tried in this kernel state, unless cancelled.
    const finish = (state: DistributiveOmit<DryRun, 'cellId'>) => {
      show(state);
      if (state.state !== 'done' || state.reply.reason?.code !== 'cancelled') {
        this._recordTried(panel, cell, source, codeVersion);
      }
    };
    const decline = this._core.declineDryRun(source);
    if (decline === undefined) {
      finish({
        state: 'unavailable',
        message: 'The analysis core is not loaded.'
      });
      return inconclusive;
    }
    if (decline) {
      finish({ state: 'declined', decline });
      return inconclusive;
    }
    // The kernel runs one dry run at a time (another is answered `busy`): the run this one
    // replaces is cancelled, and this one is sent once that one has ended. A replaced run shows
    // nothing more.
    const previous = this._active.get(panel);
    previous?.cancel();
    const controller = new AbortController();
    const cancel = () => controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    const replied = (previous?.ended ?? Promise.resolve()).then(() =>
      controller.signal.aborted
        ? null
        : link.dryRun(
            source,
            this._settings.current.dryRunBudgetMs,
            controller.signal
          )
    );
    const active = {
      cancel,
      ended: replied.then(
        () => undefined,
        () => undefined
      )
    };
    this._active.set(panel, active);
    const replaced = () => this._active.get(panel) !== active;
    show({ state: 'running', cancel });
    let reply: IDryRunReply | null;
    try {
      reply = await replied;
    } catch (error) {
      if (!replaced()) {
        finish({ state: 'unavailable', message: String(error) });
      }
      return inconclusive;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    if (replaced()) {
      return inconclusive;
    }
    if (reply === null) {
      show({ state: 'unavailable', message: 'cancelled before it started.' });
      return inconclusive;
    }
    finish({ state: 'done', reply });
    if (reply.outcome === 'crash' && reply.exception) {
      const { name, message, line } = reply.exception;
      const crash = this._core.dryRunCrash({
        source,
        exception: { name, message, line }
      });
      return { crash, conclusive: crash !== null };
    }
    return { crash: null, conclusive: reply.outcome === 'completed' };
  }

  private _show(
    panel: NotebookPanel,
    cell: ICellModel,
    state: DistributiveOmit<DryRun, 'cellId'>
  ): void {
    this._runs.set(panel, { cellId: cell.id, ...state } as DryRun);
    this._runChanged.emit(panel);
  }

  /** Only texts tried against the kernel's current `codeVersion` are kept. */
  private _recordTried(
    panel: NotebookPanel,
    cell: ICellModel,
    source: string,
    codeVersion: number
  ): void {
    if (codeVersion !== this._kernels.linkFor(panel).codeVersion) {
      return;
    }
    let tried = this._tried.get(panel);
    if (tried?.codeVersion !== codeVersion) {
      tried = { codeVersion, keys: new Set() };
      this._tried.set(panel, tried);
    }
    tried.keys.add(triedKey(cell, source));
  }

  private _runs = new WeakMap<NotebookPanel, DryRun>();
  /** Per notebook: the cell texts tried against the kernel as it was at `codeVersion`. */
  private _tried = new WeakMap<
    NotebookPanel,
    { codeVersion: number; keys: Set<string> }
  >();
  /** Per notebook: the latest dry run sent or waiting to be sent, and when it ends. */
  private _active = new WeakMap<
    NotebookPanel,
    { cancel: () => void; ended: Promise<void> }
  >();
  private _runChanged = new Signal<ICellguardDryRun, NotebookPanel>(this);
}

function triedKey(cell: ICellModel, source: string): string {
  return `${cell.id}\n${source}`;
}

/** Words for a reason code of an inconclusive dry run (docs/summary-schema.md). */
export function explainReason(reply: IDryRunReply): string {
  const reason = reply.reason ?? { code: 'unknown' };
  const at = typeof reason.line === 'number' ? ` at line ${reason.line}` : '';
  switch (reason.code) {
    case 'budget':
      return `Still running after ${reason.budget_ms} ms: stopped, no verdict.`;
    case 'outside_effect':
      return `Stopped${at}: the cell ${EFFECTS[String(reason.effect)] ?? 'acts outside the kernel'} (${reason.layer}).`;
    case 'memory_cap':
      return 'The run needed more memory than a dry run may take: no verdict.';
    case 'isolation_suspect':
      return `The cell raised ${reason.name}${at}, which the isolation itself may cause: no verdict.`;
    case 'exit':
      return `The cell raised ${reason.name}${at}.`;
    case 'async_cell':
      return 'Cells with top-level await are not dry-run.';
    case 'gpu':
      return `The kernel uses a GPU (${reason.runtime}): it is not forked.`;
    case 'no_fork':
      return `This kernel cannot fork (${reason.platform}): no dry runs.`;
    case 'busy':
      return 'Another dry run is still running in this kernel.';
    case 'cancelled':
      return 'Cancelled.';
    case 'child_died':
      return `The copy of the kernel died (${reason.signal}): no verdict.`;
    default:
      return `No verdict (${reason.code}).`;
  }
}

/** What each effect code of an `outside_effect` stop means. */
const EFFECTS: Record<string, string> = {
  'write-file': 'writes a file',
  'remove-file': 'removes a file',
  'remove-directory': 'removes a directory',
  'rename-file': 'renames a file',
  'make-directory': 'makes a directory',
  'change-file': 'changes a file',
  network: 'uses the network',
  subprocess: 'starts a process',
  signal: 'signals a process',
  'native-library': 'loads a native library',
  database: 'opens a database',
  'system-log': 'writes to the system log',
  'system-call': 'made a system call with an outside effect'
};

/** What each effect code of a core decline means. */
export const DECLINED: Record<string, string> = {
  'write-file': 'writes a file',
  filesystem: 'changes files',
  subprocess: 'runs a process or shell command',
  network: 'uses the network',
  database: 'uses a database',
  magic: 'uses a magic that acts outside Python'
};

export const dryRunPlugin: JupyterFrontEndPlugin<ICellguardDryRun> = {
  id: 'jupyterlab-cellguard:dry-run',
  description:
    'Runs a cell on an isolated copy of the kernel on explicit checks.',
  autoStart: true,
  provides: ICellguardDryRun,
  requires: [
    ICellguardCore,
    ICellguardKernels,
    ICellguardChecker,
    ICellguardSettings
  ],
  activate: (
    _app: JupyterFrontEnd,
    core: ICellguardCore,
    kernels: ICellguardKernels,
    checker: ICellguardChecker,
    settings: ICellguardSettings
  ): ICellguardDryRun => {
    const runner = new DryRunner(core, kernels, settings);
    checker.addSource({
      id: DRY_RUN_SOURCE,
      order: 0,
      check: (request, panel, signal) => runner.check(request, panel, signal)
    });
    return runner;
  }
};
