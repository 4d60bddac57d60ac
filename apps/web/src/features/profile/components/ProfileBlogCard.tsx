import { type BlogCard, postDate, scheduledFor } from '@inkwell/core';
import { Bookmark, Heart, MessageCircle } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { HiddenBadge } from '../../../components/ui/HiddenBadge';

/**
 * A blog on a profile tab (SPEC.md 2): image, creator, title, description, date, and like,
 * comment and save counts. Drafts carry a badge and open in the editor;
 * the author's own posts that a moderator hid carry 'Hidden by a moderator' (issue 15).
 */
export function ProfileBlogCard({ blog }: { blog: BlogCard }) {
  const creatorName = blog.creator?.name || 'Unknown';
  const href = blog.draft ? `/edit/${encodeURIComponent(blog.blogId)}` : `/blog/${encodeURIComponent(blog.blogId)}`;
  const counts = [
    { label: 'likes', value: blog.likeCount, Icon: Heart },
    { label: 'comments', value: blog.commentCount, Icon: MessageCircle },
    { label: 'saves', value: blog.saveCount, Icon: Bookmark },
  ];

  return (
    <article className="overflow-hidden rounded-xl border border-gray-200 bg-white transition hover:shadow-md sm:flex dark:border-gray-800 dark:bg-gray-900">
      {blog.image && (
        <Link to={href} tabIndex={-1} aria-hidden="true" className="block shrink-0 sm:w-52">
          <img src={blog.image} alt="" loading="lazy" decoding="async" className="h-44 w-full object-cover sm:h-full" />
        </Link>
      )}
      <div className="flex min-w-0 flex-1 flex-col p-5">
        <div className="flex items-center gap-2 text-sm">
          <Link
            to={`/@${blog.creator?.username || 'unknown'}`}
            className="flex min-w-0 items-center gap-2 text-gray-700 hover:underline dark:text-gray-300"
          >
            <Avatar name={creatorName} src={blog.creator?.profilePic} size={26} />
            <span className="truncate font-medium">{creatorName}</span>
          </Link>
          {blog.hidden && <HiddenBadge className="ml-auto" />}
          {blog.draft && (
            <span
              className={`${blog.hidden ? '' : 'ml-auto'} shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800 dark:bg-amber-500/15 dark:text-amber-300`}
            >
              Draft
            </span>
          )}
        </div>
        <h3 className="mt-3 line-clamp-3 text-lg font-bold wrap-anywhere text-gray-900 dark:text-gray-100">
          <Link to={href} className="hover:text-indigo-600 dark:hover:text-indigo-400">
            {blog.title}
          </Link>
        </h3>
        {blog.description && <p className="mt-1 line-clamp-2 wrap-anywhere text-gray-600 dark:text-gray-400">{blog.description}</p>}
        <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-2 pt-4 text-sm text-gray-500 dark:text-gray-400">
          {blog.scheduledAt ? (
            <time dateTime={blog.scheduledAt} className="font-medium text-indigo-700 dark:text-indigo-300">
              {scheduledFor(blog.scheduledAt)}
            </time>
          ) : (
            <time dateTime={blog.createdAt}>{postDate(blog.createdAt)}</time>
          )}
          <span className="ml-auto flex items-center gap-4">
            {counts.map(({ label, value, Icon }) => (
              <span key={label} className="inline-flex items-center gap-1" title={`${value} ${label}`}>
                <Icon size={15} aria-hidden="true" />
                <span className="sr-only">{label}:</span>
                {value}
              </span>
            ))}
          </span>
        </div>
      </div>
    </article>
  );
}
