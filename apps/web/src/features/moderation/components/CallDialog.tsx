import { MAX_MODERATION_REASON_LENGTH, MODERATION_MESSAGES } from '@inkwell/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { DialogActions } from '../../../components/ui/DialogActions';
import { TextAreaField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { ApiError, errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { blogKeys, profileKeys } from '../../../lib/queryKeys';
import { toast } from '../../../lib/toast';
import { type ModeratorCall, moderationKeys, runModeratorCall } from '../api/moderation';
import { type CallSubject, callDialogTexts } from '../texts';

interface CallDialogProps {
  /** The action to confirm, or null when the dialog is closed. */
  call: ModeratorCall | null;
  /** What it acts on (groupSubject of a report group, or an item of the hidden list). */
  subject: CallSubject;
  onClose: () => void;
  /** After the server said yes (and the toast): the hidden list drops the item at once. */
  onDone?: () => void;
}

/**
 * Asks for the reason of a moderator action (it goes to the audit log) and runs it. The server's
 * answer is a toast; a refusal (an admin cannot be suspended, already hidden, ...) stays in the dialog.
 */
export function CallDialog({ call, subject, onClose, onDone }: CallDialogProps) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!call) return;
    setReason('');
    setReasonError(null);
    setProblem(null);
  }, [call]);

  if (!call) return null;
  const texts = callDialogTexts(call, subject);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (texts.reasonRequired && !reason.trim()) {
      setReasonError(MODERATION_MESSAGES.reasonRequired);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const answer = await runModeratorCall(call, reason);
      toast.success(answer.message);
      onClose();
      onDone?.();
      // The queue and the log change; so may any page, list or profile this moderator has cached.
      void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
      void queryClient.invalidateQueries({ queryKey: blogKeys.lists });
      void queryClient.invalidateQueries({ queryKey: blogKeys.blogs });
      void queryClient.invalidateQueries({ queryKey: ['comments'] });
      void queryClient.invalidateQueries({ queryKey: profileKeys.all });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // 'Already hidden', 'not suspended'…: another moderator got there first and this card is
        // out of date. Said in a toast, as the card may leave the queue when it is read again.
        toast.error(error.message);
        onClose();
        void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
      } else setProblem(errorMessage(error, 'Could not do that. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open title={texts.title} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="wrap-anywhere text-gray-700 dark:text-gray-300">{texts.message}</p>
        <TextAreaField
          id={`${id}-reason`}
          label={texts.reasonRequired ? 'Reason (required)' : 'Reason (optional)'}
          hint="Written to the audit log."
          value={reason}
          onChange={(value) => {
            setReason(value);
            setReasonError(null);
          }}
          maxLength={MAX_MODERATION_REASON_LENGTH}
          rows={3}
          required={texts.reasonRequired}
          disabled={busy}
          error={reasonError}
        />
        <DialogActions
          error={problem}
          busy={busy}
          onCancel={onClose}
          confirm={texts.confirm}
          busyLabel={texts.busy}
          variant={call.kind === 'hide' || call.kind === 'suspend' ? 'danger' : 'primary'}
        />
      </form>
    </Modal>
  );
}
