/**
 * The shapes crossing cellguard's two boundaries: the WebAssembly core (`checkCell`) and the kernel
 * comm (docs/summary-schema.md). The core's generated typings say `any` for these.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Position {
  /** 0-based line. */
  line: number;
  /** 0-based column in UTF-16 code units, as CodeMirror counts. */
  column: number;
}

export interface TextEdit {
  start: Position;
  end: Position;
  content: string;
}

export interface Fix {
  message: string;
  edits: TextEdit[];
  /** Indices into `CheckRequest.cells` (notebook positions) of cells to run first. */
  run_cells: number[];
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  start: Position;
  end: Position;
  fix: Fix | null;
}

export interface Wants {
  names: string[];
  paths: string[];
  callables: string[];
}

/** A summary document of the kernel's `summarize` reply; the core reads it, TS only merges them. */
export interface SummaryDoc {
  schema: number;
  partial: boolean;
  elapsed_ms?: number;
  objects: Record<string, unknown>;
}

export interface CheckRequest {
  /** Every notebook cell in order; markdown and raw cells as empty strings. */
  cells: string[];
  target_source: string;
  /** Index into `cells`, or null for a cell outside the notebook. */
  target_index: number | null;
  /** Sources of the cells the kernel ran, in execution order. */
  history: string[];
  kernel_names: string[] | null;
  summaries: SummaryDoc | null;
}

export interface CellReport {
  diagnostics: Diagnostic[];
  wants: Wants;
}

/** Requests to the kernel agent; every reply echoes `type` and `id`. */
export type KernelRequest =
  | { type: 'hello' }
  | { type: 'names' }
  | { type: 'history' }
  | {
      type: 'summarize';
      names: string[];
      options: { max_columns: number; focus_columns?: string[]; budget_ms?: number };
    }
  | { type: 'signature'; names: string[] };

export interface KernelReplyBase {
  type: string;
  id: string;
  ok: boolean;
  error?: string;
}

export interface HelloReply extends KernelReplyBase {
  protocol: number;
  python: string;
  libraries: Record<string, string>;
  agent: 'package' | 'embedded';
}

export interface NamesReply extends KernelReplyBase {
  names: string[];
}

export interface HistoryReply extends KernelReplyBase {
  cells: {
    execution_count: number | null;
    source: string;
    success: boolean | null;
    error_name: string | null;
    before_attach: boolean;
  }[];
}

export interface SummarizeReply extends KernelReplyBase {
  summary: SummaryDoc;
}
