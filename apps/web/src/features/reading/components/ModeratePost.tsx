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
  hide: {
    title: 'Hide post',
    message: 'Other readers will no longer see it anywhere on the site. Its author is told, with your reason.',
    confirm: 'Hide',
    busy: 'Hiding...',
    failed: 'Could not hide the post. Please try again.',
  },
  restore: {
    title: 'Restore post',
    message: 'It becomes visible again to everyone who could read it.',
    confirm: 'Restore',
    busy: 'Restoring...',
    failed: 'Could not restore the post. Please try again.',
  },
};

/**
 * A moderator reading a post may hide it (no report needed), or restore it once hidden: the
 * queue offers a post only while it is reported, and nothing else did (a moderation walk found
 * it). The same calls as the queue's, with a reason; the server decides who may (403 otherwise).
 */
export function ModeratePost({ blogId, hidden }: { blogId: string; hidden: boolean }) {
  const action = hidden ? 'restore' : 'hide';
  const texts = TEXTS[action];
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!reason.trim()) {
      setError(MODERATION_MESSAGES.reasonRequired);
      return;
    }
    setBusy(true);
    try {
      const answer = await apiRequest<{ message: string }>(`/moderation/posts/${encodeURIComponent(blogId)}/${action}`, {
        method: 'POST',
        body: { reason: reason.trim() },
      });
      toast.success(answer.message);
      setOpen(false);
      setReason('');
      void queryClient.invalidateQueries({ queryKey: blogKeys.blog(blogId) });
      void queryClient.invalidateQueries({ queryKey: blogKeys.lists });
    } catch (failure) {
      setError(errorMessage(failure, texts.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-haspopup="dialog" className={hidden ? 'mt-2' : undefined}>
        {texts.title}
      </Button>
      <ConfirmDialog open={open} texts={texts} busy={busy} onConfirm={() => void submit()} onClose={() => setOpen(false)}>
        <TextAreaField
          id={`${action}-reason`}
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
