import { describe, expect, it } from 'vitest';
import { POPULAR_TOPICS } from '../constants';
import { addTag, normalizeTag, TAG_MESSAGES, tagSlug } from './tags';

describe('canonical tags', () => {
  it('folds case, spaces, dots, hyphens and underscores, and keeps + and #', () => {
    expect(['Node.js', 'node js', 'NODEJS', ' nodejs '].map(normalizeTag)).toEqual(['nodejs', 'nodejs', 'nodejs', 'nodejs']);
    expect(['Full Stack', 'full-stack', 'full_stack'].map(normalizeTag)).toEqual(['fullstack', 'fullstack', 'fullstack']);
    expect(['C++', 'C#', 'Día'].map(normalizeTag)).toEqual(['c++', 'c#', 'día']);
  });

  it('links every Popular Topic to its canonical tag', () => {
    expect(POPULAR_TOPICS.map(tagSlug)).toEqual(POPULAR_TOPICS.map(normalizeTag));
    expect(tagSlug('Node.js')).toBe('nodejs');
  });

  it('treats spellings of one tag as a duplicate in the editor', () => {
    expect(addTag(['nodejs'], 'Node.js')).toEqual({ ok: false, error: TAG_MESSAGES.duplicate });
    expect(addTag([], '...')).toEqual({ ok: false });
  });
});
