import { normalizeTag, POPULAR_TOPICS } from '@inkwell/core';
import type { Page } from '@playwright/test';
import { createVerifiedUser, expect, test, watchConsole } from './support/fixtures';
import { createBlog } from './support/reading';

const card = (page: Page, title: string) => page.locator('main ul > li article', { hasText: title });

/**
 * Canonical tags (docs/decisions.md): every Popular Topic in the home sidebar lands on the posts
 * tagged with it, whichever way the author typed the tag, and old tag URLs move to the canonical one.
 */
test('every Popular Topic opens its tag page with the posts tagged with it', async ({ page, stack }) => {
  test.slow();
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Topic Writer');
  const stamp = Date.now();
  const posts = new Map<string, string>();
  for (const topic of POPULAR_TOPICS) {
    // Tagged as an author would type the topic ('Node.js'), stored canonical ('nodejs').
    const post = await createBlog(stack, author, { title: `All about ${topic} ${stamp}`, tags: [topic] });
    posts.set(topic, post.title);
  }

  for (const topic of POPULAR_TOPICS) {
    await page.goto('/');
    const sidebar = page.getByRole('region', { name: 'Popular Topics' });
    await sidebar.getByRole('link', { name: topic, exact: true }).click();
    const tag = normalizeTag(topic);
    await expect(page).toHaveURL(new RegExp(`/tag/${tag.replace(/[+]/g, '\\+')}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for ${tag}`);
    const found = card(page, posts.get(topic) ?? '');
    await expect(found, topic).toBeVisible();
    await expect(found.getByRole('link', { name: `#${tag}` })).toHaveAttribute('href', `/tag/${tag}`);
  }

  // A link written the old way (/tag/node.js) moves to the canonical page and finds the post.
  await page.goto('/tag/Node.js');
  await expect(page).toHaveURL(/\/tag\/nodejs$/);
  await expect(card(page, posts.get('Node.js') ?? '')).toBeVisible();
  expect(problems).toEqual([]);
});
