import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type { ICellModel } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { ServerConnection } from '@jupyterlab/services';
import { ISignal, Signal } from '@lumino/signaling';

import type {
  CheckRequest,
  Diagnostic,
  Prompt,
  PromptOptions,
  Signatures,
  ISummaryDoc,
  Wants
} from './protocol';
import {
  Category,
  DistributiveOmit,
  ICellguardChecker,
  ICellguardCore,
  ICellguardKernels,
  ICellguardLlm,
  ICellguardSettings,
  LlmRun,
  ILlmStatus,
  IPromptOverrides,
  ISourceResult
} from './tokens';

/** `GET /cellguard/llm/status` (cellguard/server): the host only, never the key. */
interface IServerStatus {
  configured: boolean;
  model: string;
  host: string;
  /** The most seconds a check takes on the server, retries included. */
  deadline_s: number;
}

/** An error of a check: a code with its fields (`ERROR_CODES` in cellguard/llm/client.py). */
type CheckError = { message: string; tries?: number } & (
  | {
      code:
        | 'not_configured'
        | 'unreachable'
        | 'bad_reply'
        | 'refused'
        | 'empty_answer'
        | 'internal';
    }
  | { code: 'invalid_request'; field: string }
  | { code: 'prompt_too_long'; limit: number }
  | { code: 'timeout' | 'deadline'; seconds: number }
  | { code: 'http_status' | 'redirect_refused'; status: number }
);

/** `POST /cellguard/llm/check`: the raw answers (untrusted text) and the failed votes' errors. */
interface ICheckReply {
  answers?: string[];
  errors?: CheckError[];
  /** Jupyter's own error replies (403 from the Authorizer, 404 without the extension). */
  message?: string;
}

/** Seconds the browser waits beyond the server's deadline for a check before giving up. */
const SERVER_MARGIN_S = 30;

/**
 * Asks the LLM about a cell on explicit checks. The prompt is built and the answers are read by the
 * core; this is the glue: kernel facts in, the server extension's reply out, the run's state for
 * the panel.
 */
class Llm implements ICellguardLlm {
  constructor(
    private readonly _core: ICellguardCore,
    private readonly _kernels: ICellguardKernels,
    private readonly _checker: ICellguardChecker,
    private readonly _settings: ICellguardSettings
  ) {
    this._serverStatus = this._fetchStatus();
    _settings.changed.connect(() => this._updateStatus());
  }

  get status(): ILlmStatus {
    return this._status;
  }

  get statusChanged(): ISignal<ICellguardLlm, ILlmStatus> {
    return this._statusChanged;
  }

  get runChanged(): ISignal<ICellguardLlm, NotebookPanel> {
    return this._runChanged;
  }

  lastRun(panel: NotebookPanel): LlmRun | null {
    return this._runs.get(panel) ?? null;
  }

  prompt(
    panel: NotebookPanel,
    cell: ICellModel,
    overrides?: IPromptOverrides
  ): Prompt | null {
    const request = this._checker.requestFor(panel, cell);
    const report = this._core.check(request);
    if (!report) {
      return null;
    }
    const link = this._kernels.linkFor(panel);
    if (this._settings.current.llm.docs) {
      // Signatures arrive later; `factsChanged` lets the caller render again.
      void link.fetch(report.wants, { signatures: true });
    }
    // The prompt says its history "ran successfully": runs that raised (the cell's own included) stay out.
    return this._buildPrompt(
      { ...request, history: link.facts().ranFine },
      report.wants,
      link.facts().signatures,
      overrides
    );
  }

  /** The check source: an LLM verdict that a line will crash becomes a warning on that line. */
  async check(
    request: CheckRequest,
    panel: NotebookPanel
  ): Promise<ISourceResult> {
    return {
      diagnostics: await this._check(request, panel),
      conclusive: false
    };
  }

  private async _check(
    request: CheckRequest,
    panel: NotebookPanel
  ): Promise<Diagnostic[]> {
    const index = request.target_index ?? -1;
    const cell = panel.content.model?.cells.get(index);
    if (!cell) {
      return [];
    }
    // One LLM check per notebook at a time: a new one replaces the running one.
    this._cancel.get(panel)?.();
    const run = (state: DistributiveOmit<LlmRun, 'cellId'>) => {
      this._runs.set(panel, { cellId: cell.id, ...state } as LlmRun);
      this._runChanged.emit(panel);
    };
    await this._serverStatus;
    if (!this._status.configured) {
      // The panel's heading says the checks are the rules' only; a note per cell would go stale.
      this._runs.delete(panel);
      this._runChanged.emit(panel);
      return [];
    }
    const report = this._core.check(request);
    if (!report) {
      run({
        state: 'failed',
        message: 'The analysis core is not loaded.',
        details: []
      });
      return [];
    }
    if (
      report.crash_predicted &&
      !this._settings.current.llmDiagnosisWhenRuleFires
    ) {
      // The core predicted the crash; its first error says why.
      const rule = report.diagnostics.find(d => d.severity === 'error');
      run({ state: 'skipped', rule: rule?.message ?? '' });
      return [];
    }

    const llm = this._settings.current.llm;
    const controller = new AbortController();
    const abort = () => controller.abort();
    this._cancel.set(panel, abort);
    // Without the server's status the request fails at once anyway.
    const timeoutS =
      (this._server?.deadline_s ?? llm.timeoutS) + SERVER_MARGIN_S;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort();
    }, timeoutS * 1000);
    run({ state: 'running', model: this._status.model, cancel: abort });
    try {
      // The cell's summaries (and signatures) may not be cached yet: a check waits for them.
      const link = this._kernels.linkFor(panel);
      await link.fetch(report.wants, { signatures: llm.docs });
      const facts = link.facts();
      const fresh = {
        ...request,
        history: facts.ranFine,
        summaries: facts.summaries
      };
      const prompt = this._buildPrompt(fresh, report.wants, facts.signatures);
      if (!prompt) {
        run({
          state: 'failed',
          message: 'The prompt could not be built.',
          details: []
        });
        return [];
      }
      const reply = await this._ask(prompt, controller.signal);
      if ('failed' in reply) {
        run({ state: 'failed', message: reply.failed, details: reply.details });
        return [];
      }
      const judgement = this._core.judgeAnswers({
        answers: reply.answers,
        target: request.target_source,
        summaries: pickSummaries(facts.summaries, report.wants),
        signatures: llm.docs ? facts.signatures : null
      });
      if (!judgement || judgement.error !== undefined) {
        run({
          state: 'failed',
          message: "Could not read the LLM's answer.",
          details: [
            judgement?.error ?? 'the analysis core failed',
            ...reply.errors
          ]
        });
        return [];
      }
      const diagnostic = judgement.detection
        ? lineDiagnostic(
            request.target_source,
            judgement.line ?? null,
            judgement.reasoning ?? ''
          )
        : null;
      run({
        state: 'verdict',
        judgement,
        located: diagnostic !== null,
        ruleFired: report.crash_predicted
      });
      return diagnostic ? [diagnostic] : [];
    } catch (error) {
      if (controller.signal.aborted) {
        run(
          timedOut
            ? {
                state: 'failed',
                message: `No answer from the server within ${timeoutS} s.`,
                details: []
              }
            : { state: 'cancelled' }
        );
      } else {
        run({
          state: 'failed',
          message: 'The cellguard server extension could not be reached.',
          details: [String(error)]
        });
      }
      return [];
    } finally {
      clearTimeout(timer);
      if (this._cancel.get(panel) === abort) {
        this._cancel.delete(panel);
      }
    }
  }

  private _buildPrompt(
    request: CheckRequest,
    wants: Wants,
    signatures: Signatures,
    overrides?: IPromptOverrides
  ): Prompt | null {
    const llm = this._settings.current.llm;
    const categories = overrides?.categories ?? llm.categories;
    const has = (category: Category) => categories.includes(category);
    const options: PromptOptions = {
      runtime: true,
      categories: { S: has('S'), R: has('R'), V: has('V') },
      docs: llm.docs,
      include_examples: overrides?.includeExamples ?? llm.includeExamples,
      history:
        llm.history === 'all'
          ? { choice: 'all' }
          : { choice: 'dependencies_only', max_cells: llm.historyMaxCells },
      max_columns: this._settings.current.maxColumns
    };
    return this._core.buildPrompt({
      history: request.history,
      target: request.target_source,
      summaries: pickSummaries(request.summaries as ISummaryDoc | null, wants),
      signatures: llm.docs ? signatures : null,
      options
    });
  }

  /** POSTs the prompt; the server adds the API key, so the browser never holds it. */
  private async _ask(
    prompt: Prompt,
    signal: AbortSignal
  ): Promise<
    | { answers: string[]; errors: string[] }
    | { failed: string; details: string[] }
  > {
    const llm = this._settings.current.llm;
    const body: Record<string, unknown> = {
      prompt: {
        system: prompt.system,
        user: prompt.user,
        schema: prompt.schema
      },
      votes: llm.votes,
      timeout_s: llm.timeoutS
    };
    if (llm.endpoint) {
      body.endpoint = llm.endpoint;
    }
    if (llm.model) {
      body.model = llm.model;
    }
    if (llm.temperature >= 0) {
      body.temperature = llm.temperature;
    }
    const response = await ServerConnection.makeRequest(
      serverUrl(this._serverSettings, 'cellguard/llm/check'),
      { method: 'POST', body: JSON.stringify(body), signal },
      this._serverSettings
    );
    let reply: ICheckReply = {};
    try {
      reply = (await response.json()) as ICheckReply;
    } catch {
      // A proxy's HTML error page: the status says enough.
    }
    const answers = reply.answers ?? [];
    const errors = reply.errors ?? [];
    const details = errors.map(error => error.message);
    if (!response.ok || answers.length === 0) {
      if (reply.message) {
        details.push(reply.message);
      }
      return {
        failed: explainFailure(response.status, errors),
        details: details.length ? details : [`HTTP ${response.status}`]
      };
    }
    return { answers, errors: details };
  }

  private async _fetchStatus(): Promise<void> {
    try {
      const response = await ServerConnection.makeRequest(
        serverUrl(this._serverSettings, 'cellguard/llm/status'),
        {},
        this._serverSettings
      );
      this._server = response.ok
        ? ((await response.json()) as IServerStatus)
        : null;
    } catch (reason) {
      console.debug('cellguard: LLM status not available', reason);
      this._server = null;
    }
    this._updateStatus();
  }

  /** The browser's endpoint and model win over the server's; either may be left to the server. */
  private _updateStatus(): void {
    const llm = this._settings.current.llm;
    const server = this._server;
    let host = server?.host ?? '';
    if (llm.endpoint) {
      try {
        host = new URL(llm.endpoint).hostname;
      } catch {
        host = '';
      }
    }
    const model = llm.model || server?.model || '';
    const configured = host !== '' && model !== '';
    let note = '';
    if (!configured) {
      note =
        server === null && !llm.endpoint
          ? 'The cellguard server extension did not answer: no LLM checks.'
          : 'No LLM endpoint and model in the settings or on the server (CELLGUARD_LLM_BASE_URL, CELLGUARD_LLM_MODEL).';
    }
    this._status = { configured, model, host, note };
    this._statusChanged.emit(this._status);
  }

  private readonly _serverSettings = ServerConnection.makeSettings();
  private _server: IServerStatus | null = null;
  private _serverStatus: Promise<void>;
  private _status: ILlmStatus = {
    configured: false,
    model: '',
    host: '',
    note: ''
  };
  private _statusChanged = new Signal<ICellguardLlm, ILlmStatus>(this);
  private _runs = new WeakMap<NotebookPanel, LlmRun>();
  private _cancel = new WeakMap<NotebookPanel, () => void>();
  private _runChanged = new Signal<ICellguardLlm, NotebookPanel>(this);
}

function serverUrl(settings: ServerConnection.ISettings, path: string): string {
  return settings.baseUrl.replace(/\/?$/, '/') + path;
}

/**
 * Only the summaries of what the cell wants: the cache also holds other cells' objects, which
 * would make the prompt longer and the LLM's reading of the cell less sharp.
 */
function pickSummaries(
  doc: ISummaryDoc | null,
  wants: Wants
): ISummaryDoc | null {
  if (!doc) {
    return null;
  }
  const objects: Record<string, unknown> = {};
  for (const name of [...wants.names, ...wants.paths, ...wants.callables]) {
    if (name in doc.objects) {
      objects[name] = doc.objects[name];
    }
  }
  return { ...doc, objects };
}

/** A warning on the verdict's 1-based line, from its first to its last non-blank character. */
function lineDiagnostic(
  source: string,
  line: number | null,
  reasoning: string
): Diagnostic | null {
  const lines = source.split('\n');
  if (
    line === null ||
    line < 1 ||
    line > lines.length ||
    !lines[line - 1].trim()
  ) {
    return null;
  }
  const text = lines[line - 1];
  const start = text.length - text.trimStart().length;
  return {
    code: 'llm-likely-crash',
    severity: 'warning',
    message: `Likely crash (LLM): ${reasoning}`,
    start: { line: line - 1, column: start },
    end: { line: line - 1, column: text.trimEnd().length },
    fix: null
  };
}

/** A sentence for the data scientist from the server's error reply; the details are shown too. */
function explainFailure(status: number, errors: CheckError[]): string {
  const has = (code: CheckError['code']) =>
    errors.some(error => error.code === code);
  const httpStatuses = errors.flatMap(error =>
    error.code === 'http_status' ? [error.status] : []
  );
  if (status === 503 || has('not_configured')) {
    return 'No LLM endpoint is configured on the server.';
  }
  if (status === 403) {
    return 'The Jupyter server did not allow this LLM check (HTTP 403).';
  }
  if (httpStatuses.includes(401) || httpStatuses.includes(403)) {
    return 'The LLM endpoint refused the API key (set CELLGUARD_LLM_API_KEY where the Jupyter server runs).';
  }
  if (has('redirect_refused')) {
    return 'The LLM endpoint answered with a redirect, which is not followed: set its final URL.';
  }
  if (has('timeout') || has('deadline')) {
    return 'The LLM endpoint did not answer in time.';
  }
  if (has('unreachable')) {
    return 'The LLM endpoint could not be reached.';
  }
  if (httpStatuses.includes(429)) {
    return 'The LLM endpoint is rate limiting: try again later.';
  }
  if (has('invalid_request') || has('prompt_too_long')) {
    return 'The server did not accept the check request.';
  }
  return 'The LLM check failed.';
}

export const llmPlugin: JupyterFrontEndPlugin<ICellguardLlm> = {
  id: 'jupyterlab-cellguard:llm',
  description:
    'Asks an LLM (through the cellguard server extension) whether a cell will crash.',
  autoStart: true,
  provides: ICellguardLlm,
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
  ): ICellguardLlm => {
    const llm = new Llm(core, kernels, checker, settings);
    // After the dry run, which makes asking the LLM needless when it saw what the cell does.
    checker.addSource({
      id: 'llm',
      order: 10,
      check: (request, panel) => llm.check(request, panel)
    });
    return llm;
  }
};
