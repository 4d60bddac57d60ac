import { useMutation } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { useSignOutOnLeave } from '../../../hooks/useSignOutOnLeave';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { signoutEverywhere } from '../api/account';
import { FormError } from './FormError';

export const SIGNOUT_EVERYWHERE_FAILED = 'Failed to sign out of all devices';
const SIGNOUT_EVERYWHERE_TEXTS = {
  title: 'Sign out of all devices?',
  message: 'Every browser and device signed in to your account will be signed out, this one too. You can sign in again at once.',
  confirm: 'Sign Out Everywhere',
  busy: 'Signing out...',
};

/**
 * Sign out of all devices: the server revokes every token (other tabs and devices lose their
 * sockets and sign themselves out); this device then goes to /signin signed out too.
 */
export function SignOutEverywhere() {
  const [open, setOpen] = useState(false);
  const { leave } = useSignOutOnLeave();

  const signOut = useMutation({
    mutationFn: signoutEverywhere,
    onSuccess: (data) => {
      toast.success(data.message);
      leave('/signin');
    },
    onError: (error) => {
      setOpen(false);
      toast.error(errorMessage(error, SIGNOUT_EVERYWHERE_FAILED));
    },
  });

  return (
    <section aria-labelledby="signout-everywhere-heading" className="rounded-xl border border-gray-200 p-5 dark:border-gray-800">
      <h3 id="signout-everywhere-heading" className="flex items-center gap-2 font-semibold text-gray-900 dark:text-gray-100">
        <LogOut size={18} aria-hidden="true" className="text-gray-500 dark:text-gray-400" />
        Sign out of all devices
      </h3>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
        Lost a phone or signed in on a shared computer? End every session of your account, this one included.
      </p>
      <FormError
        id="signout-everywhere-error"
        className="mt-3"
        message={signOut.isError ? errorMessage(signOut.error, SIGNOUT_EVERYWHERE_FAILED) : null}
      />
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Sign out of all devices
        </Button>
      </div>

      <ConfirmDialog
        open={open}
        texts={SIGNOUT_EVERYWHERE_TEXTS}
        busy={signOut.isPending}
        onConfirm={() => signOut.mutate()}
        onClose={() => setOpen(false)}
      />
    </section>
  );
}
