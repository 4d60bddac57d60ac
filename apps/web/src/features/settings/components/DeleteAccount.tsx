import { USER_MESSAGES } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { useSignOutOnLeave } from '../../../hooks/useSignOutOnLeave';
import { errorMessage, isRateLimited } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { deleteAccount } from '../api/account';
import { CurrentPasswordField } from './CurrentPasswordField';
import { FormError } from './FormError';

export const DELETE_FAILED = 'Failed to delete account';
const DELETE_TEXTS = {
  title: 'Delete your account?',
  message: 'Everything you wrote and every reaction goes with it. This cannot be undone.',
  confirm: 'Delete My Account',
  busy: 'Deleting...',
};
/** SPEC.md 5 (core's USER_MESSAGES.currentPasswordMissing; not imported, to keep zod out of this chunk). */
export const PASSWORD_MISSING = USER_MESSAGES.currentPasswordMissing;

/** Delete Account: a confirm dialog asking for the current password unless Google; success ends the session and goes to /. */
export function DeleteAccount() {
  const userId = useSession((s) => s.user.id ?? s.user._id ?? '');
  const googleAuth = useSession((s) => s.user.googleAuth);
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** A failure that is not about the password (or a Google account's, which has no field): shown in the dialog. */
  const [failure, setFailure] = useState<string | null>(null);
  const close = useCallback(() => {
    setOpen(false);
    setPassword('');
    setError(null);
    setFailure(null);
  }, []);
  const { leave } = useSignOutOnLeave();
  const typePassword = (value: string) => {
    setPassword(value);
    setError(null);
    setFailure(null);
  };

  const remove = useMutation({
    mutationFn: () => deleteAccount(userId, { ...(googleAuth ? {} : { currentPassword: password }), googleAuth }),
    onSuccess: (data) => {
      toast.success(data.message);
      leave('/');
    },
    onError: (err) => {
      const message = errorMessage(err, DELETE_FAILED);
      if (!googleAuth && !isRateLimited(err) && /password/i.test(message)) setError(message);
      else setFailure(message);
      toast.error(message);
    },
  });

  const onConfirm = () => {
    if (!googleAuth && !password) {
      setError(PASSWORD_MISSING);
      return;
    }
    setFailure(null);
    remove.mutate();
  };

  return (
    <section aria-labelledby="delete-heading" className="rounded-xl border border-red-200 p-5 dark:border-red-900/60">
      <h3 id="delete-heading" className="flex items-center gap-2 font-semibold text-gray-900 dark:text-gray-100">
        <Trash2 size={18} aria-hidden="true" className="text-red-600 dark:text-red-400" />
        Delete Account
      </h3>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
        Permanently delete your account, your blogs, comments, likes and followers. This cannot be undone.
      </p>
      <div className="mt-4 flex justify-end">
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete Account
        </Button>
      </div>

      <ConfirmDialog open={open} texts={DELETE_TEXTS} busy={remove.isPending} onConfirm={onConfirm} onClose={close}>
        <CurrentPasswordField id="delete-password" value={password} onValue={typePassword} error={error} />
        <FormError id="delete-error" message={failure} />
      </ConfirmDialog>
    </section>
  );
}
