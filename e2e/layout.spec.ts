import { MAX_NAME_LENGTH, MAX_TAG_LENGTH, MAX_TITLE_LENGTH } from '@inkwell/core';
import type { Page } from '@playwright/test';
import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';

/**
 * Long unbroken words (a 200-character title, an 80-character name, a 40-character tag, a long
 * description and bio) never widen a page or spill out of their box: every screen that shows them
 * fits a 320 and a 390 px phone, and on desktop they wrap or end in an ellipsis instead of being cut.
 */

const LONG_TITLE = 'T'.repeat(MAX_TITLE_LENGTH);
const LONG_NAME = 'N'.repeat(MAX_NAME_LENGTH);
const LONG_TAG = 'g'.repeat(MAX_TAG_LENGTH);
const LONG_DESCRIPTION = 'D'.repeat(300);
const LONG_BIO = 'B'.repeat(160);

/**
 * Elements whose content is wider than their box and shows past it (overflow visible), or is
 * clipped without an ellipsis. Scroll containers (code, tables) are fine; so is the 1 px sr-only text.
 */
function spilling(page: Page) {
  return page.evaluate(() => {
    const spills = [...document.querySelectorAll<HTMLElement>('#root *')].filter((el) => {
      if (el.clientWidth <= 1 || el.scrollWidth <= el.clientWidth + 1 || !el.textContent?.trim()) return false;
      const style = getComputedStyle(el);
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') return false;
      return style.overflowX === 'visible' || style.textOverflow !== 'ellipsis';
    });
    // The innermost ones: a container of a spilling element is reported by that element.
    return spills
      .filter((el) => !spills.some((other) => other !== el && el.contains(other)))
      .map(
        (el) =>
          `<${el.tagName.toLowerCase()} class="${el.className}"> ${el.scrollWidth}>${el.clientWidth}: ${el.textContent?.slice(0, 30)}`,
      );
  });
}

test('long unbroken titles, names, tags and descriptions fit every screen at 320, 390 and 1280 px', async ({ browser, stack }) => {
  const author = await createVerifiedUser(stack, LONG_NAME);
  await api(stack, author, 'PATCH', `/users/${author.user.id}`, { bio: LONG_BIO });
  const { blog } = await api<{ blog: { blogId: string } }>(stack, author, 'POST', '/blogs', {
    title: LONG_TITLE,
    description: LONG_DESCRIPTION,
    tags: [LONG_TAG, 'x'],
    draft: false,
    content: { blocks: [{ type: 'paragraph', data: { text: 'W'.repeat(300) } }] },
  });
  // A reader with a long name likes, comments and follows: the notifications and the comment panel show it.
  const fan = await createVerifiedUser(stack, 'F'.repeat(MAX_NAME_LENGTH));
  await api(stack, fan, 'POST', `/blogs/like/${blog.blogId}`);
  await api(stack, fan, 'POST', `/blogs/comment/${blog.blogId}`, { comment: 'C'.repeat(300) });
  await api(stack, fan, 'PATCH', `/follow/${author.user.id}`);
  const screens = [
    '/',
    `/blog/${blog.blogId}`,
    `/@${author.user.username}`,
    `/search?q=${'t'.repeat(150)}`,
    `/tag/${LONG_TAG}`,
    '/notifications',
  ];

  for (const width of [320, 390, 1280]) {
    const context = await browser.newContext({ baseURL: stack.baseURL, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signInAs(page, author.user);
    for (const path of screens) {
      await page.goto(path);
      if (path === '/notifications') await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
      else if (path.startsWith('/search')) await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      else await expect(page.getByText(LONG_TITLE).first()).toBeVisible();
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(pageWidth, `${path} at ${width} px is ${pageWidth} px wide`).toBeLessThanOrEqual(width);
      expect(await spilling(page), `${path} at ${width} px`).toEqual([]);
      if (path.startsWith('/blog/')) {
        // The comment panel: the reader's long name and comment.
        await page.getByRole('button', { name: /^\d+ comments?$/ }).click();
        await expect(page.getByRole('article', { name: `Comment by ${fan.name}` })).toBeVisible();
        expect(await spilling(page), `comments at ${width} px`).toEqual([]);
      }
    }
    await context.close();
  }
});
