/** DOM helpers of the panel's views (text only: nothing is ever set as HTML). */

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  return node;
}

/** An indeterminate progress bar with a Cancel button, for a check that is running. */
export function progressWithCancel(cancel: () => void): HTMLElement {
  const row = element('div', 'jp-cellguard-progress');
  row.appendChild(element('progress', ''));
  const button = element('button', 'jp-Button jp-mod-styled jp-mod-reject');
  button.textContent = 'Cancel';
  button.addEventListener('click', cancel);
  row.appendChild(button);
  return row;
}
