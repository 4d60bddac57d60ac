import { AUTH_MESSAGES, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@inkwell/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { NEW_PASSWORD_HINT } from '../../../components/ui/Field';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useResetPassword } from '../api/passwordReset';
import { AuthCard, SUBMIT_CLASSES } from './AuthCard';
import { AuthField } from './AuthField';

const PASSWORD_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/** The page of a mailed reset link: a new password twice; success signs out everywhere and goes to /signin. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const logout = useSession((s) => s.logout);
  const reset = useResetPassword();
  const [form, setForm] = useState({ password: '', confirm: '' });
  const [checked, setChecked] = useState(false);
  // The server's answer about the password (e.g. a common one) stays under the field until it changes.
  const [serverError, setServerError] = useState<string | null>(null);
  const short = form.password.length < MIN_PASSWORD_LENGTH;
  const mismatch = form.password !== form.confirm;

  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [field]: event.target.value }));
    setServerError(null);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked(true);
    if (reset.isPending || short || mismatch) return;
    reset.mutate(
      { token, password: form.password },
      {
        onSuccess: (data) => {
          // Every session of the account ended, this browser's too.
          logout();
          toast.success(data.message);
          navigate('/signin', { replace: true });
        },
        onError: (error) => {
          const message = errorMessage(error);
          setServerError(message);
          toast.error(message);
        },
      },
    );
  };

  const passwordError = serverError ?? (checked && short ? PASSWORD_SHORT : null);
  const confirmError = checked && !short && mismatch ? AUTH_MESSAGES.passwordsDontMatch : null;

  return (
    <AuthCard heading="Choose a new password" subtitle="You will be signed out on every device and can then sign in with it">
      <form onSubmit={onSubmit} className="space-y-4" aria-busy={reset.isPending || undefined} noValidate>
        <AuthField
          kind="password"
          id="reset-password"
          label="New Password"
          autoComplete="new-password"
          autoFocus
          maxLength={MAX_PASSWORD_LENGTH}
          value={form.password}
          onChange={set('password')}
          error={passwordError}
          hint={NEW_PASSWORD_HINT}
        />
        <AuthField
          kind="password"
          id="reset-confirm"
          label="Confirm New Password"
          name="confirm"
          autoComplete="new-password"
          maxLength={MAX_PASSWORD_LENGTH}
          value={form.confirm}
          onChange={set('confirm')}
          error={confirmError}
        />
        <button type="submit" disabled={reset.isPending} className={SUBMIT_CLASSES}>
          {reset.isPending ? 'Saving...' : 'Reset password'}
        </button>
      </form>
      <p className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
        Link expired?{' '}
        <Link to="/forgot-password" className="font-semibold text-indigo-600 hover:underline dark:text-indigo-400">
          Ask for a new one
        </Link>
      </p>
    </AuthCard>
  );
}
