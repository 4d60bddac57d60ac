import { BookOpen, Code2, PenLine, Users } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/Button';
import { usePageTitle } from '../hooks/usePageTitle';
import { useServerPageReady } from '../lib/server-page';
import { useIsSignedIn } from '../lib/session';

const VALUES = [
  { Icon: PenLine, title: 'Write freely', text: 'A focused block editor for tutorials, deep dives and notes from the field.' },
  { Icon: Users, title: 'Learn together', text: 'Follow creators, discuss in threaded comments and save what helps you.' },
  { Icon: Code2, title: 'Open source', text: 'Self-host it on one machine, or scale it out when your community grows.' },
] as const;

/** Author and mission page: 'Get Started' (to /add-blog signed in, else /signin and then /add-blog) and 'Browse' (to /). */
export default function AboutPage() {
  const signedIn = useIsSignedIn();
  usePageTitle('About');
  useServerPageReady(true);
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:py-16">
      <header className="text-center">
        <BookOpen size={40} className="mx-auto text-indigo-600 dark:text-indigo-400" aria-hidden="true" />
        <h1 className="mt-4 text-4xl font-extrabold tracking-tight text-gray-900 dark:text-white">About Inkwell</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-600 dark:text-gray-300">
          A journal for developers and tech writers: a place to share what you learn while building software.
        </p>
      </header>

      <section
        aria-labelledby="mission"
        className="mt-12 rounded-2xl border border-gray-200 bg-white p-6 sm:p-8 dark:border-gray-800 dark:bg-gray-900"
      >
        <h2 id="mission" className="text-2xl font-bold text-gray-900 dark:text-gray-100">
          Our mission
        </h2>
        <p className="mt-3 leading-relaxed text-gray-700 dark:text-gray-300">
          Knowledge grows when it is shared. Inkwell gives every developer a simple, fast and respectful place to publish: no paywalls, no
          trackers, just writing and the people who read it. Discover &amp; Share Knowledge.
        </p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-3">
          {VALUES.map(({ Icon, title, text }) => (
            <li key={title}>
              <Icon size={24} className="text-indigo-600 dark:text-indigo-400" aria-hidden="true" />
              <h3 className="mt-2 font-semibold text-gray-900 dark:text-gray-100">{title}</h3>
              <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="author"
        className="mt-8 rounded-2xl border border-gray-200 bg-white p-6 sm:p-8 dark:border-gray-800 dark:bg-gray-900"
      >
        <h2 id="author" className="text-2xl font-bold text-gray-900 dark:text-gray-100">
          The author
        </h2>
        <p className="mt-3 leading-relaxed text-gray-700 dark:text-gray-300">
          Inkwell was started by a developer who learned most of what they know from other people's blog posts, and wanted a home for that
          kind of writing that anyone can run. It is maintained in the open by its contributors; issues and pull requests are welcome.
        </p>
      </section>

      <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
        <Link
          to={signedIn ? '/add-blog' : '/signin'}
          state={signedIn ? undefined : { from: '/add-blog' }}
          className={buttonClasses('primary', 'lg')}
        >
          Get Started
        </Link>
        <Link to="/" className={buttonClasses('secondary', 'lg')}>
          Browse
        </Link>
      </div>
    </div>
  );
}
