import { describe, expect, it } from 'vitest';
import { containsLink } from './links';

describe('containsLink', () => {
  it('finds links a reader could follow', () => {
    for (const text of [
      'cheap pills at https://spam.example/buy',
      'see HTTP://EXAMPLE.COM',
      'visit www.spam-shop.example today',
      'go to spam.example/offer now',
      'ftp://files.example/x',
      '<a href="https://x.example">click</a>',
    ])
      expect(containsLink(text), text).toBe(true);
  });

  it('does not count library names, versions, abbreviations or e-mail-like words as links', () => {
    for (const text of [
      'I love node.js and vue.js',
      'Works on v1.2.3, e.g. with React 19.',
      'See section 3.1 of the docs',
      'mail me: someone@example.com',
      'Great post!',
      'a::b and http: or https:/ alone',
    ])
      expect(containsLink(text), text).toBe(false);
  });
});
