import type { INotebookTracker } from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';

import { cellName } from './cellname';
import { element, progressWithCancel } from './dom';
import type { Claim, Judgement } from './protocol';
import type { ICellguardLlm, LlmRun } from './tokens';

/**
 * The LLM part of the diagnostics panel: the status, the current notebook's last LLM check (progress
 * with a cancel button, the verdict with its reasoning, why it was downgraded, or why it failed).
 * Everything from the LLM is untrusted and set as text (`textContent`), never as HTML.
 */
export class LlmVerdictView extends Widget {
  constructor(
    private readonly _llm: ICellguardLlm,
    private readonly _tracker: INotebookTracker
  ) {
    super();
    this.addClass('jp-cellguard-llm');
    _llm.statusChanged.connect(this._render, this);
    _llm.runChanged.connect((_, panel) => {
      if (panel === this._tracker.currentWidget) {
        this._render();
      }
    });
    _tracker.currentChanged.connect(this._render, this);
    this._render();
  }

  private _render(): void {
    const node = this.node;
    node.replaceChildren();
    const status = this._llm.status;
    const heading = element('h3', 'jp-cellguard-llm-heading');
    heading.textContent = status.configured
      ? `LLM: ${status.model}@${status.host}`
      : 'LLM not configured: rules only';
    heading.title = status.note;
    node.appendChild(heading);
    const panel = this._tracker.currentWidget;
    const run = panel ? this._llm.lastRun(panel) : null;
    // A run of a deleted cell is not shown.
    const cells = panel?.content.model
      ? Array.from(panel.content.model.cells)
      : [];
    const cell = run && cells.find(model => model.id === run.cellId);
    if (run && cell) {
      node.appendChild(renderRun(run, cellName(cell)));
    }
  }
}

function renderRun(run: LlmRun, cell: string): HTMLElement {
  const box = element(
    'div',
    `jp-cellguard-llm-run jp-cellguard-llm-${run.state}`
  );
  const line = (text: string, className = 'jp-cellguard-llm-line') => {
    const p = element('p', className);
    p.textContent = text;
    box.appendChild(p);
    return p;
  };
  switch (run.state) {
    case 'skipped':
      line(
        `${cell}: a rule already proves the crash, so the LLM was not asked.`
      );
      line(run.rule, 'jp-cellguard-llm-detail');
      break;
    case 'running': {
      line(`${cell}: asking ${run.model}…`);
      box.appendChild(progressWithCancel(() => run.cancel()));
      break;
    }
    case 'cancelled':
      line(`${cell}: LLM check cancelled.`);
      break;
    case 'failed':
      line(
        `${cell}: ${run.message}`,
        'jp-cellguard-llm-line jp-cellguard-llm-error'
      );
      for (const detail of run.details) {
        line(detail, 'jp-cellguard-llm-detail');
      }
      break;
    case 'verdict':
      renderVerdict(box, cell, run.judgement, run.located, run.ruleFired);
      break;
  }
  return box;
}

function renderVerdict(
  box: HTMLElement,
  cell: string,
  judgement: Judgement,
  located: boolean,
  ruleFired: boolean
): void {
  const verdict = element('p', 'jp-cellguard-llm-verdict');
  const where = judgement.line ? ` at line ${judgement.line}` : '';
  if (judgement.detection) {
    verdict.textContent = `${cell}: likely crash${where}`;
    verdict.classList.add('jp-cellguard-llm-crash');
  } else if (judgement.downgraded) {
    verdict.textContent = `${cell}: the LLM predicted a crash${where}, downgraded by claim checking`;
  } else {
    verdict.textContent = `${cell}: no crash predicted by the LLM`;
  }
  box.appendChild(verdict);
  if (judgement.downgraded && judgement.reason) {
    const reason = element('p', 'jp-cellguard-llm-detail');
    reason.textContent = `Why: ${judgement.reason}`;
    box.appendChild(reason);
  }
  const reasoning = element('blockquote', 'jp-cellguard-llm-reasoning');
  reasoning.textContent = judgement.reasoning ?? '';
  box.appendChild(reasoning);
  const notes: string[] = [];
  if ((judgement.valid_answers ?? 0) > 1) {
    notes.push(
      `${judgement.crash_votes} of ${judgement.valid_answers} answers predict a crash.`
    );
  }
  if (judgement.detection && judgement.line && !located) {
    notes.push(
      `Line ${judgement.line} is not a line of the cell: no squiggle.`
    );
  } else if (judgement.detection && judgement.line_source === 'claim') {
    notes.push(
      `Line ${judgement.line} is the line its claim names (the LLM gave none).`
    );
  }
  if (ruleFired) {
    notes.push('A rule also proves a crash in this cell.');
  }
  for (const note of notes) {
    const p = element('p', 'jp-cellguard-llm-detail');
    p.textContent = note;
    box.appendChild(p);
  }
  const checked = (judgement.claims ?? []).filter(
    claim => claim.outcome !== 'unknown'
  );
  if (checked.length > 0) {
    const list = element('ul', 'jp-cellguard-llm-claims');
    for (const claim of checked) {
      list.appendChild(renderClaim(claim));
    }
    box.appendChild(list);
  }
}

function renderClaim(claim: Claim): HTMLElement {
  const item = element(
    'li',
    `jp-cellguard-claim jp-cellguard-claim-${claim.outcome}`
  );
  // The evidence is the kernel's fact; the statement is the LLM's claim (hover).
  item.textContent = `${claim.outcome === 'confirmed' ? '✓ confirmed' : '✗ refuted'}: ${claim.evidence}`;
  item.title = `The LLM: ${claim.statement}`;
  return item;
}
