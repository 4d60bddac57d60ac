import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { unzip } from '../apps/server/test/zip';
import { api, createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * The writer's desk of issue 16, walked end to end in one sitting: a Markdown file becomes a new
 * post, typing is autosaved and survives a reload, the post is published, edited and updated, the
 * first version comes back from History, a second post is scheduled a few seconds ahead and goes
 * out by itself, both become a series ('Part 1 of 2'), and the writing leaves again as a Markdown
 * file and as 'Download my data'. Every wait is on something observable (no fixed sleeps).
 */

const status = (page: Page) => page.getByRole('status').filter({ hasText: /Sav|Offline|Not saved|Changes kept/ });
const editor = (page: Page) => page.locator('.codex-editor');

/** The public home feed's blog ids, as a visitor's API call sees them. */
async function publicFeed(baseURL: string): Promise<string[]> {
  const body = await (await fetch(`${baseURL}/api/v1/blogs?limit=50`)).json();
  return body.blogs.map((b: { blogId: string }) => b.blogId);
}

/** Clicks 'Update Blog' (or another submit) and waits for the save's answer and the editor to leave. */
async function submit(page: Page, name: string, blogId: string) {
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/api/v1/blogs/${blogId}`));
  await page.getByRole('button', { name, exact: true }).click();
  const response = await saved;
  expect(response.status(), await response.text()).toBe(200);
  await expect(page).toHaveURL(/\/$/);
  return response.json();
}

test('a writer imports, autosaves, publishes, restores, schedules, builds a series and takes it all out', async ({ page, stack }) => {
  test.setTimeout(180_000);
  const problems = watchConsole(page);
  const writer = await createVerifiedUser(stack, 'Wren Writer');
  await signInAs(page, writer.user);
  const stamp = Date.now();
  const title = `Desk notes ${stamp}`;
  const markdown = [
    '---',
    `title: ${title}`,
    'description: Notes from the writer’s desk',
    'tags: [writing, desk]',
    '---',
    '',
    '## First heading',
    '',
    'The imported opening line.',
    '',
  ].join('\n');

  // 1. Import a Markdown file into a new post.
  await page.goto('/add-blog');
  await expect(editor(page)).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import Markdown' }).click();
  await (await chooser).setFiles({ name: 'desk.md', mimeType: 'text/markdown', buffer: Buffer.from(markdown) });
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expect(page.getByLabel('Description')).toHaveValue('Notes from the writer’s desk');
  await expect(editor(page).locator('h2', { hasText: 'First heading' })).toBeVisible();

  // 2. Type; autosave makes it a draft with its own address.
  await editor(page).locator('.ce-paragraph', { hasText: 'The imported opening line.' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Typed at the desk.');
  await expect(page).toHaveURL(/\/edit\/[^/]+$/);
  await expect(status(page)).toHaveText(/^Saved/);
  const blogId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

  // 3. A reload finds the autosaved text.
  await page.reload();
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expect(editor(page)).toContainText('The imported opening line. Typed at the desk.');
  expect(await publicFeed(stack.baseURL)).not.toContain(blogId);

  // 4. Publish it.
  await page.getByRole('radio', { name: 'Publish' }).check();
  await expect(page.getByRole('radio', { name: 'Publish' })).toBeChecked();
  const published = await submit(page, 'Update Blog', blogId);
  expect(published.blog).toMatchObject({ blogId, draft: false });
  expect(await publicFeed(stack.baseURL)).toContain(blogId);

  // 5. Edit and update.
  await page.goto(`/edit/${blogId}`);
  await expect(editor(page)).toContainText('Typed at the desk.');
  await editor(page).locator('.ce-paragraph', { hasText: 'Typed at the desk.' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(' An edited line.');
  await submit(page, 'Update Blog', blogId);
  const updated = await api(stack, writer, 'GET', `/blogs/${blogId}`);
  expect(JSON.stringify(updated.blog.content)).toContain('An edited line.');

  // 6. History: restore the first version (the oldest, at the bottom of the list).
  await page.goto(`/edit/${blogId}`);
  await expect(editor(page)).toContainText('An edited line.');
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  const versions = history.getByRole('list', { name: 'Versions' }).getByRole('button');
  await expect(versions.first()).toBeVisible();
  expect(await versions.count()).toBeGreaterThanOrEqual(2);
  await versions.last().click();
  await expect(history.getByTestId('revision-diff').locator('del')).toContainText('An edited line.');
  await history.getByRole('button', { name: 'Restore this version' }).click();
  // The editor reloads with the restored text; the post (still published) has it too.
  await expect(editor(page)).toContainText('The imported opening line.');
  await expect(editor(page)).not.toContainText('An edited line.');
  await expect
    .poll(async () => JSON.stringify((await api(stack, writer, 'GET', `/blogs/${blogId}`)).blog.content))
    .not.toContain('An edited line.');
  expect((await api(stack, writer, 'GET', `/blogs/${blogId}`)).blog.draft).toBe(false);

  // 7. A second post, scheduled a few seconds ahead from the editor.
  const second = `Desk follow-up ${stamp}`;
  await page.goto('/add-blog');
  await expect(editor(page)).toBeVisible();
  await page.getByLabel('Title').fill(second);
  await page.getByLabel('Description').fill('It publishes itself');
  await editor(page).locator('.ce-paragraph').first().click();
  await page.keyboard.type('Written now, out in a moment.');
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule' });
  // Far enough ahead to save it first on a slow machine; the job runs every second (support/stack.ts).
  const at = Math.ceil((Date.now() + 20_000) / 1000) * 1000;
  const local = await page.evaluate((ms) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 19), at);
  await dialog.getByLabel('Publish on').fill(local);
  await dialog.getByRole('button', { name: 'Set schedule' }).click();
  await expect(dialog).toHaveCount(0);
  // The save itself: POST /blogs, or PATCH /blogs/{id} when an autosave already made the draft.
  const created = page.waitForResponse((r) => {
    const path = new URL(r.url()).pathname;
    return ['POST', 'PATCH'].includes(r.request().method()) && /^\/api\/v1\/blogs(\/[^/]+)?$/.test(path) && !path.endsWith('/autosave');
  });
  await page.getByRole('button', { name: 'Schedule Blog' }).click();
  const scheduled = (await (await created).json()).blog;
  expect(scheduled).toMatchObject({ title: second, draft: true, scheduledAt: new Date(at).toISOString() });
  const secondId = scheduled.blogId as string;
  await expect(page).toHaveURL(/\/$/);
  // Before its time it is nowhere public (the save took less than the 20 s ahead).
  expect(Date.now()).toBeLessThan(at);
  expect(await publicFeed(stack.baseURL)).not.toContain(secondId);
  expect((await fetch(`${stack.baseURL}/api/v1/blogs/${secondId}`)).status).toBe(404);
  // Then it goes out by itself: nobody touches it while the feed is polled.
  await expect.poll(() => publicFeed(stack.baseURL), { timeout: 60_000, intervals: [1000] }).toContain(secondId);
  expect(Date.now()).toBeGreaterThanOrEqual(at);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Latest Articles' }).getByRole('link', { name: second })).toBeVisible();

  // 8. Both posts in one series, from the editor's Series field.
  const seriesTitle = `Desk series ${stamp}`;
  await page.goto(`/edit/${blogId}`);
  const select = page.getByLabel('Series', { exact: true });
  await expect(select).toBeEnabled();
  await select.selectOption({ label: 'New series…' });
  await page.getByLabel('New series title').fill(seriesTitle);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(select.locator('option:checked')).toHaveText(seriesTitle);
  await page.goto(`/edit/${secondId}`);
  await expect(page.getByLabel('Series', { exact: true })).toBeEnabled();
  await page.getByLabel('Series', { exact: true }).selectOption({ label: seriesTitle });
  await expect(page.getByLabel('Series', { exact: true }).locator('option:checked')).toHaveText(seriesTitle);

  await page.goto(`/blog/${blogId}`);
  const box = page.getByRole('navigation', { name: `Series: ${seriesTitle}` });
  await expect(box).toContainText('Part 1 of 2');
  await expect(box.getByRole('link', { name: second })).toBeVisible();

  // 9. Export the first post as Markdown: the restored text, its series in the front matter.
  await page.goto(`/edit/${blogId}`);
  await expect(page.getByRole('heading', { name: 'Edit Blog Post' })).toBeVisible();
  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Markdown' }).click();
  const file = await exported;
  expect(file.suggestedFilename()).toBe(`${blogId}.md`);
  const md = readFileSync((await file.path())!, 'utf8');
  expect(md).toMatch(new RegExp(`^---\\ntitle: ${title}\\n`));
  expect(md).toContain(`series: ${seriesTitle}\nseries_part: 1\n`);
  expect(md).toContain('## First heading');
  expect(md).toContain('The imported opening line.');
  expect(md).not.toContain('An edited line.');

  // 10. Download my data: the zip holds both posts, as Markdown and in data.json with their series.
  await page.goto('/setting?tab=account');
  await expect(page.getByRole('heading', { name: 'Download my data' })).toBeVisible();
  const archive = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const zip = await archive;
  const files = await unzip(readFileSync((await zip.path())!));
  expect([...files.keys()].sort()).toEqual(['data.json', `posts/${blogId}.md`, `posts/${secondId}.md`].sort());
  expect(files.get(`posts/${secondId}.md`)).toContain('Written now, out in a moment.');
  const data = JSON.parse(files.get('data.json')!);
  expect(data.posts.map((p: { blogId: string }) => p.blogId).sort()).toEqual([blogId, secondId].sort());
  expect(data.series).toEqual([
    expect.objectContaining({
      title: seriesTitle,
      posts: [expect.objectContaining({ blogId, part: 1 }), expect.objectContaining({ blogId: secondId, part: 2 })],
    }),
  ]);
  expect(problems).toEqual([]);
});

test('History opened while the editor is still loading compares with the editor’s text once it is there', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const writer = await createVerifiedUser(stack, 'Hana Past');
  const paragraph = (text: string) => ({ blocks: [{ type: 'paragraph', data: { text } }] });
  const post = { title: 'A post with a past', description: 'Two versions', tags: [], draft: false };
  const { blog } = await api(stack, writer, 'POST', '/blogs', { ...post, content: paragraph('The first words.') });
  await api(stack, writer, 'PATCH', `/blogs/${blog.blogId}`, { ...post, content: paragraph('The first words. Then more.') });
  await signInAs(page, writer.user);

  // Hold the Editor.js chunk, so the editor stays loading while History is opened.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/createEditor-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/edit/${blog.blogId}`);
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'History' });
  await history.getByRole('list', { name: 'Versions' }).getByRole('button').last().click();
  // No comparison against an empty editor (everything marked 'added') while it loads.
  await expect(history.getByRole('status', { name: 'Loading version' })).toBeVisible();
  await expect(history.getByTestId('revision-diff')).toHaveCount(0);

  release();
  await expect(page.locator('.codex-editor')).toContainText('Then more.');
  await expect(history.getByTestId('revision-diff').locator('del')).toHaveText(/Then more\./);
  await expect(history.getByTestId('revision-diff').locator('ins')).toHaveCount(0);
  expect(problems).toEqual([]);
});
