import type { BlogCard, BlogListResponse } from '@inkwell/core';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { syncProfileListsWithReactions } from './reactionSync';

const card = (blogId: string, likeCount = 1, saveCount = 1): BlogCard => ({
  _id: `id-${blogId}`,
  blogId,
  title: blogId,
  description: '',
  image: null,
  tags: [],
  draft: false,
  creator: null,
  readingTime: 1,
  likeCount,
  commentCount: 0,
  saveCount,
  createdAt: '2026-01-01T00:00:00.000Z',
  hidden: false,
});
const pages = (...blogs: BlogCard[]): InfiniteData<BlogListResponse> => ({
  pages: [{ success: true, blogs, hasMore: false }],
  pageParams: [1],
});
const ids = (data: unknown) => (data as InfiniteData<BlogListResponse>).pages.flatMap((p) => p.blogs.map((b) => b.blogId));

const savedKey = ['profile', 'u1', 'ada', 'blogs', 'saved-blogs'];
const likedKey = ['profile', 'u1', 'ada', 'blogs', 'liked-blogs'];
const authorKey = ['profile', 'u1', 'bo', 'blogs', 'blogs'];
const othersSavedKey = ['profile', 'u1', 'bo', 'blogs', 'saved-blogs'];
const profileKey = ['profile', 'u1', 'ada'];
const blog = { blogId: 'b1', isLiked: true, isSaved: true, likeCount: 3, saveCount: 2 };

let stop = () => {};
afterEach(() => stop());

function setUp(viewer: { id: string; username: string } | null = { id: 'u1', username: 'Ada' }) {
  const client = new QueryClient();
  client.setQueryData(['blog', 'b1'], blog);
  client.setQueryData(savedKey, pages(card('b1', 3, 2), card('b2')));
  client.setQueryData(likedKey, pages(card('b1', 3, 2), card('b3')));
  client.setQueryData(authorKey, pages(card('b1', 3, 2)));
  client.setQueryData(othersSavedKey, pages(card('b1', 3, 2)));
  client.setQueryData(profileKey, { success: true, user: {} });
  stop = syncProfileListsWithReactions(client, () => viewer);
  return client;
}

describe('profile lists follow likes and saves of the cached blog', () => {
  it('an unsave takes the post out of the own Saved list at once and marks it and the profile stale', () => {
    const client = setUp();
    client.setQueryData(['blog', 'b1'], { ...blog, isSaved: false, saveCount: 1 });
    expect(ids(client.getQueryData(savedKey))).toEqual(['b2']);
    expect(client.getQueryState(savedKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(profileKey)?.isInvalidated).toBe(true);
    // Liked is untouched; another person's Saved list is not the viewer's to edit.
    expect(ids(client.getQueryData(likedKey))).toEqual(['b1', 'b3']);
    expect(client.getQueryState(likedKey)?.isInvalidated).toBe(false);
    expect(ids(client.getQueryData(othersSavedKey))).toEqual(['b1']);
    // Counts on every cached card follow, without making those lists fresh.
    const author = client.getQueryData<InfiniteData<BlogListResponse>>(authorKey);
    expect(author?.pages[0]?.blogs[0]?.saveCount).toBe(1);
  });

  it('an unlike does the same for the Liked list; a like or a save marks the list stale', () => {
    const client = setUp();
    client.setQueryData(['blog', 'b1'], { ...blog, isLiked: false, likeCount: 2 });
    expect(ids(client.getQueryData(likedKey))).toEqual(['b3']);
    client.setQueryData(likedKey, pages(card('b3')));
    expect(client.getQueryState(likedKey)?.isInvalidated).toBe(false);
    client.setQueryData(['blog', 'b1'], { ...blog, isLiked: true, likeCount: 3 });
    expect(client.getQueryState(likedKey)?.isInvalidated).toBe(true);
  });

  it("marks the lists stale again when the toggle's request ends", async () => {
    const client = setUp();
    client.setQueryData(['blog', 'b1'], { ...blog, isSaved: false, saveCount: 1 });
    // A refetch during the request (a quick Back) answered before the server had the unsave.
    client.setQueryData(savedKey, pages(card('b1', 3, 2), card('b2')));
    expect(client.getQueryState(savedKey)?.isInvalidated).toBe(false);
    await client
      .getMutationCache()
      .build(client, { mutationFn: async () => ({ saved: false }) })
      .execute(undefined);
    expect(client.getQueryState(savedKey)?.isInvalidated).toBe(true);
  });

  it('does nothing for a visitor, nor for the editor’s copy of a blog', () => {
    const client = setUp(null);
    client.setQueryData(['blog', 'b1'], { ...blog, isSaved: false });
    client.setQueryData(['blog', 'b1', 'editor'], { ...blog, isSaved: false });
    expect(ids(client.getQueryData(savedKey))).toEqual(['b1', 'b2']);
    expect(client.getQueryState(savedKey)?.isInvalidated).toBe(false);
  });
});
