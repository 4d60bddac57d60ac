import { type BlogListResponse, type FollowUser, PROFILE_PAGE_SIZE, type Profile, type SessionUser } from '@inkwell/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { queryClient } from '../../../lib/queryClient';
import { profileKeys } from '../../../lib/queryKeys';
import { useSession } from '../../../lib/session';
import { syncProfileListsWithReactions } from './reactionSync';

export { PROFILE_PAGE_SIZE };

// From the first profile shown on, its cached lists follow likes and saves made elsewhere (reactionSync.ts).
syncProfileListsWithReactions(queryClient);
export const FOLLOW_PAGE_SIZE = 20;

/** The profile's blog lists and their API paths (SPEC.md 2: /@{username}[/saved-blogs|/liked-blogs|/draft-blogs]). */
export const PROFILE_LISTS = {
  blogs: 'blogs',
  'saved-blogs': 'saved-blogs',
  'liked-blogs': 'liked-blogs',
  'draft-blogs': 'drafts',
} as const;
export type ProfileList = keyof typeof PROFILE_LISTS;
export type FollowDirection = 'followers' | 'following';

/** The signed-in user's id, or 'anonymous'. */
export function useViewer(): string {
  return useSession((s) => (s.user.token ? (s.user.id ?? s.user._id ?? 'anonymous') : 'anonymous'));
}

const path = (username: string) => `/users/${encodeURIComponent(username)}`;

/** GET /users/{username} → {user}; 404 'User not found'. */
export function fetchProfile(username: string, signal?: AbortSignal) {
  return apiRequest<{ success: true; user: Profile }>(path(username), { signal });
}

export function useProfile(username: string) {
  const viewer = useViewer();
  return useQuery({ queryKey: profileKeys.user(viewer, username), queryFn: ({ signal }) => fetchProfile(username, signal), retry: false });
}

/** GET /users/{username}/{blogs|drafts|saved-blogs|liked-blogs}?page=&limit= → {blogs, hasMore}. */
export function useProfileBlogs(username: string, list: ProfileList, enabled: boolean) {
  const viewer = useViewer();
  return useInfiniteQuery({
    queryKey: profileKeys.blogs(viewer, username, list),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<BlogListResponse>(`${path(username)}/${PROFILE_LISTS[list]}`, {
        query: { page: pageParam, limit: PROFILE_PAGE_SIZE },
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    enabled,
    retry: false,
  });
}

export interface FollowListResponse {
  success: true;
  users: FollowUser[];
  hasMore: boolean;
}

/** GET /users/{username}/{followers|following}?page=&limit= → {users, hasMore}. */
export function useFollowList(username: string, direction: FollowDirection, enabled: boolean) {
  const viewer = useViewer();
  return useInfiniteQuery({
    queryKey: profileKeys.follows(viewer, username, direction),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<FollowListResponse>(`${path(username)}/${direction}`, { query: { page: pageParam, limit: FOLLOW_PAGE_SIZE }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, _pages, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/** PATCH /users/{id} (multipart: name, username, bio, profilePic = file | existing url | '' to remove). */
export function updateProfile(userId: string, form: FormData) {
  return apiRequest<{ success: true; message: string; user: SessionUser }>(path(userId), { method: 'PATCH', body: form });
}
