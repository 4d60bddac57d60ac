import type { Page } from '@playwright/test';
import { axeScan } from './support/axe';
import { api, createVerifiedUser, expect, type Person, signInAs, test, watchConsole } from './support/fixtures';

/**
 * Autosave and revision history (issue 16): work in progress survives a reload, two tabs never
 * silently overwrite each other, an old version comes back with 'Restore', and offline changes
 * wait in the browser until the connection returns.
 */

const paragraph = (text: string) => ({ blocks: [{ type: 'paragraph', data: { text } }] });

async function publish(stack: Parameters<typeof api>[0], who: Person, title: string, text: string) {
  const { blog } = await api(stack, who, 'POST', '/blogs', {
    title,
    description: 'About autosave',
    content: paragraph(text),
    draft: false,
  });
  return blog.blogId as string;
}

/** Puts the caret at the end of the editor's first paragraph and types. */
async function typeInEditor(page: Page, text: string) {
  const first = page.locator('.codex-editor .ce-paragraph').first();
  await first.click();
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Sav|Offline|Not saved|Changes kept/ });

test('a new post is saved as a draft while typing and comes back after a reload', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Ada Autosave');
  await signInAs(page, author.user);
  await page.goto('/add-blog');
  await page.getByLabel('Title').fill('Never lose a draft');
  await typeInEditor(page, 'Words typed before the tab closed');
  await expect(status(page)).toHaveText(/^Saved/);
  // The draft's own address, without leaving the editor.
  await expect(page).toHaveURL(/\/edit\/never-lose-a-draft-/);
  await expect(page.getByRole('heading', { name: 'Create New Blog Post' })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Title')).toHaveValue('Never lose a draft');
  await expect(page.locator('.codex-editor')).toContainText('Words typed before the tab closed');
  expect(problems).toEqual([]);
});

test('words typed just before leaving through a link in the app are kept, on a post and on a new one without a title', async ({
  page,
  stack,
}) => {
  const author = await createVerifiedUser(stack, 'Lea Leaving');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Left in a hurry', 'Published words.');
  await page.goto(`/edit/${blogId}`);
  await typeInEditor(page, ' Typed a moment before leaving.');
  // Well inside the autosave's quiet time (2.5 s): only the last save on leaving can keep them.
  await page.getByRole('link', { name: 'Inkwell home' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/edit/${blogId}`);
  await expect(page.locator('.codex-editor')).toContainText('Typed a moment before leaving.');

  await page.goto('/add-blog');
  await typeInEditor(page, 'A new post, no title yet, left at once.');
  await page.getByRole('link', { name: 'Inkwell home' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/add-blog');
  await expect(page.locator('.codex-editor')).toContainText('A new post, no title yet, left at once.');
});

test('a reload right after typing brings the words back without a false conflict', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Rita Reload');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Reloaded at once', 'Published words.');
  await page.goto(`/edit/${blogId}`);
  await typeInEditor(page, ' Typed just before the reload.');
  await page.reload();
  await expect(page.locator('.codex-editor')).toContainText('Typed just before the reload.');
  await typeInEditor(page, ' And more after it.');
  await expect(status(page)).toHaveText(/^Saved/);
  await expect(page.getByText(/changed in another tab/i)).toHaveCount(0);
});

test('a published post keeps edits pending until Update Blog, and readers see the published text', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Paul Pending');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Pending post', 'Published words.');
  await page.goto(`/edit/${blogId}`);
  await typeInEditor(page, ' Unpublished words.');
  await expect(status(page)).toHaveText(/^Saved/);
  const readers = await fetch(`${stack.baseURL}/api/v1/blogs/${blogId}`).then((r) => r.json());
  expect(JSON.stringify(readers.blog.content)).not.toContain('Unpublished');

  await page.reload();
  await expect(page.locator('.codex-editor')).toContainText('Published words. Unpublished words.');
  await expect(page.getByText('Restored your unpublished changes.')).toBeVisible();
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(page).toHaveURL(/\/$/);
  const after = await fetch(`${stack.baseURL}/api/v1/blogs/${blogId}`).then((r) => r.json());
  expect(JSON.stringify(after.blog.content)).toContain('Unpublished words.');
});

test('a second tab saving a stale version is offered Reload or Overwrite', async ({ page, context, stack }) => {
  const author = await createVerifiedUser(stack, 'Tab Twins');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Two tabs', 'Shared start.');
  const other = await context.newPage();
  await page.goto(`/edit/${blogId}`);
  await other.goto(`/edit/${blogId}`);
  await expect(other.locator('.codex-editor')).toContainText('Shared start.');

  await typeInEditor(page, ' From tab one.');
  await expect(status(page)).toHaveText(/^Saved/);
  await typeInEditor(other, ' From tab two.');
  const dialog = other.getByRole('dialog', { name: 'This post changed elsewhere' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('another tab');
  await dialog.getByRole('button', { name: 'Overwrite' }).click();
  await expect(status(other)).toHaveText(/^Saved/);

  // The first tab is now the stale one: it is asked too, and Reload shows the other tab's text.
  await typeInEditor(page, ' More from tab one.');
  const first = page.getByRole('dialog', { name: 'This post changed elsewhere' });
  await expect(first).toBeVisible();
  await first.getByRole('button', { name: 'Reload' }).click();
  await expect(page.locator('.codex-editor')).toContainText('Shared start. From tab two.');
  await expect(page.locator('.codex-editor')).not.toContainText('From tab one');
});

test('History shows the earlier version with a diff and restores it', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Rita Restore');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Restorable', 'The original opening line.');
  await api(stack, author, 'PATCH', `/blogs/${blogId}`, {
    title: 'Restorable',
    description: 'About autosave',
    content: paragraph('A rewritten opening line.'),
  });

  await page.goto(`/edit/${blogId}`);
  await expect(page.locator('.codex-editor')).toContainText('A rewritten opening line.');
  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'History' });
  await dialog
    .getByRole('button', { name: /Restorable/ })
    .first()
    .click();
  const diff = dialog.getByTestId('revision-diff');
  await expect(diff.locator('ins')).toContainText('The original');
  await expect(diff.locator('del')).toContainText('A rewritten');
  expect(await axeScan(page, 'history dialog')).toEqual([]);
  await dialog.getByRole('button', { name: 'Restore this version' }).click();

  await expect(page.locator('.codex-editor')).toContainText('The original opening line.');
  const page2 = await fetch(`${stack.baseURL}/api/v1/blogs/${blogId}`).then((r) => r.json());
  expect(page2.blog.content.blocks[0].data.text).toBe('The original opening line.');
});

test('with a long diff, Restore stays on screen and takes a mouse click', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const author = await createVerifiedUser(stack, 'Lars Longdiff');
  await signInAs(page, author.user);
  const long = (word: string) => ({
    blocks: Array.from({ length: 40 }, (_, i) => ({
      type: 'paragraph',
      data: { text: `${word} paragraph ${i} with enough words to wrap.` },
    })),
  });
  const { blog } = await api(stack, author, 'POST', '/blogs', {
    title: 'Long history',
    description: 'd',
    content: long('Old'),
    draft: false,
  });
  await api(stack, author, 'PATCH', `/blogs/${blog.blogId}`, { content: long('New') });
  await page.goto(`/edit/${blog.blogId}`);
  await expect(page.locator('.codex-editor')).toContainText('New paragraph 39');
  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'History' });
  await dialog
    .getByRole('button', { name: /Long history/ })
    .first()
    .click();
  const restore = dialog.getByRole('button', { name: 'Restore this version' });
  await expect(restore).toBeVisible();
  const box = await restore.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(900);
  await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await expect(page.locator('.codex-editor')).toContainText('Old paragraph 39');
});

test('offline changes are kept on this device and saved when the connection is back', async ({ page, context, stack }) => {
  const author = await createVerifiedUser(stack, 'Otto Offline');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Offline post', 'Online start.');
  await page.goto(`/edit/${blogId}`);
  await expect(page.locator('.codex-editor')).toContainText('Online start.');

  await context.setOffline(true);
  await typeInEditor(page, ' Written on a train.');
  await expect(status(page)).toHaveText('Offline: changes kept on this device');
  await context.setOffline(false);
  await expect(status(page)).toHaveText(/^Saved/);
  const pending = await api(stack, author, 'GET', `/blogs/${blogId}/autosave`);
  expect(JSON.stringify(pending.autosave.content)).toContain('Written on a train.');

  // Reopened, the pending text is offered back; 'Discard them' returns to the published text.
  await page.reload();
  await expect(page.locator('.codex-editor')).toContainText('Written on a train.');
  await page.getByRole('button', { name: 'Discard them' }).click();
  await expect(page.locator('.codex-editor')).toContainText('Online start.');
  await expect(page.locator('.codex-editor')).not.toContainText('Written on a train.');
  expect((await api(stack, author, 'GET', `/blogs/${blogId}/autosave`)).autosave).toBeNull();
});

test('Update Blog offline says so at once, keeps the text and works once the connection is back', async ({ page, context, stack }) => {
  const author = await createVerifiedUser(stack, 'Olga Offline');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Offline update', 'Before the tunnel.');
  await page.goto(`/edit/${blogId}`);
  await expect(page.locator('.codex-editor')).toContainText('Before the tunnel.');

  await context.setOffline(true);
  await typeInEditor(page, ' Inside the tunnel.');
  await expect(status(page)).toHaveText('Offline: changes kept on this device');
  const submit = page.locator('button[type="submit"]');
  await submit.click();
  // Not 'Processing...' until the connection returns (the request used to wait, paused, and go later).
  await expect(page.getByText('You are offline. Check your connection and try again.')).toBeVisible();
  await expect(submit).toHaveText('Update Blog');
  await expect(submit).toBeEnabled();
  await expect(page).toHaveURL(new RegExp(`/edit/${blogId}$`));
  await expect(page.locator('.codex-editor')).toContainText('Inside the tunnel.');

  await context.setOffline(false);
  await submit.click();
  await expect(page).toHaveURL(/\/$/);
  const { blog } = await api(stack, author, 'GET', `/blogs/${blogId}`);
  expect(JSON.stringify(blog.content)).toContain('Inside the tunnel.');
});

test('typing before Editor.js watches its blocks is still autosaved', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Quick Typist');
  await signInAs(page, author.user);
  const blogId = await publish(stack, author, 'Typed at once', 'First words.');
  // Editor.js starts watching each block for changes at the browser's next idle moment, with no
  // deadline: on a machine that is never idle (here: never) the first keystrokes go unseen by it.
  // Its other idle work (with a deadline) runs at once.
  await page.addInitScript(() => {
    window.requestIdleCallback = (callback, options) =>
      options?.timeout ? window.setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), 0) : 0;
  });
  await page.goto(`/edit/${blogId}`);
  await typeInEditor(page, ' Typed at once.');
  await expect(status(page)).toHaveText(/^Saved/);
  const { autosave } = await api(stack, author, 'GET', `/blogs/${blogId}/autosave`);
  expect(JSON.stringify(autosave.content)).toContain('Typed at once.');
});

test('a post with an embed opened and left untouched is not saved: its frame finishing its load is no change', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Embed Opener');
  const { blog } = await api(stack, author, 'POST', '/blogs', {
    title: 'A post with a video',
    description: 'About autosave',
    content: {
      blocks: [
        { type: 'paragraph', data: { text: 'Watch this.' } },
        { type: 'embed', data: { service: 'youtube', source: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', embed: '', caption: '' } },
      ],
    },
    draft: false,
  });
  // The test machine has no internet: the frame gets an empty answer and finishes loading.
  await page.route(/^https:\/\/www\.youtube-nocookie\.com\//, (route) => route.fulfill({ status: 204, body: '' }));
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().includes('/autosave')) saves.push(request.url());
  });
  await signInAs(page, author.user);
  await page.goto(`/edit/${blog.blogId}`);
  const frame = page.locator('.codex-editor iframe.ink-embed__frame');
  await expect(frame).toBeVisible();
  await expect(page.locator('.codex-editor .embed-tool--loading')).toHaveCount(0);
  // Past the autosave's quiet time (2.5 s) after the loading state ended.
  await page.waitForTimeout(4_000);
  expect(saves).toEqual([]);
  expect((await api(stack, author, 'GET', `/blogs/${blog.blogId}/autosave`)).autosave).toBeNull();

  // A real change is still saved.
  await typeInEditor(page, ' Twice.');
  await expect.poll(() => saves.length, { timeout: 10_000 }).toBe(1);
});
