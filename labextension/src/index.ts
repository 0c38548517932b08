import type { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { checkerPlugin } from './checker';
import { commandsPlugin } from './commands';
import { corePlugin } from './core';
import { dryRunPlugin } from './dryrun';
import { idleDryRunPlugin } from './idledryrun';
import { kernelPlugin } from './kernel';
import { linterPlugin } from './linter';
import { llmPlugin } from './llm';
import { panelPlugin } from './panel';
import { previewPlugin } from './preview';
import { settingsPlugin } from './settings';
import { statusPlugin } from './statusbar';

export * from './protocol';
export * from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  settingsPlugin,
  corePlugin,
  kernelPlugin,
  checkerPlugin,
  dryRunPlugin,
  idleDryRunPlugin,
  llmPlugin,
  linterPlugin,
  panelPlugin,
  statusPlugin,
  commandsPlugin,
  previewPlugin
];

export default plugins;
