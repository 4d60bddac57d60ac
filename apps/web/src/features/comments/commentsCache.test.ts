import type { Blog } from '@inkwell/core';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { blogKeys } from '../../lib/queryKeys';
import { addCommentToCache, addRepliesToCache, commentKeys, editThread, flattenComments, threadCursors } from './api/comments';
import { makeComment } from './testComments';
import { findComment, insertReply, removeComment, subtreeSize } from './tree';
import type { Comment, CommentsPage } from './types';

const c = makeComment;

type Pages = InfiniteData<CommentsPage, number>;
const BLOG = 'blog-1';
let client: QueryClient;
const pages = () => client.getQueryData<Pages>(commentKeys.list(BLOG));
const blog = () => client.getQueryData<Blog>(blogKeys.blog(BLOG));

/** The comment cache of the panel (what the add, reply and delete mutations write), on a real QueryClient. */
describe('comment panel cache', () => {
  beforeEach(() => {
    client = new QueryClient();
    client.setQueryData<Pages>(commentKeys.list(BLOG), {
      pages: [
        { comments: [c('a', [c('a1', [c('a1x')])]), c('b')], hasMore: true, total: 5, replyCursors: { a: 'cur-a' } },
        { comments: [c('b'), c('z')], hasMore: false, total: 5, replyCursors: { z: 'cur-z' } },
      ],
      pageParams: [1, 2],
    });
    client.setQueryData(blogKeys.blog(BLOG), { blogId: BLOG, commentCount: 5 } as Blog);
  });

  it('puts a new comment first on the first page only and counts it on every page and on the blog', () => {
    addCommentToCache(client, BLOG, { ...c('new'), replies: undefined as unknown as Comment[] });
    expect(pages()!.pages[0]!.comments.map((x) => x._id)).toEqual(['new', 'a', 'b']);
    expect(pages()!.pages[0]!.comments[0]!.replies).toEqual([]);
    expect(pages()!.pages[1]!.comments.map((x) => x._id)).toEqual(['b', 'z']);
    expect(pages()!.pages.map((p) => p.total)).toEqual([6, 6]);
    expect(blog()!.commentCount).toBe(6);
  });

  it('starts a first page when the panel had loaded none', () => {
    client.removeQueries({ queryKey: commentKeys.list(BLOG) });
    addCommentToCache(client, BLOG, c('first'));
    expect(pages()).toEqual({ pages: [{ comments: [c('first')], hasMore: false, total: 1, replyCursors: {} }], pageParams: [1] });
  });

  it('a reply goes under its parent at any depth, and counts', () => {
    editThread(client, BLOG, (comments) => insertReply(comments, 'a1', c('r')), 1);
    expect(findComment(pages()!.pages[0]!.comments, 'a1')!.replies.map((x) => x._id)).toEqual(['a1x', 'r']);
    expect(blog()!.commentCount).toBe(6);
  });

  it('a deleted comment takes its replies with it and the counts never go below zero', () => {
    const a = findComment(pages()!.pages[0]!.comments, 'a')!;
    expect(subtreeSize(a)).toBe(3);
    editThread(client, BLOG, (comments) => removeComment(comments, 'a'), -subtreeSize(a));
    expect(pages()!.pages[0]!.comments.map((x) => x._id)).toEqual(['b']);
    expect(pages()!.pages[0]!.total).toBe(2);
    expect(blog()!.commentCount).toBe(2);
    editThread(client, BLOG, (comments) => comments, -10);
    expect(pages()!.pages[0]!.total).toBe(0);
    expect(blog()!.commentCount).toBe(0);
  });

  it('replies read on below a cut thread go under their parents, uncounted, and the thread keeps the next cursor', () => {
    const read = [c('a2', [], { parentComment: 'a' }), c('a2x', [], { parentComment: 'a2' }), c('a1x', [], { parentComment: 'a1' })];
    addRepliesToCache(client, BLOG, 'a', 'cur-a', { replies: read, nextCursor: 'cur-a2' });
    const a = findComment(pages()!.pages[0]!.comments, 'a')!;
    expect(a.replies.map((x) => x._id)).toEqual(['a1', 'a2']);
    expect(findComment(a.replies, 'a1')!.replies.map((x) => x._id)).toEqual(['a1x']);
    expect(findComment(a.replies, 'a2')!.replies.map((x) => x._id)).toEqual(['a2x']);
    expect(a.replyCount).toBe(1);
    expect(pages()!.pages.map((p) => p.total)).toEqual([5, 5]);
    expect(blog()!.commentCount).toBe(5);
    expect(pages()!.pages.map((p) => p.replyCursors)).toEqual([{ a: 'cur-a2' }, { z: 'cur-z' }]);
    expect(threadCursors(pages())).toEqual(
      new Map([
        ['a', 'cur-a2'],
        ['z', 'cur-z'],
      ]),
    );

    // The last read: the cursor goes, the other thread's stays.
    addRepliesToCache(client, BLOG, 'a', 'cur-a2', { replies: [c('a3', [], { parentComment: 'a' })], nextCursor: null });
    expect(findComment(pages()!.pages[0]!.comments, 'a')!.replies.map((x) => x._id)).toEqual(['a1', 'a2', 'a3']);
    expect(pages()!.pages.map((p) => p.replyCursors)).toEqual([{}, { z: 'cur-z' }]);
    expect(threadCursors(pages())).toEqual(new Map([['z', 'cur-z']]));
  });

  it('a read that started before the pages were refetched does not touch them', () => {
    const before = pages();
    addRepliesToCache(client, BLOG, 'a', 'cur-old', { replies: [c('a2', [], { parentComment: 'a' })], nextCursor: null });
    expect(pages()).toEqual(before);
  });

  it('a thread repeated on a later page takes its cursor from the page it is shown from', () => {
    const data = pages()!;
    const repeated = { ...data, pages: [data.pages[0]!, { ...data.pages[1]!, replyCursors: { b: 'cur-b-later' } }] };
    expect(threadCursors(repeated)).toEqual(new Map([['a', 'cur-a']]));
    expect(threadCursors(undefined)).toEqual(new Map());
  });

  it('shows each loaded comment once, even when offset paging repeats one on the next page', () => {
    expect(flattenComments(pages()).map((x) => x._id)).toEqual(['a', 'b', 'z']);
    expect(flattenComments(undefined)).toEqual([]);
  });
});
