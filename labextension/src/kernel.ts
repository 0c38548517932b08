import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type { ISessionContext } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import type { JSONObject } from '@lumino/coreutils';
import { ISignal, Signal } from '@lumino/signaling';

import { KERNEL_SOURCE } from './generated/kernelSource';
import type {
  IDryRunReply,
  IHelloReply,
  IHistoryReply,
  IKernelReplyBase,
  KernelRequest,
  INamesReply,
  ISignatureReply,
  Signatures,
  ISummarizeReply,
  ISummaryDoc,
  Wants
} from './protocol';
import {
  ICellguardKernels,
  ICellguardSettings,
  IKernelLink,
  IKernelFacts,
  LinkState
} from './tokens';

export const COMM_TARGET = 'cellguard';
/** Comm re-opens allowed per kernel generation, against two front ends fighting over the agent. */
const MAX_REOPENS = 5;
/**
 * A refresh that failed (timed out behind another client's cells) is tried again this often; the
 * facts stay marked stale until one succeeds.
 */
const MAX_REFRESH_RETRIES = 5;
const REFRESH_RETRY_MS = 1000;

/** A cell sent to run from this page: its execute request's id and its source. */
interface ISentCell {
  msgId: string;
  source: string;
}

interface IPending {
  resolve: (reply: IKernelReplyBase) => void;
  reject: (reason: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Keeps one notebook's kernel linked to the cellguard agent: injects the agent at kernel start and
 * after restarts, opens the comm, and caches what the kernel said until the kernel runs a cell.
 * Every failure leaves the link `unavailable` and the checks code-only; nothing is shown to the user.
 */
class KernelLink implements IKernelLink {
  constructor(
    private readonly _context: ISessionContext,
    private readonly _settings: ICellguardSettings
  ) {
    _context.kernelChanged.connect(this._relink, this);
    _context.statusChanged.connect(this._onStatus, this);
    _context.iopubMessage.connect(this._onIopub, this);
    void _context.ready.then(() => this._relink());
  }

  get executionsChanged(): ISignal<IKernelLink, void> {
    return this._executionsChanged;
  }

  get codeVersion(): number {
    return this._codeVersion;
  }

  get runStarted(): ISignal<IKernelLink, void> {
    return this._runStarted;
  }

  get state(): LinkState {
    return this._state;
  }

  get stateChanged(): ISignal<IKernelLink, LinkState> {
    return this._stateChanged;
  }

  get factsChanged(): ISignal<IKernelLink, void> {
    return this._factsChanged;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  facts(): IKernelFacts {
    // One object per change: the core keeps what it read from the same arrays and documents.
    this._facts ??= {
      history: this._history,
      ranFine: this._ranFine,
      raised: this._raised,
      unanswered: this._sent.map(cell => cell.source),
      stale: this._stale,
      kernelNames: this._names,
      summaries: this._summaries,
      signatures: this._signatures
    };
    return this._facts;
  }

  request(wants: Wants): void {
    if (this._state !== 'linked') {
      return;
    }
    const absent = this._absentFromNamespace();
    for (const name of [...wants.names, ...wants.paths, ...wants.callables]) {
      if (this._asked.has(name)) {
        continue;
      }
      if (absent(name)) {
        // Nothing to summarise: asking would only change the facts, and so re-check every cell
        // of the notebook, to say so. Counted as asked, so `fetch` does not wait for it.
        this._asked.add(name);
      } else {
        this._queued.add(name);
      }
    }
    wants.focus_columns.forEach(column => {
      this._focusColumns.add(column);
      this._focusColumnsAsked.add(column);
    });
    this._flush();
  }

  async fetch(wants: Wants, options: { signatures: boolean }): Promise<void> {
    this.request(wants);
    const wanted = [...wants.names, ...wants.paths, ...wants.callables];
    const epoch = this._epoch;
    const missing = options.signatures
      ? wants.callables.filter(name => !(name in this._signatures))
      : [];
    const signatures =
      missing.length > 0 && this._canAsk()
        ? this._send<ISignatureReply>({
            type: 'signature',
            names: missing
          }).then(
            reply => {
              if (epoch === this._epoch) {
                this._signatures = { ...this._signatures, ...reply.signatures };
                this._emitFactsChanged();
              }
            },
            reason => console.debug('cellguard: signature failed', reason)
          )
        : Promise.resolve();
    // Answered: summarized, or asked with nothing left to wait for (a name the budget skipped).
    const answered = () =>
      this._state !== 'linked' ||
      wanted.every(name => name in (this._summaries?.objects ?? {})) ||
      (this._summarizing === 0 &&
        this._queued.size === 0 &&
        wanted.every(name => this._asked.has(name)));
    await Promise.all([signatures, this._until(answered)]);
  }

  /** Resolves when `done()` holds after the facts or the state change, or at the request timeout. */
  private _until(done: () => boolean): Promise<void> {
    if (done()) {
      return Promise.resolve();
    }
    return new Promise(resolve => {
      const check = () => {
        if (done()) {
          finish();
        }
      };
      const finish = () => {
        clearTimeout(timer);
        this._factsChanged.disconnect(check);
        this._stateChanged.disconnect(check);
        resolve();
      };
      const timer = setTimeout(finish, this._settings.current.requestTimeoutMs);
      this._factsChanged.connect(check);
      this._stateChanged.connect(check);
    });
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._dropComm();
    Signal.clearData(this);
  }

  /** Called on ready and kernelChanged (both fire at start-up): links each kernel generation once. */
  private _relink(): void {
    const kernel = this._context.session?.kernel ?? null;
    this._watchExecutions(kernel);
    if (!kernel) {
      this._dropComm();
      this._linkKey = null;
      this._setState('none');
      return;
    }
    const key = `${kernel.id}/${this._generation}`;
    if (this._linkKey === key) {
      return;
    }
    this._linkKey = key;
    this._dropComm();
    this._clearFacts();
    this._setState('connecting');
    // A kernel busy with a long cell answers late: check code-only meanwhile, link when it answers.
    setTimeout(() => {
      if (this._linkKey === key && this._state === 'connecting') {
        this._setState('unavailable');
      }
    }, this._settings.current.requestTimeoutMs);
    this._link(kernel, key, true).catch(reason => {
      if (this._linkKey === key) {
        console.debug(
          'cellguard: kernel not linked; checks go on without it',
          reason
        );
        this._dropComm();
        this._setState('unavailable');
      }
    });
  }

  private async _link(
    kernel: Kernel.IKernelConnection,
    key: string,
    inject: boolean
  ): Promise<void> {
    if (inject && KERNEL_SOURCE) {
      // Silent: no execute_input, no history entry, no execution count for the user to notice.
      const reply = await kernel.requestExecute(
        { code: KERNEL_SOURCE, silent: true, store_history: false },
        true
      ).done;
      if (reply.content.status !== 'ok') {
        throw new Error('the cellguard kernel agent failed to start');
      }
    }
    if (this._linkKey !== key) {
      return;
    }
    const comm = kernel.createComm(COMM_TARGET);
    comm.onMsg = msg =>
      this._onReply(msg.content.data as unknown as IKernelReplyBase);
    comm.onClose = () => {
      if (this._comm === comm) {
        this._reopen(kernel, key);
      }
    };
    this._comm = comm;
    await comm.open({}).done;
    const hello = await this._send<IHelloReply>({ type: 'hello' });
    if (this._linkKey !== key) {
      return;
    }
    console.debug(
      `cellguard: kernel linked (agent ${hello.agent}, Python ${hello.python})`
    );
    this._setState('linked');
    this._refresh();
  }

  /**
   * The agent closes its comms when another front end (a second tab) injects it again: open a new
   * comm to the new agent without injecting, or the two tabs would keep replacing each other.
   */
  private _reopen(kernel: Kernel.IKernelConnection, key: string): void {
    this._dropComm();
    if (this._reopens++ >= MAX_REOPENS || kernel.status === 'dead') {
      this._setState('unavailable');
      return;
    }
    this._setState('connecting');
    this._link(kernel, key, false).catch(reason => {
      if (this._linkKey === key) {
        console.debug('cellguard: comm not reopened', reason);
        this._dropComm();
        this._setState('unavailable');
      }
    });
  }

  /**
   * Sends the queued names when the kernel is idle: a busy kernel (running a cell, or answering us)
   * would answer only after it, so they wait for the next idle status.
   */
  private _flush(): void {
    if (this._queued.size === 0 || !this._canAsk()) {
      return;
    }
    const names = [...this._queued];
    const focusColumns = [...this._focusColumns];
    this._queued.clear();
    this._focusColumns.clear();
    names.forEach(name => this._asked.add(name));
    const epoch = this._epoch;
    this._summarizing++;
    this._summarize(names, focusColumns)
      .then(summary => {
        if (epoch !== this._epoch) {
          return;
        }
        this._summaries = mergeSummaries(this._summaries, summary);
      })
      .catch(reason => console.debug('cellguard: summarize failed', reason))
      .finally(() => {
        this._summarizing--;
        // Also after a failure: `fetch` waits for the answer either way.
        this._emitFactsChanged();
      });
  }

  /**
   * Whether a wanted name or path certainly names nothing in the kernel: its root is missing from
   * the namespace's public names, and those are fresh. (Private `_names` are not listed.)
   */
  private _absentFromNamespace(): (name: string) => boolean {
    const names = this._stale ? null : this._names;
    if (names === null) {
      return () => false;
    }
    if (this._namesSet?.list !== names) {
      this._namesSet = { list: names, set: new Set(names) };
    }
    const { set } = this._namesSet;
    return name => {
      const root = name.split('.', 1)[0];
      return !root.startsWith('_') && !set.has(root);
    };
  }

  private _onStatus(_: ISessionContext, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting') {
      // Same kernel id after a restart: a new generation makes `_relink` link it again.
      this._generation++;
      this._reopens = 0;
      this._linkKey = null;
      this._dropComm();
      this._clearFacts();
      this._setState('connecting');
    } else if (status === 'dead') {
      this._linkKey = null;
      this._dropComm();
      this._setState('unavailable');
    } else if (status === 'idle') {
      if (this._linkKey === null) {
        this._relink();
      } else if (this._needsRefresh) {
        this._refreshWhenQuiet();
      } else {
        this._flush();
      }
    }
  }

  private _onIopub(_: ISessionContext, msg: KernelMessage.IMessage): void {
    // Any client's cell run (not our silent injection) may change the namespace.
    if (msg.header.msg_type === 'execute_input') {
      this._markStale();
      this._epoch++;
      this._startRun();
    }
  }

  /** Follows the cells this page sends to run, from the request until the kernel's reply. */
  private _watchExecutions(kernel: Kernel.IKernelConnection | null): void {
    if (this._watched === kernel) {
      return;
    }
    this._watched?.anyMessage.disconnect(this._onAnyMessage, this);
    this._watched = kernel;
    kernel?.anyMessage.connect(this._onAnyMessage, this);
  }

  private _onAnyMessage(
    kernel: Kernel.IKernelConnection,
    args: Kernel.IAnyMessageArgs
  ): void {
    const { msg, direction } = args;
    if (direction === 'send' && msg.header.msg_type === 'execute_request') {
      const content = (msg as KernelMessage.IExecuteRequestMsg).content;
      // Our own agent runs silently and stores no history.
      if (content.silent || content.store_history === false) {
        return;
      }
      this._sent.push({ msgId: msg.header.msg_id, source: content.code });
      this._running.add(msg.header.msg_id);
      this._markStale();
      this._executionsChanged.emit();
      this._startRun();
    } else if (
      direction === 'recv' &&
      msg.header.msg_type === 'execute_reply'
    ) {
      const id =
        (msg.parent_header as Partial<KernelMessage.IHeader>).msg_id ?? '';
      if (!this._running.delete(id)) {
        return;
      }
      if (
        (msg as KernelMessage.IExecuteReplyMsg).content.status === 'aborted'
      ) {
        // Never ran (an earlier cell of the same run failed): it defines nothing.
        this._sent = this._sent.filter(cell => cell.msgId !== id);
        this._facts = null;
        this._executionsChanged.emit();
      }
      if (kernel.status === 'idle') {
        this._refreshWhenQuiet();
      }
    }
  }

  /** A cell was sent to run, or started (from any client): the kernel's objects may change. */
  private _startRun(): void {
    this._codeVersion++;
    this._runStarted.emit();
  }

  private _markStale(): void {
    this._needsRefresh = true;
    this._refreshRetries = 0;
    this._facts = null;
    if (!this._stale) {
      this._stale = true;
      this._emitFactsChanged();
    }
  }

  /**
   * Refreshes once every cell sent from here has been answered: a request sent while cells are
   * queued would wait behind all of them and time out (Run All of a long notebook).
   */
  private _refreshWhenQuiet(): void {
    if (
      this._needsRefresh &&
      this._running.size === 0 &&
      !this._refreshing &&
      this._canAsk()
    ) {
      this._refresh();
    }
  }

  /**
   * Re-reads history and names and re-summarizes what was cached (with the columns the cells
   * asked about), then swaps them in at once, so squiggles do not flicker while the kernel
   * answers. A failed refresh is tried again; until one succeeds the facts stay stale.
   */
  private _refresh(): void {
    if (this._state !== 'linked') {
      return;
    }
    const epoch = ++this._epoch;
    const answered = this._sent.length;
    const cached = Object.keys(this._summaries?.objects ?? {});
    this._needsRefresh = false;
    this._refreshing = true;
    // A cell started while the kernel answered: its idle status may come before this ends.
    let outdated = false;
    Promise.all([
      this._send<IHistoryReply>({ type: 'history' }),
      this._send<INamesReply>({ type: 'names' }),
      cached.length
        ? this._summarize(cached, [...this._focusColumnsAsked])
        : Promise.resolve(null)
    ])
      .then(([history, names, summary]) => {
        if (epoch !== this._epoch) {
          outdated = true;
          return;
        }
        this._history = history.cells.map(cell => cell.source);
        this._ranFine = history.cells
          .filter(cell => cell.success !== false)
          .map(cell => cell.source);
        // A run from before the agent attached may have raised too.
        this._raised = history.cells.flatMap((cell, index) =>
          cell.success === true ? [] : [index]
        );
        this._names = names.names;
        this._summaries = summary;
        // A cell ran: a callable may have been redefined.
        this._signatures = {};
        this._asked = new Set(cached);
        this._sent = this._sent.slice(answered);
        this._stale = this._needsRefresh || this._sent.length > 0;
        this._refreshRetries = 0;
        this._emitFactsChanged();
        this._executionsChanged.emit();
      })
      .catch(reason => {
        if (epoch !== this._epoch) {
          return;
        }
        this._needsRefresh = true;
        if (this._refreshRetries++ < MAX_REFRESH_RETRIES) {
          console.debug(
            'cellguard: kernel refresh failed; trying again',
            reason
          );
          setTimeout(() => this._refreshWhenQuiet(), REFRESH_RETRY_MS);
        } else {
          console.debug(
            'cellguard: kernel refresh failed; facts stay stale',
            reason
          );
        }
      })
      .finally(() => {
        this._refreshing = false;
        if (outdated) {
          this._refreshWhenQuiet();
        }
      });
  }

  private async _summarize(
    names: string[],
    focusColumns: string[] = []
  ): Promise<ISummaryDoc> {
    const reply = await this._send<ISummarizeReply>({
      type: 'summarize',
      names,
      options: {
        max_columns: this._settings.current.maxColumns,
        focus_columns: focusColumns
      }
    });
    return reply.summary;
  }

  private _canAsk(): boolean {
    // A busy kernel answers only after the running cell: ask again once it is idle.
    return (
      this._state === 'linked' &&
      this._comm !== null &&
      this._context.session?.kernel?.status === 'idle'
    );
  }

  dryRun(
    code: string,
    budgetMs: number,
    signal: AbortSignal
  ): Promise<IDryRunReply> {
    if (!this._canAsk()) {
      return Promise.reject(new Error('the kernel is not linked and idle'));
    }
    const id = `${++this._nextId}`;
    signal.addEventListener(
      'abort',
      () => {
        if (this._pending.has(id)) {
          this._send({ type: 'dry_run_cancel', run: id }).catch(reason =>
            console.debug('cellguard: dry-run cancel failed', reason)
          );
        }
      },
      { once: true }
    );
    // The reply comes when the run ends: within the budget, plus the usual allowance.
    const timeoutMs = budgetMs + this._settings.current.requestTimeoutMs;
    return this._send<IDryRunReply>(
      { type: 'dry_run', code, budget_ms: budgetMs },
      { id, timeoutMs }
    );
  }

  private _send<T extends IKernelReplyBase>(
    request: KernelRequest,
    options: { id?: string; timeoutMs?: number } = {}
  ): Promise<T> {
    const comm = this._comm;
    if (!comm) {
      return Promise.reject(new Error('no comm'));
    }
    const id = options.id ?? `${++this._nextId}`;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this._pending.delete(id);
        reject(new Error(`cellguard: ${request.type} timed out`));
      }, options.timeoutMs ?? this._settings.current.requestTimeoutMs);
      this._pending.set(id, {
        resolve: reply => resolve(reply as T),
        reject,
        timer
      });
      comm.send({ ...request, id } as unknown as JSONObject);
    });
  }

  private _onReply(reply: IKernelReplyBase): void {
    const pending = this._pending.get(reply.id);
    if (!pending) {
      return;
    }
    this._pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.ok) {
      pending.resolve(reply);
    } else {
      pending.reject(new Error(reply.error ?? `${reply.type} failed`));
    }
  }

  private _dropComm(): void {
    const comm = this._comm;
    this._comm = null;
    this._pending.forEach(pending => {
      clearTimeout(pending.timer);
      pending.reject(new Error('comm closed'));
    });
    this._pending.clear();
    if (comm && !comm.isDisposed) {
      comm.dispose();
    }
  }

  private _clearFacts(): void {
    this._epoch++;
    // A new kernel, or a restart: other objects, or none.
    this._codeVersion++;
    this._history = [];
    this._ranFine = [];
    this._raised = [];
    this._names = null;
    this._summaries = null;
    this._signatures = {};
    this._asked = new Set();
    this._queued.clear();
    this._focusColumns.clear();
    this._focusColumnsAsked.clear();
    // A new kernel: what was sent to the old one never runs.
    this._sent = [];
    this._running.clear();
    this._stale = false;
    this._needsRefresh = false;
    this._emitFactsChanged();
    this._executionsChanged.emit();
  }

  private _emitFactsChanged(): void {
    this._facts = null;
    this._factsChanged.emit();
  }

  private _setState(state: LinkState): void {
    if (this._state !== state) {
      this._state = state;
      this._stateChanged.emit(state);
    }
  }

  private _state: LinkState = 'none';
  private _stateChanged = new Signal<IKernelLink, LinkState>(this);
  private _factsChanged = new Signal<IKernelLink, void>(this);
  private _executionsChanged = new Signal<IKernelLink, void>(this);
  private _runStarted = new Signal<IKernelLink, void>(this);
  private _codeVersion = 0;
  private _isDisposed = false;
  private _comm: Kernel.IComm | null = null;
  private _linkKey: string | null = null;
  private _generation = 0;
  /** Bumped whenever cached facts become stale, so late replies are dropped. */
  private _epoch = 0;
  /** A cell ran since the facts were last read from the kernel, or that read failed. */
  private _needsRefresh = false;
  private _refreshing = false;
  private _refreshRetries = 0;
  /** The facts may be out of date: code ran since the kernel's last answer. */
  private _stale = false;
  /** Cells sent to run from this page since the kernel's last answer, in order. */
  private _sent: ISentCell[] = [];
  /** Execute requests of `_sent` not replied to yet. */
  private _running = new Set<string>();
  private _watched: Kernel.IKernelConnection | null = null;
  private _facts: IKernelFacts | null = null;
  private _reopens = 0;
  private _nextId = 0;
  private _pending = new Map<string, IPending>();
  private _history: string[] = [];
  private _ranFine: string[] = [];
  private _raised: number[] = [];
  private _names: string[] | null = null;
  private _summaries: ISummaryDoc | null = null;
  private _signatures: Signatures = {};
  /** Summarize requests sent and not answered yet. */
  private _summarizing = 0;
  /** Names asked for since the facts were last refreshed: each is asked once. */
  private _asked = new Set<string>();
  private _namesSet: { list: string[]; set: Set<string> } | null = null;
  /** Names (and the columns their cells mention) waiting for the kernel to be idle. */
  private _queued = new Set<string>();
  private _focusColumns = new Set<string>();
  /** Every column the cells asked about since the kernel last changed: refreshes keep them. */
  private _focusColumnsAsked = new Set<string>();
}

function mergeSummaries(
  base: ISummaryDoc | null,
  add: ISummaryDoc
): ISummaryDoc {
  if (!base) {
    return add;
  }
  return {
    ...base,
    partial: base.partial || add.partial,
    objects: { ...base.objects, ...add.objects }
  };
}

class KernelLinks implements ICellguardKernels {
  constructor(private readonly _settings: ICellguardSettings) {}

  get stateChanged(): ISignal<ICellguardKernels, NotebookPanel> {
    return this._stateChanged;
  }

  linkFor(panel: NotebookPanel): IKernelLink {
    let link = this._links.get(panel);
    if (!link) {
      const created = new KernelLink(panel.sessionContext, this._settings);
      created.stateChanged.connect(() => this._stateChanged.emit(panel));
      panel.disposed.connect(() => {
        created.dispose();
        this._links.delete(panel);
      });
      this._links.set(panel, created);
      link = created;
    }
    return link;
  }

  private _links = new Map<NotebookPanel, IKernelLink>();
  private _stateChanged = new Signal<ICellguardKernels, NotebookPanel>(this);
}

export const kernelPlugin: JupyterFrontEndPlugin<ICellguardKernels> = {
  id: 'jupyterlab-cellguard:kernel',
  description:
    'Links each notebook kernel to the cellguard agent over the `cellguard` comm.',
  autoStart: true,
  provides: ICellguardKernels,
  requires: [INotebookTracker, ICellguardSettings],
  activate: (
    _app: JupyterFrontEnd,
    tracker: INotebookTracker,
    settings: ICellguardSettings
  ): ICellguardKernels => {
    const links = new KernelLinks(settings);
    // Link as soon as a notebook opens, not at the first keystroke, so facts are ready early.
    tracker.widgetAdded.connect((_, panel) => links.linkFor(panel));
    return links;
  }
};
