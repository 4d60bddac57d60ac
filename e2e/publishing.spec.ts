import { api, createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * Publishing needs a description and at least one block that shows something (a draft may be
 * empty): the editor says what is missing before anything is sent.
 */

const NEEDS_DESCRIPTION = 'Add a description before publishing';
const NEEDS_CONTENT = 'Write something in the post before publishing';

test('the editor says what is missing before publishing, and a draft may be empty', async ({ page, stack }) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Pia Publisher');
  await signInAs(page, author.user);
  const writes: string[] = [];
  page.on('request', (request) => {
    // Publish and Save as Draft calls; autosave (issue 16) saves work in progress on its own timer.
    if (request.method() !== 'GET' && request.url().includes('/api/v1/blogs') && !request.url().includes('/autosave')) {
      writes.push(request.url());
    }
  });

  await page.goto('/add-blog');
  await page.getByLabel('Title').fill('Only a title');
  await page.getByRole('button', { name: 'Publish Blog' }).click();

  const alert = page.getByRole('alert').filter({ hasText: 'Before publishing:' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(NEEDS_DESCRIPTION);
  await expect(alert).toContainText(NEEDS_CONTENT);
  const description = page.getByLabel('Description');
  await expect(description).toBeFocused();
  await expect(description).toHaveAttribute('aria-invalid', 'true');
  expect(writes).toEqual([]);

  // Invisible characters are not a description.
  await description.fill('\u200B ');
  await page.getByRole('button', { name: 'Publish Blog' }).click();
  await expect(alert).toContainText(NEEDS_DESCRIPTION);
  expect(writes).toEqual([]);

  // With a description, only the body is missing.
  await description.fill('What this post is about');
  await expect(description).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Publish Blog' }).click();
  await expect(alert).toContainText(NEEDS_CONTENT);
  await expect(alert).not.toContainText(NEEDS_DESCRIPTION);
  expect(writes).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('publish-missing.png') });

  // A draft may be empty: switching to Draft clears the list and saves.
  await page.getByRole('radio', { name: 'Draft' }).check();
  await expect(alert).toHaveCount(0);
  await page.getByRole('button', { name: 'Save as Draft' }).click();
  await expect(page.getByText('Draft saved successfully')).toBeVisible();
  expect(writes).toHaveLength(1);

  // A complete post publishes.
  await page.goto('/add-blog');
  await page.getByLabel('Title').fill('A complete post');
  await page.getByLabel('Description').fill('It has everything');
  await page.locator('.codex-editor .ce-paragraph').first().click();
  await page.keyboard.type('Some words for the readers.');
  await page.getByRole('button', { name: 'Publish Blog' }).click();
  await expect(page.getByText('Blog created successfully')).toBeVisible();
  expect(writes).toHaveLength(2);
  expect(problems).toEqual([]);
});

test('Update Blog clicked while the editor is still getting ready waits for it, then saves', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Uma Update');
  const paragraph = (text: string) => ({ blocks: [{ type: 'paragraph', data: { text } }] });
  const { blog } = await api(stack, author, 'POST', '/blogs', {
    title: 'Edited early',
    description: 'Saved right away',
    content: paragraph('Words on screen.'),
    draft: false,
  });
  await signInAs(page, author.user);
  // Editor.js shows the blocks, then is ready only at the browser's next idle moment (up to 2 s
  // on a busy machine): here that moment comes 3 s late, so the click lands before it.
  await page.addInitScript(() => {
    window.requestIdleCallback = (callback) =>
      window.setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), 3000) as unknown as number;
  });
  await page.goto(`/edit/${blog.blogId}`);
  await expect(page.locator('.codex-editor')).toContainText('Words on screen.');
  await page.getByLabel('Title').fill('Edited early, saved');
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(page.getByRole('button', { name: 'Processing...' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const after = await api(stack, author, 'GET', `/blogs/${blog.blogId}`);
  expect(after.blog.title).toBe('Edited early, saved');
  expect(JSON.stringify(after.blog.content)).toContain('Words on screen.');
  expect(problems).toEqual([]);
});
