import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface PlaceholderPageProps {
  /** Names the screen (SPEC.md section 2). */
  title: string;
  children?: ReactNode;
}

/** Stand-in for a screen that a later issue builds. */
export function PlaceholderPage({ title, children }: PlaceholderPageProps) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold text-gray-900 dark:text-gray-100">{title}</h1>
      <div className="mt-4 text-gray-600 dark:text-gray-400">{children ?? <p>This screen is coming soon.</p>}</div>
      <Link to="/" className="mt-6 inline-block font-medium text-indigo-600 hover:underline dark:text-indigo-400">
        Back to home
      </Link>
    </section>
  );
}
