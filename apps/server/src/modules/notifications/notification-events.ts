import { moderationNoticeText } from '@inkwell/core';
import type { BlockingEvents } from '../blocking/blocking.service';
import type { BlogEvents } from '../blogs/blogs.service';
import type { ReactionEvents } from '../blogs/reactions.service';
import type { CommentCreated, CommentEvents } from '../comments/comments.service';
import type { FollowEvents } from '../follows/follows.service';
import type { ModerationDeps } from '../moderation/moderation.service';
import type { NewNotification, NotificationsService } from './notifications.service';
import type { PostFanout } from './post-fanout';

/** A comment tells the parent's author of a reply, and the blog's creator of every comment on it. */
function commentItems({ commentId, blog, authorId, parentAuthorId }: CommentCreated): NewNotification[] {
  const items: NewNotification[] = [];
  if (parentAuthorId) items.push({ recipientId: parentAuthorId, senderId: authorId, type: 'reply', blogId: blog.id, commentId });
  // Unless the reply was already to the blog's creator.
  if (blog.creator_id !== parentAuthorId)
    items.push({
      recipientId: blog.creator_id,
      senderId: authorId,
      type: 'comment',
      blogId: blog.id,
      commentId,
      recipientRelations: blog.creator_relations,
    });
  return items;
}

/**
 * What each social action tells whom (issue: realtime notifications). Wired into the
 * reactions, comments and follows services as their event hooks.
 */
export function notificationEvents(n: NotificationsService): ReactionEvents & CommentEvents & FollowEvents {
  return {
    likeNotice: ({ blogDbId, blogCreatorId, creatorRelations, userId }) =>
      n.planToggle({ recipientId: blogCreatorId, senderId: userId, type: 'like', blogId: blogDbId, recipientRelations: creatorRelations }),
    followNotice: ({ followerId, followingId, followingRelations }) =>
      n.planToggle({ recipientId: followingId, senderId: followerId, type: 'follow', recipientRelations: followingRelations }),
    commentNotices: (e) => n.plan(commentItems(e)),
    async onCommentLikeChanged({ commentId, blog, commentAuthorId, userId, liked }, tx) {
      const key = { recipientId: commentAuthorId, senderId: userId, type: 'comment-like', blogId: blog.id, commentId };
      if (liked) await n.notify([key], tx);
      else await n.retract(key, tx);
    },
    onCommentDeleting: ({ blogDbId, commentId }, tx) => n.beforeDeleting({ blogId: blogDbId, commentId }, tx),
  };
}

/** Blocks and mutes: the follows a block ends take their notices, and the actor's open lists are read again. */
export function blockingNotificationEvents(n: NotificationsService): BlockingEvents {
  return {
    // The blocker's own tabs hear of it once, from onRelationChanged.
    onFollowEnded: ({ followerId, followingId, actorId }, tx) =>
      n.retract({ recipientId: followingId, senderId: followerId, type: 'follow' }, tx, { push: followingId !== actorId }),
    onRelationChanged: (actorId) => n.shownChanged(actorId),
  };
}

/** Blog hooks: new posts reach followers, edits reach the people who liked or saved. */
export function blogNotificationEvents(n: NotificationsService, fanout: PostFanout): BlogEvents {
  return {
    onPublished: ({ authorId, blogDbId }, tx) => fanout.followersOfPost(authorId, blogDbId, tx),
    onUpdated: ({ authorId, blogDbId }, tx) => fanout.reactorsOfUpdate(authorId, blogDbId, tx),
    onDeleting: ({ blogDbId }, tx) => n.beforeDeleting({ blogId: blogDbId }, tx),
  };
}

/**
 * A moderator hid or restored a post or comment: its author is told why, from no one (moderators
 * act for the site), so no block or mute of a moderator silences it.
 */
export function moderationNotificationEvents(n: NotificationsService): Pick<ModerationDeps, 'onHiddenChanged'> {
  return {
    onHiddenChanged: async ({ authorId, hidden, reason, blogDbId, commentDbId }, tx) => {
      const message = moderationNoticeText(hidden, commentDbId ? 'comment' : 'post', reason);
      await n.notify(
        [
          {
            recipientId: authorId,
            senderId: null,
            type: 'moderation',
            blogId: blogDbId,
            commentId: commentDbId ?? null,
            message,
            recipientRelations: 0,
          },
        ],
        tx,
      );
    },
  };
}
