import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import type { ICellModel } from '@jupyterlab/cells';
import {
  EditorExtensionRegistry,
  IEditorExtensionRegistry
} from '@jupyterlab/codemirror';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { Diagnostic as CmDiagnostic, linter } from '@codemirror/lint';
import { Compartment, StateEffect, Text } from '@codemirror/state';
import { EditorView, ViewPlugin } from '@codemirror/view';

import type { Position } from './protocol';
import {
  ICellDiagnostic,
  ICellguardChecker,
  ICellguardSettings
} from './tokens';

/** Dispatched into an editor to make its linter run again (new kernel facts, settings). */
const relint = StateEffect.define<null>();

/** Holds the linter so a new debounce delay can be swapped into open editors. */
const lintCompartment = new Compartment();

/** Open notebook cell editors and their cell models. */
const editors = new Map<EditorView, ICellModel>();

/**
 * What each editor shows, to re-lint only editors whose diagnostics changed: a re-lint closes the
 * diagnostic tooltip the user may be reading.
 */
const shown = new WeakMap<EditorView, string>();

const keyOf = (diagnostics: ICellDiagnostic[]) => JSON.stringify(diagnostics);

/**
 * Squiggles: a CodeMirror linter on every notebook code cell editor. It calls the checker
 * synchronously with the facts cached so far, so a keystroke never waits for the kernel; when the
 * kernel's answers arrive, the checker signals and the editors are linted again.
 */
export const linterPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:linter',
  description:
    'Shows cellguard diagnostics as squiggles with quick fixes in notebook cells.',
  autoStart: true,
  requires: [
    ICellguardChecker,
    ICellguardSettings,
    IEditorExtensionRegistry,
    INotebookTracker
  ],
  activate: (
    _app: JupyterFrontEnd,
    checker: ICellguardChecker,
    settings: ICellguardSettings,
    registry: IEditorExtensionRegistry,
    tracker: INotebookTracker
  ): void => {
    /** The notebook holding a cell model; null for editors outside notebooks. */
    const panelOf = (model: ICellModel): NotebookPanel | null =>
      tracker.find(panel => {
        const cells = panel.content.model?.cells;
        return !!cells && Array.from(cells).includes(model);
      }) ?? null;

    const makeLinter = (model: ICellModel) =>
      linter(
        view => {
          const panel = panelOf(model);
          if (!panel) {
            return [];
          }
          const diagnostics = checker.checkCell(panel, model);
          shown.set(view, keyOf(diagnostics));
          return diagnostics.map(diagnostic =>
            toCodeMirror(view.state.doc, diagnostic, panel, checker)
          );
        },
        {
          delay: settings.current.debounceMs,
          needsRefresh: update =>
            update.transactions.some(tr =>
              tr.effects.some(effect => effect.is(relint))
            )
        }
      );

    registry.addExtension({
      name: 'jupyterlab-cellguard:linter',
      factory: ({ model }) => {
        // Cell models carry a type; file editors and other CodeMirror editors are left alone.
        // (Cell editors are JupyterLab's "inline" editors, so `inline` does not tell them apart.)
        const cell = model as Partial<ICellModel>;
        if (cell.type !== 'code') {
          return null;
        }
        const cellModel = model as ICellModel;
        return EditorExtensionRegistry.createImmutableExtension([
          lintCompartment.of(makeLinter(cellModel)),
          ViewPlugin.define(view => {
            editors.set(view, cellModel);
            return { destroy: () => editors.delete(view) };
          })
        ]);
      }
    });

    const relintNotebook = (panel: NotebookPanel) => {
      editors.forEach((model, view) => {
        if (
          panelOf(model) === panel &&
          shown.get(view) !== keyOf(checker.checkCell(panel, model))
        ) {
          view.dispatch({ effects: relint.of(null) });
        }
      });
    };
    checker.changed.connect((_, panel) => relintNotebook(panel));
    settings.changed.connect(() => {
      editors.forEach((model, view) =>
        view.dispatch({
          effects: lintCompartment.reconfigure(makeLinter(model))
        })
      );
    });
  }
};

function offset(doc: Text, position: Position): number {
  if (position.line + 1 > doc.lines) {
    return doc.length;
  }
  const line = doc.line(position.line + 1);
  return Math.min(line.from + position.column, line.to);
}

function toCodeMirror(
  doc: Text,
  diagnostic: ICellDiagnostic,
  panel: NotebookPanel,
  checker: ICellguardChecker
): CmDiagnostic {
  const from = offset(doc, diagnostic.start);
  const to = Math.max(from, offset(doc, diagnostic.end));
  const fix = diagnostic.fix;
  return {
    from,
    to,
    severity: diagnostic.severity,
    message: diagnostic.message,
    source: `cellguard: ${diagnostic.code}`,
    actions: fix
      ? [
          {
            name: fix.message,
            apply: view => {
              if (fix.edits.length > 0) {
                const current = view.state.doc;
                view.dispatch({
                  changes: fix.edits.map(edit => ({
                    from: offset(current, edit.start),
                    to: offset(current, edit.end),
                    insert: edit.content
                  }))
                });
              }
              if (fix.run_cells.length > 0) {
                void checker.runCells(panel, fix.run_cells);
              }
            }
          }
        ]
      : undefined
  };
}
