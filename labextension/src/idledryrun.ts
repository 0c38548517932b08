import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type { ICellModel, ICodeCellModel } from '@jupyterlab/cells';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';

import { DRY_RUN_SOURCE } from './dryrun';
import {
  ICellguardChecker,
  ICellguardDryRun,
  ICellguardKernels,
  ICellguardSettings,
  type IKernelLink
} from './tokens';

/**
 * "Dry run when idle" (setting `dryRunWhenIdle`, off by default): once the active cell has gone
 * unedited for `dryRunIdleDelayMs` and its kernel is idle, the cell is checked as the check button
 * would, with the dry run as the only extra source, so its crash shows as the same squiggle and
 * panel entry. Each text is dry-run once per kernel state (`ICellguardDryRun.triedAlready`); an
 * edit of the cell, or a cell starting to run, cancels the run in flight.
 */
class IdleDryRun {
  constructor(
    private readonly _tracker: INotebookTracker,
    private readonly _checker: ICellguardChecker,
    private readonly _dryRun: ICellguardDryRun,
    private readonly _kernels: ICellguardKernels,
    private readonly _settings: ICellguardSettings
  ) {
    _tracker.currentChanged.connect(this._follow, this);
    _tracker.activeCellChanged.connect(this._follow, this);
    _settings.changed.connect(this._onSettings, this);
    this._follow();
  }

  /** Follows the current notebook and its active cell; moving to a cell starts the delay. */
  private _follow(): void {
    const panel = this._tracker.currentWidget;
    this._watchPanel(panel);
    this._watchCell(panel ? (this._tracker.activeCell?.model ?? null) : null);
    this._lastEdit = Date.now();
    this._schedule();
  }

  private _watchPanel(panel: NotebookPanel | null): void {
    if (panel === this._panel) {
      return;
    }
    if (this._panel) {
      const link = this._kernels.linkFor(this._panel);
      link.stateChanged.disconnect(this._schedule, this);
      link.factsChanged.disconnect(this._schedule, this);
      this._panel.sessionContext.statusChanged.disconnect(this._schedule, this);
    }
    this._panel = panel;
    if (panel) {
      // The kernel turning idle, linked, or answering (facts no longer stale) may let a run start.
      const link = this._kernels.linkFor(panel);
      link.stateChanged.connect(this._schedule, this);
      link.factsChanged.connect(this._schedule, this);
      panel.sessionContext.statusChanged.connect(this._schedule, this);
    }
  }

  private _watchCell(cell: ICellModel | null): void {
    if (cell === this._cell) {
      return;
    }
    this._cell?.sharedModel.changed.disconnect(this._onChange, this);
    this._cell = cell;
    cell?.sharedModel.changed.connect(this._onChange, this);
  }

  /** Only an edit of the text counts (not outputs, metadata or the execution count). */
  private _onChange(_: unknown, change: { sourceChange?: unknown }): void {
    if (!change.sourceChange) {
      return;
    }
    this._inFlight?.abort();
    this._lastEdit = Date.now();
    this._schedule();
  }

  private _onSettings(): void {
    if (!this._settings.current.dryRunWhenIdle) {
      this._inFlight?.abort();
    }
    this._schedule();
  }

  /** Tries to run once the delay since the last edit has passed (at once if it has). */
  private _schedule(): void {
    this._clearTimer();
    if (!this._settings.current.dryRunWhenIdle) {
      return;
    }
    const wait =
      this._lastEdit + this._settings.current.dryRunIdleDelayMs - Date.now();
    this._timer = setTimeout(
      () => {
        this._timer = null;
        this._tryRun();
      },
      Math.max(0, wait)
    );
  }

  private _clearTimer(): void {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
  }

  private _tryRun(): void {
    const panel = this._panel;
    const cell = this._cell;
    const settings = this._settings.current;
    if (
      !panel ||
      !cell ||
      this._inFlight ||
      !settings.dryRunWhenIdle ||
      // The master switch of dry runs (the explicit check's): off means none.
      !settings.dryRun ||
      cell.type !== 'code' ||
      cell.sharedModel.getSource().trim() === '' ||
      (cell as ICodeCellModel).executionState === 'running'
    ) {
      return;
    }
    if (Date.now() - this._lastEdit < settings.dryRunIdleDelayMs) {
      this._schedule();
      return;
    }
    const link = this._kernels.linkFor(panel);
    if (
      link.state !== 'linked' ||
      // Cells were sent to run since the kernel last answered: they may still be queued.
      link.facts().stale ||
      panel.sessionContext.session?.kernel?.status !== 'idle' ||
      this._dryRun.lastRun(panel)?.state === 'running' ||
      this._dryRun.triedAlready(panel, cell) ||
      // Cancelled with the panel's button: not again until the text or the kernel changes.
      this._attempt === attemptKey(panel, cell, link)
    ) {
      return;
    }
    void this._run(panel, cell, link);
  }

  private async _run(
    panel: NotebookPanel,
    cell: ICellModel,
    link: IKernelLink
  ): Promise<void> {
    this._attempt = attemptKey(panel, cell, link);
    const controller = new AbortController();
    const cancel = () => controller.abort();
    // The kernel turning busy with a cell changes what the copy would hold.
    link.runStarted.connect(cancel);
    this._inFlight = controller;
    try {
      await this._checker.checkThoroughly(panel, cell, {
        sources: [DRY_RUN_SOURCE],
        signal: controller.signal
      });
    } finally {
      link.runStarted.disconnect(cancel);
      if (this._inFlight === controller) {
        this._inFlight = null;
      }
    }
    // Edited meanwhile: the new text waits for its own delay.
    this._schedule();
  }

  private _panel: NotebookPanel | null = null;
  private _cell: ICellModel | null = null;
  private _lastEdit = 0;
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _inFlight: AbortController | null = null;
  /** What the last idle run was for (`attemptKey`). */
  private _attempt = '';
}

/** A cell's text in a kernel state, in a notebook. */
function attemptKey(
  panel: NotebookPanel,
  cell: ICellModel,
  link: IKernelLink
): string {
  return JSON.stringify([
    panel.id,
    cell.id,
    link.codeVersion,
    cell.sharedModel.getSource()
  ]);
}

export const idleDryRunPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:dry-run-idle',
  description:
    'Dry-runs the active cell when typing has paused and the kernel is idle (setting, off by default).',
  autoStart: true,
  requires: [
    INotebookTracker,
    ICellguardChecker,
    ICellguardDryRun,
    ICellguardKernels,
    ICellguardSettings
  ],
  activate: (
    _app: JupyterFrontEnd,
    tracker: INotebookTracker,
    checker: ICellguardChecker,
    dryRun: ICellguardDryRun,
    kernels: ICellguardKernels,
    settings: ICellguardSettings
  ): void => {
    new IdleDryRun(tracker, checker, dryRun, kernels, settings);
  }
};
