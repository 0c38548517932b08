import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { CodeCell, ICellModel } from '@jupyterlab/cells';
import { NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
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
  ICheckSource,
  IKernelFacts,
  IThoroughOptions
} from './tokens';

/** Pause after an edit before the notebook's other cells are checked again. */
const CONTENT_RECHECK_MS = 750;

interface ICached {
  /** Key of what the result depends on (see `_key`). */
  key: string;
  /**
   * The names the result calls undefined, naming the cells that define them: it changes when
   * cells come, go or move, when cells are sent to run, or when a cell's use of one of these names
   * changes. Nothing else in a result depends on the notebook's other cells (what is defined
   * comes from the kernel).
   */
  undefinedNames: string[];
  diagnostics: ICellDiagnostic[];
}

interface IExtra {
  source: string;
  diagnostics: ICellDiagnostic[];
}

/** The text a diagnostic covers in `source` (positions are lines and UTF-16 columns). */
function covered(source: string, diagnostic: Diagnostic): string {
  const lines = source.split('\n');
  const offset = (position: Diagnostic['start']) =>
    lines
      .slice(0, position.line)
      .reduce((sum, line) => sum + line.length + 1, 0) + position.column;
  return source.slice(offset(diagnostic.start), offset(diagnostic.end));
}

/** The notebook's cells and their sources, read once per content change. */
interface INotebookContents {
  version: number;
  cells: ICellModel[];
  sources: string[];
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/** How often each identifier occurs in a source. */
function identifierCounts(source: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [name] of source.matchAll(IDENTIFIER)) {
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** The name an `undefined-name` diagnostic of the notebook's cells is about, if it is one. */
function undefinedName(diagnostic: Diagnostic): string | null {
  return diagnostic.code === 'undefined-name'
    ? (/^`([^`]+)` is not defined/.exec(diagnostic.message)?.[1] ?? null)
    : null;
}

/** Per-notebook bookkeeping: versions that invalidate cached results, and the results. */
class NotebookState {
  contentVersion = 0;
  /** Bumped when cells come, go or move. */
  structureVersion = 0;
  /** Per identifier: bumped when a cell's use of it changes (see `ICached.undefinedNames`). */
  nameVersions = new Map<string, number>();
  nameChanges = 0;
  factsVersion = 0;
  executionsVersion = 0;
  stale = false;
  contents: INotebookContents | null = null;
  /** By cell id, then source: the cell's current source and the one it ran with. */
  results = new Map<string, Map<string, ICached>>();
  /** Results of explicit checks by extra sources, valid while the cell's source is unchanged. */
  extras = new Map<string, IExtra>();
  /** By cell id: the source a cell had when it last ran without error in this kernel. */
  ranFine = new Map<string, string>();
}

/**
 * Builds core requests from a notebook and the kernel link's cached facts; all analysis happens in
 * the core. Every notebook cell is sent (markdown and raw cells as empty sources), so the cell
 * indices in the core's messages and fixes are notebook positions.
 *
 * While the kernel's facts are stale (cells ran or are queued since its last answer), the cells
 * sent to run count as run, names come from what ran, and nothing is called certain: errors are
 * shown as information until the kernel answers.
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
    NotebookActions.executed.connect((_, { notebook, cell, success }) => {
      const state = [...this._states].find(
        ([panel]) => panel.content === notebook
      )?.[1];
      if (state && cell.model.type === 'code') {
        if (success) {
          state.ranFine.set(cell.model.id, cell.model.sharedModel.getSource());
        } else {
          state.ranFine.delete(cell.model.id);
        }
      }
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
    const source = cell.sharedModel.getSource();
    const ranSource = state.ranFine.get(cell.id);
    const diagnostics =
      ranSource === undefined
        ? this._checkSource(panel, state, cell, source)
        : this._checkRanCell(panel, state, cell, source, ranSource);
    const extra = state.extras.get(cell.id);
    return extra?.source === source
      ? [...diagnostics, ...extra.diagnostics]
      : diagnostics;
  }

  checkNotebook(panel: NotebookPanel): ICellResult[] {
    return this._contents(panel, this._state(panel))
      .cells.filter(cell => cell.type === 'code')
      .map(cell => ({ cell, diagnostics: this.checkCell(panel, cell) }));
  }

  checkRun(panel: NotebookPanel, cells: ICellModel[]): ICellResult[] {
    const code = cells.filter(cell => cell.type === 'code');
    if (code.length === 0 || !this._settings.current.enabled) {
      return [];
    }
    const state = this._state(panel);
    const contents = this._contents(panel, state);
    const facts = this._kernels.linkFor(panel).facts();
    const history = [...facts.history, ...facts.unanswered];
    const results: ICellResult[] = [
      { cell: code[0], diagnostics: this.checkCell(panel, code[0]) }
    ];
    for (let i = 1; i < code.length; i++) {
      history.push(code[i - 1].sharedModel.getSource());
      const source = code[i].sharedModel.getSource();
      const index = contents.cells.indexOf(code[i]);
      const report = this._core.check({
        cells: contents.sources,
        target_source: source,
        target_index: index >= 0 ? index : null,
        history,
        history_raised: facts.raised,
        kernel_names: null,
        summaries: null,
        severities: this._settings.current.severities
      });
      results.push({
        cell: code[i],
        diagnostics: this._present(
          report?.diagnostics ?? [],
          'core',
          facts.stale
        )
      });
    }
    return results;
  }

  async checkThoroughly(
    panel: NotebookPanel,
    cell: ICellModel,
    options: IThoroughOptions = {}
  ): Promise<ICellDiagnostic[]> {
    const state = this._state(panel);
    state.extras.delete(cell.id);
    if (this._sources.size > 0 && cell.type === 'code') {
      const source = cell.sharedModel.getSource();
      const request = this.requestFor(panel, cell);
      const found: ICellDiagnostic[] = [];
      const sources = [...this._sources]
        .filter(extra => options.sources?.includes(extra.id) ?? true)
        .sort((a, b) => a.order - b.order);
      for (const extra of sources) {
        if (options.signal?.aborted) {
          break;
        }
        const result = await extra
          .check(request, panel, options.signal)
          .catch((reason: unknown) => {
            console.warn(`cellguard: check source ${extra.id} failed`, reason);
            return { diagnostics: [], conclusive: false };
          });
        // The user's overrides, applied by the core as for its own findings.
        const shown =
          this._core.applySeverities({
            diagnostics: result.diagnostics,
            severities: this._settings.current.severities
          })?.diagnostics ?? [];
        found.push(...this._present(shown, extra.id, false));
        if (result.conclusive) {
          break;
        }
      }
      state.extras.set(cell.id, { source, diagnostics: found });
    }
    this._changed.emit(panel);
    return this.checkCell(panel, cell);
  }

  runChain(panel: NotebookPanel, cellIndices: number[]): number[] {
    const cells = this._contents(panel, this._state(panel)).cells;
    const order: number[] = [];
    const seen = new Set<number>();
    const visit = (index: number) => {
      const cell = cells[index];
      if (seen.has(index) || !cell || cell.type !== 'code') {
        return;
      }
      seen.add(index);
      // The cells defining what this one lacks come first (the core's fix names them).
      for (const diagnostic of this.checkCell(panel, cell)) {
        if (diagnostic.code === 'undefined-name') {
          diagnostic.fix?.run_cells.forEach(visit);
        }
      }
      order.push(index);
    };
    cellIndices.forEach(visit);
    return order;
  }

  async runCells(panel: NotebookPanel, cellIndices: number[]): Promise<void> {
    for (const index of this.runChain(panel, cellIndices)) {
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
    const state = this._state(panel);
    const contents = this._contents(panel, state);
    return this._request(
      panel,
      contents,
      contents.cells.indexOf(cell),
      cell.sharedModel.getSource()
    );
  }

  addSource(source: ICheckSource): IDisposable {
    this._sources.add(source);
    return new DisposableDelegate(() => this._sources.delete(source));
  }

  /**
   * A cell that ran fine in this kernel: what only a second run would fail on (a column it
   * dropped itself) is said quietly, without a fix: hidden while the cell is unchanged, as
   * information once it is edited. What its edits break is said as for any cell.
   */
  private _checkRanCell(
    panel: NotebookPanel,
    state: NotebookState,
    cell: ICellModel,
    source: string,
    ranSource: string
  ): ICellDiagnostic[] {
    if (state.stale && source === ranSource) {
      // Cells queued before it may re-create what it changed: a second run is not known to fail.
      return [];
    }
    const rerun = this._checkSource(panel, state, cell, ranSource);
    const quietly = (diagnostic: ICellDiagnostic): ICellDiagnostic => ({
      ...diagnostic,
      severity: 'info',
      message: `This cell ran fine, but running it again fails: ${diagnostic.message}`,
      fix: null,
      quiet: source === ranSource
    });
    if (source === ranSource) {
      return rerun.map(quietly);
    }
    // The same finding on the same code as in the source that ran (positions move with edits).
    const sameFinding = (d: ICellDiagnostic, text: string) =>
      `${d.code}\n${covered(text, d)}`;
    const fromRerun = new Map(rerun.map(d => [sameFinding(d, ranSource), d]));
    return this._checkSource(panel, state, cell, source).map(diagnostic => {
      const ran = fromRerun.get(sameFinding(diagnostic, source));
      return ran
        ? quietly({ ...diagnostic, message: ran.message })
        : diagnostic;
    });
  }

  /** The core's diagnostics of `source` as the cell's code, from the cache when nothing changed. */
  private _checkSource(
    panel: NotebookPanel,
    state: NotebookState,
    cell: ICellModel,
    source: string
  ): ICellDiagnostic[] {
    const contents = this._contents(panel, state);
    let results = state.results.get(cell.id);
    const cached = results?.get(source);
    const index = contents.cells.indexOf(cell);
    if (
      cached &&
      cached.key === this._key(state, source, index, cached.undefinedNames)
    ) {
      return cached.diagnostics;
    }
    const report = this._core.check(
      this._request(panel, contents, index, source)
    );
    if (report) {
      // Summaries the core lacks are fetched in the background; `factsChanged` re-runs the check.
      this._kernels.linkFor(panel).request(report.wants);
    }
    const found = report?.diagnostics ?? [];
    const undefinedNames = found
      .map(undefinedName)
      .filter((name): name is string => name !== null);
    const diagnostics = this._present(found, 'core', state.stale);
    if (!results) {
      results = new Map();
      state.results.set(cell.id, results);
    }
    // The current source and the one the cell ran with are kept; older versions of an edit go.
    const ranSource = state.ranFine.get(cell.id);
    for (const kept of results.keys()) {
      if (kept !== ranSource) {
        results.delete(kept);
      }
    }
    results.set(source, {
      key: this._key(state, source, index, undefinedNames),
      undefinedNames,
      diagnostics
    });
    return diagnostics;
  }

  private _key(
    state: NotebookState,
    source: string,
    index: number,
    undefinedNames: string[]
  ): string {
    const key = `${state.factsVersion}/${this._settingsVersion}/${source}`;
    if (undefinedNames.length === 0) {
      return key;
    }
    const names = undefinedNames.map(name => state.nameVersions.get(name) ?? 0);
    return `${key}/${index}/${state.structureVersion}/${state.executionsVersion}/${names.join(',')}`;
  }

  private _contents(
    panel: NotebookPanel,
    state: NotebookState
  ): INotebookContents {
    const last = state.contents;
    if (last?.version === state.contentVersion) {
      return last;
    }
    const models = panel.content.model?.cells;
    const cells = models ? Array.from(models) : [];
    const sources = cells.map(cell =>
      cell.type === 'code' ? cell.sharedModel.getSource() : ''
    );
    if (
      !last ||
      last.cells.length !== cells.length ||
      cells.some((cell, i) => cell !== last.cells[i])
    ) {
      state.structureVersion++;
    } else {
      sources.forEach((source, i) => {
        if (source !== last.sources[i]) {
          this._nameUsesChanged(state, last.sources[i], source);
        }
      });
    }
    state.contents = { version: state.contentVersion, cells, sources };
    return state.contents;
  }

  /** Bumps the identifiers whose number of uses differs between two versions of a cell. */
  private _nameUsesChanged(
    state: NotebookState,
    before: string,
    after: string
  ): void {
    const was = identifierCounts(before);
    const now = identifierCounts(after);
    for (const name of new Set([...was.keys(), ...now.keys()])) {
      if (was.get(name) !== now.get(name)) {
        state.nameVersions.set(name, ++state.nameChanges);
      }
    }
  }

  private _request(
    panel: NotebookPanel,
    contents: INotebookContents,
    index: number,
    source: string
  ): CheckRequest {
    const facts = this._kernels.linkFor(panel).facts();
    const stale = facts.stale;
    return {
      cells: contents.sources,
      target_source: source,
      target_index: index >= 0 ? index : null,
      // Stale: what ran and what was sent to run define the names, not the kernel's old list.
      history: stale ? this._historyWithUnanswered(facts) : facts.history,
      history_raised: facts.raised,
      kernel_names: stale ? null : facts.kernelNames,
      summaries: facts.summaries,
      severities: this._settings.current.severities
    };
  }

  /** The history and the cells sent since, as one array kept per facts object (the core compares). */
  private _historyWithUnanswered(facts: IKernelFacts): string[] {
    if (this._joined?.facts !== facts) {
      this._joined = {
        facts,
        history: [...facts.history, ...facts.unanswered]
      };
    }
    return this._joined.history;
  }

  /**
   * The core's diagnostics as shown, tagged with their source. The core applied the user's
   * severity overrides; with `stale` facts nothing is certain, so nothing is an error.
   */
  private _present(
    diagnostics: Diagnostic[],
    source: string,
    stale: boolean
  ): ICellDiagnostic[] {
    return diagnostics.map(diagnostic => ({
      ...diagnostic,
      severity:
        stale && diagnostic.severity === 'error' ? 'info' : diagnostic.severity,
      source
    }));
  }

  private _state(panel: NotebookPanel): NotebookState {
    let state = this._states.get(panel);
    if (!state) {
      const created = new NotebookState();
      const link = this._kernels.linkFor(panel);
      created.stale = link.facts().stale;
      link.factsChanged.connect(() => {
        created.factsVersion++;
        created.stale = link.facts().stale;
        this._changed.emit(panel);
      });
      link.stateChanged.connect((_, linkState) => {
        created.factsVersion++;
        if (linkState === 'connecting') {
          // A new kernel (or a restart): nothing has run in it.
          created.ranFine.clear();
        }
        this._changed.emit(panel);
      });
      // Cells sent to run define names: results that name undefined ones are computed again.
      link.executionsChanged.connect(() => {
        created.executionsVersion++;
        this._changed.emit(panel);
      });
      // An edit in one cell can change another's message (the cells that define a name): check
      // those again once typing pauses.
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
  private _joined: { facts: IKernelFacts; history: string[] } | null = null;
  private _changed = new Signal<ICellguardChecker, NotebookPanel>(this);
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
