/**
 * Query keys that more than one feature reads, writes or invalidates (the reading page, comments,
 * the editor, profiles, the follow button). Kept here so features never import each other.
 */

/** Optional filters of the list call (SPEC.md 7: GET /blogs takes the search filters). */
export interface BlogFilters {
  limit?: number;
  tag?: string;
  search?: string;
}

/** Lists under ['blogs', ...] and one blog under ['blog', blogId], so writers can invalidate them. */
export const blogKeys = {
  lists: ['blogs'] as const,
  feed: (query: BlogFilters) => ['blogs', query] as const,
  results: (query: BlogFilters) => ['blogs', 'search', query] as const,
  blog: (blogId: string) => ['blog', blogId] as const,
  /** Every cached single blog. */
  blogs: ['blog'] as const,
};

/**
 * Keys carry the viewer: what a profile shows (isOwner, isFollowing, private tabs) depends on who asks,
 * so another sign-in in the same tab never sees the previous person's answers.
 */
export const profileKeys = {
  all: ['profile'] as const,
  user: (viewer: string, username: string) => ['profile', viewer, username.toLowerCase()] as const,
  blogs: <L extends string>(viewer: string, username: string, list: L) =>
    ['profile', viewer, username.toLowerCase(), 'blogs', list] as const,
  follows: <D extends string>(viewer: string, username: string, direction: D) =>
    ['profile', viewer, username.toLowerCase(), direction] as const,
};

/** Length of a profile key (not a list key); used to refetch profiles only. */
export const PROFILE_KEY_LENGTH = 3;
