import { describe, expect, it } from 'vitest';
import { returnPathOf, safeReturnPath } from './returnTo';

describe('the return path after sign-in', () => {
  it('keeps a path of this app with its query and fragment', () => {
    expect(safeReturnPath('/add-blog')).toBe('/add-blog');
    expect(safeReturnPath('/setting?tab=password')).toBe('/setting?tab=password');
    expect(safeReturnPath('/blog/abc#comments')).toBe('/blog/abc#comments');
    expect(safeReturnPath('/@ada/saved-blogs')).toBe('/@ada/saved-blogs');
  });

  it('refuses anything that could leave the app', () => {
    for (const value of [
      '//evil.example',
      '//evil.example/path',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'http:/evil.example',
      'javascript:alert(1)',
      'evil.example',
      '',
      ' /add-blog',
      `/${'a'.repeat(3000)}`,
      42,
      null,
      undefined,
      { from: '/add-blog' },
    ]) {
      expect(safeReturnPath(value), JSON.stringify(value)).toBeNull();
    }
  });

  it('never returns to the auth screen itself', () => {
    expect(safeReturnPath('/signin')).toBeNull();
    expect(safeReturnPath('/signup?next=/x')).toBeNull();
    expect(safeReturnPath('/signin/')).toBeNull();
  });

  it('reads router state first, then ?next=', () => {
    expect(returnPathOf({ from: '/notifications' }, '?next=/setting')).toBe('/notifications');
    expect(returnPathOf(null, '?next=%2Fsetting%3Ftab%3Daccount')).toBe('/setting?tab=account');
    expect(returnPathOf({ from: '//evil.example' }, '?next=https://evil.example')).toBeNull();
    expect(returnPathOf(undefined, '')).toBeNull();
  });
});
