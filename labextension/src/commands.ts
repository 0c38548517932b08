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
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import type { IDisposable } from '@lumino/disposable';

import { cellguardIcon } from './icon';
import { SHOW_PANEL_COMMAND } from './panel';
import {
  ICellDiagnostic,
  ICellguardChecker,
  ICellguardLlm,
  ICellguardSettings
} from './tokens';

export const CHECK_COMMAND = 'cellguard:check-active-cell';

/** Run commands wrapped by check-before-run, with the keys that run them. */
const GUARDED_RUNS = [
  { id: 'notebook:run-cell-and-select-next', keys: ['Shift Enter'] },
  { id: 'notebook:run-cell', keys: ['Accel Enter'] },
  { id: 'notebook:run-cell-and-insert-below', keys: ['Alt Enter'] }
];

/**
 * Selectors one step closer to the key event's target than the notebook's own bindings
 * (`.jp-Notebook.jp-mod-editMode`, `.jp-Notebook.jp-mod-commandMode ... :focus`), so that Lumino
 * picks ours while check-before-run is on, and the notebook's again once it is off.
 */
const GUARDED_SELECTORS = [
  '.jp-Notebook.jp-mod-editMode .jp-CodeCell',
  '.jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) .jp-Cell:focus'
];

export const commandsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:commands',
  description:
    'The "check active cell" command, its toolbar and menu entries, and check-before-run.',
  autoStart: true,
  requires: [ICellguardChecker, ICellguardSettings, INotebookTracker],
  optional: [ICommandPalette, ICellguardLlm],
  activate: (
    app: JupyterFrontEnd,
    checker: ICellguardChecker,
    settings: ICellguardSettings,
    tracker: INotebookTracker,
    palette: ICommandPalette | null,
    llm: ICellguardLlm | null
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
        if (llm?.status.configured) {
          // The panel shows the LLM's progress (with a cancel button), then its verdict.
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

    for (const run of GUARDED_RUNS) {
      commands.addCommand(guardedId(run.id), {
        label: () => `${commands.label(run.id)} (checked by cellguard)`,
        execute: async () => {
          const panel = tracker.currentWidget;
          if (!panel || (await confirmRun(panel, checker))) {
            await commands.execute(run.id);
          }
        }
      });
    }

    let bindings: IDisposable[] = [];
    const applySettings = () => {
      const wanted =
        settings.current.enabled && settings.current.checkBeforeRun;
      if (wanted && bindings.length === 0) {
        for (const run of GUARDED_RUNS) {
          for (const selector of GUARDED_SELECTORS) {
            bindings.push(
              commands.addKeyBinding({
                command: guardedId(run.id),
                keys: run.keys,
                selector
              })
            );
          }
        }
      } else if (!wanted) {
        bindings.forEach(binding => binding.dispose());
        bindings = [];
      }
    };
    settings.changed.connect(applySettings);
    applySettings();
  }
};

function guardedId(command: string): string {
  return `cellguard:guarded-${command.replace(/[^a-z-]/g, '-')}`;
}

/** True to run: no selected cell has a certain crash predicted, or the user says run anyway. */
async function confirmRun(
  panel: NotebookPanel,
  checker: ICellguardChecker
): Promise<boolean> {
  const notebook = panel.content;
  const certain: { cellNumber: number; diagnostic: ICellDiagnostic }[] = [];
  notebook.widgets.forEach((cell, index) => {
    if (notebook.isSelectedOrActive(cell) && cell.model.type === 'code') {
      for (const diagnostic of checker.checkCell(panel, cell.model)) {
        if (diagnostic.severity === 'error') {
          certain.push({ cellNumber: index + 1, diagnostic });
        }
      }
    }
  });
  if (certain.length === 0) {
    return true;
  }
  const body = certain
    .map(
      ({ cellNumber, diagnostic }) =>
        `Cell ${cellNumber}, line ${diagnostic.start.line + 1}: ${diagnostic.message}`
    )
    .join('\n');
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
