import { relativeTime } from '@inkwell/core';
import { Flag, Heart, MessageCircle, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useCallback, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/ui/Avatar';
import { HiddenBadge } from '../../../components/ui/HiddenBadge';
import { LazyReportDialog } from '../../../components/ui/LazyReportDialog';
import { LocalTime } from '../../../components/ui/LocalTime';
import { useDismiss } from '../../../hooks/useDismiss';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { useMenuKeys } from '../../../hooks/useMenuKeys';
import { toast } from '../../../lib/toast';
import { useLikeComment } from '../api/comments';
import type { Comment } from '../types';
import { articleOf, DeleteCommentDialog, EditCommentBox, ReplyBox } from './CommentBoxes';
import { MoreReplies } from './MoreReplies';

interface CommentItemProps {
  comment: Comment;
  depth: number;
  blogId: string;
  viewerId: string | null;
  blogCreatorId: string | null;
  /** Takes the focus on once this comment is gone (its element and the neighbours of it, next first). */
  onDeleted: (item: HTMLElement, neighbours: HTMLElement[]) => void;
  /** A top-level comment's thread cut short by its page: where its replies read on. */
  replyCursor?: string;
  /** A comment above this one is hidden by a moderator: nobody can reply anywhere in the thread. */
  threadClosed?: boolean;
}

/**
 * Replies are indented one step per level; phones stop indenting after 4 levels, wider
 * screens after 6, so deep threads keep a readable width.
 */
function nestClasses(depth: number): string {
  if (depth < 4) return 'ml-2 border-l border-gray-200 pl-3 sm:ml-4 sm:pl-4 dark:border-gray-800';
  if (depth < 6) return 'sm:ml-4 sm:border-l sm:border-gray-200 sm:pl-4 dark:sm:border-gray-800';
  return '';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One comment with its actions, its reply box and its nested replies (SPEC.md 2 Comment panel). */
export function CommentItem({ comment, depth, blogId, viewerId, blogCreatorId, onDeleted, replyCursor, threadClosed }: CommentItemProps) {
  // The server refuses a reply here ('You cannot reply to this comment'): no Reply button to fail.
  const closed = Boolean(threadClosed || comment.hidden);
  const [replying, setReplying] = useState(false);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useDismiss(menuOpen, closeMenu, [menuRef, menuButtonRef], menuButtonRef);
  const menuKeys = useMenuKeys(menuOpen, menuRef, closeMenu);
  const itemRef = useRef<HTMLLIElement>(null);
  const editRef = useRef<HTMLDivElement>(null);
  const replyRef = useRef<HTMLDivElement>(null);
  const replyButtonRef = useRef<HTMLButtonElement>(null);
  // A closed edit or reply box takes the focus with it: it goes back to the button that opened the
  // box (Comment options, Reply), or to the new reply once it shows.
  const focusLater = useFocusLater();
  const endEdit = () => {
    setEditing(false);
    focusLater(() => (editRef.current ? null : menuButtonRef.current));
  };
  const endReply = (newReplyId?: string) => {
    setReplying(false);
    focusLater(() => {
      if (replyRef.current) return null;
      if (!newReplyId) return replyButtonRef.current;
      return articleOf(itemRef.current?.querySelector(`li[data-comment-id="${CSS.escape(newReplyId)}"]`));
    });
  };

  const like = useLikeComment(blogId);

  const signedIn = viewerId !== null;
  const isOwner = signedIn && comment.user?._id === viewerId;
  const isBlogCreator = signedIn && blogCreatorId === viewerId;
  const canDelete = isOwner || isBlogCreator;
  // Anyone signed in may report someone else's comment (issue 15).
  const canReport = signedIn && !isOwner && Boolean(comment.user);
  const name = comment.user?.name || 'Unknown';
  const profileHref = `/@${comment.user?.username || 'unknown'}`;
  const edited = new Date(comment.updatedAt).getTime() - new Date(comment.createdAt).getTime() > 1000;

  const onLike = () => {
    if (!signedIn) return toast.error('Please sign in to like this comment');
    if (!like.isPending) like.mutate(comment._id);
  };
  const onReply = () => {
    if (!signedIn) return toast.error('Please sign in to reply');
    setReplying((r) => !r);
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return menuKeys(event);
    // Handled here so the panel around stays open.
    event.stopPropagation();
    setMenuOpen(false);
    menuButtonRef.current?.focus();
  };

  return (
    <li ref={itemRef} className="pt-4" data-comment-id={comment._id}>
      {/* Focusable from script only: a new reply, or a neighbour of a deleted comment, gets the focus. */}
      <article aria-label={`Comment by ${name}`} tabIndex={-1}>
        <div className="flex items-start gap-3">
          <Link to={profileHref} className="shrink-0" tabIndex={-1} aria-hidden="true">
            <Avatar name={name} src={comment.user?.profilePic} size={32} />
          </Link>
          <div className="min-w-0 flex-1">
            <div className="flex items-start gap-2">
              <p className="min-w-0 flex-1 text-sm leading-5 wrap-anywhere">
                <Link to={profileHref} className="font-semibold text-gray-900 hover:underline dark:text-gray-100">
                  {name}
                </Link>
                <span className="text-gray-400 dark:text-gray-500"> · </span>
                <LocalTime date={comment.createdAt} className="text-gray-500 dark:text-gray-400">
                  {relativeTime(comment.createdAt)}
                </LocalTime>
                {edited && <span className="text-gray-400 dark:text-gray-500"> (edited)</span>}
                {comment.hidden && <HiddenBadge className="ml-2 align-middle" />}
              </p>
              {(canDelete || canReport) && (
                <div className="relative -mt-1 -mr-1">
                  <button
                    ref={menuButtonRef}
                    type="button"
                    aria-label="Comment options"
                    aria-haspopup="menu"
                    aria-expanded={menuOpen}
                    onClick={() => setMenuOpen((o) => !o)}
                    onKeyDown={(event) => {
                      if (event.key === 'Escape' && menuOpen) {
                        event.stopPropagation();
                        setMenuOpen(false);
                      }
                    }}
                    className="rounded-full p-1.5 text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100"
                  >
                    <MoreHorizontal size={16} aria-hidden="true" />
                  </button>
                  {menuOpen && (
                    <div
                      ref={menuRef}
                      role="menu"
                      aria-label="Comment options"
                      tabIndex={-1}
                      onKeyDown={onMenuKey}
                      className="absolute right-0 z-10 mt-1 w-36 overflow-hidden rounded-lg border border-gray-200 bg-white py-1 shadow-lg dark:border-gray-700 dark:bg-gray-900"
                    >
                      {isOwner && (
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => {
                            setMenuOpen(false);
                            setEditing(true);
                          }}
                          className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-gray-700 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none dark:text-gray-200 dark:hover:bg-gray-800 dark:focus:bg-gray-800"
                        >
                          <Pencil size={14} aria-hidden="true" />
                          Edit
                        </button>
                      )}
                      {canReport && (
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => {
                            setMenuOpen(false);
                            // The dialog gives the focus back to what had it on open: the menu button, not this item.
                            menuButtonRef.current?.focus();
                            setReporting(true);
                          }}
                          className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-gray-700 hover:bg-gray-100 focus:bg-gray-100 focus:outline-none dark:text-gray-200 dark:hover:bg-gray-800 dark:focus:bg-gray-800"
                        >
                          <Flag size={14} aria-hidden="true" />
                          Report
                        </button>
                      )}
                      {canDelete && (
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => {
                            setMenuOpen(false);
                            // As for Report: Cancel gives the focus back to the menu button, not this item.
                            menuButtonRef.current?.focus();
                            setConfirming(true);
                          }}
                          className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-red-600 hover:bg-red-50 focus:bg-red-50 focus:outline-none dark:text-red-400 dark:hover:bg-red-500/10 dark:focus:bg-red-500/10"
                        >
                          <Trash2 size={14} aria-hidden="true" />
                          Delete
                        </button>
                      )}
                    </div>
                  )}
                </div>
              )}
            </div>

            {editing ? (
              <div ref={editRef} className="mt-2">
                <EditCommentBox blogId={blogId} comment={comment} onDone={endEdit} />
              </div>
            ) : (
              <p className="mt-1 text-sm leading-6 wrap-anywhere whitespace-pre-wrap text-gray-800 dark:text-gray-200">{comment.comment}</p>
            )}

            <div className="mt-1.5 flex items-center gap-1 text-xs text-gray-500 dark:text-gray-400">
              <button
                type="button"
                onClick={onLike}
                aria-pressed={comment.isLiked}
                className={`-ml-2 inline-flex items-center gap-1 rounded-full px-2 py-1 hover:bg-gray-100 dark:hover:bg-gray-800 ${
                  // Rose 700, not 600: the count is text, and 600 gave 4.1:1 on the hover grey.
                  comment.isLiked ? 'text-rose-700 dark:text-rose-400' : ''
                }`}
              >
                <Heart size={14} aria-hidden="true" className={comment.isLiked ? 'fill-current' : ''} />
                <span aria-hidden="true">{comment.likeCount}</span>
                <span className="sr-only">{plural(comment.likeCount, 'like')}</span>
              </button>
              <span className="inline-flex items-center gap-1 px-2 py-1">
                <MessageCircle size={14} aria-hidden="true" />
                <span aria-hidden="true">{comment.replyCount}</span>
                <span className="sr-only">
                  {comment.replyCount} {comment.replyCount === 1 ? 'reply' : 'replies'}
                </span>
              </span>
              {!closed && (
                <button
                  ref={replyButtonRef}
                  type="button"
                  onClick={onReply}
                  aria-expanded={replying}
                  className="rounded-full px-2 py-1 font-medium hover:bg-gray-100 hover:text-gray-800 dark:hover:bg-gray-800 dark:hover:text-gray-100"
                >
                  Reply
                </button>
              )}
            </div>

            {replying && signedIn && (
              <div ref={replyRef} className="mt-2">
                <ReplyBox blogId={blogId} parentId={comment._id} parentName={name} onDone={endReply} />
              </div>
            )}
          </div>
        </div>
      </article>

      {comment.replies?.length > 0 && (
        <ul className={`${nestClasses(depth)} mt-1`} aria-label={`Replies to ${name}`}>
          {comment.replies.map((child) => (
            <CommentItem
              key={child._id}
              comment={child}
              depth={depth + 1}
              blogId={blogId}
              viewerId={viewerId}
              blogCreatorId={blogCreatorId}
              onDeleted={onDeleted}
              threadClosed={closed}
            />
          ))}
        </ul>
      )}
      {depth === 0 && <MoreReplies blogId={blogId} commentId={comment._id} cursor={replyCursor} threadRef={itemRef} />}

      {confirming && (
        <DeleteCommentDialog
          blogId={blogId}
          comment={comment}
          itemRef={itemRef}
          onDeleted={onDeleted}
          onClose={() => setConfirming(false)}
        />
      )}
      {canReport && (
        <LazyReportDialog
          open={reporting}
          target={{ type: 'comment', id: comment._id }}
          title={`Report comment by ${name}`}
          onClose={() => setReporting(false)}
        />
      )}
    </li>
  );
}
