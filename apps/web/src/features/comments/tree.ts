import type { Comment } from './types';

/**
 * Pure edits of a comment thread (SPEC.md 4): a new reply is inserted under its parent, an
 * edit replaces the text, deleting removes the comment with its replies, likes toggle.
 * Every function returns new arrays and leaves the input untouched.
 */

/** Applies `change` to the comment with this id, wherever it is nested. */
export function updateComment(comments: Comment[], id: string, change: (c: Comment) => Comment): Comment[] {
  let touched = false;
  const next = comments.map((c) => {
    if (c._id === id) {
      touched = true;
      return change(c);
    }
    if (c.replies?.length) {
      const replies = updateComment(c.replies, id, change);
      if (replies !== c.replies) {
        touched = true;
        return { ...c, replies };
      }
    }
    return c;
  });
  return touched ? next : comments;
}

export function findComment(comments: Comment[], id: string): Comment | undefined {
  for (const c of comments) {
    if (c._id === id) return c;
    const found = c.replies?.length ? findComment(c.replies, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A comment plus all replies below it. */
export function subtreeSize(comment: Comment): number {
  return 1 + (comment.replies ?? []).reduce((n, r) => n + subtreeSize(r), 0);
}

/** Puts a new reply last under its parent (replies are oldest first) and counts it. */
export function insertReply(comments: Comment[], parentId: string, reply: Comment): Comment[] {
  return updateComment(comments, parentId, (parent) =>
    parent.replies?.some((r) => r._id === reply._id)
      ? parent
      : { ...parent, replies: [...(parent.replies ?? []), { ...reply, replies: reply.replies ?? [] }], replyCount: parent.replyCount + 1 },
  );
}

/** Server order of replies: oldest first, the id breaking ties. */
const byAge = (a: Comment, b: Comment) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0;

function collectIds(comment: Comment, ids: Set<string>): void {
  ids.add(comment._id);
  for (const r of comment.replies ?? []) collectIds(r, ids);
}

/**
 * Puts replies read on below a cut thread (flat, each naming its parent, a parent always before
 * its replies) under their parents in the thread of `rootId`. Unlike insertReply no count moves:
 * the page's counts already had them. A reply already shown (the viewer's own, posted meanwhile)
 * is not added again, and each parent's replies are kept oldest first, as the server lists them.
 * A reply whose parent is not in the thread (deleted meanwhile) is dropped with its replies.
 */
export function mergeReplies(comments: Comment[], rootId: string, replies: Comment[]): Comment[] {
  return updateComment(comments, rootId, (root) => {
    const shown = new Set<string>();
    collectIds(root, shown);
    const byParent = new Map<string, Comment[]>();
    for (const reply of replies) {
      if (shown.has(reply._id) || !reply.parentComment) continue;
      shown.add(reply._id);
      const siblings = byParent.get(reply.parentComment);
      if (siblings) siblings.push(reply);
      else byParent.set(reply.parentComment, [reply]);
    }
    if (!byParent.size) return root;
    const attach = (c: Comment): Comment => {
      const added = byParent.get(c._id);
      const current = c.replies ?? [];
      const replies = (added ? [...current, ...added].sort(byAge) : current).map(attach);
      return added || replies.some((r, i) => r !== current[i]) ? { ...c, replies } : c;
    };
    return attach(root);
  });
}

/** Replaces a comment's text (and fields the server returned) but keeps its loaded replies. */
export function replaceComment(comments: Comment[], updated: Comment): Comment[] {
  return updateComment(comments, updated._id, (c) => ({ ...c, ...updated, replies: c.replies }));
}

/** Removes a comment with its replies; its parent's reply count drops by one. */
export function removeComment(comments: Comment[], id: string): Comment[] {
  const out: Comment[] = [];
  let changed = false;
  for (const c of comments) {
    if (c._id === id) {
      changed = true;
      continue;
    }
    if (c.replies?.length) {
      const replies = removeComment(c.replies, id);
      if (replies !== c.replies) {
        changed = true;
        const direct = replies.length < c.replies.length;
        out.push({ ...c, replies, replyCount: direct ? Math.max(0, c.replyCount - 1) : c.replyCount });
        continue;
      }
    }
    out.push(c);
  }
  return changed ? out : comments;
}

/** Flips the viewer's like (optimistic) or sets it from the server's answer. */
export function setLike(comments: Comment[], id: string, liked?: boolean, likeCount?: number): Comment[] {
  return updateComment(comments, id, (c) => {
    const next = liked ?? !c.isLiked;
    const count = likeCount ?? Math.max(0, c.likeCount + (next === c.isLiked ? 0 : next ? 1 : -1));
    return { ...c, isLiked: next, likeCount: count };
  });
}
