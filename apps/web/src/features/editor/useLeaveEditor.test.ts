import { describe, expect, it } from 'vitest';
import { isSameBlogPath } from './useLeaveEditor';

describe('leaving the editor (SPEC.md 4)', () => {
  it('keeps the cached blog only for the same blog’s page or edit page', () => {
    expect(isSameBlogPath('/blog/my-post-1', 'my-post-1')).toBe(true);
    expect(isSameBlogPath('/edit/my-post-1/', 'my-post-1')).toBe(true);
    expect(isSameBlogPath('/blog/other', 'my-post-1')).toBe(false);
    expect(isSameBlogPath('/', 'my-post-1')).toBe(false);
    expect(isSameBlogPath('/blog/my-post-1', undefined)).toBe(false);
    expect(isSameBlogPath(`/blog/${encodeURIComponent('día-1')}`, 'día-1')).toBe(true);
  });
});
