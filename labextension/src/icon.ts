import { LabIcon } from '@jupyterlab/ui-components';

/**
 * A cell prompt holding an exclamation mark, `[!]`: a cell about to crash. Not a shield, which
 * reads as JupyterLab's notebook trust indicator, nor the debugger's bug in the same sidebar.
 */
export const cellguardIcon = new LabIcon({
  name: 'jupyterlab-cellguard:cell-alert',
  svgstr: `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">
  <path class="jp-icon3" fill="#616161" d="M3 3h6v2.2H5.4v13.6H9V21H3zM21 3h-6v2.2h3.6v13.6H15V21h6z"/>
  <path class="jp-icon3" fill="#616161" d="M10.7 6.5h2.6l-.4 7.5h-1.8zM10.8 15.6h2.4V18h-2.4z"/>
</svg>`
});
