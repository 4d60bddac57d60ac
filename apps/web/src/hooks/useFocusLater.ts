import { useCallback, useEffect, useRef, useState } from 'react';

/** Returns the element to focus, or null while the page does not show the outcome yet. */
export type FocusFinder = () => HTMLElement | null | undefined;

/**
 * Focus is lost when it fell to <body> (its element was removed) or sits on a button now disabled,
 * or still on `from`, the element handing it on (a button disabled and enabled again within one
 * frame keeps it: the browser blurs a disabled element only when it next renders).
 */
function focusLost(from: Element | null): boolean {
  const active = document.activeElement;
  return (
    !active ||
    active === document.body ||
    !active.isConnected ||
    (active as HTMLButtonElement).disabled === true ||
    (from !== null && active === from)
  );
}

/**
 * Hands the focus on after an action that takes its element away (a saved edit box, a deleted
 * item, a button disabled while it runs): without it the focus falls to <body> and the next Tab
 * starts again from the top of the page. `focusLater(find)` tries `find` after each render of the
 * calling component until it returns an element, which then gets the focus, but only if the focus
 * was lost meanwhile: a reader who has moved on (a click, a Tab elsewhere) keeps their place.
 * `from` (optional) is the element that hands the focus on even if it still has it (Load more).
 */
export function useFocusLater(): (find: FocusFinder, from?: Element | null) => void {
  const pending = useRef<{ find: FocusFinder; from: Element | null } | null>(null);
  // One render after the call at least, so the finder runs even when nothing else changes.
  const [, setCalls] = useState(0);
  useEffect(() => {
    const call = pending.current;
    const target = call?.find();
    if (!call || !target) return;
    pending.current = null;
    if (focusLost(call.from)) target.focus();
  });
  return useCallback((find: FocusFinder, from: Element | null = null) => {
    pending.current = { find, from };
    setCalls((n) => n + 1);
  }, []);
}
