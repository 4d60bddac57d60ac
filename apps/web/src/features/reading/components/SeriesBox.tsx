import type { BlogSeries } from '@inkwell/core';
import { Link } from 'react-router';

/** dev.to's series box: 'Part n of m' and the series' parts the reader can see, this one marked. */
export function SeriesBox({ series, blogId }: { series: BlogSeries; blogId: string }) {
  return (
    <nav
      aria-label={`Series: ${series.title}`}
      className="mt-6 rounded-lg border border-gray-200 bg-gray-50 p-4 dark:border-gray-800 dark:bg-gray-900"
    >
      <p className="text-sm font-semibold text-gray-900 dark:text-gray-100">
        {series.title}{' '}
        <span className="font-normal text-gray-600 dark:text-gray-400">
          (Part {series.part} of {series.total})
        </span>
      </p>
      <ol className="mt-2 space-y-1 text-sm">
        {series.posts.map((post) => (
          <li key={post.blogId} className="flex gap-2">
            <span className="w-6 shrink-0 text-right text-gray-500 dark:text-gray-400">{post.part}.</span>
            {post.blogId === blogId ? (
              <span aria-current="page" className="font-semibold text-gray-900 dark:text-gray-100">
                {post.title}
              </span>
            ) : (
              <Link to={`/blog/${post.blogId}`} className="break-words text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                {post.title}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
