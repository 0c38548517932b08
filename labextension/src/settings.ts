import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { Signal } from '@lumino/signaling';

import { ICellguardValues, ICellguardSettings } from './tokens';

export const SETTINGS_PLUGIN_ID = 'jupyterlab-cellguard:settings';

const DEFAULTS: ICellguardValues = {
  enabled: true,
  debounceMs: 250,
  syntaxErrorDelayMs: 2000,
  severities: {},
  maxColumns: 20,
  requestTimeoutMs: 5000,
  checkBeforeRun: false,
  llmDiagnosisWhenRuleFires: false,
  dryRun: true,
  dryRunBeforeRun: false,
  dryRunBudgetMs: 3000,
  dryRunWhenIdle: false,
  dryRunIdleDelayMs: 1500,
  llm: {
    endpoint: '',
    model: '',
    temperature: -1,
    votes: 1,
    timeoutS: 60,
    categories: ['S', 'R', 'V'],
    includeExamples: true,
    history: 'dependencies',
    historyMaxCells: 3,
    docs: false
  }
};

class Settings implements ICellguardSettings {
  current: ICellguardValues = DEFAULTS;
  readonly changed: Signal<ICellguardSettings, ICellguardValues> = new Signal(
    this
  );

  update(composite: Partial<ICellguardValues>): void {
    // The LLM object is merged too: a user setting that names some of its fields keeps the others.
    this.current = {
      ...DEFAULTS,
      ...composite,
      llm: { ...DEFAULTS.llm, ...composite.llm }
    };
    this.changed.emit(this.current);
  }
}

/** Typed settings for the other plugins; the defaults hold when the registry is unavailable. */
export const settingsPlugin: JupyterFrontEndPlugin<ICellguardSettings> = {
  id: SETTINGS_PLUGIN_ID,
  description: 'cellguard settings',
  autoStart: true,
  provides: ICellguardSettings,
  optional: [ISettingRegistry],
  activate: (
    _app: JupyterFrontEnd,
    registry: ISettingRegistry | null
  ): ICellguardSettings => {
    const settings = new Settings();
    registry
      ?.load(SETTINGS_PLUGIN_ID)
      .then(loaded => {
        const apply = () =>
          settings.update(loaded.composite as Partial<ICellguardValues>);
        loaded.changed.connect(apply);
        apply();
      })
      .catch(reason =>
        console.warn('cellguard: settings not loaded, using defaults', reason)
      );
    return settings;
  }
};
