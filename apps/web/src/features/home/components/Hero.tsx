import { PenLine } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/Button';
import { useIsSignedIn } from '../../../lib/session';

/**
 * Home hero: 'Discover & Share Knowledge' and 'Start Writing' (to /add-blog signed in, else
 * /signin, which then goes on to /add-blog: features/auth reads `from`).
 */
export function Hero() {
  const signedIn = useIsSignedIn();
  return (
    <section className="border-b border-gray-200 bg-gradient-to-b from-indigo-50 to-white dark:border-gray-800 dark:from-indigo-950/40 dark:to-gray-950">
      <div className="mx-auto max-w-6xl px-4 py-14 text-center sm:py-20">
        <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
          A journal for developers and tech writers
        </p>
        <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-gray-900 sm:text-5xl dark:text-white">
          Discover &amp; Share Knowledge
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-600 dark:text-gray-300">
          Read deep dives, tutorials and stories from the community, and publish your own.
        </p>
        <Link
          to={signedIn ? '/add-blog' : '/signin'}
          state={signedIn ? undefined : { from: '/add-blog' }}
          className={buttonClasses('primary', 'lg', 'mt-8 shadow-sm')}
        >
          <PenLine size={18} aria-hidden="true" />
          Start Writing
        </Link>
      </div>
    </section>
  );
}
