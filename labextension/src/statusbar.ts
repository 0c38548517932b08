import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { IStatusBar } from '@jupyterlab/statusbar';
import { Widget } from '@lumino/widgets';

import {
  ICellguardKernels,
  ICellguardLlm,
  ICellguardSettings,
  LinkState
} from './tokens';

const STATE_TEXT: Record<LinkState, string> = {
  none: 'no kernel',
  connecting: 'linking kernel…',
  linked: 'kernel linked',
  unavailable: 'code only'
};

const STATE_CAPTION: Record<LinkState, string> = {
  none: 'No kernel: cells are checked from their code alone.',
  connecting: 'Connecting to the cellguard agent in the kernel.',
  linked: 'The kernel answers cellguard: checks use the live data.',
  unavailable:
    'The kernel does not answer cellguard (busy, dead or without the agent): cells are checked from their code alone.'
};

/** "cellguard: kernel linked · LLM: model@host" (or "· LLM off") for the current notebook. */
export const statusPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlab-cellguard:status',
  description:
    'Shows in the status bar whether the kernel is linked and an LLM is configured.',
  autoStart: true,
  requires: [ICellguardKernels, ICellguardSettings, INotebookTracker],
  optional: [IStatusBar, ICellguardLlm],
  activate: (
    _app: JupyterFrontEnd,
    kernels: ICellguardKernels,
    settings: ICellguardSettings,
    tracker: INotebookTracker,
    statusBar: IStatusBar | null,
    llm: ICellguardLlm | null
  ): void => {
    if (!statusBar) {
      return;
    }
    const item = new Widget();
    item.addClass('jp-cellguard-status');
    const update = () => {
      const panel = tracker.currentWidget;
      const state = panel ? kernels.linkFor(panel).state : 'none';
      const status = llm?.status;
      const llmText = status?.configured
        ? `LLM: ${status.model}@${status.host}`
        : 'LLM off';
      item.node.textContent = settings.current.enabled
        ? `cellguard: ${STATE_TEXT[state]} · ${llmText}`
        : 'cellguard: off';
      item.node.title = `${STATE_CAPTION[state]}\n${
        status?.configured
          ? `Explicit checks also ask ${status.model} at ${status.host}.`
          : status?.note || 'No LLM checks.'
      }`;
      item.node.dataset.state = state;
    };
    tracker.currentChanged.connect(update);
    kernels.stateChanged.connect((_, panel) => {
      if (panel === tracker.currentWidget) {
        update();
      }
    });
    settings.changed.connect(update);
    llm?.statusChanged.connect(update);
    update();
    statusBar.registerStatusItem('jupyterlab-cellguard:status', {
      item,
      align: 'left',
      rank: 10
    });
  }
};
