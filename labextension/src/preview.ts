import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  Clipboard,
  ICommandPalette,
  MainAreaWidget
} from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { Debouncer } from '@lumino/polling';
import { Widget } from '@lumino/widgets';

import { cellName } from './cellname';
import { cellguardIcon } from './icon';
import {
  Category,
  ICellguardChecker,
  ICellguardLlm,
  ICellguardSettings
} from './tokens';

export const PREVIEW_COMMAND = 'cellguard:preview-llm-prompt';

const CATEGORIES: { id: Category; label: string; caption: string }[] = [
  { id: 'S', label: 'S', caption: 'Structure: shapes, lengths, counts' },
  {
    id: 'R',
    label: 'R',
    caption: 'Representation: dtypes, columns, classes, signatures'
  },
  {
    id: 'V',
    label: 'V',
    caption: 'Values: NaN, ranges, unique counts, fitted state'
  }
];

/**
 * The exact prompt a check of the active cell would send, built by the core from the cached kernel
 * facts: no network, no LLM. The toggles change only this preview, to see what each category adds.
 */
class PromptPreview extends Widget {
  constructor(
    private readonly _llm: ICellguardLlm,
    private readonly _tracker: INotebookTracker,
    checker: ICellguardChecker,
    settings: ICellguardSettings
  ) {
    super();
    this.addClass('jp-cellguard-preview');
    this._categories = new Set(settings.current.llm.categories);
    this._examples = settings.current.llm.includeExamples;

    const controls = document.createElement('div');
    controls.className = 'jp-cellguard-preview-controls';
    for (const category of CATEGORIES) {
      controls.appendChild(
        toggle(
          category.label,
          category.caption,
          this._categories.has(category.id),
          on => {
            if (on) {
              this._categories.add(category.id);
            } else {
              this._categories.delete(category.id);
            }
            this._renderNow();
          }
        )
      );
    }
    controls.appendChild(
      toggle(
        'example values',
        'Example values of columns and series',
        this._examples,
        on => {
          this._examples = on;
          this._renderNow();
        }
      )
    );
    const copy = document.createElement('button');
    copy.className = 'jp-Button jp-mod-styled jp-mod-accept jp-cellguard-copy';
    copy.textContent = 'Copy';
    copy.title = 'Copy the prompt (system and user messages)';
    copy.addEventListener('click', () => {
      if (this._text) {
        Clipboard.copyToSystem(this._text);
        // Copying shows nothing by itself: say it was done, for a moment.
        copy.textContent = 'Copied ✓';
        clearTimeout(this._copiedTimer);
        this._copiedTimer = setTimeout(() => (copy.textContent = 'Copy'), 1500);
      }
    });
    controls.appendChild(copy);
    this.node.appendChild(controls);
    this._size.className = 'jp-cellguard-preview-size';
    this.node.appendChild(this._size);
    this.node.appendChild(this._body);

    // Kernel facts arriving, edits, another cell or notebook: render again, not on every keystroke.
    // (Connected with `this`, so that disposing the widget disconnects them.)
    _tracker.activeCellChanged.connect(this._schedule, this);
    _tracker.currentChanged.connect(this._schedule, this);
    checker.changed.connect(this._schedule, this);
    settings.changed.connect(this._schedule, this);
  }

  // Attached shown (a new tab) or shown again (its tab selected): render what changed meanwhile.
  protected onAfterAttach(): void {
    this._renderNow();
  }

  protected onAfterShow(): void {
    this._renderNow();
  }

  dispose(): void {
    this._render.dispose();
    super.dispose();
  }

  private _schedule(): void {
    void this._render.invoke();
  }

  private _render = new Debouncer(() => {
    if (this.isVisible) {
      this._renderNow();
    }
  }, 300);

  private _renderNow(): void {
    const panel = this._tracker.currentWidget;
    const cell = this._tracker.activeCell;
    this._body.replaceChildren();
    this._text = '';
    if (!panel || !cell || cell.model.type !== 'code') {
      this._size.textContent =
        'Select a code cell in a notebook to see its prompt.';
      return;
    }
    const prompt = this._llm.prompt(panel, cell.model, {
      categories: CATEGORIES.map(c => c.id).filter(id =>
        this._categories.has(id)
      ),
      includeExamples: this._examples
    });
    if (!prompt) {
      this._size.textContent = 'The analysis core is not loaded yet.';
      return;
    }
    this._size.textContent =
      `${cellName(cell.model)} of ${panel.title.label}: ${prompt.chars.toLocaleString()} characters, ` +
      `~${prompt.tokens_estimate.toLocaleString()} tokens (estimated)`;
    this._text = `${prompt.system}\n\n${prompt.user}`;
    this._body.appendChild(section('System', prompt.system));
    this._body.appendChild(section('User', prompt.user));
  }

  private _categories: Set<Category>;
  private _copiedTimer: ReturnType<typeof setTimeout> | undefined;
  private _examples: boolean;
  private _text = '';
  private _size = document.createElement('p');
  private _body = document.createElement('div');
}

function toggle(
  label: string,
  caption: string,
  checked: boolean,
  onChange: (checked: boolean) => void
): HTMLElement {
  const wrapper = document.createElement('label');
  wrapper.className = 'jp-cellguard-toggle';
  wrapper.title = caption;
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  wrapper.appendChild(input);
  wrapper.appendChild(document.createTextNode(label));
  return wrapper;
}

/** A heading and the message text, as text (cell code and kernel facts are not HTML). */
function section(title: string, text: string): HTMLElement {
  const box = document.createElement('section');
  const heading = document.createElement('h3');
  heading.textContent = title;
  const pre = document.createElement('pre');
  pre.className = 'jp-cellguard-preview-text';
  pre.textContent = text;
  box.appendChild(heading);
  box.appendChild(pre);
  return box;
}

export const previewPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:prompt-preview',
  description:
    'Shows the LLM prompt a check of the active cell would send, offline.',
  autoStart: true,
  requires: [
    ICellguardLlm,
    ICellguardChecker,
    ICellguardSettings,
    INotebookTracker
  ],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    llm: ICellguardLlm,
    checker: ICellguardChecker,
    settings: ICellguardSettings,
    tracker: INotebookTracker,
    palette: ICommandPalette | null
  ): void => {
    let widget: MainAreaWidget<PromptPreview> | null = null;
    app.commands.addCommand(PREVIEW_COMMAND, {
      label: 'cellguard: Preview LLM Prompt',
      caption:
        'Show the prompt an LLM check of the active cell would send (offline)',
      execute: () => {
        if (!widget || widget.isDisposed) {
          widget = new MainAreaWidget({
            content: new PromptPreview(llm, tracker, checker, settings)
          });
          widget.id = 'cellguard-prompt-preview';
          widget.title.label = 'cellguard prompt';
          widget.title.icon = cellguardIcon;
          widget.title.closable = true;
        }
        if (!widget.isAttached) {
          // Beside the notebook, so the cell and its prompt are seen together.
          app.shell.add(widget, 'main', { mode: 'split-right' });
        }
        app.shell.activateById(widget.id);
      }
    });
    palette?.addItem({ command: PREVIEW_COMMAND, category: 'cellguard' });
  }
};
