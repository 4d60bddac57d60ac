import type { BlogEvents } from '../blogs/blogs.service';
import type { ReactionEvents } from '../blogs/reactions.service';
import type { CommentEvents } from '../comments/comments.service';
import type { FollowEvents } from '../follows/follows.service';
import type { NotificationsService } from './notifications.service';

/**
 * What each social action tells whom (issue: realtime notifications). Wired into the
 * reactions, comments and follows services as their event hooks.
 */
export function notificationEvents(n: NotificationsService): ReactionEvents & CommentEvents & FollowEvents {
  return {
    async onLikeChanged({ blogDbId, blogCreatorId, creatorRelations, userId, liked }, tx) {
      const key = { recipientId: blogCreatorId, senderId: userId, type: 'like', blogId: blogDbId };
      if (liked) await n.notify([{ ...key, recipientRelations: creatorRelations }], tx);
      else await n.retract(key, tx);
    },
    async onFollowChanged({ followerId, followingId, followingRelations, following }, tx) {
      const key = { recipientId: followingId, senderId: followerId, type: 'follow' };
      if (following) await n.notify([{ ...key, recipientRelations: followingRelations }], tx);
      else await n.retract(key, tx);
    },
    async onCommentCreated({ commentId, blog, authorId, parentAuthorId }, tx) {
      const items = [];
      if (parentAuthorId) items.push({ recipientId: parentAuthorId, senderId: authorId, type: 'reply', blogId: blog.id, commentId });
      // The blog's creator hears of every comment on it, unless the reply was already to them.
      if (blog.creator_id !== parentAuthorId)
        items.push({
          recipientId: blog.creator_id,
          senderId: authorId,
          type: 'comment',
          blogId: blog.id,
          commentId,
          recipientRelations: blog.creator_relations,
        });
      await n.notify(items, tx);
    },
    async onCommentLikeChanged({ commentId, blog, commentAuthorId, userId, liked }, tx) {
      const key = { recipientId: commentAuthorId, senderId: userId, type: 'comment-like', blogId: blog.id, commentId };
      if (liked) await n.notify([key], tx);
      else await n.retract(key, tx);
    },
  };
}

/** Blog hooks: new posts reach followers, edits reach the people who liked or saved. */
export function blogNotificationEvents(n: NotificationsService): BlogEvents {
  return {
    onPublished: ({ authorId, blogDbId }, tx) => n.notifyFollowersOfPost(authorId, blogDbId, tx),
    onUpdated: ({ authorId, blogDbId }, tx) => n.notifyReactorsOfUpdate(authorId, blogDbId, tx),
  };
}
