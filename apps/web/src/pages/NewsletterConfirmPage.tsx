import { CheckCircle2, XCircle } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { buttonClasses } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import { useConfirmSubscription } from '../features/newsletter/api/newsletter';
import { usePageTitle } from '../hooks/usePageTitle';
import { errorMessage } from '../lib/api';

/** The newsletter's confirmation link (/newsletter/confirm/{token}): confirms once and says so. */
export default function NewsletterConfirmPage() {
  const { token = '' } = useParams();
  usePageTitle('Confirm subscription');
  const result = useConfirmSubscription(token);
  const settled = result.isSuccess || result.isError;
  const ok = result.isSuccess;

  return (
    <section className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900">
        <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-100">Newsletter subscription</h1>
        {!settled ? (
          <div className="mt-8 flex flex-col items-center gap-3 text-indigo-600 dark:text-indigo-400">
            <Spinner size={36} label="Confirming your subscription" />
            <p className="text-sm text-gray-600 dark:text-gray-400">Confirming your subscription...</p>
          </div>
        ) : (
          <div className="mt-6 flex flex-col items-center gap-3" role="status">
            {ok ? (
              <CheckCircle2 size={48} className="text-green-600 dark:text-green-400" aria-hidden="true" />
            ) : (
              <XCircle size={48} className="text-red-600 dark:text-red-400" aria-hidden="true" />
            )}
            <p className={ok ? 'text-gray-800 dark:text-gray-200' : 'text-red-700 dark:text-red-300'}>
              {ok ? result.data.message : errorMessage(result.error)}
            </p>
            <Link to="/" className={buttonClasses('primary', 'md', 'mt-2')}>
              Go to the home page
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}
