import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

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
