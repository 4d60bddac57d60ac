import { AuthForm, type AuthMode } from '../features/auth/components/AuthForm';
import { usePageTitle } from '../hooks/usePageTitle';

/** The shared auth screen of /signin and /signup. */
export default function AuthPage({ mode }: { mode: AuthMode }) {
  usePageTitle(mode === 'signin' ? 'Sign In' : 'Sign Up');
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <AuthForm key={mode} mode={mode} />
    </div>
  );
}
