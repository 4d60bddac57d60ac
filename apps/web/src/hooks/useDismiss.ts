import { type RefObject, useEffect, useRef } from 'react';

/**
 * Closes an open dropdown or panel on a pointer press outside all given elements, or on Escape
 * (focus then returns to `returnFocus`, normally the toggle button). `closeOnFocusOut`: also when
 * the keyboard's focus moves outside them (a panel that covers the page on a phone hid the link
 * Tab had moved to); not for menus whose items open a dialog they hold.
 */
export function useDismiss(
  open: boolean,
  onClose: () => void,
  refs: RefObject<HTMLElement | null>[],
  returnFocus?: RefObject<HTMLElement | null>,
  { closeOnFocusOut = false }: { closeOnFocusOut?: boolean } = {},
): void {
  const latest = useRef({ onClose, refs, returnFocus });
  useEffect(() => {
    latest.current = { onClose, refs, returnFocus };
  });

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && latest.current.refs.some((ref) => ref.current?.contains(target))) return;
      latest.current.onClose();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      latest.current.onClose();
      latest.current.returnFocus?.current?.focus();
    };
    const onFocus = (event: FocusEvent) => {
      const target = event.target as Node | null;
      if (target && !latest.current.refs.some((ref) => ref.current?.contains(target))) latest.current.onClose();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    if (closeOnFocusOut) document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open, closeOnFocusOut]);
}
