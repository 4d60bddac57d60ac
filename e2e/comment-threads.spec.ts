import type { Locator, Page } from '@playwright/test';
import { createVerifiedUser, expect, test, watchConsole } from './support/fixtures';
import { commentsButton, createBlog, pageAs, toast } from './support/reading';
import { LONG_REPLIES, replyText, type Seeded, seedThreads } from './support/threads';

/**
 * A page of comments lists at most 500 replies across its threads (MAX_REPLIES_PER_PAGE), shared
 * between them (each thread's oldest first); a thread cut short there shows 'Show more replies',
 * which reads the rest 500 at a time. The post and its 1,100 replies: support/threads.ts.
 */

async function openThreads(page: Page, seeded: Seeded, blogId: string, title: string) {
  await page.goto(`/blog/${blogId}`);
  await commentsButton(page, title).click();
  const panel = page.getByRole('dialog', { name: /^Comments \(\d+\)$/ });
  await expect(panel).toHaveAccessibleName(`Comments (${seeded.total})`);
  const threads = panel.locator('ul[aria-label="Comments"] > li');
  // 500 replies take the panel 1.7 s to show on a quiet machine (the answer comes in 0.3 s); a
  // first test on a busy one passed the default 10 s.
  await expect(threads).toHaveCount(2, { timeout: 30_000 });
  const long = threads.filter({ hasText: 'Long thread opener' });
  return { panel, long, more: long.getByRole('button', { name: 'Show more replies' }) };
}

const reply = (thread: Locator, seeded: Seeded, i: number) => thread.locator(`li[data-comment-id="${seeded.replyIds[i]}"]`);

test('a thread cut short by its page reads on with Show more replies, 500 at a time, until its last reply', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Thread Starter');
  const replier = await createVerifiedUser(stack, 'Rita Replier');
  const post = await createBlog(stack, author);
  const seeded = seedThreads(stack, post.blogId, author, replier);

  const { panel, long, more } = await openThreads(page, seeded, post.blogId, post.title);
  // The page holds the quiet reply (newer than all of them) and the long thread's oldest 499.
  await expect(panel.getByText('The quiet reply')).toBeVisible();
  await expect(long.getByText(replyText(498), { exact: true })).toBeAttached();
  await expect(long.getByText(replyText(499), { exact: true })).toHaveCount(0);
  await expect(long.getByText(replyText(LONG_REPLIES - 1), { exact: true })).toHaveCount(0);
  // Only the cut thread offers more.
  await expect(panel.getByRole('button', { name: 'Show more replies' })).toHaveCount(1);
  const opener = long.locator(':scope > article');
  await expect(opener.getByText(`${seeded.direct} replies`, { exact: true })).toBeAttached();

  // A failed read says why and keeps the button, with the focus on it.
  let fail = true;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/v1\/blogs\/[^/]+\/comments\/[^/]+\/replies\?/, async (route) => {
    if (fail) {
      fail = false;
      return route.fulfill({ status: 503, json: { success: false, message: 'The replies could not be read just now' } });
    }
    await held;
    return route.continue();
  });
  await more.scrollIntoViewIfNeeded();
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, 'The replies could not be read just now')).toBeVisible();
  await expect(more).toBeEnabled();
  await expect(more).toBeFocused();

  // Reading: 'Loading...' and disabled until the replies come.
  await page.keyboard.press('Enter');
  const loading = long.getByRole('button', { name: 'Loading...' });
  await expect(loading).toBeDisabled();
  release();
  await expect(long.getByText(replyText(499), { exact: true })).toBeVisible();
  // The focus goes to the first reply shown now, not back to the top of the page.
  await expect(reply(long, seeded, 499).locator(':scope > article')).toBeFocused();
  await expect(long.getByText(replyText(998), { exact: true })).toBeAttached();
  await expect(long.getByText(replyText(999), { exact: true })).toHaveCount(0);
  // Each under its parent: one shown on the page, one read in this same answer.
  await expect(reply(long, seeded, 10).locator(`li[data-comment-id="${seeded.replyIds[520]}"]`)).toHaveCount(1);
  await expect(reply(long, seeded, 520).locator(`li[data-comment-id="${seeded.replyIds[530]}"]`)).toHaveCount(1);
  // More is left: the button stays, with the next cursor.
  await expect(more).toBeEnabled();

  await more.click();
  const last = long.getByText(replyText(LONG_REPLIES - 1), { exact: true });
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeVisible();
  // Under a parent read a call earlier.
  await expect(reply(long, seeded, 600).locator(`li[data-comment-id="${seeded.replyIds[1050]}"]`)).toHaveCount(1);
  // The end: no button, the focus on the first reply of the last read.
  await expect(panel.getByRole('button', { name: /Show more replies|Loading/ })).toHaveCount(0);
  await expect(reply(long, seeded, 999).locator(':scope > article')).toBeFocused();
  // Every reply once, and no count moved: the page had counted them all already.
  await expect(long.locator('li[data-comment-id]')).toHaveCount(LONG_REPLIES);
  await expect(opener.getByText(`${seeded.direct} replies`, { exact: true })).toBeAttached();
  await expect(panel).toHaveAccessibleName(`Comments (${seeded.total})`);
  expect(problems).toEqual([]);
});

test("a reply of the viewer's own posted in a cut thread shows once after its replies are read on", async ({ browser, stack }) => {
  const author = await createVerifiedUser(stack, 'Thread Starter');
  const replier = await createVerifiedUser(stack, 'Rita Replier');
  const reader = await createVerifiedUser(stack, 'Late Reader');
  const post = await createBlog(stack, author);
  const seeded = seedThreads(stack, post.blogId, author, replier);

  const page = await pageAs(browser, stack, reader);
  const { panel, long, more } = await openThreads(page, seeded, post.blogId, post.title);
  const opener = long.locator(':scope > article');
  await opener.getByRole('button', { name: 'Reply', exact: true }).click();
  const box = panel.getByRole('textbox', { name: 'Reply to Thread Starter' });
  await box.fill('My own late reply');
  await box.press('Enter');
  await expect(long.getByText('My own late reply')).toBeVisible();
  await expect(opener.getByText(`${seeded.direct + 1} replies`, { exact: true })).toBeAttached();

  await expect(more).toBeVisible();
  await more.click();
  await expect(long.getByText(replyText(998), { exact: true })).toBeAttached();
  await more.click();
  await expect(long.getByText(replyText(LONG_REPLIES - 1), { exact: true })).toBeAttached();
  await expect(more).toHaveCount(0);
  // The server's last read has it too: still once, and last, as the newest reply.
  await expect(long.getByText('My own late reply')).toHaveCount(1);
  await expect(long.locator(':scope > ul > li').last()).toContainText('My own late reply');
  await expect(long.locator('li[data-comment-id]')).toHaveCount(LONG_REPLIES + 1);
  await expect(opener.getByText(`${seeded.direct + 1} replies`, { exact: true })).toBeAttached();
  await expect(panel).toHaveAccessibleName(`Comments (${seeded.total + 1})`);
  await page.context().close();
});
