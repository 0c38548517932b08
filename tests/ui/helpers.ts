// Helpers shared by the Galata specs.
import { expect, IJupyterLabPageFixture } from '@jupyterlab/galata';
import type { Locator } from '@playwright/test';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const SCREENSHOTS = path.join(ROOT, 'test-results', 'ui');

/** Console lines of the page, collected from the start (for failure messages and the link check). */
export function collectConsole(page: IJupyterLabPageFixture): string[] {
  const lines: string[] = [];
  page.on('console', message =>
    lines.push(`${message.type()}: ${message.text()}`)
  );
  page.on('pageerror', error => lines.push(`pageerror: ${error.message}`));
  return lines;
}

export function cell(page: IJupyterLabPageFixture, index: number): Locator {
  return page
    .locator('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell')
    .nth(index);
}

export function squiggles(
  page: IJupyterLabPageFixture,
  index: number
): Locator {
  return cell(page, index).locator('.cm-lintRange');
}

export const status = (page: IJupyterLabPageFixture): Locator =>
  page.locator('.jp-cellguard-status');

export async function newNotebook(
  page: IJupyterLabPageFixture,
  name: string
): Promise<void> {
  await page.notebook.createNew(name);
  await expect(status(page)).toHaveText(/kernel linked/, { timeout: 60000 });
}
