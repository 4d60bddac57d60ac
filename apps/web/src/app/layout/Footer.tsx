import { Link } from 'react-router';
import { Logo } from './Logo';
import { GithubIcon, LinkedinIcon, XIcon } from './SocialIcons';

const COLUMNS = [
  { title: 'Explore', links: ['Latest Articles', 'Popular Topics', 'Featured Writers'] },
  { title: 'For Writers', links: ['Start Writing', 'Writing Guidelines', 'Community'] },
] as const;

const SOCIAL = [
  { label: 'X (Twitter)', Icon: XIcon },
  { label: 'GitHub', Icon: GithubIcon },
  { label: 'LinkedIn', Icon: LinkedinIcon },
] as const;

/** Footer with Explore, For Writers and Connect columns and Privacy, Terms, Cookies links. */
export function Footer() {
  return (
    <footer className="border-t border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-950">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-12 lg:grid-cols-4">
        <div className="col-span-2 lg:col-span-1">
          <Logo />
          <p className="mt-3 text-sm text-gray-600 dark:text-gray-400">A journal for developers and tech writers.</p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold text-gray-900 dark:text-gray-100">{column.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((label) => (
                <li key={label}>
                  <Link to="/" className="text-gray-600 hover:text-indigo-600 dark:text-gray-400 dark:hover:text-indigo-400">
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <div>
          <h2 className="text-sm font-semibold text-gray-900 dark:text-gray-100">Connect</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {SOCIAL.map(({ label, Icon }) => (
              <li key={label}>
                {/* Social links go nowhere (SPEC.md 2). */}
                <button
                  type="button"
                  className="inline-flex items-center gap-2 text-gray-600 hover:text-indigo-600 dark:text-gray-400 dark:hover:text-indigo-400"
                >
                  <Icon size={16} />
                  {label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-gray-200 dark:border-gray-800">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-5 text-sm text-gray-500 sm:flex-row dark:text-gray-400">
          <p>© {new Date().getFullYear()} Inkwell. Open source.</p>
          <div className="flex gap-5">
            {['Privacy', 'Terms', 'Cookies'].map((label) => (
              <Link key={label} to="/" className="hover:text-indigo-600 dark:hover:text-indigo-400">
                {label}
              </Link>
            ))}
          </div>
        </div>
      </div>
    </footer>
  );
}
