import { tagsField } from '@inkwell/core';
import { describe, expect, it } from 'vitest';
import { TAG_CHARACTERS_MESSAGE, TAG_PATTERN } from './limits';

describe('editor tag characters mirror core tagsField', () => {
  it('accepts and refuses the same tags as the server', () => {
    for (const tag of ['react', 'c++', 'c#', 'node.js', 'web_dev', 'front-end', 'día', '日本']) {
      expect(TAG_PATTERN.test(tag)).toBe(true);
      expect(tagsField.safeParse([tag]).success).toBe(true);
    }
    for (const tag of ['a/b', 'a<b', 'emoji🙂', 'a,b']) {
      expect(TAG_PATTERN.test(tag)).toBe(false);
      expect(tagsField.safeParse([tag]).success).toBe(false);
    }
    expect(tagsField.safeParse(['a/b']).error?.issues[0]?.message).toBe(TAG_CHARACTERS_MESSAGE);
  });
});
