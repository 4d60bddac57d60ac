import { type Blog, postDate, readingTimeMinutes } from '@inkwell/core';
import { Bookmark, Clock, EyeOff, Flag, Heart, MessageCircle, Pencil, Trash2 } from 'lucide-react';
import { lazy, type Ref, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { buttonClasses } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { FollowButton } from '../../../components/ui/FollowButton';
import { HIDDEN_BY_MODERATOR } from '../../../components/ui/HiddenBadge';
import { LazyReportDialog } from '../../../components/ui/LazyReportDialog';
import { LocalTime } from '../../../components/ui/LocalTime';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { useIsSignedIn } from '../../../lib/session';
import { isSafeImageSrc } from '../../../lib/urls';
import { BlogBlocks } from '../blocks/Blocks';
import { useBlogActions } from '../useBlogActions';
import { SeriesBox } from './SeriesBox';

const DELETE_BLOG_TEXTS = {
  title: 'Delete blog',
  message: 'Are you sure you want to delete this blog? This action cannot be undone.',
  confirm: 'Delete',
  busy: 'Deleting...',
};

interface BlogArticleProps {
  blog: Blog;
  isAuthor: boolean;
  commentsOpen: boolean;
  onOpenComments: () => void;
  /** Warms the lazy comment panel when the pointer or focus reaches its button. */
  onPreloadComments: () => void;
  commentsButtonRef: Ref<HTMLButtonElement>;
  /** The reader is a moderator or admin (issue 15): they may hide the post, or restore it once hidden. */
  canModerate?: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const ACTION =
  'inline-flex items-center gap-2 rounded-full px-3.5 py-2 text-sm font-medium transition-colors text-gray-600 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-800 dark:hover:text-white';

/** Only moderators ever see it: loaded then, out of every reader's first load (scripts/web-budget.mjs). */
const ModeratePost = lazy(() => import('./ModeratePost').then((m) => ({ default: m.ModeratePost })));

/** The reading page of SPEC.md 2: title, image, creator with Follow, reading time, date, tags, blocks, footer. */
const CLOSED_WHILE_HIDDEN = 'Likes, saves and comments are closed while this post is hidden.';

export function BlogArticle({
  blog,
  isAuthor,
  commentsOpen,
  onOpenComments,
  onPreloadComments,
  commentsButtonRef,
  canModerate = false,
}: BlogArticleProps) {
  const actions = useBlogActions(blog);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reporting, setReporting] = useState(false);
  // Signed-in readers who did not write it may report it (issue 15); visitors never see Report.
  const canReport = useIsSignedIn() && !isAuthor;
  const creatorName = blog.creator?.name || 'Unknown';
  const profileHref = `/@${blog.creator?.username || 'unknown'}`;
  const blocks = blog.content?.blocks ?? [];
  const minutes = typeof blog.readingTime === 'number' ? blog.readingTime : readingTimeMinutes(blocks.length);

  usePageTitle(blog.title);
  const closed = Boolean(blog.hidden) && !isAuthor;

  return (
    <article className="mx-auto max-w-3xl px-4 py-8 sm:py-12" aria-labelledby="blog-title">
      {blog.hidden && (
        <div
          role="note"
          className="mb-6 flex items-start gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
        >
          <EyeOff size={18} aria-hidden="true" className="mt-0.5 shrink-0" />
          <div>
            <p>
              <strong className="font-semibold">{HIDDEN_BY_MODERATOR}.</strong> Other readers no longer see this post anywhere on the site.
            </p>
            {/* Only a moderator reads a hidden post that is not theirs. */}
            {closed && (
              <Suspense fallback={null}>
                <ModeratePost blogId={blog.blogId} hidden />
              </Suspense>
            )}
          </div>
        </div>
      )}
      <header>
        <h1
          id="blog-title"
          className="text-3xl leading-tight font-extrabold tracking-tight wrap-anywhere text-gray-900 sm:text-4xl dark:text-white"
        >
          {blog.title}
        </h1>
        {blog.description && <p className="mt-3 text-lg wrap-anywhere text-gray-600 sm:text-xl dark:text-gray-400">{blog.description}</p>}

        {blog.image && isSafeImageSrc(blog.image) && (
          <img
            src={blog.image}
            alt=""
            decoding="async"
            fetchPriority="high"
            className="mt-8 aspect-[16/9] w-full rounded-2xl bg-gray-100 object-cover dark:bg-gray-800"
          />
        )}

        <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-3 border-b border-gray-200 pb-6 dark:border-gray-800">
          <Link to={profileHref} className="group flex min-w-0 items-center gap-3">
            <Avatar name={creatorName} src={blog.creator?.profilePic} size={44} />
            <span className="min-w-0">
              <span className="block truncate font-semibold text-gray-900 group-hover:underline dark:text-gray-100">{creatorName}</span>
              <span className="flex flex-wrap items-center gap-x-2 text-sm text-gray-500 dark:text-gray-400">
                <span className="inline-flex items-center gap-1">
                  <Clock size={14} aria-hidden="true" />
                  {minutes} min read
                </span>
                <span aria-hidden="true">·</span>
                <LocalTime date={blog.createdAt}>{postDate(blog.createdAt)}</LocalTime>
              </span>
            </span>
          </Link>
          {!isAuthor && blog.creator && <FollowButton userId={blog.creator._id} initial={blog.isFollowing} size="sm" />}
        </div>

        {blog.tags.length > 0 && (
          <ul className="mt-5 flex flex-wrap gap-2" aria-label="Tags">
            {blog.tags.map((tag) => (
              <li key={tag} className="max-w-full min-w-0">
                <Link
                  to={`/tag/${encodeURIComponent(tag)}`}
                  title={`#${tag}`}
                  className="block max-w-full truncate rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-300 dark:hover:bg-indigo-500/20"
                >
                  #{tag}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </header>

      {blog.series && <SeriesBox series={blog.series} blogId={blog.blogId} />}

      <div className="mt-8">
        <BlogBlocks blocks={blocks} />
      </div>

      <footer className="mt-12 flex flex-wrap items-center gap-2 border-y border-gray-200 py-3 dark:border-gray-800">
        {closed ? (
          // A moderator reading a hidden post: the server refuses likes, saves and its comments to
          // anyone but the author, so there are no buttons that would only fail.
          <p className="px-1 text-sm text-gray-600 dark:text-gray-400">{CLOSED_WHILE_HIDDEN}</p>
        ) : (
          <>
            <button
              type="button"
              onClick={actions.toggleLike}
              aria-pressed={blog.isLiked}
              title={blog.isLiked ? 'Unlike' : 'Like'}
              // Rose 700: the count is text, and rose 600 gave 4.3:1 on the page's grey (4.1:1 hovered).
              className={`${ACTION} ${blog.isLiked ? 'text-rose-700 dark:text-rose-400' : ''}`}
            >
              <Heart size={20} aria-hidden="true" className={blog.isLiked ? 'fill-current' : ''} />
              <span aria-hidden="true">{blog.likeCount}</span>
              <span className="sr-only">{plural(blog.likeCount, 'like')}</span>
            </button>
            <button
              ref={commentsButtonRef}
              type="button"
              onClick={onOpenComments}
              onPointerEnter={onPreloadComments}
              onFocus={onPreloadComments}
              aria-haspopup="dialog"
              aria-expanded={commentsOpen}
              title="Comments"
              className={ACTION}
            >
              <MessageCircle size={20} aria-hidden="true" />
              <span aria-hidden="true">{blog.commentCount}</span>
              <span className="sr-only">{plural(blog.commentCount, 'comment')}</span>
            </button>
            <button
              type="button"
              onClick={actions.toggleSave}
              aria-pressed={blog.isSaved}
              className={`${ACTION} ${blog.isSaved ? 'text-indigo-600 dark:text-indigo-400' : ''}`}
            >
              <Bookmark size={20} aria-hidden="true" className={blog.isSaved ? 'fill-current' : ''} />
              {blog.isSaved ? 'Saved' : 'Save'}
            </button>
          </>
        )}

        {canReport && !closed && (
          <button type="button" onClick={() => setReporting(true)} aria-haspopup="dialog" className={`${ACTION} ml-auto`}>
            <Flag size={18} aria-hidden="true" />
            Report
          </button>
        )}

        {canModerate && !isAuthor && !blog.hidden && (
          <Suspense fallback={null}>
            <ModeratePost blogId={blog.blogId} hidden={false} />
          </Suspense>
        )}

        {isAuthor && (
          <div className="ml-auto flex items-center gap-2">
            <Link to={`/edit/${encodeURIComponent(blog.blogId)}`} className={buttonClasses('secondary', 'sm')}>
              <Pencil size={16} aria-hidden="true" />
              Edit
            </Link>
            <button type="button" onClick={() => setConfirmDelete(true)} className={buttonClasses('danger', 'sm')}>
              <Trash2 size={16} aria-hidden="true" />
              Delete
            </button>
          </div>
        )}
      </footer>

      <ConfirmDialog
        open={confirmDelete}
        texts={DELETE_BLOG_TEXTS}
        busy={actions.deleting}
        onConfirm={() => actions.deleteBlog(() => setConfirmDelete(false))}
        onClose={() => setConfirmDelete(false)}
      />
      {canReport && (
        <LazyReportDialog
          open={reporting}
          target={{ type: 'post', id: blog.blogId }}
          title="Report post"
          onClose={() => setReporting(false)}
        />
      )}
    </article>
  );
}
