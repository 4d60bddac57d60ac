import { MIN_PASSWORD_LENGTH } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { NEW_PASSWORD_HINT, NewPasswordField, PasswordField } from '../../../components/ui/Field';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { useSignOutOnLeave } from '../../../hooks/useSignOutOnLeave';
import { errorMessage, isRateLimited } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { changePassword } from '../api/account';
import { FormError } from './FormError';

export const PASSWORD_TEXTS = {
  mismatch: "Passwords don't match",
  failed: 'Failed to change password',
} as const;

type FailedField = 'currentPassword' | 'newPassword' | 'form';
const FIELD_IDS = { currentPassword: 'password-current', newPassword: 'password-new' } as const;

/** Where a failure is shown inline: a wrong current password at that field, a refused new one (too common) at the new one, else under the form. */
function fieldOfFailure(error: unknown, message: string): FailedField {
  if (isRateLimited(error)) return 'form';
  const text = message.toLowerCase();
  if (text.includes('current password')) return 'currentPassword';
  if (text.includes('password')) return 'newPassword';
  return 'form';
}

/** Change Password: current, new and confirmation; success signs out everywhere and goes to /signin. */
export function ChangePasswordForm() {
  const { leave } = useSignOutOnLeave();
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [mismatch, setMismatch] = useState(false);
  const [failure, setFailure] = useState<{ field: FailedField; message: string } | null>(null);
  const focusLater = useFocusLater();
  const submitRef = useRef<HTMLButtonElement>(null);

  const save = useMutation({
    mutationFn: changePassword,
    onSuccess: (data) => {
      toast.success(data.message);
      leave('/signin');
    },
    onError: (error) => {
      const message = errorMessage(error, PASSWORD_TEXTS.failed);
      const field = fieldOfFailure(error, message);
      setFailure({ field, message });
      toast.error(message);
      // The disabled button lost the focus: the field to correct gets it, else the button again.
      focusLater(() => (field === 'form' ? submitRef.current : document.getElementById(FIELD_IDS[field])));
    },
  });

  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [field]: event.target.value }));
    if (field !== 'currentPassword') setMismatch(false);
    setFailure((f) =>
      f && (f.field === field || f.field === 'form' || (f.field === 'newPassword' && field === 'confirmPassword')) ? null : f,
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    if (form.newPassword !== form.confirmPassword) {
      setMismatch(true);
      return;
    }
    setFailure(null);
    save.mutate({ currentPassword: form.currentPassword, newPassword: form.newPassword });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-5" aria-busy={save.isPending || undefined}>
      <header>
        <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">Change Password</h2>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">You will be signed out on every device and asked to sign in again.</p>
      </header>
      <PasswordField
        id="password-current"
        label="Current Password"
        required
        value={form.currentPassword}
        onChange={set('currentPassword')}
        error={failure?.field === 'currentPassword' ? failure.message : null}
      />
      <NewPasswordField
        id="password-new"
        label="New Password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        value={form.newPassword}
        onChange={set('newPassword')}
        error={failure?.field === 'newPassword' ? failure.message : null}
        hint={NEW_PASSWORD_HINT}
      />
      <NewPasswordField
        id="password-confirm"
        label="Confirm New Password"
        required
        value={form.confirmPassword}
        onChange={set('confirmPassword')}
        error={mismatch ? PASSWORD_TEXTS.mismatch : null}
      />
      <FormError id="password-form-error" message={failure?.field === 'form' ? failure.message : null} />
      <div className="flex justify-end">
        <Button ref={submitRef} type="submit" disabled={save.isPending}>
          {save.isPending ? 'Processing...' : 'Change Password'}
        </Button>
      </div>
    </form>
  );
}
