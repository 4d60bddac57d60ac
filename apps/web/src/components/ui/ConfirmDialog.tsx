import type { FormEvent, ReactNode } from 'react';
import { Button } from './Button';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  /** Inputs the answer needs (the current password of the account dialogs). */
  children?: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A yes/no question in the shared Modal (Escape, overlay click and Cancel close it). It is a form:
 * Enter in one of its inputs answers yes; the caller validates the inputs in `onConfirm`.
 */
export function ConfirmDialog({ open, title, message, children, confirmLabel, busyLabel, busy, onConfirm, onClose }: ConfirmDialogProps) {
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onConfirm();
  };
  return (
    <Modal open={open} title={title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="text-gray-700 dark:text-gray-300">{message}</p>
        {children}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end sm:gap-3">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
