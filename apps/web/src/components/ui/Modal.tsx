import { DELAYS_MS } from '@inkwell/core';
import { type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useDialogFocus } from '../../hooks/useDialogFocus';
import { CloseButton } from './CloseButton';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra classes of the panel (width etc.). */
  className?: string;
}

/** Transitions of the overlay and the panel, none for people who asked their system for less motion. */
const FADE = 'transition-opacity duration-300 motion-reduce:transition-none';
const FADE_AND_SHRINK = 'transition-all duration-300 motion-reduce:transition-none';

/** Without the animation there is nothing to wait for: the dialog closes at once. */
const closeDelay = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : DELAYS_MS.modalClose;

/**
 * Dialog with overlay; closes on Escape or overlay click after a 300 ms close animation (SPEC.md 9),
 * or at once under prefers-reduced-motion: reduce.
 */
export function Modal({ open, title, onClose, children, className = 'max-w-md' }: ModalProps) {
  const [closing, setClosing] = useState(false);
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();

  const requestClose = useCallback(() => {
    setClosing(true);
    window.setTimeout(() => {
      setClosing(false);
      onClose();
    }, closeDelay());
  }, [onClose]);

  useDialogFocus(panelRef, open, { onEscape: requestClose });

  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <div
        aria-hidden="true"
        onClick={requestClose}
        className={`absolute inset-0 bg-black/50 ${FADE} ${closing ? 'opacity-0' : 'opacity-100'}`}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`relative w-full rounded-xl bg-white p-5 shadow-xl ${FADE_AND_SHRINK} dark:bg-gray-900 ${
          closing ? 'scale-95 opacity-0' : 'scale-100 opacity-100'
        } ${className}`}
      >
        <div className="mb-4 flex items-center justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-gray-900 dark:text-gray-100">
            {title}
          </h2>
          <CloseButton label="Close" onClick={requestClose} />
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
