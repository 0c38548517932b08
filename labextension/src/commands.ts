import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  Dialog,
  ICommandPalette,
  Notification,
  showDialog
} from '@jupyterlab/apputils';
import type { Cell } from '@jupyterlab/cells';
import {
  INotebookTracker,
  Notebook,
  NotebookPanel
} from '@jupyterlab/notebook';

import { cellName } from './cellname';
import { cellguardIcon } from './icon';
import { SHOW_PANEL_COMMAND } from './panel';
import type { Diagnostic } from './protocol';
import {
  ICellguardChecker,
  ICellguardDryRun,
  ICellguardLlm,
  ICellguardSettings
} from './tokens';

export const CHECK_COMMAND = 'cellguard:check-active-cell';

/**
 * The notebook's run commands and the cells each runs, in order. Check-before-run guards them all
 * alike, however they are started: keys, the toolbar's run button, the Run menu, the palette.
 */
const GUARDED_RUNS: Record<string, (notebook: Notebook) => Cell[]> = {
  'notebook:run-cell': selectedCells,
  'notebook:run-cell-and-select-next': selectedCells,
  'notebook:run-cell-and-insert-below': selectedCells,
  'notebook:run-all-cells': notebook => [...notebook.widgets],
  'notebook:run-all-above': notebook =>
    notebook.widgets.slice(0, notebook.activeCellIndex),
  'notebook:run-all-below': notebook =>
    notebook.widgets.slice(notebook.activeCellIndex)
};

function selectedCells(notebook: Notebook): Cell[] {
  return notebook.widgets.filter(cell => notebook.isSelectedOrActive(cell));
}

export const commandsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:commands',
  description:
    'The "check active cell" command, its toolbar and menu entries, and check-before-run.',
  autoStart: true,
  requires: [ICellguardChecker, ICellguardSettings, INotebookTracker],
  optional: [ICommandPalette, ICellguardLlm, ICellguardDryRun],
  activate: (
    app: JupyterFrontEnd,
    checker: ICellguardChecker,
    settings: ICellguardSettings,
    tracker: INotebookTracker,
    palette: ICommandPalette | null,
    llm: ICellguardLlm | null,
    dryRun: ICellguardDryRun | null
  ): void => {
    const { commands } = app;
    const hasCodeCell = () => tracker.activeCell?.model.type === 'code';

    commands.addCommand(CHECK_COMMAND, {
      label: 'cellguard: Check Active Cell',
      caption: 'Predict whether the active cell will crash',
      icon: args => (args.toolbar ? cellguardIcon : undefined),
      isEnabled: hasCodeCell,
      execute: async () => {
        const panel = tracker.currentWidget;
        const cell = tracker.activeCell;
        if (!panel || !cell || cell.model.type !== 'code') {
          return;
        }
        const showPanel = () =>
          commands.hasCommand(SHOW_PANEL_COMMAND)
            ? commands.execute(SHOW_PANEL_COMMAND)
            : Promise.resolve();
        if (llm?.status.configured || (dryRun && settings.current.dryRun)) {
          // The panel shows the dry run's and the LLM's progress (with cancel buttons), then
          // their outcomes.
          await showPanel();
          await checker.checkThoroughly(panel, cell.model);
          return;
        }
        const found = await checker.checkThoroughly(panel, cell.model);
        if (found.length === 0) {
          Notification.info('cellguard: no crash predicted for this cell.', {
            autoClose: 3000
          });
        } else {
          await showPanel();
        }
      }
    });
    palette?.addItem({ command: CHECK_COMMAND, category: 'cellguard' });

    // Lumino lets no plugin wrap another's command, and the run button, the Run menu and the
    // key bindings all end in `commands.execute`: the guard wraps that, for the run commands only.
    const execute = commands.execute.bind(commands);
    const guardedExecute: typeof commands.execute = (id, args) => {
      const cellsOf = GUARDED_RUNS[id];
      const panel = tracker.currentWidget;
      if (!cellsOf || !panel) {
        return execute(id, args);
      }
      const dryRunFirst = settings.current.dryRunBeforeRun ? dryRun : null;
      return confirmRun(
        panel,
        cellsOf(panel.content),
        checker,
        dryRunFirst
      ).then(run => (run ? execute(id, args) : undefined));
    };
    const applySettings = () => {
      const wanted =
        settings.current.enabled && settings.current.checkBeforeRun;
      commands.execute = wanted ? guardedExecute : execute;
    };
    settings.changed.connect(applySettings);
    applySettings();
  }
};

/** Crashes listed in the dialog; a Run All of a broken notebook could list hundreds. */
const MAX_LISTED = 8;

/**
 * True to run: no cell about to run has a certain crash predicted (nor fails only because it ran
 * already), by the rules or, when `dryRun` is given, by a dry run of the first cell to run (the
 * one the kernel's state is current for), or the user says run anyway.
 */
async function confirmRun(
  panel: NotebookPanel,
  cells: Cell[],
  checker: ICellguardChecker,
  dryRun: ICellguardDryRun | null
): Promise<boolean> {
  const certain: { cell: string; diagnostic: Diagnostic }[] = [];
  for (const { cell, diagnostics } of checker.checkRun(
    panel,
    cells.map(cell => cell.model)
  )) {
    for (const diagnostic of diagnostics) {
      if (diagnostic.severity === 'error' || diagnostic.quiet) {
        certain.push({
          cell: cellName(cell),
          diagnostic
        });
      }
    }
  }
  const first = cells.find(cell => cell.model.type === 'code')?.model;
  if (certain.length === 0 && dryRun && first) {
    const { crash } = await dryRun.run(panel, first);
    if (crash) {
      certain.push({
        cell: cellName(first),
        diagnostic: crash
      });
    }
  }
  if (certain.length === 0) {
    return true;
  }
  const listed = certain
    .slice(0, MAX_LISTED)
    .map(
      ({ cell, diagnostic }) =>
        `${cell}, line ${diagnostic.start.line + 1}: ${diagnostic.message}`
    );
  if (certain.length > MAX_LISTED) {
    listed.push(`... and ${certain.length - MAX_LISTED} more`);
  }
  const body = listed.join('\n');
  const result = await showDialog({
    title: 'cellguard predicts a crash',
    body,
    buttons: [
      Dialog.cancelButton(),
      Dialog.warnButton({ label: 'Run anyway' })
    ],
    defaultButton: 0
  });
  return result.button.accept;
}
