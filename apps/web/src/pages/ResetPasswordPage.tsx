import { useParams } from 'react-router';
import { ResetPasswordForm } from '../features/auth/components/ResetPasswordForm';
import { usePageTitle } from '../hooks/usePageTitle';

/** /reset-password/{token}: the link of the password reset mail. */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  usePageTitle('Reset password');
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <ResetPasswordForm token={token} />
    </div>
  );
}
