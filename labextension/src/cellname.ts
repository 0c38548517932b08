import type { ICellModel, ICodeCellModel } from '@jupyterlab/cells';

/** How much of a cell's first line names a cell that has not run. */
const EXCERPT_LENGTH = 40;

/**
 * A cell as JupyterLab shows it: its execution count, `[ ]` before it ran (positions are not
 * shown anywhere in the notebook).
 */
export function cellPrompt(cell: ICellModel): string {
  const count = (cell as Partial<ICodeCellModel>).executionCount;
  return count ? `[${count}]` : '[ ]';
}

/** A cell named in a sentence: `Cell [4]`, or `Cell [ ] "first line…"` when it has not run. */
export function cellName(cell: ICellModel): string {
  const prompt = cellPrompt(cell);
  if (prompt !== '[ ]') {
    return `Cell ${prompt}`;
  }
  const firstLine = cell.sharedModel.getSource().trimStart().split('\n')[0];
  const excerpt =
    firstLine.length > EXCERPT_LENGTH
      ? `${firstLine.slice(0, EXCERPT_LENGTH)}…`
      : firstLine;
  return `Cell [ ] "${excerpt}"`;
}
