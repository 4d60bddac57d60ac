import { ForgotPasswordForm } from '../features/auth/components/ForgotPasswordForm';
import { usePageTitle } from '../hooks/usePageTitle';

/** /forgot-password: reached from 'Forgot password?' on the sign-in screen. */
export default function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <ForgotPasswordForm />
    </div>
  );
}
