/**
 * Services that cellguard's plugins share. Each capability is its own plugin providing one of these
 * tokens, so that later work (LLM checks, a server side) can extend or replace one without touching
 * the others.
 */
import type { ICellModel } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { Token } from '@lumino/coreutils';
import type { IDisposable } from '@lumino/disposable';
import type { ISignal } from '@lumino/signaling';

import type {
  CellReport,
  CheckRequest,
  Diagnostic,
  Severity,
  SummaryDoc,
  Wants
} from './protocol';

const PACKAGE = 'jupyterlab-cellguard';

/** The user's settings, typed, with a signal when they change. */
export interface ICellguardSettings {
  readonly current: CellguardSettings;
  readonly changed: ISignal<ICellguardSettings, CellguardSettings>;
}

export interface CellguardSettings {
  enabled: boolean;
  debounceMs: number;
  /** Per diagnostic code: a severity to show it with, or `off` to hide it. */
  severities: Record<string, Severity | 'off'>;
  maxColumns: number;
  requestTimeoutMs: number;
  checkBeforeRun: boolean;
  llm: LlmSettings;
}

/** Read by nothing but the status bar yet: the LLM checks come later. */
export interface LlmSettings {
  endpoint: string;
  model: string;
  votes: number;
  categories: string[];
}

export const ICellguardSettings = new Token<ICellguardSettings>(
  `${PACKAGE}:ICellguardSettings`,
  'cellguard settings'
);

/** The WebAssembly analysis core, loaded once. */
export interface ICellguardCore {
  /** Resolves when the core can be called; rejects if the WebAssembly could not be loaded. */
  readonly ready: Promise<void>;
  /** Null when the core is not loaded or failed on this input (it is then replaced). */
  check(request: CheckRequest): CellReport | null;
}

export const ICellguardCore = new Token<ICellguardCore>(
  `${PACKAGE}:ICellguardCore`,
  'the WebAssembly analysis core'
);

export type LinkState = 'none' | 'connecting' | 'linked' | 'unavailable';

/** What the kernel has told us, as the core wants it. */
export interface KernelFacts {
  history: string[];
  kernelNames: string[] | null;
  /** A summary document holding every object summarized since the kernel last changed. */
  summaries: SummaryDoc | null;
}

/** The link between one notebook and the cellguard agent in its kernel. */
export interface IKernelLink extends IDisposable {
  readonly state: LinkState;
  readonly stateChanged: ISignal<IKernelLink, LinkState>;
  /** Emitted when the cached facts changed: new data arrived, or the kernel ran a cell/restarted. */
  readonly factsChanged: ISignal<IKernelLink, void>;
  /** The cached facts; never waits for the kernel. */
  facts(): KernelFacts;
  /**
   * Ask the kernel for what `wants` names and the cache lacks; `factsChanged` fires when it
   * arrives. Returns at once. Does nothing when the kernel is not linked or busy.
   */
  request(wants: Wants): void;
}

/** One link per notebook panel. */
export interface ICellguardKernels {
  linkFor(panel: NotebookPanel): IKernelLink;
  /** Emitted when any link's state changes (for the status bar). */
  readonly stateChanged: ISignal<ICellguardKernels, NotebookPanel>;
}

export const ICellguardKernels = new Token<ICellguardKernels>(
  `${PACKAGE}:ICellguardKernels`,
  'links between notebooks and the cellguard kernel agent'
);

/** A diagnostic located in a notebook. */
export interface CellDiagnostic extends Diagnostic {
  /** Where it came from: `core`, or the id of an extra source. */
  source: string;
}

/** What the checker knows about one cell. */
export interface CellResult {
  cell: ICellModel;
  diagnostics: CellDiagnostic[];
}

/**
 * Extra checks (the LLM, later) that run only on explicit checks, since they are slow: the
 * "check active cell" command and check-before-run.
 */
export interface ICheckSource {
  readonly id: string;
  check(request: CheckRequest, panel: NotebookPanel): Promise<Diagnostic[]>;
}

/** Runs the core on notebook cells with the kernel's facts and keeps the latest results. */
export interface ICellguardChecker {
  /** The diagnostics of one code cell as it is now; synchronous (the linter calls it). */
  checkCell(panel: NotebookPanel, cell: ICellModel): CellDiagnostic[];
  /** The results for every code cell of a notebook, from the cache where nothing changed. */
  checkNotebook(panel: NotebookPanel): CellResult[];
  /** `checkCell` plus the extra sources; the result is kept until the cell changes. */
  checkThoroughly(
    panel: NotebookPanel,
    cell: ICellModel
  ): Promise<CellDiagnostic[]>;
  /** Emitted when results of a notebook may have changed (kernel facts, explicit checks, settings). */
  readonly changed: ISignal<ICellguardChecker, NotebookPanel>;
  /** Runs the fix's cells (notebook cell indices). */
  runCells(panel: NotebookPanel, cellIndices: number[]): Promise<void>;
  addSource(source: ICheckSource): IDisposable;
}

export const ICellguardChecker = new Token<ICellguardChecker>(
  `${PACKAGE}:ICellguardChecker`,
  'checks notebook cells with the cellguard core'
);
