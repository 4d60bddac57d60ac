import { DELAYS_MS, TRANSFER_MESSAGES } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { ArrowRightLeft } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Field } from '../../../components/ui/Field';
import { useSignOutOnLeave } from '../../../hooks/useSignOutOnLeave';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { transferAccount } from '../api/account';
import { CurrentPasswordField } from './CurrentPasswordField';
import { FormError } from './FormError';

export const TRANSFER_FAILED = 'Failed to transfer ownership';

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Errors {
  email?: string;
  password?: string;
  /** A failure of the request that names neither field: shown under the form. */
  form?: string;
}

/** Client checks of SPEC.md 5, in order: email required, format, not own; password for non-Google users. */
export function validateTransfer(email: string, password: string, ownEmail: string | null, googleAuth: boolean): Errors {
  const errors: Errors = {};
  const clean = email.trim().toLowerCase();
  if (!clean) errors.email = TRANSFER_MESSAGES.emailRequired;
  else if (!EMAIL_FORMAT.test(clean)) errors.email = TRANSFER_MESSAGES.emailInvalid;
  else if (ownEmail && clean === ownEmail.trim().toLowerCase()) errors.email = TRANSFER_MESSAGES.self;
  if (!googleAuth && !password) errors.password = TRANSFER_MESSAGES.passwordRequired;
  return errors;
}

/** SPEC.md 8: a failure mentioning the password marks the password field, one mentioning the e-mail the e-mail field. */
function fieldErrorsOf(message: string): Errors {
  const text = message.toLowerCase();
  if (text.includes('password')) return { password: TRANSFER_MESSAGES.passwordWrong };
  if (text.includes('email')) return { email: TRANSFER_MESSAGES.recipientNotFound };
  return {};
}

/** Transfer Account Ownership: recipient e-mail, current password (unless Google), 'Initiate Transfer', confirm dialog. */
export function TransferAccount() {
  const ownEmail = useSession((s) => s.user.email);
  const googleAuth = useSession((s) => s.user.googleAuth);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const closeConfirm = useCallback(() => setConfirming(false), []);
  const { arm, leave } = useSignOutOnLeave();
  const typePassword = (value: string) => {
    setPassword(value);
    setErrors((x) => ({ ...x, password: undefined, form: undefined }));
  };

  const transfer = useMutation({
    mutationFn: () => transferAccount({ newOwnerEmail: email.trim(), ...(googleAuth ? {} : { currentPassword: password }), googleAuth }),
    onSuccess: (data) => {
      setConfirming(false);
      setDone(true);
      arm();
      toast.success(data.message);
    },
    onError: (error) => {
      setConfirming(false);
      const message = errorMessage(error, TRANSFER_FAILED);
      const fields = fieldErrorsOf(message);
      setErrors(fields.email || fields.password ? fields : { form: message });
      toast.error(message);
    },
  });

  // After a successful request the session ends in 2 seconds (SPEC.md 4, 9).
  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => leave('/'), DELAYS_MS.postTransferSignOut);
    return () => window.clearTimeout(timer);
  }, [done, leave]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (transfer.isPending || done) return;
    const found = validateTransfer(email, password, ownEmail, googleAuth);
    setErrors(found);
    if (found.email || found.password) return;
    setConfirming(true);
  };

  return (
    <section aria-labelledby="transfer-heading" className="rounded-xl border border-red-200 p-5 dark:border-red-900/60">
      <h3 id="transfer-heading" className="flex items-center gap-2 font-semibold text-gray-900 dark:text-gray-100">
        <ArrowRightLeft size={18} aria-hidden="true" className="text-red-600 dark:text-red-400" />
        Transfer Account Ownership
      </h3>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
        Move your blogs, comments, likes, saves and followers to another verified account. Once they accept from their e-mail, this account
        is deleted.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <Field
          id="transfer-email"
          label="Recipient Email"
          type="email"
          autoComplete="off"
          placeholder="new.owner@example.com"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setErrors((x) => ({ ...x, email: undefined, form: undefined }));
          }}
          error={errors.email}
          disabled={done}
        />
        <CurrentPasswordField id="transfer-password" value={password} onValue={typePassword} error={errors.password} disabled={done} />
        <FormError id="transfer-error" message={errors.form} />
        <div className="flex justify-end">
          <Button type="submit" variant="danger" disabled={transfer.isPending || done}>
            {transfer.isPending ? 'Processing...' : 'Initiate Transfer'}
          </Button>
        </div>
        {done && (
          <p role="status" className="text-sm text-gray-600 dark:text-gray-400">
            Request sent. Signing you out...
          </p>
        )}
      </form>

      <ConfirmDialog
        open={confirming}
        texts={{
          title: 'Transfer your account?',
          message: (
            <>
              Everything you own will move to{' '}
              <span className="font-semibold break-all text-gray-900 dark:text-gray-100">{email.trim()}</span> once they accept, and this
              account will be deleted. This cannot be undone.
            </>
          ),
          confirm: 'Yes, Transfer',
          busy: 'Processing...',
        }}
        busy={transfer.isPending}
        onConfirm={() => transfer.mutate()}
        onClose={closeConfirm}
      />
    </section>
  );
}
