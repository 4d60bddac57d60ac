import { describe, expect, it } from 'vitest';
import type { AutosaveFields } from './api';
import { sameFields } from './localCopy';

const fields = (blocks: unknown[]): AutosaveFields =>
  ({ title: 'A post ', description: 'About it', tags: ['a'], content: { blocks } }) as AutosaveFields;

describe('sameFields', () => {
  it("takes the browser's copy (blocks with Editor.js ids) and the server's (none) for the same text", () => {
    const local = fields([{ id: 'x1Yz', type: 'paragraph', data: { text: 'Typed words' } }]);
    const server = fields([{ type: 'paragraph', data: { text: 'Typed words' } }]);
    expect(sameFields(local, server)).toBe(true);
  });

  it('tells a changed word, tag or block type apart', () => {
    const base = fields([{ id: 'a', type: 'paragraph', data: { text: 'Typed words' } }]);
    expect(sameFields(base, fields([{ type: 'paragraph', data: { text: 'Typed word' } }]))).toBe(false);
    expect(sameFields(base, fields([{ type: 'header', data: { text: 'Typed words' } }]))).toBe(false);
    expect(sameFields(base, { ...base, tags: ['b'] })).toBe(false);
  });
});
