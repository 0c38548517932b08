import { LabIcon } from '@jupyterlab/ui-components';

/** A shield (not the debugger's bug, which sits in the same sidebar). */
export const cellguardIcon = new LabIcon({
  name: 'jupyterlab-cellguard:shield',
  svgstr: `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">
  <path class="jp-icon3" fill="#616161" d="M12 1.5 3.5 5v6.2c0 5.3 3.6 10.1 8.5 11.3 4.9-1.2 8.5-6 8.5-11.3V5L12 1.5Zm0 2.2 6.5 2.7v4.8c0 4.3-2.8 8.2-6.5 9.3-3.7-1.1-6.5-5-6.5-9.3V6.4L12 3.7Z"/>
  <path class="jp-icon3" fill="#616161" d="M11 7h2v6.5h-2zM11 15h2v2h-2z"/>
</svg>`
});
