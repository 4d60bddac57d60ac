import { BLOG_MESSAGES, type Blog } from '@inkwell/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api';
import { blogKeys } from '../../lib/queryKeys';
import { useIsSignedIn } from '../../lib/session';
import { STORAGE_KEYS, storage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { deleteBlog, toggleBlogLike, toggleBlogSave } from './api/blog';

export const SIGN_IN_MESSAGES = {
  like: 'Please sign in to like this blog',
  save: 'Please sign in to save this blog',
  delete: 'Please sign in to delete this blog',
} as const;

export const DELETE_MESSAGES = { success: BLOG_MESSAGES.deleted, failure: BLOG_MESSAGES.deleteFailed } as const;

/**
 * An optimistic toggle on the cached blog (SPEC.md 4): flips at once, reverts with the server's
 * message (or 'Something went wrong') on failure, and the server's returned flag sets the final state.
 */
function useBlogToggle<T>(
  blogId: string,
  request: () => Promise<T>,
  optimistic: (blog: Blog) => Blog,
  settle: (blog: Blog, result: T) => Blog,
) {
  const queryClient = useQueryClient();
  const key = blogKeys.blog(blogId);
  return useMutation({
    mutationFn: request,
    onMutate: async () => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Blog>(key);
      if (previous) queryClient.setQueryData<Blog>(key, optimistic(previous));
      return { previous };
    },
    onError: (error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData<Blog>(key, context.previous);
      toast.error(errorMessage(error));
    },
    onSuccess: (result) => {
      queryClient.setQueryData<Blog>(key, (blog) => (blog ? settle(blog, result) : blog));
      // The server's message is the success toast (SPEC.md 7 and 8: 'server messages elsewhere').
      const message = (result as { message?: unknown })?.message;
      if (typeof message === 'string' && message) toast.success(message);
      // Lists show counts too (profile tabs); let them refetch when next shown.
      void queryClient.invalidateQueries({ queryKey: blogKeys.lists, refetchType: 'none' });
    },
  });
}

/** Like, save and delete of the reading page (Follow is the shared FollowButton), with the sign-in messages of SPEC.md 5. */
export function useBlogActions(blog: Blog) {
  const signedIn = useIsSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { blogId } = blog;

  const like = useBlogToggle(
    blogId,
    () => toggleBlogLike(blogId),
    (b) => ({ ...b, isLiked: !b.isLiked, likeCount: Math.max(0, b.likeCount + (b.isLiked ? -1 : 1)) }),
    (b, r) => ({ ...b, isLiked: r.liked, likeCount: typeof r.likeCount === 'number' ? r.likeCount : b.likeCount }),
  );
  const save = useBlogToggle(
    blogId,
    () => toggleBlogSave(blogId),
    (b) => ({ ...b, isSaved: !b.isSaved, saveCount: Math.max(0, b.saveCount + (b.isSaved ? -1 : 1)) }),
    (b, r) => ({ ...b, isSaved: r.saved, saveCount: typeof r.saveCount === 'number' ? r.saveCount : b.saveCount }),
  );

  const remove = useMutation({
    mutationFn: () => deleteBlog(blogId),
    onSuccess: (result) => {
      toast.success(result?.message || DELETE_MESSAGES.success);
      storage.remove(STORAGE_KEYS.selectedBlog);
      queryClient.removeQueries({ queryKey: blogKeys.blog(blogId) });
      void queryClient.invalidateQueries({ queryKey: blogKeys.lists });
      navigate('/');
    },
    onError: (error) => toast.error(errorMessage(error, DELETE_MESSAGES.failure)),
  });

  /** Runs a toggle, or shows the sign-in message; a click while one is running is ignored. */
  const guarded = (mutation: { isPending: boolean; mutate: () => void }, message: string) => () => {
    if (!signedIn) {
      toast.error(message);
      return;
    }
    if (!mutation.isPending) mutation.mutate();
  };

  return {
    toggleLike: guarded(like, SIGN_IN_MESSAGES.like),
    toggleSave: guarded(save, SIGN_IN_MESSAGES.save),
    deleteBlog: (onDone?: () => void) => {
      if (!signedIn) {
        toast.error(SIGN_IN_MESSAGES.delete);
        return;
      }
      if (!remove.isPending) remove.mutate(undefined, { onSettled: onDone });
    },
    deleting: remove.isPending,
  };
}
