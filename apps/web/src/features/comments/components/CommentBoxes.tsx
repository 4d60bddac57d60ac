import type { RefObject } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { useAddReply, useDeleteComment, useEditComment } from '../api/comments';
import { subtreeSize } from '../tree';
import type { Comment } from '../types';
import { CommentForm } from './CommentForm';

/**
 * A comment's edit box, reply box and delete question, each mounted only while open with its own
 * mutation, so a comment holds only its like. (Measured with `npm run bench:panel`: no faster
 * beyond the host's spread; kept for the shorter CommentItem.)
 */

export const DELETE_COMMENT_QUESTION = 'Are you sure you want to delete this comment? This action cannot be undone.';
/** Said when the comment has replies: they go with it (a reviewer deleted ten of another reader's replies unwarned). */
const DELETE_REPLIES_TOO = 'Its replies will be deleted with it.';
const deleteTexts = (comment: Comment) => ({
  title: 'Delete comment',
  message: comment.replyCount > 0 || comment.replies?.length ? `${DELETE_COMMENT_QUESTION} ${DELETE_REPLIES_TOO}` : DELETE_COMMENT_QUESTION,
  confirm: 'Delete',
  busy: 'Deleting...',
});

export function EditCommentBox({ blogId, comment, onDone }: { blogId: string; comment: Comment; onDone: () => void }) {
  const edit = useEditComment(blogId);
  return (
    <CommentForm
      label="Edit comment"
      placeholder="Edit your comment..."
      submitLabel="Save"
      busyLabel="Saving..."
      initial={comment.comment}
      autoFocus
      pending={edit.isPending}
      onCancel={onDone}
      onSubmit={async (text) => {
        try {
          await edit.mutateAsync({ commentId: comment._id, text });
          onDone();
        } catch {
          // The mutation's toast says why; the box stays open with the text.
        }
        return false;
      }}
    />
  );
}

interface ReplyBoxProps {
  blogId: string;
  parentId: string;
  parentName: string;
  /** Called with the new reply's id once it is added, without one on Cancel. */
  onDone: (newReplyId?: string) => void;
}

export function ReplyBox({ blogId, parentId, parentName, onDone }: ReplyBoxProps) {
  const reply = useAddReply(blogId);
  return (
    <CommentForm
      label={`Reply to ${parentName}`}
      placeholder="Write a reply..."
      submitLabel="Post reply"
      busyLabel="Posting..."
      autoFocus
      pending={reply.isPending}
      draftKey={`reply-draft:${parentId}`}
      onCancel={() => onDone()}
      onSubmit={async (text) => {
        try {
          const added = await reply.mutateAsync({ parentId, text });
          onDone(added._id);
          return true;
        } catch {
          return false;
        }
      }}
    />
  );
}

/** A comment's own article (not its replies'). */
export const articleOf = (item: Element | null | undefined) => item?.querySelector<HTMLElement>(':scope > article') ?? null;

/** Where the focus may go when this comment is deleted: the next comment, else the one before, else its parent. */
function neighboursOf(item: HTMLElement): HTMLElement[] {
  const parent = item.parentElement?.closest('li');
  return [articleOf(item.nextElementSibling), articleOf(item.previousElementSibling), articleOf(parent)].filter(
    (a): a is HTMLElement => a !== null,
  );
}

interface DeleteCommentDialogProps {
  blogId: string;
  comment: Comment;
  /** The comment's list item: its neighbours are noted before it goes. */
  itemRef: RefObject<HTMLLIElement | null>;
  /** Takes the focus on once the comment is gone (its element and its neighbours, next first). */
  onDeleted: (item: HTMLElement, neighbours: HTMLElement[]) => void;
  onClose: () => void;
}

export function DeleteCommentDialog({ blogId, comment, itemRef, onDeleted, onClose }: DeleteCommentDialogProps) {
  const remove = useDeleteComment(blogId);
  const onConfirm = async () => {
    const item = itemRef.current;
    const neighbours = item ? neighboursOf(item) : [];
    try {
      await remove.mutateAsync({ commentId: comment._id, size: subtreeSize(comment) });
      if (item) onDeleted(item, neighbours);
    } catch {
      // The mutation's toast says why; the dialog closes and gives the focus back to Comment options.
    } finally {
      onClose();
    }
  };
  return <ConfirmDialog open texts={deleteTexts(comment)} busy={remove.isPending} onClose={onClose} onConfirm={() => void onConfirm()} />;
}
