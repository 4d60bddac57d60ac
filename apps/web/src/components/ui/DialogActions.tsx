import { Button } from './Button';

interface DialogActionsProps {
  /** A refusal of the whole form (the server's message), shown above the buttons. */
  error?: string | null;
  busy: boolean;
  onCancel: () => void;
  /** The submit button's words, before and while it runs. */
  confirm: string;
  busyLabel: string;
  variant?: 'primary' | 'danger';
}

/** The end of a dialog's form: its error, then Cancel and the submit button (stacked on phones). */
export function DialogActions({ error, busy, onCancel, confirm, busyLabel, variant = 'primary' }: DialogActionsProps) {
  return (
    <>
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-500/10 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end sm:gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant={variant} disabled={busy}>
          {busy ? busyLabel : confirm}
        </Button>
      </div>
    </>
  );
}
