import { DELAYS_MS } from '@inkwell/core';
import { CircleCheck, CircleX } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { errorMessage } from '../../../lib/api';
import { confirmTransfer, type TransferConfirmResponse } from '../api/confirmTransfer';

export const CONFIRM_FAILED = 'Failed to process transfer confirmation';

type State = { status: 'loading' } | { status: 'success'; result: TransferConfirmResponse } | { status: 'error'; message: string };

/**
 * Transfer confirmation (SPEC.md 2): 'Processing Transfer...', then 'Transfer Successful!' with the
 * counts and a redirect to / after 5 seconds, or 'Transfer Failed' with Return Home and Try Again.
 * The link is used once per mount: strict mode's second effect run must not submit it again.
 */
export function TransferConfirmation({ action, token }: { action: string; token: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const navigate = useNavigate();
  const started = useRef(false);

  const run = useCallback(() => {
    setState({ status: 'loading' });
    confirmTransfer(action, token).then(
      (result) => setState({ status: 'success', result }),
      (error: unknown) => setState({ status: 'error', message: errorMessage(error, CONFIRM_FAILED) }),
    );
  }, [action, token]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run();
  }, [run]);

  useEffect(() => {
    if (state.status !== 'success') return;
    const timer = window.setTimeout(() => navigate('/'), DELAYS_MS.transferSuccessRedirect);
    return () => window.clearTimeout(timer);
  }, [state.status, navigate]);

  const card =
    'w-full max-w-md rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm dark:border-gray-800 dark:bg-gray-900';

  if (state.status === 'loading') {
    return (
      <div className={card}>
        <div className="flex justify-center text-indigo-600 dark:text-indigo-400">
          <Spinner size={40} label="Processing transfer" />
        </div>
        <h1 className="mt-5 text-xl font-semibold text-gray-900 dark:text-gray-100">Processing Transfer...</h1>
      </div>
    );
  }

  if (state.status === 'error') {
    return (
      <div className={card}>
        <CircleX size={52} aria-hidden="true" className="mx-auto text-red-500" />
        <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">Transfer Failed</h1>
        <p role="alert" className="mt-2 text-gray-600 dark:text-gray-400">
          {state.message}
        </p>
        <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Link to="/" className={buttonClasses('secondary', 'md')}>
            Return Home
          </Link>
          <Button onClick={run}>Try Again</Button>
        </div>
      </div>
    );
  }

  const { message, data } = state.result;
  const counts = [
    { label: 'Blogs', value: data.transferredBlogs },
    { label: 'Comments', value: data.transferredComments },
    { label: 'Followers', value: data.transferredFollowers },
  ];
  return (
    <div className={card}>
      <CircleCheck size={52} aria-hidden="true" className="mx-auto text-green-500" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">Transfer Successful!</h1>
      <p className="mt-2 text-gray-600 dark:text-gray-400">{message}</p>
      <dl className="mt-6 grid grid-cols-3 gap-3">
        {counts.map((c) => (
          <div key={c.label} className="flex flex-col-reverse rounded-xl bg-gray-50 px-2 py-3 dark:bg-gray-800">
            <dt className="text-xs font-medium text-gray-500 uppercase dark:text-gray-400">{c.label}</dt>
            <dd className="text-2xl font-bold text-gray-900 dark:text-gray-100" data-testid={`transferred-${c.label.toLowerCase()}`}>
              {c.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-5 text-xs text-gray-500 dark:text-gray-400">Taking you home in a few seconds...</p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-center">
        <Link to="/" className={buttonClasses('secondary', 'md')}>
          Return Home
        </Link>
        <Link to="/signin" className={buttonClasses('primary', 'md')}>
          Sign In
        </Link>
      </div>
    </div>
  );
}
