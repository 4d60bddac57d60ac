import type { BlogCard as BlogCardData } from '@inkwell/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { useServerPageReady } from '../../../lib/server-page';
import { BlogCard } from './BlogCard';

interface BlogListProps {
  blogs: BlogCardData[];
  initialLoading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  /** Shown when the list is empty. */
  empty: ReactNode;
  /** 'Load More' on home, 'Load more' on search and tag results (SPEC.md 2). */
  loadMoreLabel: string;
  loadingLabel?: string;
  /** A read failed and cleared the list (SPEC.md 8): shown instead of `empty`, with Try again. */
  failed?: boolean;
  retrying?: boolean;
  retry?: () => void;
}

export const LIST_FAILED_TEXT = 'The posts could not be loaded.';

/** A list of blog cards with its empty state and the load-more button (disabled, 'Loading...', while loading). */
export function BlogList({
  blogs,
  initialLoading,
  hasMore,
  loadingMore,
  loadMore,
  empty,
  loadMoreLabel,
  loadingLabel = 'Loading blogs',
  failed = false,
  retrying = false,
  retry,
}: BlogListProps) {
  useServerPageReady(!initialLoading);
  // The button is disabled while loading (SPEC.md 2), which takes the focus from it: a keyboard
  // user's next Tab would skip the new cards. Once they come, the focus goes to the first of them.
  const list = useRef<HTMLUListElement>(null);
  const loadedFrom = useRef<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const from = loadedFrom.current;
    if (from === null || loadingMore) return;
    loadedFrom.current = null;
    const first = list.current?.children[from]?.querySelector<HTMLElement>('a:not([tabindex="-1"])');
    // Unless the reader has moved on meanwhile (a click or a Tab elsewhere).
    const active = document.activeElement;
    if (first && (!active || active === document.body || active === button.current)) first.focus();
  }, [loadingMore]);
  if (initialLoading) {
    // A screen of height while loading: what follows the list (sidebar, footer) stays below the fold
    // instead of jumping down when the cards arrive.
    return (
      <div className="flex min-h-screen items-start justify-center py-16 text-indigo-600 dark:text-indigo-400">
        <Spinner size={32} label={loadingLabel} />
      </div>
    );
  }

  return (
    <div>
      {blogs.length === 0 && failed ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center text-gray-600 dark:border-gray-700 dark:text-gray-400">
          <p className="text-lg font-medium">{LIST_FAILED_TEXT}</p>
          {retry && (
            <Button variant="secondary" className="mt-4" onClick={retry} disabled={retrying}>
              {retrying ? 'Loading...' : 'Try again'}
            </Button>
          )}
        </div>
      ) : blogs.length === 0 ? (
        empty
      ) : (
        <ul ref={list} className="space-y-5" aria-busy={loadingMore}>
          {blogs.map((blog) => (
            <li key={blog._id ?? blog.blogId}>
              <BlogCard blog={blog} />
            </li>
          ))}
        </ul>
      )}
      {hasMore && blogs.length > 0 && (
        <div className="mt-8 flex justify-center">
          <button
            ref={button}
            type="button"
            onClick={() => {
              loadedFrom.current = blogs.length;
              loadMore();
            }}
            disabled={loadingMore}
            className="rounded-lg border border-gray-300 bg-white px-6 py-2.5 font-medium text-gray-800 transition hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100 dark:hover:bg-gray-800"
          >
            {loadingMore ? 'Loading...' : loadMoreLabel}
          </button>
        </div>
      )}
    </div>
  );
}
