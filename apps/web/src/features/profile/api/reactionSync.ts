import type { BlogCard, BlogListResponse } from '@inkwell/core';
import type { InfiniteData, Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { blogKeys, profileKeys } from '../../../lib/queryKeys';
import { useSession } from '../../../lib/session';

/**
 * Keeps the cached profile lists in step with a like or save toggled elsewhere (the reading page's
 * Like and Save change the cached blog under ['blog', blogId] optimistically, then settle it with
 * the server's flags). Without this, going Back to one's own Saved or Liked tab listed an unsaved or
 * unliked post again for the 30 s the list stays fresh. Done by watching the query cache, so the
 * reading feature needs no knowledge of profile keys:
 * - a blog that stops being saved (liked) leaves the viewer's own Saved (Liked) list at once, and
 *   that list and the profile's counts are marked stale (refetched when shown);
 * - when the toggle's request ends, those lists are marked stale again, so a refetch that ran while
 *   it was still on its way (a very quick Back) is not what stays;
 * - like and save counts on cards of every cached profile list follow the blog's.
 */

interface Reactions {
  isLiked: boolean;
  isSaved: boolean;
  likeCount: number;
  saveCount: number;
}

export interface Viewer {
  /** The id profile keys carry (see useViewer). */
  id: string;
  username: string;
}

type ListPages = InfiniteData<BlogListResponse>;

const LISTS = [
  { flag: 'isSaved', list: 'saved-blogs' },
  { flag: 'isLiked', list: 'liked-blogs' },
] as const;

function sessionViewer(): Viewer | null {
  const user = useSession.getState().user;
  const id = user.token ? (user.id ?? user._id) : null;
  return id && user.username ? { id, username: user.username } : null;
}

/** The one blog of the reading page: ['blog', blogId] (not the editor's ['blog', blogId, 'editor']). */
function blogIdOf(key: QueryKey): string | null {
  return key.length === blogKeys.blog('').length && key[0] === blogKeys.blogs[0] && typeof key[1] === 'string' ? key[1] : null;
}

function reactionsOf(data: unknown): Reactions | null {
  if (!data || typeof data !== 'object') return null;
  const blog = data as Partial<Reactions>;
  if (typeof blog.isLiked !== 'boolean' || typeof blog.isSaved !== 'boolean') return null;
  if (typeof blog.likeCount !== 'number' || typeof blog.saveCount !== 'number') return null;
  return { isLiked: blog.isLiked, isSaved: blog.isSaved, likeCount: blog.likeCount, saveCount: blog.saveCount };
}

/** A blog list of a profile as this viewer sees it: ['profile', viewer, username, 'blogs', list]. */
const isProfileListOf = (viewer: string) => (query: Query) => {
  const key = query.queryKey;
  return key.length === 5 && key[0] === profileKeys.all[0] && key[1] === viewer && key[3] === 'blogs';
};

function mapPages(data: ListPages | undefined, map: (blogs: BlogCard[]) => BlogCard[]): ListPages | undefined {
  if (!data?.pages) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    const blogs = map(page.blogs);
    if (blogs === page.blogs) return page;
    changed = true;
    return { ...page, blogs };
  });
  return changed ? { ...data, pages } : data;
}

/**
 * Starts watching `client`'s cache; returns the function that stops it. `viewerOf` names who is
 * signed in (the session, by default); nothing is done for a visitor.
 */
export function syncProfileListsWithReactions(client: QueryClient, viewerOf: () => Viewer | null = sessionViewer): () => void {
  const seen = new Map<string, { viewer: string | null; reactions: Reactions }>();
  /** Lists (and profiles) changed by a toggle whose request has not ended yet. */
  const pending = new Map<string, QueryKey>();

  const markStale = (key: QueryKey) => void client.invalidateQueries({ queryKey: key, exact: true });

  /** New counts on a list's cards without making the list look fresher than it was. */
  const patchCounts = (blogId: string, after: Reactions, viewer: Viewer) => {
    for (const query of client.getQueryCache().findAll({ predicate: isProfileListOf(viewer.id) })) {
      const data = query.state.data as ListPages | undefined;
      const next = mapPages(data, (blogs) =>
        blogs.some((b) => b.blogId === blogId && (b.likeCount !== after.likeCount || b.saveCount !== after.saveCount))
          ? blogs.map((b) => (b.blogId === blogId ? { ...b, likeCount: after.likeCount, saveCount: after.saveCount } : b))
          : blogs,
      );
      if (next === data) continue;
      const { dataUpdatedAt, isInvalidated } = query.state;
      client.setQueryData(query.queryKey, next, { updatedAt: dataUpdatedAt });
      if (isInvalidated) void client.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: 'none' });
    }
  };

  const changed = (blogId: string, before: Reactions, after: Reactions, viewer: Viewer) => {
    if (before.likeCount !== after.likeCount || before.saveCount !== after.saveCount) patchCounts(blogId, after, viewer);
    let flagChanged = false;
    for (const { flag, list } of LISTS) {
      if (before[flag] === after[flag]) continue;
      flagChanged = true;
      const key = profileKeys.blogs(viewer.id, viewer.username, list);
      if (!after[flag]) {
        client.setQueryData<ListPages>(key, (data) =>
          mapPages(data, (blogs) => (blogs.some((b) => b.blogId === blogId) ? blogs.filter((b) => b.blogId !== blogId) : blogs)),
        );
      }
      markStale(key);
      pending.set(JSON.stringify(key), key);
    }
    if (flagChanged) {
      // The profile's own Liked and Saved counts (Activity Stats).
      const profile = profileKeys.user(viewer.id, viewer.username);
      markStale(profile);
      pending.set(JSON.stringify(profile), profile);
    }
  };

  const record = (query: Query) => {
    const blogId = blogIdOf(query.queryKey);
    if (!blogId) return;
    const reactions = reactionsOf(query.state.data);
    const viewer = viewerOf();
    const before = seen.get(blogId);
    if (!reactions) {
      seen.delete(blogId);
      return;
    }
    seen.set(blogId, { viewer: viewer?.id ?? null, reactions });
    // Only a change seen by the same signed-in person is theirs (a new sign-in refetches the flags).
    if (before && viewer && before.viewer === viewer.id) changed(blogId, before.reactions, reactions, viewer);
  };

  for (const query of client.getQueryCache().findAll({ queryKey: blogKeys.blogs })) record(query);

  const stopQueries = client.getQueryCache().subscribe((event) => {
    if (event.type === 'removed') {
      const blogId = blogIdOf(event.query.queryKey);
      if (blogId) seen.delete(blogId);
    } else if (event.type === 'added' || (event.type === 'updated' && event.action.type === 'success')) {
      record(event.query);
    }
  });

  const stopMutations = client.getMutationCache().subscribe((event) => {
    if (event.type !== 'updated' || (event.action.type !== 'success' && event.action.type !== 'error') || pending.size === 0) return;
    for (const key of pending.values()) markStale(key);
    pending.clear();
  });

  return () => {
    stopQueries();
    stopMutations();
  };
}
