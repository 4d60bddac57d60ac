import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import { useVerifyEmail } from '../features/auth/api/verifyEmail';
import { usePageTitle } from '../hooks/usePageTitle';
import { errorMessage } from '../lib/api';
import { toast } from '../lib/toast';

export const VERIFY_REDIRECT_MS = 2000;

/** E-mail verification: calls the API once, shows the result, then goes to /signin (SPEC.md 2). */
export default function VerifyEmailPage() {
  const { verificationToken = '' } = useParams();
  const navigate = useNavigate();
  usePageTitle('Email verification');
  const result = useVerifyEmail(verificationToken);
  const settled = result.isSuccess || result.isError;
  const ok = result.isSuccess;
  const message = ok ? result.data.message : errorMessage(result.error);
  const toasted = useRef(false);

  useEffect(() => {
    if (!settled) return;
    if (!toasted.current) {
      toasted.current = true;
      if (ok) toast.success(message);
      else toast.error(message);
    }
    const timer = window.setTimeout(() => navigate('/signin', { replace: true }), VERIFY_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [settled, ok, message, navigate]);

  return (
    <section className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm dark:border-gray-800 dark:bg-gray-900">
        <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-100">Email verification</h1>
        {!settled ? (
          <div className="mt-8 flex flex-col items-center gap-3 text-indigo-600 dark:text-indigo-400">
            <Spinner size={36} label="Verifying your email" />
            <p className="text-sm text-gray-600 dark:text-gray-400">Verifying your email...</p>
          </div>
        ) : (
          <div className="mt-6 flex flex-col items-center gap-3" role="status">
            {ok ? (
              <CheckCircle2 size={48} className="text-green-600 dark:text-green-400" aria-hidden="true" />
            ) : (
              <XCircle size={48} className="text-red-600 dark:text-red-400" aria-hidden="true" />
            )}
            <p className={ok ? 'text-gray-800 dark:text-gray-200' : 'text-red-700 dark:text-red-300'}>{message}</p>
            <p className="text-sm text-gray-500 dark:text-gray-400">Taking you to sign in...</p>
            <Button className="mt-2" onClick={() => navigate('/signin', { replace: true })}>
              Go to Sign In
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
