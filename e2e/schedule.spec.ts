import { axeScan, isBlocking } from './support/axe';
import { api, createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * Scheduled publishing (issue 16): the writer picks a local date and time in the editor, the post
 * waits under Drafts as "Scheduled for …", and the server's job (every second in e2e, see
 * support/stack.ts) publishes it to the home page.
 */

// A time zone away from UTC, with a half-hour offset: the dialog's local time must reach the server as UTC.
test.use({ timezoneId: 'Asia/Kolkata' });

test('a post scheduled from the editor waits under Drafts, then appears on the home page', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Sam Scheduler');
  await signInAs(page, author.user);

  await page.goto('/add-blog');
  await page.getByLabel('Title').fill('Tomorrow, today');
  await page.getByLabel('Description').fill('A post that publishes itself');
  await page.locator('.codex-editor .ce-paragraph').first().click();
  await page.keyboard.type('Written earlier, read later.');

  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule' });
  await expect(dialog).toContainText(/Your time zone: Asia\/(Kolkata|Calcutta)/);
  // A new post is not public: nothing to warn about.
  await expect(dialog.getByRole('note')).toHaveCount(0);
  // 12 s ahead, in the browser's (Kolkata) wall-clock time, to the second.
  const at = new Date(Math.ceil((Date.now() + 12_000) / 1000) * 1000);
  const local = new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 19);
  await dialog.getByLabel('Publish on').fill(local);
  expect((await axeScan(page, 'schedule dialog')).filter(isBlocking)).toEqual([]);
  await dialog.getByRole('button', { name: 'Set schedule' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Draft' })).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled for' })).toBeVisible();

  // The save: a create, or, when autosave already made the new post a draft (it did on a slow CI
  // machine, a few seconds after typing), the update of that draft. Both answer with the card.
  const saved = page.waitForResponse((r) => {
    const { pathname } = new URL(r.url());
    const method = r.request().method();
    return (method === 'POST' && pathname === '/api/v1/blogs') || (method === 'PATCH' && /^\/api\/v1\/blogs\/[^/]+$/.test(pathname));
  });
  await page.getByRole('button', { name: 'Schedule Blog' }).click();
  const { blog } = await (await saved).json();
  expect(blog).toMatchObject({ draft: true, scheduledAt: at.toISOString() });

  // Under Drafts until then; not on the home page.
  await page.goto(`/@${author.user.username}/draft-blogs`);
  const card = page.getByRole('article').filter({ hasText: 'Tomorrow, today' });
  await expect(card.getByText(/^Scheduled for /)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('scheduled-draft.png') });
  expect((await axeScan(page, 'drafts with a scheduled post')).filter(isBlocking)).toEqual([]);
  const home = await (await fetch(`${stack.baseURL}/api/v1/blogs?limit=50`)).json();
  expect(JSON.stringify(home)).not.toContain(blog.blogId);

  // The job publishes it once the time has come.
  await expect
    .poll(
      async () => {
        await page.goto('/');
        return page.getByRole('link', { name: 'Tomorrow, today' }).count();
      },
      { timeout: 30_000, intervals: [2000] },
    )
    .toBeGreaterThan(0);
  await page.goto(`/@${author.user.username}/draft-blogs`);
  await expect(page.getByRole('article').filter({ hasText: 'Tomorrow, today' })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the editor shows, changes and cancels an existing schedule (on a 320 px phone, dark theme)', async ({ browser, stack }) => {
  const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: 'dark', viewport: { width: 320, height: 700 } });
  const page = await context.newPage();
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Cara Cancel');
  const inAnHour = new Date(Date.now() + 3600_000).toISOString();
  const { blog } = await api(stack, author, 'POST', '/blogs', {
    title: 'Not yet',
    description: 'Maybe later',
    tags: [],
    content: { blocks: [{ type: 'paragraph', data: { text: 'Some words.' } }] },
    draft: true,
    scheduledAt: inAnHour,
  });
  await signInAs(page, author.user);
  await page.goto(`/edit/${blog.blogId}`);
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled for' })).toBeVisible();

  await page.getByRole('button', { name: 'Change schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule' });
  await expect(page.locator('html')).toHaveClass(/dark/);
  // The field and both buttons fit the phone's width.
  await expect(dialog.getByLabel('Publish on')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.screenshot({ path: test.info().outputPath('schedule-dialog-dark-320.png') });
  expect((await axeScan(page, 'schedule dialog, dark, 320 px')).filter(isBlocking)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Scheduled for' })).toHaveCount(0);
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes(`/api/v1/blogs/${blog.blogId}`));
  await page.getByRole('button', { name: 'Update Draft' }).click();
  expect((await (await saved).json()).blog).toMatchObject({ draft: true, scheduledAt: null });
  expect(problems).toEqual([]);
  await context.close();
});

test('scheduling a post that is public says it takes the post off the site until then', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Live Scheduler');
  const { blog } = await api(stack, author, 'POST', '/blogs', {
    title: 'Already out there',
    description: 'Public now',
    content: { blocks: [{ type: 'paragraph', data: { text: 'Read me today.' } }] },
    draft: false,
  });
  await signInAs(page, author.user);
  await page.goto(`/edit/${blog.blogId}`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule' });
  await expect(dialog.getByRole('note')).toHaveText(
    'This post is public now: scheduling it takes it off the site until the time you pick.',
  );
});
