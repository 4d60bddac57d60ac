import { MAX_MODERATION_REASON_LENGTH, MODERATION_MESSAGES } from '@inkwell/core';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { TextAreaField } from '../../../components/ui/Field';
import { apiRequest, errorMessage } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { blogKeys } from '../../../lib/queryKeys';
import { toast } from '../../../lib/toast';

const TEXTS = {
  title: 'Restore post',
  message: 'It becomes visible again to everyone who could read it.',
  confirm: 'Restore',
  busy: 'Restoring...',
};

/**
 * A moderator reading a hidden post may restore it here: once its report was closed, the queue
 * no longer offered it, and nothing else did (a moderation walk found it). The same call as the
 * queue's Restore, with its reason; the server decides who may (403 otherwise).
 */
export function RestoreHiddenPost({ blogId }: { blogId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const restore = async () => {
    if (!reason.trim()) {
      setError(MODERATION_MESSAGES.reasonRequired);
      return;
    }
    setBusy(true);
    try {
      const answer = await apiRequest<{ message: string }>(`/moderation/posts/${encodeURIComponent(blogId)}/restore`, {
        method: 'POST',
        body: { reason: reason.trim() },
      });
      toast.success(answer.message);
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: blogKeys.blog(blogId) });
      void queryClient.invalidateQueries({ queryKey: blogKeys.lists });
    } catch (failure) {
      setError(errorMessage(failure, 'Could not restore the post. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} className="mt-2">
        Restore post
      </Button>
      <ConfirmDialog open={open} texts={TEXTS} busy={busy} onConfirm={() => void restore()} onClose={() => setOpen(false)}>
        <TextAreaField
          id="restore-reason"
          label="Reason (required)"
          value={reason}
          onChange={(value) => {
            setReason(value);
            setError(null);
          }}
          maxLength={MAX_MODERATION_REASON_LENGTH}
          rows={3}
          required
          error={error}
        />
      </ConfirmDialog>
    </>
  );
}
