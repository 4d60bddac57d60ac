import { type RefObject, useLayoutEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

interface DialogFocusOptions {
  /** Escape pressed while the dialog is the topmost one. */
  onEscape: () => void;
  /** What gets the focus on open (default: the first focusable element of the dialog). */
  initialFocus?: () => HTMLElement | null | undefined;
  /** What gets the focus back on close (default: what had it on open). */
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * Modal focus handling of the shared Modal and the comment drawer: focus moves in on open, Tab and
 * Shift+Tab stay inside, Escape closes, the page behind does not scroll, and focus goes back on close.
 * Keys pressed inside another dialog opened on top (a confirm dialog over the drawer) are left to it.
 */
export function useDialogFocus(panelRef: RefObject<HTMLElement | null>, open: boolean, options: DialogFocusOptions): void {
  const latest = useRef(options);
  latest.current = options;

  // Before the browser paints the open dialog (a layout effect, not an effect): an Escape pressed
  // as soon as it shows was missed, the listener not there yet (an e2e test met it under load).
  useLayoutEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    const back = latest.current.returnFocus?.() ?? (document.activeElement as HTMLElement | null);
    (latest.current.initialFocus?.() ?? panel?.querySelector<HTMLElement>(FOCUSABLE))?.focus();

    const inOtherDialog = (target: EventTarget | null) =>
      target instanceof Element && !!target.closest('[role="dialog"],[role="alertdialog"]') && !panel?.contains(target);

    const onKey = (event: KeyboardEvent) => {
      if (!panel || event.defaultPrevented || inOtherDialog(event.target)) return;
      if (event.key === 'Escape') {
        latest.current.onEscape();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (!panel.contains(active)) {
        event.preventDefault();
        first.focus();
      } else if (event.shiftKey && active === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      if (back?.isConnected) back.focus();
    };
  }, [open, panelRef]);
}
