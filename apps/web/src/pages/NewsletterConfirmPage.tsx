import { Link, useParams } from 'react-router';
import { buttonClasses } from '../components/ui/Button';
import { LinkCard, LinkResult } from '../components/ui/LinkResult';
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
    <LinkCard title="Newsletter subscription" busy={!settled && 'Confirming your subscription...'}>
      <LinkResult ok={ok} message={ok ? result.data.message : errorMessage(result.error)}>
        <Link to="/" className={buttonClasses('primary', 'md', 'mt-2')}>
          Go to the home page
        </Link>
      </LinkResult>
    </LinkCard>
  );
}
