import type { INotebookTracker } from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';

import { cellName } from './cellname';
import { element, progressWithCancel } from './dom';
import { DECLINED, explainReason } from './dryrun';
import type { IDryRunIsolation, IDryRunReply } from './protocol';
import type { DryRun, ICellguardDryRun } from './tokens';

/**
 * The dry-run part of the diagnostics panel: the current notebook's last dry run (progress with a
 * cancel button, then the outcome, its time and the isolation layers it ran under). Text from the
 * kernel is set as text, never as HTML.
 */
export class DryRunView extends Widget {
  constructor(
    private readonly _dryRun: ICellguardDryRun,
    private readonly _tracker: INotebookTracker
  ) {
    super();
    this.addClass('jp-cellguard-dryrun');
    _dryRun.runChanged.connect((_, panel) => {
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
    const panel = this._tracker.currentWidget;
    const run = panel ? this._dryRun.lastRun(panel) : null;
    const cells = panel?.content.model
      ? Array.from(panel.content.model.cells)
      : [];
    // A run of a deleted cell is not shown.
    const cell = run && cells.find(model => model.id === run.cellId);
    if (!run || !cell) {
      return;
    }
    const heading = element('h3', 'jp-cellguard-dryrun-heading');
    heading.textContent = 'Dry run';
    heading.title =
      'The cell run on an isolated copy of the kernel (docs/dry-run.md)';
    node.appendChild(heading);
    node.appendChild(renderRun(run, cellName(cell)));
  }
}

function renderRun(run: DryRun, cell: string): HTMLElement {
  const box = element(
    'div',
    `jp-cellguard-dryrun-run jp-cellguard-dryrun-${run.state}`
  );
  const line = (text: string, className = 'jp-cellguard-dryrun-line') => {
    const p = element('p', className);
    p.textContent = text;
    box.appendChild(p);
  };
  switch (run.state) {
    case 'off':
      line(`${cell}: dry runs are off (Settings → cellguard).`);
      break;
    case 'skipped':
      line(
        `${cell}: a rule already proves the crash, so the cell was not dry-run.`
      );
      break;
    case 'declined':
      line(
        `${cell}: not dry-run: line ${run.decline.line} ${DECLINED[run.decline.effect] ?? 'acts outside the kernel'} (${run.decline.what}).`
      );
      break;
    case 'unavailable':
      line(`${cell}: no dry run: ${run.message}`);
      break;
    case 'running': {
      line(`${cell}: running on a copy of the kernel…`);
      box.appendChild(progressWithCancel(() => run.cancel()));
      break;
    }
    case 'done':
      renderReply(run.reply, cell, line);
      break;
  }
  return box;
}

function renderReply(
  reply: IDryRunReply,
  cell: string,
  line: (text: string, className?: string) => void
): void {
  const time =
    reply.elapsed_ms !== undefined
      ? ` in ${Math.round(reply.elapsed_ms)} ms`
      : '';
  if (reply.outcome === 'crash' && reply.exception) {
    const { name, message, line: at } = reply.exception;
    const where = at ? ` at line ${at}` : '';
    line(
      `${cell}: raised ${name}${message ? `: ${message}` : ''}${where}${time} (your kernel was not changed).`,
      'jp-cellguard-dryrun-line jp-cellguard-dryrun-crash'
    );
  } else if (reply.outcome === 'completed') {
    line(`${cell}: ran to its end${time} on a copy of the kernel: no crash.`);
  } else {
    line(`${cell}: ${explainReason(reply)}`);
  }
  if (reply.isolation) {
    line(
      `Isolation: ${layers(reply.isolation)}.`,
      'jp-cellguard-dryrun-detail'
    );
  }
}

function layers(isolation: IDryRunIsolation): string {
  const used = ['audit hook'];
  if (isolation.descriptors) {
    used.push('inherited files closed');
  }
  if (isolation.landlock > 0) {
    used.push(`Landlock ABI ${isolation.landlock}`);
  }
  if (isolation.seccomp) {
    used.push('seccomp');
  }
  if (isolation.memory_cap) {
    used.push('memory cap');
  }
  used.push(`nice ${isolation.nice}`);
  return used.join(', ');
}
