import {
  ILayoutRestorer,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { Throttler } from '@lumino/polling';
import { Panel, Widget } from '@lumino/widgets';

import { cellPrompt } from './cellname';
import { DryRunView } from './dryrunview';
import { cellguardIcon } from './icon';
import { LlmVerdictView } from './llmview';
import { ICellguardChecker, ICellguardDryRun, ICellguardLlm } from './tokens';

export const SHOW_PANEL_COMMAND = 'cellguard:show-diagnostics';

/** Severity by a symbol and a word, not by colour alone. */
const SEVERITY_MARKS = {
  error: ['✖', 'Error'],
  warning: ['▲', 'Warning'],
  info: ['ℹ', 'Info']
} as const;

/** The notebook's diagnostics grouped by cell; clicking one puts the cursor on it. */
class DiagnosticsList extends Widget {
  constructor(
    private readonly _checker: ICellguardChecker,
    private readonly _tracker: INotebookTracker
  ) {
    super();
    _tracker.currentChanged.connect(this._watch, this);
    _checker.changed.connect((_, panel) => {
      if (panel === this._notebook) {
        void this._render.invoke();
      }
    });
    this._watch();
  }

  protected onAfterShow(): void {
    void this._render.invoke();
  }

  private _watch(): void {
    this._notebook?.content.model?.contentChanged.disconnect(
      this._onContent,
      this
    );
    this._notebook = this._tracker.currentWidget;
    this._notebook?.content.model?.contentChanged.connect(
      this._onContent,
      this
    );
    void this._render.invoke();
  }

  private _onContent(): void {
    void this._render.invoke();
  }

  /**
   * Rendering checks every cell: only while visible, at most every 400 ms (throttled, not
   * debounced: a Run All changes the notebook every few ms and would never let it render).
   */
  private _render = new Throttler(
    () => {
      if (this.isVisible) {
        this._renderNow();
      }
    },
    { limit: 400, edge: 'trailing' }
  );

  private _renderNow(): void {
    const node = this.node;
    node.replaceChildren();
    const panel = this._notebook;
    if (!panel) {
      node.appendChild(note('Open a notebook to see its predicted crashes.'));
      return;
    }
    // Not what only a second run of an unchanged cell would fail on: that is said when it runs.
    const results = this._checker
      .checkNotebook(panel)
      .map(r => ({ ...r, diagnostics: r.diagnostics.filter(d => !d.quiet) }))
      .filter(r => r.diagnostics.length > 0);
    if (results.length === 0) {
      node.appendChild(note(`No problems found in ${panel.title.label}.`));
      return;
    }
    const allCells = panel.content.model
      ? Array.from(panel.content.model.cells)
      : [];
    const list = document.createElement('ul');
    list.className = 'jp-cellguard-cells';
    for (const { cell, diagnostics } of results) {
      const cellIndex = allCells.indexOf(cell);
      const group = document.createElement('li');
      const heading = document.createElement('div');
      heading.className = 'jp-cellguard-cell';
      const firstLine = cell.sharedModel.getSource().split('\n')[0];
      heading.textContent = `${cellPrompt(cell)}: ${firstLine}`;
      heading.title = 'Go to the cell';
      heading.addEventListener('click', () =>
        jumpTo(panel, cellIndex, { line: 0, column: 0 })
      );
      group.appendChild(heading);
      const items = document.createElement('ul');
      for (const diagnostic of diagnostics) {
        const item = document.createElement('li');
        item.className = `jp-cellguard-item jp-cellguard-${diagnostic.severity}`;
        item.tabIndex = 0;
        item.title = `${diagnostic.code} (${diagnostic.source})`;
        const [symbol, word] = SEVERITY_MARKS[diagnostic.severity];
        const mark = document.createElement('span');
        mark.className = 'jp-cellguard-severity';
        mark.textContent = `${symbol} ${word}`;
        item.append(
          mark,
          ` line ${diagnostic.start.line + 1}: ${diagnostic.message}`
        );
        const jump = () => jumpTo(panel, cellIndex, diagnostic.start);
        item.addEventListener('click', jump);
        item.addEventListener('keydown', event => {
          if (event.key === 'Enter') {
            jump();
          }
        });
        items.appendChild(item);
      }
      group.appendChild(items);
      list.appendChild(group);
    }
    node.appendChild(list);
  }

  private _notebook: NotebookPanel | null = null;
}

function note(text: string): HTMLElement {
  const p = document.createElement('p');
  p.className = 'jp-cellguard-note';
  p.textContent = text;
  return p;
}

function jumpTo(
  panel: NotebookPanel,
  cellIndex: number,
  position: { line: number; column: number }
): void {
  const notebook = panel.content;
  const cell = notebook.widgets[cellIndex];
  if (!cell) {
    return;
  }
  notebook.activeCellIndex = cellIndex;
  notebook.deselectAll();
  void notebook.scrollToCell(cell).then(() => {
    notebook.mode = 'edit';
    cell.editor?.setCursorPosition(position);
    cell.editor?.focus();
  });
}

export const panelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:panel',
  description: 'A side panel listing the notebook’s predicted crashes by cell.',
  autoStart: true,
  requires: [ICellguardChecker, INotebookTracker],
  optional: [ILayoutRestorer, ICellguardLlm, ICellguardDryRun],
  activate: (
    app: JupyterFrontEnd,
    checker: ICellguardChecker,
    tracker: INotebookTracker,
    restorer: ILayoutRestorer | null,
    llm: ICellguardLlm | null,
    dryRun: ICellguardDryRun | null
  ): void => {
    const panel = new Panel();
    panel.id = 'cellguard-diagnostics';
    panel.addClass('jp-cellguard-panel');
    panel.title.icon = cellguardIcon;
    panel.title.caption = 'cellguard: predicted crashes';
    const title = new Widget({ node: document.createElement('h2') });
    title.node.textContent = 'cellguard';
    panel.addWidget(title);
    if (dryRun) {
      panel.addWidget(new DryRunView(dryRun, tracker));
    }
    if (llm) {
      // The LLM's verdict of the last explicit check, above the rules' diagnostics.
      panel.addWidget(new LlmVerdictView(llm, tracker));
    }
    panel.addWidget(new DiagnosticsList(checker, tracker));
    app.shell.add(panel, 'right', { rank: 900 });
    restorer?.add(panel, panel.id);
    app.commands.addCommand(SHOW_PANEL_COMMAND, {
      label: 'cellguard: Show Diagnostics',
      execute: () => app.shell.activateById(panel.id)
    });
  }
};
