import { MAX_PASSWORD_INPUT_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@inkwell/core';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useSignin } from '../api/signin';
import { useSignup } from '../api/signup';
import { DEFAULT_AFTER_SIGNIN, returnPathOf, returnState } from '../lib/returnTo';
import { AuthField } from './AuthField';
import { GoogleButton } from './GoogleButton';

export type AuthMode = 'signin' | 'signup';

const TEXT = {
  signin: {
    heading: 'Welcome back',
    subtitle: 'Sign in to continue to your account',
    question: "Don't have an account?",
    switchLabel: 'Sign up',
    switchTo: '/signup',
    submit: 'Sign In',
  },
  signup: {
    heading: 'Create account',
    subtitle: 'Get started with your new account',
    question: 'Already have an account?',
    switchLabel: 'Sign in',
    switchTo: '/signin',
    submit: 'Sign Up',
  },
} as const;

const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters`;
const PASSWORD_ERROR = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/** The shared auth screen of SPEC.md 2: sign-in and sign-up. */
export function AuthForm({ mode }: { mode: AuthMode }) {
  const text = TEXT[mode];
  const navigate = useNavigate();
  const location = useLocation();
  // The page that sent the person here (a protected route, or a link with ?next=), else / (SPEC.md 2).
  const returnTo = useMemo(() => returnPathOf(location.state, location.search), [location.state, location.search]);
  const login = useSession((s) => s.login);
  const signin = useSignin();
  const signup = useSignup();
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const [passwordTouched, setPasswordTouched] = useState(false);
  const busy = signin.isPending || signup.isPending;
  const passwordShort = form.password.length > 0 && form.password.length < MIN_PASSWORD_LENGTH;
  const showPasswordError = passwordTouched && (passwordShort || form.password.length === 0);
  // The button is disabled while the request runs, which takes the keyboard's focus off it: after
  // a failure it gets it back (the next Tab started from the top of the page).
  const focusLater = useFocusLater();
  const submitRef = useRef<HTMLButtonElement>(null);

  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setPasswordTouched(true);
    if (form.password.length < MIN_PASSWORD_LENGTH) return;
    const onError = (error: unknown) => {
      toast.error(errorMessage(error));
      focusLater(() => submitRef.current);
    };
    if (mode === 'signup') {
      signup.mutate(form, {
        onSuccess: (data) => {
          toast.success(data.message);
          navigate('/signin', { state: returnState(returnTo) });
        },
        onError,
      });
    } else {
      signin.mutate(
        { email: form.email, password: form.password },
        {
          onSuccess: (data) => {
            login(data.user);
            toast.success(data.message);
            if (returnTo) navigate(returnTo, { replace: true });
            else navigate(DEFAULT_AFTER_SIGNIN);
          },
          onError,
        },
      );
    }
  };

  return (
    <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900">
      <div className="mb-6 text-center">
        <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-100">{text.heading}</h1>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{text.subtitle}</p>
      </div>

      <form onSubmit={onSubmit} className="space-y-4" aria-busy={busy || undefined}>
        {mode === 'signup' && <AuthField kind="name" id="auth-name" value={form.name} onChange={set('name')} />}
        <AuthField kind="email" id="auth-email" value={form.email} onChange={set('email')} />
        <AuthField
          kind="password"
          id="auth-password"
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={mode === 'signup' ? MAX_PASSWORD_LENGTH : MAX_PASSWORD_INPUT_LENGTH}
          value={form.password}
          onChange={set('password')}
          onBlur={() => setPasswordTouched(form.password.length > 0)}
          onInvalid={() => setPasswordTouched(true)}
          error={showPasswordError ? PASSWORD_ERROR : null}
          hint={PASSWORD_HINT}
        />
        {mode === 'signin' && (
          <p className="-mt-2 text-right text-sm">
            <Link to="/forgot-password" className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              Forgot password?
            </Link>
          </p>
        )}

        <button
          ref={submitRef}
          type="submit"
          disabled={busy}
          className="w-full rounded-lg bg-indigo-600 px-4 py-2.5 font-semibold text-white transition hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-indigo-500 dark:hover:bg-indigo-600"
        >
          {busy ? 'Processing...' : text.submit}
        </button>
      </form>

      <div className="my-6 flex items-center gap-3 text-xs text-gray-500 dark:text-gray-400">
        <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" />
        <span>Or continue with</span>
        <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" />
      </div>

      <GoogleButton disabled={busy} returnTo={returnTo} />

      <p className="mt-6 text-center text-sm text-gray-600 dark:text-gray-400">
        {text.question}{' '}
        <Link
          to={text.switchTo}
          state={returnState(returnTo)}
          className="font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {text.switchLabel}
        </Link>
      </p>
    </div>
  );
}
