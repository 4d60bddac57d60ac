import { describe, expect, it } from 'vitest';
import { makeComment } from './testComments';
import { findComment, insertReply, mergeReplies, removeComment, replaceComment, setLike, subtreeSize } from './tree';

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

  it('merges flat replies read on under their parents at any depth, counts unchanged, nothing twice', () => {
    const at = (minute: number) => ({ createdAt: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z` });
    const before = thread();
    const read = [
      c('a3', [], { parentComment: 'a', ...at(10) }),
      c('a1y', [], { parentComment: 'a1', ...at(11) }),
      c('a3x', [], { parentComment: 'a3', ...at(12) }), // under a reply of this same read
      c('a1x', [], { parentComment: 'a1' }), // shown already
      c('gone-x', [], { parentComment: 'gone', ...at(13) }), // its parent was deleted meanwhile
    ];
    const next = mergeReplies(before, 'a', read);
    const a = findComment(next, 'a')!;
    expect(a.replies.map((r) => r._id)).toEqual(['a1', 'a2', 'a3']);
    expect(findComment(next, 'a1')!.replies.map((r) => r._id)).toEqual(['a1x', 'a1y']);
    expect(findComment(next, 'a3')!.replies.map((r) => r._id)).toEqual(['a3x']);
    expect(findComment(next, 'gone-x')).toBeUndefined();
    // The page counted these replies already: no count moves (insertReply would add one to each parent).
    expect(a.replyCount).toBe(2);
    expect(findComment(next, 'a1')!.replyCount).toBe(1);
    expect(subtreeSize(a)).toBe(7);
    // The same replies again add nothing; the input is untouched.
    expect(mergeReplies(next, 'a', read)).toEqual(next);
    expect(before).toEqual(thread());
    expect(findComment(mergeReplies(before, 'b', read), 'b')!.replies).toEqual([]);
  });

  it("keeps a parent's replies oldest first when the viewer's own reply was shown before older ones read on", () => {
    const own = c('mine', [], { parentComment: 'b', createdAt: '2026-01-01T00:30:00.000Z' });
    const withOwn = insertReply([c('b')], 'b', own);
    const older = c('older', [], { parentComment: 'b', createdAt: '2026-01-01T00:20:00.000Z' });
    const next = mergeReplies(withOwn, 'b', [older, own]);
    expect(findComment(next, 'b')!.replies.map((r) => r._id)).toEqual(['older', 'mine']);
    expect(findComment(next, 'b')!.replyCount).toBe(1);
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
