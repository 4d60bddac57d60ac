import { LogIn, MessageCircle } from 'lucide-react';
import { type RefObject, useCallback, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { CloseButton } from '../../../components/ui/CloseButton';
import { Spinner } from '../../../components/ui/Spinner';
import { useDialogFocus } from '../../../hooks/useDialogFocus';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { flattenComments, threadCursors, useAddComment, useComments } from '../api/comments';
import { CommentForm } from './CommentForm';
import { CommentItem } from './CommentItem';
import './panel.css';

const articleOf = (item: Element | null | undefined) => item?.querySelector<HTMLElement>(':scope > article') ?? null;

export interface CommentPanelProps {
  blogId: string;
  /** The blog creator may delete any comment on the blog. */
  blogCreatorId: string | null;
  /** The blog's comment count, shown until the comments have loaded. */
  count: number;
  onClose: () => void;
  /** Gets the focus back when the panel closes (the comment count button). */
  returnFocus?: RefObject<HTMLElement | null>;
}

/**
 * The comment panel of SPEC.md 2: a side drawer titled 'Comments (n)' with the comment box
 * (or a sign-in prompt), the threads and 'Load more comments'. Escape, the close button and
 * the backdrop close it; focus moves in on open, stays inside, and goes back on close.
 */
export default function CommentPanel({ blogId, blogCreatorId, count, onClose, returnFocus }: CommentPanelProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const viewer = useSession((s) => s.user);
  const viewerId = viewer.token ? (viewer.id ?? viewer._id) : null;
  const comments = useComments(blogId);
  const add = useAddComment(blogId);
  const [posted, setPosted] = useState(0);
  const list = flattenComments(comments.data);
  const cursors = threadCursors(comments.data);
  const total = comments.data?.pages[0]?.total ?? count;
  useDialogFocus(panelRef, true, {
    onEscape: onClose,
    initialFocus: () => {
      // Typing at once on desktops; on touch screens do not pop the keyboard open.
      const fine = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: fine)').matches;
      const box = panelRef.current?.querySelector<HTMLTextAreaElement>('textarea');
      return fine && box ? box : closeRef.current;
    },
    returnFocus: () => returnFocus?.current,
  });
  // A deleted comment takes the focus (its confirm dialog's) with it: it goes to the next comment,
  // else the one before, else the parent, else the heading when no comment is left.
  const focusLater = useFocusLater();
  const onDeleted = useCallback(
    (item: HTMLElement, neighbours: HTMLElement[]) =>
      focusLater(() => (item.isConnected ? null : (neighbours.find((n) => n.isConnected) ?? headingRef.current))),
    [focusLater],
  );
  // Load more comments is disabled while it loads, which takes the focus from it: a keyboard user's
  // next Tab started again from the panel's top. Once they show, the first new comment gets it (the
  // one after the comment that was last); the button again when nothing new came (or the load failed).
  const listRef = useRef<HTMLUListElement>(null);
  const loadMoreRef = useRef<HTMLButtonElement>(null);
  // A quick load may leave the focus on the button itself (see useFocusLater): it is handed on too.
  const loadMore = () => {
    const last = listRef.current?.lastElementChild;
    const button = loadMoreRef.current;
    void comments.fetchNextPage().then(() =>
      focusLater(() => {
        if (loadMoreRef.current?.disabled) return null;
        const next = last?.isConnected ? last.nextElementSibling : null;
        return articleOf(next) ?? loadMoreRef.current ?? articleOf(listRef.current?.lastElementChild);
      }, button),
    );
  };

  return createPortal(
    <div className="fixed inset-0 z-[45]">
      <div aria-hidden="true" onClick={onClose} className="comment-backdrop absolute inset-0 bg-gray-950/40 backdrop-blur-[1px]" />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="comment-drawer absolute inset-y-0 right-0 flex w-full flex-col bg-white shadow-2xl outline-none sm:max-w-md lg:max-w-lg dark:bg-gray-900 dark:shadow-black/50"
      >
        {/* A div, not <header>: outside a sectioning element a header is a second page banner. */}
        <div className="flex items-center justify-between gap-4 border-b border-gray-200 px-4 py-3 sm:px-5 dark:border-gray-800">
          <h2 ref={headingRef} id={titleId} tabIndex={-1} className="text-lg font-semibold text-gray-900 dark:text-gray-100">
            Comments ({total})
          </h2>
          <CloseButton ref={closeRef} label="Close comments" onClick={onClose} size={20} />
        </div>

        <div className="border-b border-gray-200 px-4 py-4 sm:px-5 dark:border-gray-800">
          {viewerId ? (
            <div className="flex items-start gap-3">
              <Avatar name={viewer.name} src={viewer.profilePic} size={32} className="mt-1" />
              <CommentForm
                label="Write a comment"
                placeholder="Write a comment..."
                submitLabel="Post"
                busyLabel="Posting..."
                pending={add.isPending}
                draftKey={`comment-draft:${blogId}`}
                onSubmit={async (text) => {
                  try {
                    await add.mutateAsync(text);
                    setPosted((n) => n + 1);
                    return true;
                  } catch {
                    return false;
                  }
                }}
              />
              {/* The new comment shows below and the box empties: this says so to a screen reader
                  (the full stop comes and goes, so a second comment is a change the region reads). */}
              <p aria-live="polite" className="sr-only" data-testid="comment-posted">
                {posted === 0 ? '' : posted % 2 ? 'Comment posted' : 'Comment posted.'}
              </p>
            </div>
          ) : (
            <div className="flex flex-col items-center gap-3 rounded-xl bg-gray-50 px-4 py-5 text-center dark:bg-gray-800/60">
              <p className="text-sm text-gray-700 dark:text-gray-300">Sign in to join the conversation.</p>
              <Link
                to="/signin"
                // Signing in comes back to this post (features/auth reads `from`).
                state={{ from: `/blog/${encodeURIComponent(blogId)}` }}
                className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 dark:bg-indigo-500 dark:hover:bg-indigo-600"
              >
                <LogIn size={16} aria-hidden="true" />
                Sign in to comment
              </Link>
            </div>
          )}
        </div>

        <div className="flex-1 overflow-y-auto overscroll-contain px-4 pb-6 sm:px-5">
          {comments.isPending ? (
            <div className="flex justify-center py-12 text-indigo-600 dark:text-indigo-400">
              <Spinner size={28} label="Loading comments" />
            </div>
          ) : comments.isError && list.length === 0 ? (
            <div className="py-12 text-center text-sm text-gray-600 dark:text-gray-400" role="alert">
              <p>{errorMessage(comments.error)}</p>
              <button
                type="button"
                onClick={() => void comments.refetch()}
                className="mt-3 font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              >
                Try again
              </button>
            </div>
          ) : list.length === 0 ? (
            <div className="flex flex-col items-center py-14 text-center">
              <MessageCircle size={36} aria-hidden="true" className="text-gray-300 dark:text-gray-600" />
              <p className="mt-3 font-medium text-gray-800 dark:text-gray-200">No comments yet</p>
              <p className="mt-1 text-sm text-gray-500 dark:text-gray-400">Be the first to comment</p>
            </div>
          ) : (
            <>
              <ul ref={listRef} aria-label="Comments" className="divide-y divide-gray-100 dark:divide-gray-800/70 [&>li]:pb-4">
                {list.map((comment) => (
                  <CommentItem
                    key={comment._id}
                    comment={comment}
                    depth={0}
                    blogId={blogId}
                    viewerId={viewerId}
                    blogCreatorId={blogCreatorId}
                    onDeleted={onDeleted}
                    replyCursor={cursors.get(comment._id)}
                  />
                ))}
              </ul>
              {comments.hasNextPage && (
                <div className="mt-4 flex justify-center">
                  <button
                    ref={loadMoreRef}
                    type="button"
                    onClick={loadMore}
                    disabled={comments.isFetchingNextPage}
                    className="rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
                  >
                    {comments.isFetchingNextPage ? 'Loading...' : 'Load more comments'}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
