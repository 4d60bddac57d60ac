import type { Blog, Profile } from '@inkwell/core';
import { useState } from 'react';
import { apiRequest, errorMessage } from '../lib/api';
import { queryClient } from '../lib/queryClient';
import { blogKeys, PROFILE_KEY_LENGTH, profileKeys } from '../lib/queryKeys';
import { useIsSignedIn, useSession } from '../lib/session';
import { toast } from '../lib/toast';

export const SIGN_IN_TO_FOLLOW = 'Please sign in to follow this creator';

/** PATCH /api/v1/follow/{userId} → {message, following}. */
export function toggleFollow(userId: string) {
  return apiRequest<{ success: true; message: string; following: boolean }>(`/follow/${encodeURIComponent(userId)}`, { method: 'PATCH' });
}

/** Moves the cached follower count of the followed person's profile at once (the refetch confirms it). */
function adjustCachedProfile(userId: string, following: boolean): void {
  for (const [key, data] of queryClient.getQueriesData<{ success: true; user: Profile }>({ queryKey: profileKeys.all })) {
    if (key.length !== PROFILE_KEY_LENGTH || data?.user?._id !== userId || data.user.isFollowing === following) continue;
    queryClient.setQueryData(key, {
      ...data,
      user: { ...data.user, isFollowing: following, followerCount: Math.max(0, data.user.followerCount + (following ? 1 : -1)) },
    });
  }
}

/** The reading page of a blog by this person shows the same state (its refetch would confirm it). */
function adjustCachedBlogs(userId: string, following: boolean): void {
  queryClient.setQueriesData<Blog>({ queryKey: blogKeys.blogs }, (blog) =>
    blog && blog.creator?._id === userId && blog.isFollowing !== following ? { ...blog, isFollowing: following } : blog,
  );
}

/**
 * Follow/Following of SPEC.md 4 (profile, follow lists and the reading page): toggles optimistically,
 * reverts on failure, and the server's `following` sets the final state; the session's following list is kept in step ('followers' update).
 */
export function useFollow(userId: string, initial: boolean) {
  const signedIn = useIsSignedIn();
  const [override, setOverride] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  // A fresh answer from the server (refetch) replaces what this button believed.
  const [seenInitial, setSeenInitial] = useState(initial);
  if (seenInitial !== initial) {
    setSeenInitial(initial);
    if (!busy) setOverride(null);
  }
  const following = override ?? initial;

  const toggle = async () => {
    if (!signedIn) {
      toast.error(SIGN_IN_TO_FOLLOW);
      return;
    }
    if (busy) return;
    const before = following;
    setOverride(!before);
    setBusy(true);
    try {
      const result = await toggleFollow(userId);
      setOverride(result.following);
      const session = useSession.getState();
      if (session.user.following.includes(userId) !== result.following) session.update({ kind: 'followers', userId });
      adjustCachedProfile(userId, result.following);
      adjustCachedBlogs(userId, result.following);
      // Profiles refetch now; open follower/following lists keep their rows (so an unfollow can be undone)
      // and refetch the next time they open.
      void queryClient.invalidateQueries({ queryKey: profileKeys.all, refetchType: 'none' });
      void queryClient.refetchQueries({
        queryKey: profileKeys.all,
        type: 'active',
        predicate: (q) => q.queryKey.length === PROFILE_KEY_LENGTH,
      });
      toast.success(result.message);
    } catch (error) {
      setOverride(before);
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return { following, busy, toggle };
}
