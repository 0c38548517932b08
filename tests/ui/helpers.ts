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

/**
 * Scrolls the notebook until a cell is in view. JupyterLab's own scrolling is repeated: a long
 * notebook's cells not yet drawn count at an estimated height (`content-visibility: auto`), so one
 * scroll may overshoot (Playwright's too).
 */
export async function scrollToCell(
  page: IJupyterLabPageFixture,
  index: number
): Promise<void> {
  await page.waitForFunction(
    i => {
      const notebook = (window.jupyterapp.shell.currentWidget as any).content;
      const cell = notebook.widgets[i].node.getBoundingClientRect();
      const view = notebook.outerNode.getBoundingClientRect();
      if (cell.top >= view.top && cell.bottom <= view.bottom) {
        return true;
      }
      notebook.scrollToItem(i, 'center');
      return false;
    },
    index,
    { polling: 250, timeout: 10000 }
  );
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

/**
 * Hovers a squiggle until CodeMirror's lint tooltip shows `text` (a re-check after another cell
 * changed may replace the diagnostic, which closes the tooltip), and returns the tooltip.
 */
export async function hoverTooltip(
  page: IJupyterLabPageFixture,
  squiggle: Locator,
  text: string | RegExp
): Promise<Locator> {
  const tooltip = page.locator('.cm-tooltip-lint');
  await expect(async () => {
    await page.mouse.move(0, 0);
    await squiggle.hover();
    await expect(tooltip).toContainText(text, { timeout: 1000 });
  }).toPass();
  return tooltip;
}

/** An nbformat 4 notebook of code cells that have not run, as JSON text to upload. */
/** How the panel's views name a cell that has not run: `Cell [ ] "its first line"`. */
export const notRun = (source: string): string =>
  `Cell [ ] "${source.trimStart().split('\n')[0]}"`;

/** `text` matched literally inside a regular expression. */
export const literally = (text: string): string =>
  text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function notebookJson(sources: string[]): string {
  return JSON.stringify({
    cells: sources.map(source => ({
      cell_type: 'code',
      execution_count: null,
      metadata: {},
      outputs: [],
      source
    })),
    metadata: {
      kernelspec: {
        display_name: 'Python 3 (ipykernel)',
        language: 'python',
        name: 'python3'
      }
    },
    nbformat: 4,
    nbformat_minor: 5
  });
}

/** A filter on the `cellguard` comm's requests: their type, and the code or run they are about. */
export interface IRequestFilter {
  type: string;
  code?: string;
  run?: string;
}

/**
 * Lists the requests the page sends on the `cellguard` comm from now on, as the kernel
 * websocket's frames (the comm data is JSON in every wire protocol).
 */
export function commRequests(
  page: IJupyterLabPageFixture
): (filter: IRequestFilter) => string[] {
  const sent: string[] = [];
  page.on('websocket', socket =>
    socket.on('framesent', frame => sent.push(String(frame.payload)))
  );
  return ({ type, code, run }) =>
    sent.filter(
      text =>
        text.includes(`"type":"${type}"`) &&
        (code === undefined ||
          text.includes(`"code":${JSON.stringify(code)}`)) &&
        (run === undefined || text.includes(`"run":${JSON.stringify(run)}`))
    );
}
