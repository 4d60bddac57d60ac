import { expect, it } from 'vitest';
import { isClientRoute } from './web';

it('serves the app for tag pages whose tag looks like a file name, and not for files', () => {
  expect(isClientRoute('GET', '/tag/node.js')).toBe(true);
  expect(isClientRoute('GET', '/tag/Vue.js?page=2')).toBe(true);
  expect(isClientRoute('GET', '/tag/react')).toBe(true);
  expect(isClientRoute('GET', '/assets/index.js')).toBe(false);
  expect(isClientRoute('GET', '/tag/react/feed.xml')).toBe(false);
  expect(isClientRoute('GET', '/api/v1/blogs')).toBe(false);
  expect(isClientRoute('POST', '/tag/react')).toBe(false);
});
