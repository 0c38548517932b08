import type { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { checkerPlugin } from './checker';
import { commandsPlugin } from './commands';
import { corePlugin } from './core';
import { kernelPlugin } from './kernel';
import { linterPlugin } from './linter';
import { panelPlugin } from './panel';
import { settingsPlugin } from './settings';
import { statusPlugin } from './statusbar';

export * from './protocol';
export * from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  settingsPlugin,
  corePlugin,
  kernelPlugin,
  checkerPlugin,
  linterPlugin,
  panelPlugin,
  statusPlugin,
  commandsPlugin
];

export default plugins;
