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
import {
  Diagnostic as CmDiagnostic,
  forceLinting,
  linter
} from '@codemirror/lint';
import { Compartment, StateEffect, Text } from '@codemirror/state';
import { EditorView, ViewPlugin } from '@codemirror/view';

import type { Position } from './protocol';
import {
  ICellDiagnostic,
  ICellguardChecker,
  ICellguardKernels,
  ICellguardSettings
} from './tokens';

/** Dispatched into an editor to make its linter run again (new kernel facts, settings). */
const relint = StateEffect.define<null>();

/**
 * Lints an editor again now: new kernel facts or a held syntax error's time come while the user is
 * not typing, so the debounce delay (restarted by the relint effect) would only add to the wait.
 */
function relintNow(view: EditorView): void {
  view.dispatch({ effects: relint.of(null) });
  forceLinting(view);
}

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
const NOTHING = keyOf([]);

/**
 * Editors edited since their linter last ran: their linter runs after the debounce delay anyway,
 * and a re-lint would start that delay again (a notebook re-check 750 ms after the edit pushed a
 * 1000 ms debounce to 1750 ms).
 */
const editedSinceLint = new WeakSet<EditorView>();

/**
 * Editors scrolled out of view, and those of them whose lint waits until they are seen again. Each
 * lint is a core call, and each makes CodeMirror measure its editor, forcing a layout of the
 * notebook: a Run All of 300 cells spent 0.4 s in core calls and 0.6 s in layouts, and opening a
 * 300-cell notebook (JupyterLab renders its cells in idle time) took 40 s instead of 16 s. So an
 * editor out of view that shows nothing is linted when it comes into view, and while cells run
 * (every cell finished changes the facts) no editor out of view is. The panel reads the checker,
 * not the editors, so it stays exact meanwhile; out of view, a squiggle may be missing, never stale
 * once the run ends.
 */
const outOfView = new WeakSet<EditorView>();
const relintWhenSeen = new WeakSet<EditorView>();
const showsNothing = (view: EditorView) =>
  (shown.get(view) ?? NOTHING) === NOTHING;

/** When each editor was last edited, for the syntax error delay. */
const lastEdit = new WeakMap<EditorView, number>();

/** The editors a syntax error is held back for, with the timer that shows it. */
const heldSyntaxErrors = new WeakMap<
  EditorView,
  ReturnType<typeof setTimeout>
>();

/** The longest a slice of a notebook's re-lint may hold the main thread. */
const RELINT_SLICE_MS = 8;

/**
 * While cells run (the kernel's facts are stale), every cell sent or finished changes the facts: the
 * notebook is re-linted at most this often then. A re-lint pass per change slowed a Run All of 300
 * cells by a tenth (each re-lint makes CodeMirror measure the editor, forcing a layout of a notebook
 * whose outputs keep changing).
 */
const RUNNING_RELINT_MS = 1000;

/** What the linter shows: not what only a second run of an unchanged cell would fail on. */
const shownOf = (diagnostics: ICellDiagnostic[]) =>
  diagnostics.filter(d => !d.quiet);

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
    ICellguardKernels,
    ICellguardSettings,
    IEditorExtensionRegistry,
    INotebookTracker
  ],
  activate: (
    _app: JupyterFrontEnd,
    checker: ICellguardChecker,
    kernels: ICellguardKernels,
    settings: ICellguardSettings,
    registry: IEditorExtensionRegistry,
    tracker: INotebookTracker
  ): void => {
    /**
     * The notebook holding a cell model; null for editors outside notebooks. Looked up once per
     * model (a cell moved to another notebook gets a new model): re-linting a notebook asks for
     * every editor's.
     */
    const panels = new WeakMap<ICellModel, NotebookPanel>();
    const panelOf = (model: ICellModel): NotebookPanel | null => {
      const known = panels.get(model);
      if (known && !known.isDisposed) {
        return known;
      }
      const found = tracker.find(panel => {
        const cells = panel.content.model?.cells;
        return !!cells && Array.from(cells).includes(model);
      });
      if (found) {
        panels.set(model, found);
      }
      return found ?? null;
    };

    /**
     * The diagnostics to show in an editor now: a syntax error waits until typing has paused for
     * the longer syntax error delay (mid-statement, code is incomplete rather than wrong).
     */
    const diagnosticsFor = (
      view: EditorView,
      panel: NotebookPanel,
      model: ICellModel
    ) => {
      const diagnostics = shownOf(checker.checkCell(panel, model));
      clearTimeout(heldSyntaxErrors.get(view));
      const wait =
        (lastEdit.get(view) ?? 0) +
        settings.current.syntaxErrorDelayMs -
        Date.now();
      if (wait > 0 && diagnostics.some(d => d.code === 'syntax-error')) {
        heldSyntaxErrors.set(
          view,
          setTimeout(() => relintNow(view), wait)
        );
        return diagnostics.filter(d => d.code !== 'syntax-error');
      }
      return diagnostics;
    };

    const makeLinter = (model: ICellModel) =>
      linter(
        view => {
          editedSinceLint.delete(view);
          const panel = panelOf(model);
          if (!panel) {
            return [];
          }
          if (outOfView.has(view) && showsNothing(view)) {
            relintWhenSeen.add(view);
            return [];
          }
          const diagnostics = diagnosticsFor(view, panel, model);
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

    /** Lints an editor again if what it should show differs from what it shows. */
    const relintIfChanged = (view: EditorView, model: ICellModel) => {
      const panel = panelOf(model);
      if (
        panel &&
        !editedSinceLint.has(view) &&
        shown.get(view) !== keyOf(shownOf(checker.checkCell(panel, model)))
      ) {
        relintNow(view);
      }
    };

    const visibility = new IntersectionObserver(entries => {
      for (const { target, isIntersecting } of entries) {
        const view = EditorView.findFromDOM(target as HTMLElement);
        const model = view && editors.get(view);
        if (!view || !model) {
          continue;
        }
        if (!isIntersecting) {
          outOfView.add(view);
        } else {
          outOfView.delete(view);
          if (relintWhenSeen.delete(view)) {
            relintIfChanged(view, model);
          }
        }
      }
    });

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
            visibility.observe(view.dom);
            return {
              update: update => {
                if (update.docChanged) {
                  editedSinceLint.add(view);
                  lastEdit.set(view, Date.now());
                }
              },
              destroy: () => {
                visibility.unobserve(view.dom);
                clearTimeout(heldSyntaxErrors.get(view));
                editors.delete(view);
              }
            };
          })
        ]);
      }
    });

    /**
     * Re-lints a notebook's editors whose diagnostics changed, a slice of them at a time: a long
     * notebook's re-check never holds the main thread for long (a keystroke waits for at most one
     * slice). A new request restarts the pass.
     */
    const passes = new Map<NotebookPanel, [EditorView, ICellModel][]>();
    const step = (panel: NotebookPanel) => {
      const queue = passes.get(panel);
      if (!queue) {
        return;
      }
      const running = kernels.linkFor(panel).facts().stale;
      const deadline = performance.now() + RELINT_SLICE_MS;
      while (queue.length > 0 && performance.now() < deadline) {
        const [view, model] = queue.shift()!;
        if (!editors.has(view)) {
          continue;
        }
        if (outOfView.has(view) && (running || showsNothing(view))) {
          relintWhenSeen.add(view); // not even checked until seen
        } else {
          relintWhenSeen.delete(view);
          relintIfChanged(view, model);
        }
      }
      if (queue.length > 0) {
        setTimeout(() => step(panel), 0);
      } else {
        passes.delete(panel);
      }
    };
    const startPass = (panel: NotebookPanel) => {
      lastPass.set(panel, performance.now());
      const running = passes.has(panel);
      passes.set(
        panel,
        [...editors].filter(([, model]) => panelOf(model) === panel)
      );
      if (!running) {
        setTimeout(() => step(panel), 0);
      }
    };
    /** When each notebook's last pass started, and the pass due, if one waits. */
    const lastPass = new WeakMap<NotebookPanel, number>();
    const due = new WeakMap<NotebookPanel, ReturnType<typeof setTimeout>>();
    const relintNotebook = (panel: NotebookPanel) => {
      const wait = kernels.linkFor(panel).facts().stale
        ? (lastPass.get(panel) ?? -Infinity) +
          RUNNING_RELINT_MS -
          performance.now()
        : 0;
      if (wait > 0 && due.has(panel)) {
        return; // the pass due sees this change too
      }
      clearTimeout(due.get(panel));
      due.set(
        panel,
        setTimeout(
          () => {
            due.delete(panel);
            if (!panel.isDisposed) {
              startPass(panel);
            }
          },
          Math.max(0, wait)
        )
      );
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
  // A cell to run first may need earlier cells itself: the fix runs the whole chain.
  const chain =
    fix && fix.run_cells.length > 0
      ? checker.runChain(panel, fix.run_cells)
      : [];
  const name =
    fix && chain.length > fix.run_cells.length
      ? `Run the ${chain.length} cells it needs first, in order`
      : fix?.message;
  return {
    from,
    to,
    severity: diagnostic.severity,
    message: diagnostic.message,
    source: `cellguard: ${diagnostic.code}`,
    actions: fix
      ? [
          {
            name: name ?? fix.message,
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
