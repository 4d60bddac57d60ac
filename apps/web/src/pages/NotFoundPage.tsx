import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/Button';
import { usePageTitle } from '../hooks/usePageTitle';
import { useServerPageReady } from '../lib/server-page';

/** Any path that is not a screen of SPEC.md section 2. */
export default function NotFoundPage() {
  usePageTitle('Page not found');
  useServerPageReady(true);
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-indigo-600 dark:text-indigo-400">404</p>
      <h1 className="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">Page not found</h1>
      <p className="mt-2 text-gray-600 dark:text-gray-400">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
        Go home
      </Link>
    </section>
  );
}
