import { describe, expect, it } from 'vitest';
import { normalizeText } from '../schemas/text';
import { CONTENT_LIMIT_MESSAGES, contentLimitProblem } from './contentLimits';
import { PUBLISH_MESSAGES, publishProblems } from './publishing';

describe('normalizeText', () => {
  it('composes (NFC), removes zero-width and bidi controls and trims blank fillers', () => {
    expect(normalizeText('Cafe\u0301')).toBe('Café');
    expect(normalizeText('\u200BAda\u200B\u200F')).toBe('Ada');
    expect(normalizeText('\u202Eevil\u202C')).toBe('evil');
    expect(normalizeText(' \u3164\u2800 ')).toBe('');
    expect(normalizeText('\u200D\u2060\uFEFF')).toBe('');
    expect(normalizeText('line\nbreak')).toBe('line break');
    expect(normalizeText('line\nbreak', { multiline: true })).toBe('line\nbreak');
  });

  it('keeps joiners inside emoji sequences and words', () => {
    expect(normalizeText('👨‍👩‍👧 family')).toBe('👨‍👩‍👧 family');
    expect(normalizeText('❤️')).toBe('❤️');
  });
});

describe('publishProblems', () => {
  const text = (t: string) => ({ type: 'paragraph', data: { text: t } });
  it('needs a description and a block that shows something', () => {
    expect(publishProblems({ description: '', blocks: [] })).toEqual([PUBLISH_MESSAGES.needsDescription, PUBLISH_MESSAGES.needsContent]);
    expect(publishProblems({ description: 'ok', blocks: [text('<b> </b>&nbsp;\u200B'), { type: 'delimiter', data: {} }] })).toEqual([
      PUBLISH_MESSAGES.needsContent,
    ]);
    expect(publishProblems({ description: 'ok', blocks: [text('Hello')] })).toEqual([]);
    const nested = { type: 'list', data: { items: [{ content: '', items: [{ content: 'deep', items: [] }] }] } };
    expect(publishProblems({ description: 'ok', blocks: [nested] })).toEqual([]);
    expect(publishProblems({ description: 'ok', blocks: [{ type: 'image', data: { file: { url: 'https://x.example/a.png' } } }] })).toEqual(
      [],
    );
  });
});

describe('contentLimitProblem', () => {
  it('walks without recursion and stops at the first limit passed', () => {
    let item: Record<string, unknown> = { content: 'x', items: [] };
    for (let i = 0; i < 100_000; i++) item = { content: 'x', items: [item] };
    expect(contentLimitProblem({ blocks: [{ type: 'list', data: { items: [item] } }] })).toBe(CONTENT_LIMIT_MESSAGES.listDepth);
    const lists = Array.from({ length: 500 }, () => ({ type: 'list', data: { items: Array.from({ length: 200 }, () => 'a') } }));
    expect(contentLimitProblem({ blocks: lists })).toBe(CONTENT_LIMIT_MESSAGES.listItems);
    expect(contentLimitProblem({ blocks: [{ type: 'paragraph', data: { text: 'fine' } }] })).toBeNull();
  });
});
