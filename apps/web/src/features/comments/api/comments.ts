import { type Blog, COMMENT_MESSAGES, COMMENTS_PAGE_SIZE, type CommentRepliesResponse } from '@inkwell/core';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../../lib/api';
import { blogKeys } from '../../../lib/queryKeys';
import { toast } from '../../../lib/toast';
import { insertReply, mergeReplies, removeComment, replaceComment, setLike } from '../tree';
import type { Comment, CommentsPage } from '../types';

export const commentKeys = { list: (blogId: string) => ['comments', blogId] as const };

const path = (id: string) => encodeURIComponent(id);

/** GET /api/v1/blogs/{blogId}/comments?page=&limit= → newest top-level first, replies nested oldest first. */
export function fetchComments(blogId: string, page: number, signal?: AbortSignal): Promise<CommentsPage> {
  return apiRequest<CommentsPage>(`/blogs/${path(blogId)}/comments`, { query: { page, limit: COMMENTS_PAGE_SIZE }, signal });
}

export function useComments(blogId: string) {
  return useInfiniteQuery({
    queryKey: commentKeys.list(blogId),
    queryFn: ({ pageParam, signal }) => fetchComments(blogId, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
  });
}

/** The loaded comments of every page, without the duplicates offset paging can produce after new posts. */
export function flattenComments(data: InfiniteData<CommentsPage> | undefined): Comment[] {
  const seen = new Set<string>();
  const out: Comment[] = [];
  for (const page of data?.pages ?? []) {
    for (const comment of page.comments ?? []) {
      if (seen.has(comment._id)) continue;
      seen.add(comment._id);
      out.push(comment);
    }
  }
  return out;
}

/**
 * The cursor of each shown thread that its page cut short, by top-level comment id. A comment
 * repeated on a later page is shown from the first page that has it (flattenComments), so its
 * cursor is that page's too.
 */
export function threadCursors(data: InfiniteData<CommentsPage> | undefined): Map<string, string> {
  const seen = new Set<string>();
  const cursors = new Map<string, string>();
  for (const page of data?.pages ?? []) {
    for (const comment of page.comments ?? []) {
      if (seen.has(comment._id)) continue;
      seen.add(comment._id);
      const cursor = page.replyCursors?.[comment._id];
      if (cursor) cursors.set(comment._id, cursor);
    }
  }
  return cursors;
}

type Pages = InfiniteData<CommentsPage, number>;

/** Edits the cached thread of every loaded page; the count delta goes to the total and to the blog's commentCount. */
export function editThread(
  queryClient: QueryClient,
  blogId: string,
  edit: (comments: Comment[], pageIndex: number) => Comment[],
  countDelta = 0,
) {
  queryClient.setQueryData<Pages>(commentKeys.list(blogId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page, i) => ({
            ...page,
            comments: edit(page.comments, i),
            total: Math.max(0, page.total + countDelta),
          })),
        }
      : data,
  );
  if (countDelta) {
    queryClient.setQueryData<Blog>(blogKeys.blog(blogId), (blog) =>
      blog ? { ...blog, commentCount: Math.max(0, blog.commentCount + countDelta) } : blog,
    );
    void queryClient.invalidateQueries({ queryKey: blogKeys.lists, refetchType: 'none' });
  }
}

const findPages = (queryClient: QueryClient, blogId: string) => queryClient.getQueryData<Pages>(commentKeys.list(blogId));

/** A new top-level comment goes first on the first page (a page is made when none was loaded) and counts once. */
export function addCommentToCache(queryClient: QueryClient, blogId: string, comment: Comment): void {
  const fresh = { ...comment, replies: comment.replies ?? [] };
  if (!findPages(queryClient, blogId)) {
    queryClient.setQueryData<Pages>(commentKeys.list(blogId), {
      pages: [{ comments: [], hasMore: false, total: 0, replyCursors: {} }],
      pageParams: [1],
    });
  }
  editThread(queryClient, blogId, (comments, i) => (i === 0 ? [fresh, ...comments.filter((c) => c._id !== fresh._id)] : comments), 1);
}

/**
 * Replies read on below a cut thread go under their parents, uncounted (the totals already had
 * them), and the thread keeps the next cursor, or none at the end. Only a page still holding the
 * cursor the read started from takes them: a page refetched meanwhile starts over from its own.
 */
export function addRepliesToCache(
  queryClient: QueryClient,
  blogId: string,
  rootId: string,
  from: string,
  { replies, nextCursor }: Pick<CommentRepliesResponse, 'replies' | 'nextCursor'>,
): void {
  queryClient.setQueryData<Pages>(commentKeys.list(blogId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => {
            if (page.replyCursors?.[rootId] !== from) return page;
            const { [rootId]: _done, ...others } = page.replyCursors;
            return {
              ...page,
              comments: mergeReplies(page.comments, rootId, replies),
              replyCursors: nextCursor ? { ...others, [rootId]: nextCursor } : others,
            };
          }),
        }
      : data,
  );
}

/** GET /blogs/{blogId}/comments/{commentId}/replies?cursor= → {replies, nextCursor}: the rest of a cut thread, 500 at a time. */
export function useMoreReplies(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, cursor }: { commentId: string; cursor: string }) =>
      apiRequest<CommentRepliesResponse>(`/blogs/${path(blogId)}/comments/${path(commentId)}/replies`, { query: { cursor } }),
    onSuccess: (result, { commentId, cursor }) => addRepliesToCache(queryClient, blogId, commentId, cursor, result),
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** POST /blogs/comment/{blogId} {comment} → 201 {newComment}; shown first. */
export function useAddComment(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      apiRequest<{ newComment: Comment }>(`/blogs/comment/${path(blogId)}`, { method: 'POST', body: { comment: text } }).then(
        (r) => r.newComment,
      ),
    onSuccess: (comment) => addCommentToCache(queryClient, blogId, comment),
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** POST /comment/{parentCommentId}/{blogId} {reply} → 201 {newReply}; inserted under its parent. */
export function useAddReply(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parentId, text }: { parentId: string; text: string }) =>
      apiRequest<{ newReply: Comment }>(`/comment/${path(parentId)}/${path(blogId)}`, { method: 'POST', body: { reply: text } }).then(
        (r) => r.newReply,
      ),
    onSuccess: (reply, { parentId }) => editThread(queryClient, blogId, (comments) => insertReply(comments, parentId, reply), 1),
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** PATCH /blogs/edit-comment/{commentId} {updatedCommentContent} → {updatedComment}. */
export function useEditComment(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId, text }: { commentId: string; text: string }) =>
      apiRequest<{ message?: string; updatedComment: Comment }>(`/blogs/edit-comment/${path(commentId)}`, {
        method: 'PATCH',
        body: { updatedCommentContent: text },
      }),
    onSuccess: ({ message, updatedComment }) => {
      editThread(queryClient, blogId, (comments) => replaceComment(comments, updatedComment));
      if (message) toast.success(message);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** DELETE /blogs/comment/{commentId} → {message}; removes the comment with its replies, then refreshes the pages. */
export function useDeleteComment(blogId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ commentId }: { commentId: string; size: number }) =>
      apiRequest<{ message?: string }>(`/blogs/comment/${path(commentId)}`, { method: 'DELETE' }),
    onSuccess: (result, { commentId, size }) => {
      editThread(queryClient, blogId, (comments) => removeComment(comments, commentId), -size);
      toast.success(result?.message || COMMENT_MESSAGES.deleted);
      // Offset pages shift after a delete: reload the loaded pages so none is skipped.
      void queryClient.invalidateQueries({ queryKey: commentKeys.list(blogId) });
      void queryClient.invalidateQueries({ queryKey: blogKeys.blog(blogId) });
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** PATCH /blogs/like-comment/{commentId} → {liked, likeCount}: optimistic, reverted on failure, server sets the final state. */
export function useLikeComment(blogId: string) {
  const queryClient = useQueryClient();
  const key = commentKeys.list(blogId);
  return useMutation({
    mutationFn: (commentId: string) =>
      apiRequest<{ message?: string; liked: boolean; likeCount: number }>(`/blogs/like-comment/${path(commentId)}`, { method: 'PATCH' }),
    onMutate: async (commentId) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Pages>(key);
      editThread(queryClient, blogId, (comments) => setLike(comments, commentId));
      return { previous };
    },
    onError: (error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      toast.error(errorMessage(error));
    },
    onSuccess: (result, commentId) => {
      editThread(queryClient, blogId, (comments) => setLike(comments, commentId, result.liked, result.likeCount));
      if (result.message) toast.success(result.message);
    },
  });
}
