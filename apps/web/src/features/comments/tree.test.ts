import { describe, expect, it } from 'vitest';
import { makeComment } from './testComments';
import { findComment, insertReply, removeComment, replaceComment, setLike, subtreeSize } from './tree';

const c = makeComment;

const thread = () => [c('a', [c('a1', [c('a1x')]), c('a2')]), c('b')];

describe('comment thread edits (SPEC.md 4)', () => {
  it('inserts a reply last under its parent at any depth and counts it', () => {
    const next = insertReply(thread(), 'a1', c('new'));
    const parent = findComment(next, 'a1')!;
    expect(parent.replies.map((r) => r._id)).toEqual(['a1x', 'new']);
    expect(parent.replyCount).toBe(2);
    // Inserting the same reply twice changes nothing.
    expect(findComment(insertReply(next, 'a1', c('new')), 'a1')!.replies).toHaveLength(2);
  });

  it('replaces the text of an edited comment and keeps its replies', () => {
    const next = replaceComment(thread(), { ...c('a1'), comment: 'edited', replies: [] });
    const edited = findComment(next, 'a1')!;
    expect(edited.comment).toBe('edited');
    expect(edited.replies.map((r) => r._id)).toEqual(['a1x']);
  });

  it('removes a comment with its replies and lowers the parent reply count', () => {
    const before = thread();
    expect(subtreeSize(findComment(before, 'a1')!)).toBe(2);
    const next = removeComment(before, 'a1');
    expect(findComment(next, 'a1')).toBeUndefined();
    expect(findComment(next, 'a1x')).toBeUndefined();
    expect(findComment(next, 'a')!.replyCount).toBe(1);
    expect(removeComment(next, 'b').map((x) => x._id)).toEqual(['a']);
    expect(before).toEqual(thread());
  });

  it('toggles likes optimistically and takes the server values when given', () => {
    const liked = setLike(thread(), 'a2');
    expect(findComment(liked, 'a2')).toMatchObject({ isLiked: true, likeCount: 1 });
    const unliked = setLike(liked, 'a2');
    expect(findComment(unliked, 'a2')).toMatchObject({ isLiked: false, likeCount: 0 });
    expect(findComment(setLike(thread(), 'a2', true, 7), 'a2')).toMatchObject({ isLiked: true, likeCount: 7 });
  });

  it('returns the same array when the id is unknown', () => {
    const t = thread();
    expect(setLike(t, 'zzz')).toBe(t);
    expect(removeComment(t, 'zzz')).toBe(t);
  });
});
