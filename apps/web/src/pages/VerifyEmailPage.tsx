import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../components/ui/Button';
import { LinkCard, LinkResult } from '../components/ui/LinkResult';
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
    <LinkCard title="Email verification" busy={!settled && 'Verifying your email...'}>
      <LinkResult ok={ok} message={message}>
        <p className="text-sm text-gray-500 dark:text-gray-400">Taking you to sign in...</p>
        <Button className="mt-2" onClick={() => navigate('/signin', { replace: true })}>
          Go to Sign In
        </Button>
      </LinkResult>
    </LinkCard>
  );
}
