import { describe, expect, it } from 'vitest';
import { plainText, wordDiff } from './wordDiff';

describe('wordDiff', () => {
  it('marks changed words and keeps the rest', () => {
    expect(wordDiff('the quick brown fox', 'the slow brown fox jumps')).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'removed', text: 'quick' },
      { kind: 'added', text: 'slow' },
      { kind: 'same', text: ' brown fox' },
      { kind: 'added', text: ' jumps' },
    ]);
  });

  it('rebuilds both texts from its parts', () => {
    const before = 'one two three four five six';
    const after = 'zero one three five six seven';
    const parts = wordDiff(before, after);
    expect(
      parts
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe(before);
    expect(
      parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe(after);
  });

  it('groups changes separated only by spaces into one removal and one addition', () => {
    expect(wordDiff('A rewritten opening line.', 'The original opening line.')).toEqual([
      { kind: 'removed', text: 'A rewritten' },
      { kind: 'added', text: 'The original' },
      { kind: 'same', text: ' opening line.' },
    ]);
  });

  it('answers one same part for equal texts and nothing for two empty ones', () => {
    expect(wordDiff('a b', 'a b')).toEqual([{ kind: 'same', text: 'a b' }]);
    expect(wordDiff('', '')).toEqual([]);
  });
});

describe('plainText', () => {
  it('reads the words of blocks, without markup or URLs', () => {
    const text = plainText({
      blocks: [
        { type: 'header', data: { text: 'Title <b>bold</b>', level: 2 } },
        { type: 'list', data: { style: 'unordered', items: [{ content: 'first', items: [] }] } },
        {
          type: 'image',
          data: { file: { url: '/uploads/inline/a.webp' }, imageId: '01a25185-d249-7000-8000-000000000001', caption: 'A cat' },
        },
      ],
    } as never);
    expect(text).toBe('Title bold\n\nfirst\n\nA cat');
  });
});
