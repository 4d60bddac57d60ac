import { createVerifiedUser, expect, signInAs, test } from '../e2e/support/fixtures';
import { commentsButton, createBlog } from '../e2e/support/reading';
import { seedThreads } from '../e2e/support/threads';

/**
 * How long the comment panel takes to show a page with 500 replies (a thread of 1,100 beside a
 * quiet one), in Chromium: from the click on the comments button to the frame after the 502nd
 * comment is in the page, measured inside the page (no Playwright polling competes with the
 * render). The server's answer is cached after the first round. ROUNDS (default 7), SIGNED_IN=1
 * to read as a signed-in reader (each comment then has its options menu).
 */
test('comment panel with 500 replies', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Panel Author');
  const replier = await createVerifiedUser(stack, 'Panel Replier');
  const post = await createBlog(stack, author);
  seedThreads(stack, post.blogId, author, replier);
  if (process.env.SIGNED_IN === '1') {
    const reader = await createVerifiedUser(stack, 'Panel Reader');
    await signInAs(page, reader.user);
  }
  const times: number[] = [];
  for (let round = 0; round < Number(process.env.ROUNDS ?? 7); round++) {
    await page.goto(`/blog/${post.blogId}`);
    await expect(commentsButton(page, post.title)).toBeVisible();
    await page.evaluate(() => {
      const w = window as unknown as { clickedAt: number; shown: Promise<number> };
      w.clickedAt = 0;
      document.addEventListener('click', () => (w.clickedAt ||= performance.now()), { capture: true });
      w.shown = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.querySelectorAll('[role="dialog"] li[data-comment-id]').length < 502) return;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - w.clickedAt), 0));
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
    });
    await commentsButton(page, post.title).click();
    times.push(Math.round(await page.evaluate(() => (window as unknown as { shown: Promise<number> }).shown)));
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `comment panel, 500 replies${process.env.SIGNED_IN === '1' ? ', signed in' : ''}: ${times.join(', ')} ms; median ${sorted[Math.floor(sorted.length / 2)]} ms`,
  );
});
