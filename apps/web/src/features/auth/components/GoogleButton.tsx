import { Spinner } from '../../../components/ui/Spinner';
import { useGoogleSignIn } from '../hooks/useGoogleSignIn';

/** Google's four-colour "G" mark (inline SVG; no external assets under the CSP). */
function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C36.9 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

/**
 * 'Continue with Google' (SPEC.md 2): a popup on desktops, a redirect on phones and tablets.
 * Shows a spinner while loading, including while a redirect's answer is being finished.
 * `returnTo`: the page to go back to once signed in (else /).
 */
export function GoogleButton({ disabled = false, returnTo = null }: { disabled?: boolean; returnTo?: string | null }) {
  const { start, loading } = useGoogleSignIn(returnTo);

  return (
    <button
      type="button"
      onClick={start}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className="flex w-full items-center justify-center gap-3 rounded-lg border border-gray-300 bg-white px-4 py-2.5 font-medium text-gray-700 transition hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-200 dark:hover:bg-gray-700"
    >
      {loading ? <Spinner size={18} label="Signing in with Google" /> : <GoogleMark />}
      <span>Continue with Google</span>
    </button>
  );
}
