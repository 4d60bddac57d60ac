import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { errorMessage } from '../../../lib/api';

/** What the two lists of the screen need from their infinite query. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface ListStateProps {
  query: ListQuery;
  count: number;
  loadingLabel: string;
  failed: string;
  empty: string;
  emptyIcon: ReactNode;
  children: ReactNode;
}

/** Loading, error (with Try again) and empty states of a moderation list; the list itself otherwise. */
export function ListState({ query, count, loadingLabel, failed, empty, emptyIcon, children }: ListStateProps) {
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16 text-indigo-600 dark:text-indigo-400">
        <Spinner size={32} label={loadingLabel} />
      </div>
    );
  }
  if (query.isError && count === 0) {
    return (
      <div
        role="alert"
        className="flex flex-col items-center gap-3 rounded-xl border border-red-200 px-6 py-10 text-center dark:border-red-500/30"
      >
        <p className="text-red-700 dark:text-red-300">{errorMessage(query.error, failed)}</p>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (count === 0) {
    return (
      <div className="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center dark:border-gray-700">
        {emptyIcon}
        <p className="mt-3 text-gray-600 dark:text-gray-400">{empty}</p>
      </div>
    );
  }
  return <>{children}</>;
}

/** 'Load more' under a list while the server has another page. */
export function LoadMore({ query }: { query: ListQuery }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-6 flex justify-center">
      <Button variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
      </Button>
    </div>
  );
}
