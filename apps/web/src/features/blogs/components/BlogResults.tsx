import { SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { useBlogFeed } from '../hooks/useBlogFeed';
import { BlogList } from './BlogList';

export const NO_RESULTS_TEXT = 'No blogs found';

/** Search and tag results (SPEC.md 2): 'Results for {term}', cards, 'Load more', 'No blogs found'. */
export function BlogResults({
  term,
  filter,
  action,
}: {
  term: string;
  filter: { search: string } | { tag: string };
  /** Beside the heading, e.g. the tag page's RSS link. */
  action?: ReactNode;
}) {
  const enabled = ('search' in filter ? filter.search : filter.tag).trim() !== '';
  const results = useBlogFeed(filter, 'search', enabled);

  return (
    <section className="mx-auto max-w-3xl px-4 py-10" aria-labelledby="results-heading">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h1 id="results-heading" className="min-w-0 wrap-anywhere text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">
          Results for <span className="text-indigo-600 dark:text-indigo-400">{term}</span>
        </h1>
        {action}
      </div>
      <BlogList
        {...results}
        loadMoreLabel="Load more"
        loadingLabel="Loading results"
        empty={
          <div className="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center text-gray-600 dark:border-gray-700 dark:text-gray-400">
            <SearchX size={36} aria-hidden="true" className="mb-3 text-gray-400 dark:text-gray-500" />
            <p className="text-lg font-medium">{NO_RESULTS_TEXT}</p>
          </div>
        }
      />
    </section>
  );
}
