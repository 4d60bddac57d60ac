import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, MailX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Button, buttonClasses } from '../components/ui/Button';
import { LinkCard } from '../components/ui/LinkResult';
import { unsubscribe } from '../features/newsletter/api/newsletter';
import { usePageTitle } from '../hooks/usePageTitle';
import { errorMessage } from '../lib/api';

/**
 * A digest's unsubscribe link (/newsletter/unsubscribe/{token}). Opening it changes nothing (mail
 * scanners open links); the button does. Mail clients' own button posts to the API directly (RFC 8058).
 */
export default function NewsletterUnsubscribePage() {
  const { token = '' } = useParams();
  usePageTitle('Unsubscribe');
  const action = useMutation({ mutationFn: () => unsubscribe(token) });

  return (
    <LinkCard title="Unsubscribe">
      {action.isSuccess ? (
        <div className="mt-6 flex flex-col items-center gap-3" role="status">
          <CheckCircle2 size={48} className="text-green-600 dark:text-green-400" aria-hidden="true" />
          <p className="text-gray-800 dark:text-gray-200">{action.data.message}</p>
          <Link to="/" className={buttonClasses('secondary', 'md', 'mt-2')}>
            Go to the home page
          </Link>
        </div>
      ) : (
        <div className="mt-6 flex flex-col items-center gap-4">
          <MailX size={48} className="text-indigo-600 dark:text-indigo-400" aria-hidden="true" />
          <p className="text-gray-700 dark:text-gray-300">Stop getting Inkwell digests at this address?</p>
          <Button onClick={() => action.mutate()} disabled={action.isPending}>
            {action.isPending ? 'Unsubscribing...' : 'Unsubscribe'}
          </Button>
          {action.isError && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {errorMessage(action.error)}
            </p>
          )}
        </div>
      )}
    </LinkCard>
  );
}
