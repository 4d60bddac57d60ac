import { type RefObject, useRef } from 'react';
import { useFocusLater } from '../../../hooks/useFocusLater';
import { useMoreReplies } from '../api/comments';

interface MoreRepliesProps {
  blogId: string;
  /** The top-level comment whose thread the page cut short. */
  commentId: string;
  /** Where its replies read on (the page's replyCursors); none once they are all shown. */
  cursor: string | undefined;
  /** The thread's <li>: the new replies show inside it. */
  threadRef: RefObject<HTMLLIElement | null>;
}

const articleOf = (item: Element | null | undefined) => item?.querySelector<HTMLElement>(':scope > article') ?? null;

/**
 * 'Show more replies' below a thread that its page of comments cut short (past 500 replies on a
 * page). Rendered for every top-level comment, even with no cursor, so the focus can still be
 * handed on after the last load has taken the button away.
 */
export function MoreReplies({ blogId, commentId, cursor, threadRef }: MoreRepliesProps) {
  const more = useMoreReplies(blogId);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const focusLater = useFocusLater();
  // The cursor this render shows: it changes (to the next one, or none) once the cache holds the
  // replies read, which React Query tells the panel a task later than this load settles.
  const shownCursor = useRef(cursor);
  shownCursor.current = cursor;

  // The button is disabled while it loads, which takes the focus from it. Once the replies show,
  // the first one new here gets it (a reply of the viewer's posted meanwhile was shown already);
  // the button when nothing new came or the load failed; the thread's comment if the button is gone.
  const load = () => {
    if (!cursor) return;
    const button = buttonRef.current;
    const shown = new Set(
      Array.from(threadRef.current?.querySelectorAll<HTMLElement>('li[data-comment-id]') ?? [], (li) => li.dataset.commentId),
    );
    more.mutate(
      { commentId, cursor },
      {
        onSettled: (result) =>
          focusLater(() => {
            // Not yet rendered: the button would get the focus and then be taken away with it.
            if (buttonRef.current?.disabled || (result && shownCursor.current === cursor)) return null;
            const fresh = result?.replies.find((r) => !shown.has(r._id));
            const item = fresh ? threadRef.current?.querySelector(`li[data-comment-id="${CSS.escape(fresh._id)}"]`) : null;
            return articleOf(item) ?? buttonRef.current ?? articleOf(threadRef.current);
          }, button),
      },
    );
  };

  if (!cursor) return null;
  return (
    // Lined up with the thread's replies (CommentItem's first level of indent), so it reads as theirs.
    <div className="mt-3 ml-2 pl-3 sm:ml-4 sm:pl-4">
      <button
        ref={buttonRef}
        type="button"
        onClick={load}
        disabled={more.isPending}
        className="rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800"
      >
        {more.isPending ? 'Loading...' : 'Show more replies'}
      </button>
    </div>
  );
}
