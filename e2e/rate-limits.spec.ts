import { test as base, expect } from '@playwright/test';
import { createVerifiedUser, watchConsole } from './support/fixtures';
import { api, article, commentsButton, createBlog, likeButton, pageAs, toast } from './support/reading';
import { type Stack, startStack } from './support/stack';

/**
 * Real 429s from the server (issue 11, "Rate limits on every write"): a stack of its own with every
 * limit at a quarter (comments: ceil(9 x 0.25) = 3 per 30 s per account; likes: 8 per minute).
 * The browser shows the server's message and keeps what the person typed. Sign-ups are limited too
 * (ceil(10 x 0.25) = 3 an hour from one address): each test signs up one person, so three tests at most.
 */
const test = base.extend<object, { stack: Stack }>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture list from this destructuring.
    async ({}, use) => {
      const stack = await startStack({ RATE_LIMIT_FACTOR: '0.25' });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker' },
  ],
});

test('a comment over the limit shows the server message and stays in the box; a refused like rolls back', async ({ browser, stack }) => {
  const reader = await createVerifiedUser(stack, 'Quick Commenter');
  const post = await createBlog(stack, reader);
  for (const text of ['One', 'Two']) {
    expect((await api(stack, reader.user.token, 'POST', `/blogs/comment/${post.blogId}`, { comment: text })).status).toBe(201);
  }

  const page = await pageAs(browser, stack, reader);
  const problems = watchConsole(page);
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const panel = page.getByRole('dialog', { name: /^Comments \(\d+\)$/ });
  await expect(panel).toHaveAccessibleName('Comments (2)');
  const box = panel.getByPlaceholder('Write a comment...');

  // The third in 30 s is still accepted, and the box empties.
  await box.fill('Third, still fine');
  await box.press('Enter');
  await expect(panel).toHaveAccessibleName('Comments (3)');
  await expect(box).toHaveValue('');

  // The fourth is refused: the server's message appears and nothing typed is lost.
  const typed = 'A long thought I do not want to type again.\nWith a second line.';
  await box.fill(typed);
  const refused = page.waitForResponse((r) => r.url().includes(`/blogs/comment/${post.blogId}`) && r.request().method() === 'POST');
  await panel.getByRole('button', { name: 'Post', exact: true }).click();
  const response = await refused;
  expect(response.status()).toBe(429);
  expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
  await expect(
    page.locator('[data-sonner-toast]', { hasText: /You are commenting too quickly\. Please try again in \d+ seconds?\./ }),
  ).toBeVisible();
  await expect(box).toHaveValue(typed);
  await expect(panel).toHaveAccessibleName('Comments (3)');
  await expect(panel.getByRole('button', { name: 'Post', exact: true })).toBeEnabled();
  await page.screenshot({ path: test.info().outputPath('comment-429.png') });
  await page.keyboard.press('Escape');

  // Likes: spend the minute's 8 through the API (ending unliked), then the click is refused and rolls back.
  for (let i = 0; i < 8; i++) expect((await api(stack, reader.user.token, 'POST', `/blogs/like/${post.blogId}`)).status).toBe(200);
  await expect(likeButton(page, post.title)).toHaveAccessibleName('0 likes');
  await likeButton(page, post.title).click();
  await expect(toast(page, 'You are liking too quickly.')).toBeVisible();
  await expect(likeButton(page, post.title)).toHaveAccessibleName('0 likes');
  await expect(likeButton(page, post.title)).toHaveAttribute('aria-pressed', 'false');
  await expect(article(page, post.title)).toBeVisible();
  expect(problems).toEqual([]);
  await page.context().close();
});

test('a blog over the creation limit shows the server message and the editor keeps the text', async ({ browser, stack }) => {
  const writer = await createVerifiedUser(stack, 'Prolific Writer');
  // A minutes-old account is in the new-account tier (issue 15): ceil(3 x 0.25) = 1 new blog an
  // hour, instead of ceil(20 x 0.25) = 5. Spend it through the API.
  await createBlog(stack, writer);

  const page = await pageAs(browser, stack, writer);
  const problems = watchConsole(page);
  await page.goto('/add-blog');
  await page.getByLabel('Title').fill('One post too many');
  await page.locator('.codex-editor .ce-paragraph').first().click();
  await page.keyboard.type('Words I would hate to lose.');
  await page.getByRole('radio', { name: 'Draft' }).check();
  await page.getByRole('button', { name: 'Save as Draft' }).click();

  // The message says why this account's count is lower, with the count in force.
  await expect(
    page.locator('[data-sonner-toast]', {
      hasText:
        /New accounts can create 1 blog an hour until they are 24 hours old and have published a blog\. Please try again in \d+ minutes\./,
    }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/add-blog$/);
  await expect(page.getByLabel('Title')).toHaveValue('One post too many');
  await expect(page.locator('.codex-editor .ce-paragraph').first()).toHaveText('Words I would hate to lose.');
  await expect(page.getByRole('button', { name: 'Save as Draft' })).toBeEnabled();
  expect(problems).toEqual([]);
  await page.context().close();
});

test('a profile edit over the limit shows the server message and the form keeps the new values', async ({ browser, stack }) => {
  const person = await createVerifiedUser(stack, 'Restless Editor');
  // ceil(20 x 0.25) = 5 profile changes per 10 minutes: spend them through the API.
  for (let i = 0; i < 5; i++) {
    expect((await api(stack, person.user.token, 'PATCH', `/users/${person.user.id}`, { bio: `Bio number ${i}` })).status).toBe(200);
  }

  const page = await pageAs(browser, stack, person);
  const problems = watchConsole(page);
  await page.goto('/edit-profile');
  const name = page.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue('Restless Editor');
  await name.fill('Patient Editor');
  await page.getByRole('button', { name: 'Save Changes' }).click();

  await expect(
    page.locator('[data-sonner-toast]', { hasText: /You are changing your profile too quickly\. Please try again in \d+ minutes\./ }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/edit-profile$/);
  await expect(name).toHaveValue('Patient Editor');
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  expect(problems).toEqual([]);
  await page.context().close();
});
