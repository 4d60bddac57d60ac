import { useBlogFeed } from '../hooks/useBlogFeed';
import { BlogList } from './BlogList';

export const EMPTY_FEED_TEXT = 'No Blogs Found. Start Writing 😃';

/** The home list: cards, empty state and the 'Load More' button (SPEC.md 2 and 4). */
export function BlogFeed() {
  const feed = useBlogFeed();
  return (
    <BlogList
      {...feed}
      loadMoreLabel="Load More"
      empty={
        <p className="rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center text-lg text-gray-600 dark:border-gray-700 dark:text-gray-400">
          {EMPTY_FEED_TEXT}
        </p>
      }
    />
  );
}
