import { type RefObject, useEffect, useRef } from 'react';

/**
 * Closes an open dropdown or panel on a pointer press outside all given elements, or on Escape
 * (focus then returns to `returnFocus`, normally the toggle button).
 */
export function useDismiss(
  open: boolean,
  onClose: () => void,
  refs: RefObject<HTMLElement | null>[],
  returnFocus?: RefObject<HTMLElement | null>,
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
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
}
