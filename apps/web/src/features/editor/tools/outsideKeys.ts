/**
 * Editor.js hands every key pressed outside the editor to the block it last had the caret in (its
 * UI module's `documentKeydown`, a capture listener on document, so its toolbar's keys reach the
 * block). After a click in the post, Tab in the History dialog, in Description or in Tags moved the
 * caret into the post, and what was typed next changed it (a review found it). That one listener
 * is registered through a filter: a key aimed at another focused element reaches it only for what
 * it does with selected blocks (Enter, Escape, Backspace, Delete).
 *
 * Editor.js offers no option for this and keeps the listener private, so it is recognised when it
 * is added (a keydown listener whose code calls `documentKeydown`); its removal on destroy() is
 * mapped to the filtered copy.
 */
const KEYS_KEPT = new Set(['Enter', 'Escape', 'Backspace', 'Delete']);
const EDITOR_WRAPPER = '.codex-editor';

const filtered = new WeakMap<EventListener, EventListener>();
const add = document.addEventListener.bind(document);
const remove = document.removeEventListener.bind(document);

function isEditorsDocumentKeydown(type: string, listener: unknown): boolean {
  return type === 'keydown' && typeof listener === 'function' && String(listener).includes('documentKeydown');
}

document.addEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) => {
  if (!isEditorsDocumentKeydown(type, listener)) return add(type, listener, options);
  const editorsListener = listener as EventListener;
  const inside = (event: Event) => {
    // Aimed at something else that has the focus (a field, a button, a dialog). Keys aimed at what
    // holds the editor (the body, or the page's <main> after a click on an image block) are the
    // editor's: its block settings shortcut, arrows between selected blocks.
    const target = event.target;
    const elsewhere = target instanceof Element && !target.closest(EDITOR_WRAPPER) && !target.querySelector(EDITOR_WRAPPER);
    if (elsewhere && event instanceof KeyboardEvent && !KEYS_KEPT.has(event.key)) return;
    editorsListener(event);
  };
  filtered.set(editorsListener, inside);
  return add(type, inside, options);
}) as typeof document.addEventListener;

document.removeEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions) => {
  const copy = typeof listener === 'function' ? filtered.get(listener) : undefined;
  return remove(type, copy ?? listener, options);
}) as typeof document.removeEventListener;

export {};
