import { Spinner } from '../../../components/ui/Spinner';
import { useBlogFeed } from '../hooks/useBlogFeed';
import { BlogCard } from './BlogCard';

export const EMPTY_FEED_TEXT = 'No Blogs Found. Start Writing 😃';

/** The home list: cards, empty state and the 'Load More' button (SPEC.md 2 and 4). */
export function BlogFeed() {
  const { blogs, hasMore, initialLoading, loadingMore, loadMore } = useBlogFeed();

  if (initialLoading) {
    return (
      <div className="flex justify-center py-16 text-indigo-600 dark:text-indigo-400">
        <Spinner size={32} label="Loading blogs" />
      </div>
    );
  }

  return (
    <div>
      {blogs.length === 0 ? (
        <p className="rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center text-lg text-gray-600 dark:border-gray-700 dark:text-gray-400">
          {EMPTY_FEED_TEXT}
        </p>
      ) : (
        <ul className="space-y-5">
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
            type="button"
            onClick={loadMore}
            disabled={loadingMore}
            className="rounded-lg border border-gray-300 bg-white px-6 py-2.5 font-medium text-gray-800 transition hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100 dark:hover:bg-gray-800"
          >
            {loadingMore ? 'Loading...' : 'Load More'}
          </button>
        </div>
      )}
    </div>
  );
}
