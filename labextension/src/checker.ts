import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { CodeCell, ICellModel } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { DisposableDelegate, IDisposable } from '@lumino/disposable';
import { Debouncer } from '@lumino/polling';
import { ISignal, Signal } from '@lumino/signaling';

import type { CheckRequest, Diagnostic } from './protocol';
import {
  ICellDiagnostic,
  ICellResult,
  ICellguardChecker,
  ICellguardCore,
  ICellguardKernels,
  ICellguardSettings,
  ICheckSource
} from './tokens';

/** Pause after an edit before the notebook's other cells are checked again. */
const CONTENT_RECHECK_MS = 750;

interface ICached {
  /** Key of what the result depends on: notebook content, kernel facts and settings. */
  key: string;
  diagnostics: ICellDiagnostic[];
}

interface IExtra {
  source: string;
  diagnostics: ICellDiagnostic[];
}

/** Per-notebook bookkeeping: versions that invalidate cached results, and the results. */
class NotebookState {
  contentVersion = 0;
  factsVersion = 0;
  results = new Map<string, ICached>();
  /** Results of explicit checks by extra sources, valid while the cell's source is unchanged. */
  extras = new Map<string, IExtra>();
}

/**
 * Builds core requests from a notebook and the kernel link's cached facts; all analysis happens in
 * the core. Every notebook cell is sent (markdown and raw cells as empty sources), so the cell
 * indices in the core's messages and fixes are notebook positions.
 */
class Checker implements ICellguardChecker {
  constructor(
    private readonly _core: ICellguardCore,
    private readonly _kernels: ICellguardKernels,
    private readonly _settings: ICellguardSettings
  ) {
    _settings.changed.connect(() => {
      this._settingsVersion++;
      this._states.forEach((_, panel) => this._changed.emit(panel));
    });
    // Results computed before the core loaded are empty: compute again once it is there.
    void _core.ready.then(() => {
      this._settingsVersion++;
      this._states.forEach((_, panel) => this._changed.emit(panel));
    });
  }

  get changed(): ISignal<ICellguardChecker, NotebookPanel> {
    return this._changed;
  }

  checkCell(panel: NotebookPanel, cell: ICellModel): ICellDiagnostic[] {
    if (!this._settings.current.enabled || cell.type !== 'code') {
      return [];
    }
    const state = this._state(panel);
    if (this._kernels.linkFor(panel).state === 'connecting') {
      // The kernel's state is about to be known: checking now would flag every name that earlier
      // cells defined, for a moment.
      return [];
    }
    const cells = cellModels(panel);
    const index = cells.indexOf(cell);
    const source = cell.sharedModel.getSource();
    const key = `${state.contentVersion}/${state.factsVersion}/${this._settingsVersion}/${index}/${source}`;
    const cached = state.results.get(cell.id);
    let diagnostics: ICellDiagnostic[];
    if (cached?.key === key) {
      diagnostics = cached.diagnostics;
    } else {
      const request = this._request(panel, cells, index, source);
      const report = this._core.check(request);
      if (report) {
        // Summaries the core lacks are fetched in the background; `factsChanged` re-runs the check.
        this._kernels.linkFor(panel).request(report.wants);
      }
      diagnostics = this._present(report?.diagnostics ?? [], 'core');
      state.results.set(cell.id, { key, diagnostics });
    }
    const extra = state.extras.get(cell.id);
    return extra?.source === source
      ? [...diagnostics, ...extra.diagnostics]
      : diagnostics;
  }

  checkNotebook(panel: NotebookPanel): ICellResult[] {
    return cellModels(panel)
      .filter(cell => cell.type === 'code')
      .map(cell => ({ cell, diagnostics: this.checkCell(panel, cell) }));
  }

  async checkThoroughly(
    panel: NotebookPanel,
    cell: ICellModel
  ): Promise<ICellDiagnostic[]> {
    const state = this._state(panel);
    state.extras.delete(cell.id);
    if (this._sources.size > 0 && cell.type === 'code') {
      const cells = cellModels(panel);
      const source = cell.sharedModel.getSource();
      const request = this._request(panel, cells, cells.indexOf(cell), source);
      const found = await Promise.all(
        [...this._sources].map(extra =>
          extra.check(request, panel).then(
            diagnostics => this._present(diagnostics, extra.id),
            (reason: unknown) => {
              console.warn(
                `cellguard: check source ${extra.id} failed`,
                reason
              );
              return [];
            }
          )
        )
      );
      state.extras.set(cell.id, { source, diagnostics: found.flat() });
    }
    this._changed.emit(panel);
    return this.checkCell(panel, cell);
  }

  async runCells(panel: NotebookPanel, cellIndices: number[]): Promise<void> {
    for (const index of cellIndices) {
      const widget = panel.content.widgets[index];
      if (!(widget instanceof CodeCell)) {
        return;
      }
      // Without moving the selection: the user stays in the cell they are fixing.
      const reply = await CodeCell.execute(widget, panel.sessionContext);
      if (reply && reply.content.status !== 'ok') {
        return;
      }
    }
  }

  requestFor(panel: NotebookPanel, cell: ICellModel): CheckRequest {
    const cells = cellModels(panel);
    return this._request(
      panel,
      cells,
      cells.indexOf(cell),
      cell.sharedModel.getSource()
    );
  }

  addSource(source: ICheckSource): IDisposable {
    this._sources.add(source);
    return new DisposableDelegate(() => this._sources.delete(source));
  }

  private _request(
    panel: NotebookPanel,
    cells: ICellModel[],
    index: number,
    source: string
  ): CheckRequest {
    const facts = this._kernels.linkFor(panel).facts();
    return {
      cells: cells.map(cell =>
        cell.type === 'code' ? cell.sharedModel.getSource() : ''
      ),
      target_source: source,
      target_index: index >= 0 ? index : null,
      history: facts.history,
      kernel_names: facts.kernelNames,
      summaries: facts.summaries
    };
  }

  /** Applies the user's per-code severity overrides (display only; the core decides what is wrong). */
  private _present(
    diagnostics: Diagnostic[],
    source: string
  ): ICellDiagnostic[] {
    const overrides = this._settings.current.severities;
    const shown: ICellDiagnostic[] = [];
    for (const diagnostic of diagnostics) {
      const override = overrides[diagnostic.code];
      if (override === 'off') {
        continue;
      }
      shown.push({
        ...diagnostic,
        severity: override ?? diagnostic.severity,
        source
      });
    }
    return shown;
  }

  private _state(panel: NotebookPanel): NotebookState {
    let state = this._states.get(panel);
    if (!state) {
      const created = new NotebookState();
      const link = this._kernels.linkFor(panel);
      const factsChanged = () => {
        created.factsVersion++;
        this._changed.emit(panel);
      };
      link.factsChanged.connect(factsChanged);
      link.stateChanged.connect(factsChanged);
      // An edit in one cell can change another's result (a name defined or removed): re-check the
      // notebook once typing pauses.
      const recheck = new Debouncer(
        () => this._changed.emit(panel),
        CONTENT_RECHECK_MS
      );
      panel.content.model?.contentChanged.connect(() => {
        created.contentVersion++;
        void recheck.invoke();
      });
      panel.disposed.connect(() => recheck.dispose());
      panel.disposed.connect(() => this._states.delete(panel));
      this._states.set(panel, created);
      state = created;
    }
    return state;
  }

  private _states = new Map<NotebookPanel, NotebookState>();
  private _settingsVersion = 0;
  private _sources = new Set<ICheckSource>();
  private _changed = new Signal<ICellguardChecker, NotebookPanel>(this);
}

/** The notebook's cells in order: the `cells` of every core request. */
function cellModels(panel: NotebookPanel): ICellModel[] {
  const cells = panel.content.model?.cells;
  return cells ? Array.from(cells) : [];
}

export const checkerPlugin: JupyterFrontEndPlugin<ICellguardChecker> = {
  id: 'jupyterlab-cellguard:checker',
  description:
    'Checks notebook cells with the cellguard core and the kernel facts.',
  autoStart: true,
  provides: ICellguardChecker,
  requires: [ICellguardCore, ICellguardKernels, ICellguardSettings],
  activate: (
    _app: JupyterFrontEnd,
    core: ICellguardCore,
    kernels: ICellguardKernels,
    settings: ICellguardSettings
  ): ICellguardChecker => new Checker(core, kernels, settings)
};
