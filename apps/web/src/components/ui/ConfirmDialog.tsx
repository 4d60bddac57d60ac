import type { FormEvent, ReactNode } from 'react';
import { DialogActions } from './DialogActions';
import { Modal } from './Modal';

/** The words of a confirm dialog: its title, the question, and the yes button before and while it runs. */
export interface ConfirmTexts {
  title: string;
  message: ReactNode;
  confirm: string;
  busy: string;
}

interface ConfirmDialogProps {
  open: boolean;
  texts: ConfirmTexts;
  /** Inputs the answer needs (the current password of the account dialogs). */
  children?: ReactNode;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A yes/no question in the shared Modal (Escape, overlay click and Cancel close it). It is a form:
 * Enter in one of its inputs answers yes; the caller validates the inputs in `onConfirm`.
 */
export function ConfirmDialog({ open, texts, children, busy, onConfirm, onClose }: ConfirmDialogProps) {
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onConfirm();
  };
  return (
    <Modal open={open} title={texts.title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="text-gray-700 dark:text-gray-300">{texts.message}</p>
        {children}
        <DialogActions busy={busy} onCancel={onClose} confirm={texts.confirm} busyLabel={texts.busy} variant="danger" />
      </form>
    </Modal>
  );
}
