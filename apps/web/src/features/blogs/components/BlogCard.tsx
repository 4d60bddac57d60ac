import { type BlogCard as BlogCardData, postDate } from '@inkwell/core';
import { Clock } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { HiddenBadge } from '../../../components/ui/HiddenBadge';
import { LocalTime } from '../../../components/ui/LocalTime';
import { isSafeImageSrc } from '../../../lib/urls';

/**
 * Home list card (SPEC.md 2): optional image, creator avatar and name linking to the profile
 * ('Unknown' to /@unknown when missing), title, description, first 2 tags, date and reading time.
 */
export function BlogCard({ blog }: { blog: BlogCardData }) {
  const creatorName = blog.creator?.name || 'Unknown';
  const profileHref = `/@${blog.creator?.username || 'unknown'}`;
  const href = `/blog/${encodeURIComponent(blog.blogId)}`;

  return (
    <article className="group overflow-hidden rounded-xl border border-gray-200 bg-white transition hover:shadow-md sm:flex dark:border-gray-800 dark:bg-gray-900">
      {blog.image && isSafeImageSrc(blog.image) && (
        <Link to={href} tabIndex={-1} aria-hidden="true" className="block shrink-0 sm:w-56">
          <img src={blog.image} alt="" loading="lazy" decoding="async" className="h-48 w-full object-cover sm:h-full" />
        </Link>
      )}
      <div className="flex min-w-0 flex-1 flex-col p-5">
        <Link
          to={profileHref}
          className="flex w-fit max-w-full min-w-0 items-center gap-2 text-sm text-gray-700 hover:underline dark:text-gray-300"
        >
          <Avatar name={creatorName} src={blog.creator?.profilePic} size={28} />
          <span className="truncate font-medium">{creatorName}</span>
        </Link>
        {/* Only the author ever gets a hidden post in a list (issue 15). */}
        {blog.hidden && <HiddenBadge className="mt-2 w-fit" />}
        <h2 className="mt-3 line-clamp-3 text-lg font-bold wrap-anywhere text-gray-900 dark:text-gray-100">
          <Link to={href} className="hover:text-indigo-600 dark:hover:text-indigo-400">
            {blog.title}
          </Link>
        </h2>
        {blog.description && <p className="mt-1 line-clamp-2 wrap-anywhere text-gray-600 dark:text-gray-400">{blog.description}</p>}
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-4 text-xs">
          {(blog.tags ?? []).slice(0, 2).map((tag) => (
            <Link
              key={tag}
              to={`/tag/${encodeURIComponent(tag)}`}
              title={`#${tag}`}
              className="max-w-full truncate rounded-full bg-indigo-50 px-2.5 py-1 font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-300 dark:hover:bg-indigo-500/20"
            >
              #{tag}
            </Link>
          ))}
          <span className="ml-auto inline-flex items-center gap-2 text-gray-500 dark:text-gray-400">
            <LocalTime date={blog.createdAt}>{postDate(blog.createdAt)}</LocalTime>
            {typeof blog.readingTime === 'number' && (
              <>
                <span aria-hidden="true">·</span>
                <span className="inline-flex items-center gap-1">
                  <Clock size={14} aria-hidden="true" />
                  {blog.readingTime} min read
                </span>
              </>
            )}
          </span>
        </div>
      </div>
    </article>
  );
}
