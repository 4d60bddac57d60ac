/**
 * Editor.js draws the inline toolbar's buttons (bold, italic, link…) as an icon alone, with the
 * tool's name only in a tooltip on hover: a screen reader heard six buttons named nothing (axe:
 * critical, an accessibility walk found it). Each button says which tool it is (`data-item-name`);
 * this names it after that, as it is added. Editor.js has no option for the buttons' labels.
 */
const NAMES: Record<string, string> = {
  bold: 'Bold',
  italic: 'Italic',
  link: 'Link',
  marker: 'Highlight',
  underline: 'Underline',
  inlineCode: 'Inline code',
  'convert-to': 'Turn into',
};

/** The item is the button (built-in tools) or wraps the tool's own button (tools that render themselves). */
function nameButton(item: HTMLElement): void {
  const button = item.matches('button') ? item : item.querySelector('button');
  if (!button || button.hasAttribute('aria-label') || button.textContent?.trim()) return;
  const name = NAMES[item.dataset.itemName ?? ''];
  if (name) button.setAttribute('aria-label', name);
}

function nameButtons(root: Element): void {
  if (root instanceof HTMLElement && root.dataset.itemName) nameButton(root);
  for (const item of root.querySelectorAll<HTMLElement>('[data-item-name]')) nameButton(item);
}

/** Names the toolbar buttons Editor.js adds under `holder` from now on (the observer goes with the holder). */
export function nameToolbarButtons(holder: HTMLElement): void {
  nameButtons(holder);
  // Only what was added is looked at: typing in the post adds nodes too.
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node instanceof Element) nameButtons(node);
  }).observe(holder, { childList: true, subtree: true });
}
