/**
 * The shapes crossing cellguard's two boundaries: the WebAssembly core (its types come with the
 * generated package) and the kernel comm (docs/summary-schema.md).
 */

export type {
  CellReport,
  Code,
  CheckRequest,
  Claim,
  Diagnostic,
  DryRunCrashRequest,
  DryRunDecline,
  Fix,
  Judgement,
  JudgeRequest,
  Position,
  Prompt,
  PromptOptions,
  PromptRequest,
  Severities,
  SeveritiesRequest,
  Severity,
  TextEdit,
  Verdict,
  Wants
} from '../core/cellguard_core';

/** The kernel's `signature` answers by callable path; the core reads them. */
export type Signatures = Record<string, object>;

/** A summary document of the kernel's `summarize` reply; the core reads it, TS only merges them. */
export interface ISummaryDoc {
  schema: number;
  partial: boolean;
  elapsed_ms?: number;
  objects: Record<string, unknown>;
}

/** Requests to the kernel agent; every reply echoes `type` and `id`. */
export type KernelRequest =
  | { type: 'hello' }
  | { type: 'names' }
  | { type: 'history' }
  | {
      type: 'summarize';
      names: string[];
      options: {
        max_columns: number;
        focus_columns?: string[];
        budget_ms?: number;
      };
    }
  | { type: 'signature'; names: string[] }
  | { type: 'dry_run'; code: string; budget_ms: number }
  | { type: 'dry_run_cancel'; run: string };

export interface IKernelReplyBase {
  type: string;
  id: string;
  ok: boolean;
  error?: string;
}

export interface IHelloReply extends IKernelReplyBase {
  protocol: number;
  python: string;
  libraries: Record<string, string>;
  agent: 'package' | 'embedded';
}

export interface INamesReply extends IKernelReplyBase {
  names: string[];
}

export interface IHistoryReply extends IKernelReplyBase {
  cells: {
    execution_count: number | null;
    source: string;
    success: boolean | null;
    error_name: string | null;
    before_attach: boolean;
  }[];
}

export interface ISummarizeReply extends IKernelReplyBase {
  summary: ISummaryDoc;
}

export interface ISignatureReply extends IKernelReplyBase {
  signatures: Signatures;
}

/** Why a dry run says nothing certain: a code with its fields (docs/summary-schema.md). */
export interface IDryRunReason {
  code: string;
  [field: string]: unknown;
}

/** Which isolation layers the dry run's child ran under. */
export interface IDryRunIsolation {
  descriptors: boolean;
  shared_memory_bytes: number;
  memory_cap: boolean;
  nice: number;
  /** Landlock ABI, 0 when unavailable. */
  landlock: number;
  seccomp: boolean;
}

export interface IDryRunReply extends IKernelReplyBase {
  outcome: 'crash' | 'completed' | 'unknown';
  elapsed_ms?: number;
  run_ms?: number;
  exception?: {
    name: string;
    message: string;
    line: number | null;
    frames: { file: string; line: number; function: string }[];
  };
  reason?: IDryRunReason;
  isolation?: IDryRunIsolation;
}

export interface IDryRunCancelReply extends IKernelReplyBase {
  cancelled: boolean;
}
