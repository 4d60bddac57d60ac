import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useForgotPassword } from '../api/passwordReset';
import { AuthCard, SUBMIT_CLASSES } from './AuthCard';
import { AuthField } from './AuthField';

/** Forgot password: asks for the address; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const request = useForgotPassword();
  const [email, setEmail] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    request.mutate({ email }, { onError: (error) => toast.error(errorMessage(error)) });
  };

  if (request.isSuccess) {
    return (
      <AuthCard heading="Check your email" subtitle={email}>
        <div className="flex flex-col items-center gap-3 text-center" role="status">
          <MailCheck size={44} className="text-indigo-600 dark:text-indigo-400" aria-hidden="true" />
          <p className="text-gray-800 dark:text-gray-200">{request.data.message}</p>
          <p className="text-sm text-gray-500 dark:text-gray-400">No mail after a few minutes? Look in your spam folder, or try again.</p>
          <button
            type="button"
            onClick={() => request.reset()}
            className="text-sm font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Use another email
          </button>
        </div>
        <BackToSignIn />
      </AuthCard>
    );
  }

  return (
    <AuthCard heading="Forgot password?" subtitle="Enter your email and we will send you a link to choose a new password">
      <form onSubmit={onSubmit} className="space-y-4" aria-busy={request.isPending || undefined}>
        <AuthField kind="email" id="forgot-email" autoFocus value={email} onChange={(event) => setEmail(event.target.value)} />
        <button type="submit" disabled={request.isPending} className={SUBMIT_CLASSES}>
          {request.isPending ? 'Sending...' : 'Send reset link'}
        </button>
      </form>
      <BackToSignIn />
    </AuthCard>
  );
}

function BackToSignIn() {
  return (
    <p className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
      Remembered it?{' '}
      <Link to="/signin" className="font-semibold text-indigo-600 hover:underline dark:text-indigo-400">
        Sign in
      </Link>
    </p>
  );
}
