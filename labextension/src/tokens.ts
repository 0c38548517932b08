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
  DryRunCrashRequest,
  DryRunDecline,
  IDryRunReply,
  Judgement,
  JudgeRequest,
  Prompt,
  PromptRequest,
  Severities,
  SeveritiesRequest,
  Signatures,
  ISummaryDoc,
  Verdict,
  Wants
} from './protocol';

const PACKAGE = 'jupyterlab-cellguard';

/** The user's settings, typed, with a signal when they change. */
export interface ICellguardSettings {
  readonly current: ICellguardValues;
  readonly changed: ISignal<ICellguardSettings, ICellguardValues>;
}

export interface ICellguardValues {
  enabled: boolean;
  debounceMs: number;
  /** How long typing must pause before a syntax error is shown (code mid-statement is incomplete). */
  syntaxErrorDelayMs: number;
  /** Per diagnostic code: a severity to show it with, or `off` to hide it (the core applies them). */
  severities: Severities;
  maxColumns: number;
  requestTimeoutMs: number;
  checkBeforeRun: boolean;
  /** Ask the LLM for its diagnosis even when a rule already proves the crash. */
  llmDiagnosisWhenRuleFires: boolean;
  /** Explicit checks run the cell on an isolated copy of the kernel (docs/dry-run.md). */
  dryRun: boolean;
  /** Check-before-run also dry-runs the cell when no rule proves a crash. */
  dryRunBeforeRun: boolean;
  /** Time budget of one dry run. */
  dryRunBudgetMs: number;
  /** Dry-run the active cell once typing has paused and the kernel is idle (docs/dry-run.md). */
  dryRunWhenIdle: boolean;
  /** How long the active cell must go unedited before it is dry-run when idle. */
  dryRunIdleDelayMs: number;
  llm: ILlmSettings;
}

export type Category = 'S' | 'R' | 'V';

/** How to ask the LLM; the API key is never here (only the server reads it). */
export interface ILlmSettings {
  /** OpenAI-compatible base URL; empty: the server's. */
  endpoint: string;
  /** Empty: the server's. */
  model: string;
  /** Negative: the endpoint's default. */
  temperature: number;
  votes: number;
  timeoutS: number;
  categories: Category[];
  includeExamples: boolean;
  /** `dependencies`: when more than `historyMaxCells` cells ran, only those the cell depends on. */
  history: 'all' | 'dependencies';
  historyMaxCells: number;
  /** API documentation (the kernel's signatures of the cell's calls) in the prompt. */
  docs: boolean;
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
  /** The LLM prompt for a cell; null as for `check`. */
  buildPrompt(request: PromptRequest): Prompt | null;
  /** Reads the LLM's answers and checks their claims; null as for `check`. */
  judgeAnswers(request: JudgeRequest): Judgement | null;
  /**
   * Why the cell must not be dry-run (its first evident outside effect), `null` when it may be;
   * `undefined` when the core is not loaded or failed.
   */
  declineDryRun(source: string): DryRunDecline | null | undefined;
  /** The `dry-run-crash` diagnostic of a crash a dry run reported; null as for `check`. */
  dryRunCrash(request: DryRunCrashRequest): Diagnostic | null;
  /** The user's overrides on diagnostics found outside the core; null as for `check`. */
  applySeverities(request: SeveritiesRequest): Verdict | null;
}

export const ICellguardCore = new Token<ICellguardCore>(
  `${PACKAGE}:ICellguardCore`,
  'the WebAssembly analysis core'
);

export type LinkState = 'none' | 'connecting' | 'linked' | 'unavailable';

/** What the kernel has told us, as the core wants it. */
export interface IKernelFacts {
  /** Sources of the cells the kernel ran, as of its last answer. */
  history: string[];
  /**
   * The history less the runs that raised (runs from before the agent attached, of unknown
   * outcome, included): what an LLM prompt may call "ran successfully".
   */
  ranFine: string[];
  /**
   * Indices into `history` of the runs that raised, or may have (from before the agent attached):
   * how far each ran is not known.
   */
  raised: number[];
  /**
   * Sources of the cells sent to run (queued, running or done) since the kernel's last answer, in
   * order: about to define what they define.
   */
  unanswered: string[];
  /**
   * The kernel ran code since its last answer (here or from another client), or did not answer:
   * history, names and summaries may be out of date.
   */
  stale: boolean;
  kernelNames: string[] | null;
  /** A summary document holding every object summarized since the kernel last changed. */
  summaries: ISummaryDoc | null;
  /** The kernel's `signature` answers fetched since the kernel last changed, by callable path. */
  signatures: Signatures;
}

/** The link between one notebook and the cellguard agent in its kernel. */
export interface IKernelLink extends IDisposable {
  readonly state: LinkState;
  readonly stateChanged: ISignal<IKernelLink, LinkState>;
  /** Emitted when the cached facts changed: new data arrived, or the kernel ran a cell/restarted. */
  readonly factsChanged: ISignal<IKernelLink, void>;
  /** Emitted when `facts().unanswered` changed (a cell was sent to run, or aborted). */
  readonly executionsChanged: ISignal<IKernelLink, void>;
  /**
   * Changes whenever the kernel's objects may have changed: a cell was sent to run from this page
   * or started running from any client, or the kernel was replaced or restarted.
   */
  readonly codeVersion: number;
  /** Emitted when `codeVersion` changes because a cell is about to run (the kernel turns busy). */
  readonly runStarted: ISignal<IKernelLink, void>;
  /** The cached facts; never waits for the kernel. */
  facts(): IKernelFacts;
  /**
   * Ask the kernel for what `wants` names and the cache lacks; `factsChanged` fires when it
   * arrives. Returns at once. Does nothing when the kernel is not linked or busy.
   */
  request(wants: Wants): void;
  /**
   * `request`, then resolves once the wanted summaries (and, with `signatures`, the signatures of
   * `wants.callables`) are cached, or the kernel cannot answer them within the request timeout.
   */
  fetch(wants: Wants, options: { signatures: boolean }): Promise<void>;
  /**
   * Runs `code` on an isolated copy of the kernel; resolves with the kernel's reply when the run
   * ends. Aborting `signal` cancels the run (the reply then says `cancelled`). Rejects when the
   * kernel is not linked or idle, or does not answer within the budget plus the request timeout.
   */
  dryRun(
    code: string,
    budgetMs: number,
    signal: AbortSignal
  ): Promise<IDryRunReply>;
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
export interface ICellDiagnostic extends Diagnostic {
  /** Where it came from: `core`, or the id of an extra source. */
  source: string;
  /**
   * Only running the cell again fails (it ran fine, and what it did makes a second run crash):
   * not shown while the cell is unchanged, only when it is about to run again.
   */
  quiet?: boolean;
}

/** What the checker knows about one cell. */
export interface ICellResult {
  cell: ICellModel;
  diagnostics: ICellDiagnostic[];
}

/**
 * Extra checks (the dry run: dryrun.ts, the LLM: llm.ts) that run only on explicit checks, since
 * they are slow: the "check active cell" command. They run one after another by `order`; a
 * conclusive result (the dry run saw the cell crash or complete) ends the check.
 */
export interface ICheckSource {
  readonly id: string;
  readonly order: number;
  /** Aborting `signal` asks the source to stop early (its result then says nothing). */
  check(
    request: CheckRequest,
    panel: NotebookPanel,
    signal?: AbortSignal
  ): Promise<ISourceResult>;
}

/** Which extra sources an explicit check asks (all by default), and a signal that cancels it. */
export interface IThoroughOptions {
  /** Ids of the sources to ask; the others are not asked. */
  sources?: string[];
  signal?: AbortSignal;
}

export interface ISourceResult {
  diagnostics: Diagnostic[];
  /** The later sources have nothing to add. */
  conclusive: boolean;
}

/** Runs the core on notebook cells with the kernel's facts and keeps the latest results. */
export interface ICellguardChecker {
  /** The diagnostics of one code cell as it is now; synchronous (the linter calls it). */
  checkCell(panel: NotebookPanel, cell: ICellModel): ICellDiagnostic[];
  /** The results for every code cell of a notebook, from the cache where nothing changed. */
  checkNotebook(panel: NotebookPanel): ICellResult[];
  /**
   * The results for code cells about to run one after the other (a run of several cells, Run
   * All): the first as `checkCell` says, quiet diagnostics included; each next one as if those
   * before it in `cells` ran, from their code alone (the kernel's summaries describe the objects
   * as they are now, before the earlier cells change them).
   */
  checkRun(panel: NotebookPanel, cells: ICellModel[]): ICellResult[];
  /** `checkCell` plus the extra sources; the result is kept until the cell changes. */
  checkThoroughly(
    panel: NotebookPanel,
    cell: ICellModel,
    options?: IThoroughOptions
  ): Promise<ICellDiagnostic[]>;
  /** Emitted when results of a notebook may have changed (kernel facts, explicit checks, settings). */
  readonly changed: ISignal<ICellguardChecker, NotebookPanel>;
  /** The core request `checkCell` sends for a cell (notebook, history and cached kernel facts). */
  requestFor(panel: NotebookPanel, cell: ICellModel): CheckRequest;
  /**
   * The cells to run, in order, so that `cellIndices` run with what they need: each one after the
   * cells that define the names it lacks, and those after theirs (notebook cell indices).
   */
  runChain(panel: NotebookPanel, cellIndices: number[]): number[];
  /** Runs `runChain(cellIndices)`, stopping at the first cell that fails. */
  runCells(panel: NotebookPanel, cellIndices: number[]): Promise<void>;
  addSource(source: ICheckSource): IDisposable;
}

export const ICellguardChecker = new Token<ICellguardChecker>(
  `${PACKAGE}:ICellguardChecker`,
  'checks notebook cells with the cellguard core'
);

/** Where LLM checks go, as the server's status and the settings say. */
export interface ILlmStatus {
  configured: boolean;
  model: string;
  host: string;
  /** Why it is not configured (no endpoint, server extension unreachable). */
  note: string;
}

/** Prompt choices that the preview may change for itself; the rest come from the settings. */
export interface IPromptOverrides {
  categories?: Category[];
  includeExamples?: boolean;
}

/** `Omit` applied to each member of a union (so that each keeps its own fields). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown
  ? Omit<T, K>
  : never;

/** The last LLM check of a notebook, for the panel. */
export type LlmRun = { cellId: string } &
  /** A rule proves the crash: the LLM was not asked. */
  (
    | { state: 'skipped'; rule: string }
    | { state: 'running'; model: string; cancel: () => void }
    | { state: 'cancelled' }
    /** `message` for people, `details` as the server said it. */
    | { state: 'failed'; message: string; details: string[] }
    /** `located`: the verdict's line is in the cell, so it got a squiggle. */
    | {
        state: 'verdict';
        judgement: Judgement;
        located: boolean;
        ruleFired: boolean;
      }
  );

/** LLM checks of cells: the status, the prompt a check sends, and each notebook's last run. */
export interface ICellguardLlm {
  readonly status: ILlmStatus;
  readonly statusChanged: ISignal<ICellguardLlm, ILlmStatus>;
  /** The prompt a check of the cell would send now, from cached kernel facts; no network. */
  prompt(
    panel: NotebookPanel,
    cell: ICellModel,
    overrides?: IPromptOverrides
  ): Prompt | null;
  lastRun(panel: NotebookPanel): LlmRun | null;
  readonly runChanged: ISignal<ICellguardLlm, NotebookPanel>;
}

export const ICellguardLlm = new Token<ICellguardLlm>(
  `${PACKAGE}:ICellguardLlm`,
  'LLM checks of notebook cells through the cellguard server extension'
);

/** The last dry run of a notebook, for the panel. */
export type DryRun = { cellId: string } & (
  | { state: 'off' }
  /** A rule proves the crash: no dry run needed. */
  | { state: 'skipped'; rule: string }
  /** The core declined: the cell evidently acts outside the kernel. */
  | { state: 'declined'; decline: DryRunDecline }
  /** No linked, idle kernel, or the kernel failed to answer. */
  | { state: 'unavailable'; message: string }
  | { state: 'running'; cancel: () => void }
  | { state: 'done'; reply: IDryRunReply }
);

/** What a dry run says: a crash (the `dry-run-crash` diagnostic), or whether it saw the cell end. */
export interface IDryRunOutcome {
  crash: Diagnostic | null;
  /** It crashed or completed within the budget: nothing more to learn by asking the LLM. */
  conclusive: boolean;
}

/** Dry runs of cells on an isolated copy of the kernel, each notebook's last run. */
export interface ICellguardDryRun {
  /**
   * Declines or runs the cell as it is now in the panel's kernel; progress and result show as the
   * notebook's last run. One dry run per notebook at a time: a new one cancels the running one, as
   * does aborting `signal`.
   */
  run(
    panel: NotebookPanel,
    cell: ICellModel,
    signal?: AbortSignal
  ): Promise<IDryRunOutcome>;
  lastRun(panel: NotebookPanel): DryRun | null;
  /**
   * Whether the cell's current text was already dry-run (or declined, or skipped for a rule's
   * crash) against the kernel as it is now (`IKernelLink.codeVersion`); a cancelled run does not
   * count.
   */
  triedAlready(panel: NotebookPanel, cell: ICellModel): boolean;
  readonly runChanged: ISignal<ICellguardDryRun, NotebookPanel>;
}

export const ICellguardDryRun = new Token<ICellguardDryRun>(
  `${PACKAGE}:ICellguardDryRun`,
  'dry runs of notebook cells on an isolated copy of the kernel'
);
