import type { Locator, Page } from '@playwright/test';
import { api, editorOf, stubEmbeds, type User, YOUTUBE } from './support/editor';
import { createVerifiedUser, expect, signInAs, test } from './support/fixtures';

/** The block editor: embeds from the toolbox, and on a 390 px phone controls that never cover the text. */

async function openEditor(page: Page, stack: { baseURL: string }, name: string): Promise<User> {
  await stubEmbeds(page);
  const author = await createVerifiedUser(stack as never, name);
  await signInAs(page, author.user);
  await page.goto('/add-blog');
  await expect(page.locator('.codex-editor .ce-paragraph').first()).toBeVisible();
  // Publishing needs a description.
  await page.getByLabel('Description').fill('Written on the editor test.');
  return author;
}

/** Toolbox item names that are cut short (ellipsis) or run past the screen. */
function cutToolboxTitles(popover: Locator) {
  return popover.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('.ce-popover-item__title')]
      .filter((t) => t.offsetParent !== null)
      .filter((t) => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > window.innerWidth)
      .map((t) => t.textContent),
  );
}

test('on a desktop the toolbox shows whole item names beside their shortcuts', async ({ page, stack }) => {
  await openEditor(page, stack, 'Desk Top');
  const ed = editorOf(page);
  await ed.newParagraph();
  await page.keyboard.type('/');
  const popover = ed.editor.locator('.ce-popover--opened');
  await expect(popover.getByText('Unordered List', { exact: true })).toBeVisible();
  expect(await cutToolboxTitles(popover)).toEqual([]);
});

/** After publishing (the app goes home), the author's newest blog as the API returns it. */
async function savedBlog(page: Page, stack: { baseURL: string }, author: User) {
  await expect(page).toHaveURL(/\/$/);
  const list = await api(stack as never, `/users/${author.user.username}/blogs`, author.user.token);
  const blogId = list.body.blogs[0].blogId as string;
  return api(stack as never, `/blogs/${blogId}`, author.user.token);
}

test("the toolbox's Embed asks for a link and embeds it; '/embed' finds it", async ({ page, stack }) => {
  const author = await openEditor(page, stack, 'Emma Embed');
  const ed = editorOf(page);
  await page.getByLabel('Title').fill('Embedded from the toolbox');
  await ed.newParagraph();

  // Typing the name filters the toolbox down to the embed tool.
  await page.keyboard.type('/');
  const popover = ed.editor.locator('.ce-popover--opened');
  await expect(popover.getByText('Heading', { exact: true })).toBeVisible();
  await page.keyboard.type('embed');
  await expect(popover.locator('.ce-popover-item:not(.ce-popover-item--hidden)', { hasText: 'Embed' })).toBeVisible();
  await popover.locator('.ce-popover-item', { hasText: 'Embed' }).first().click();

  const field = ed.editor.getByRole('textbox', { name: 'Link to embed' });
  await expect(field).toBeFocused();
  // A link of no supported service is refused with a message.
  await field.fill('https://example.com/video/1');
  await field.press('Enter');
  await expect(ed.editor.getByRole('alert')).toHaveText(/cannot be embedded/);
  // A YouTube link becomes the embed, as a pasted one does.
  await field.fill(YOUTUBE);
  await ed.editor.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(ed.editor.locator('iframe.ink-embed__frame')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  // Loaded: its caption can be typed in.
  await expect(ed.editor.locator('.embed-tool__caption')).toBeVisible();

  await page.getByRole('button', { name: 'Publish Blog' }).click();
  const saved = await savedBlog(page, stack, author);
  const embed = (saved.body.blog.content.blocks as { type: string; data: Record<string, unknown> }[]).find((b) => b.type === 'embed');
  expect(embed?.data).toMatchObject({ service: 'youtube', source: YOUTUBE, embed: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' });
});

test('an Embed block left without a link is not saved', async ({ page, stack }) => {
  const author = await openEditor(page, stack, 'Nora Nolink');
  const ed = editorOf(page);
  await page.getByLabel('Title').fill('No link given');
  await ed.newParagraph();
  await page.keyboard.type('Some text.');
  await ed.newParagraph();
  await ed.insert('Embed');
  await expect(ed.editor.getByRole('textbox', { name: 'Link to embed' })).toBeVisible();
  await page.getByRole('button', { name: 'Publish Blog' }).click();
  const saved = await savedBlog(page, stack, author);
  expect((saved.body.blog.content.blocks as { type: string }[]).map((b) => b.type)).toEqual(['paragraph']);
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('at 390 px the block controls never cover the text, and the toolbox shows whole item names', async ({ page, stack }) => {
    await openEditor(page, stack, 'Pia Phone');
    const ed = editorOf(page);
    await ed.newParagraph();
    await page.keyboard.type('A paragraph whose first words must stay readable next to the controls.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('The next paragraph, whose first line the controls used to cover.');
    const paragraph = ed.editor.locator('.ce-paragraph').first();
    await paragraph.click({ position: { x: 20, y: 10 } });
    const plus = ed.editor.locator('.ce-toolbar__plus');
    const handle = ed.editor.locator('.ce-toolbar__settings-btn');
    await expect(plus).toBeVisible();
    await expect(handle).toBeVisible();

    // The rectangles of the text itself (not the blocks' boxes) of both paragraphs, against each control's.
    const texts = await ed.editor.locator('.ce-paragraph').evaluateAll((els) =>
      els.map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const r = range.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const control of [plus, handle]) {
      const box = await control.boundingBox();
      expect(box).not.toBeNull();
      const b = box as NonNullable<typeof box>;
      for (const text of texts) {
        const overlaps = b.x < text.x + text.width && text.x < b.x + b.width && b.y < text.y + text.height && text.y < b.y + b.height;
        expect(overlaps, `control at ${JSON.stringify(b)} over text at ${JSON.stringify(text)}`).toBe(false);
      }
    }

    // The toolbox: every item's name is shown whole, inside the screen.
    await ed.newParagraph();
    await page.keyboard.type('/');
    const popover = ed.editor.locator('.ce-popover--opened');
    await expect(popover.getByText('Unordered List', { exact: false }).first()).toBeVisible();
    expect(await cutToolboxTitles(popover)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('the first tap on Draft after typing in the editor takes, and the post is saved as a draft', async ({ page, stack }) => {
    const author = await openEditor(page, stack, 'Tapio Tap');
    await page.getByLabel('Title').fill('Meant as a draft');
    const ed = editorOf(page);
    await ed.newParagraph();
    await page.keyboard.type('Typed on a phone, then Draft tapped once.');
    // One tap, focus still in the block: its press and release must land on the same control.
    await page.getByRole('radio', { name: 'Draft' }).tap();
    await expect(page.getByRole('radio', { name: 'Draft' })).toBeChecked();
    await page.getByRole('button', { name: 'Save as Draft' }).tap();
    await expect(page).toHaveURL(/\/$/);
    const drafts = await api(stack as never, `/users/${author.user.username}/drafts`, author.user.token);
    expect(drafts.body.blogs.map((b: { title: string; draft: boolean }) => [b.title, b.draft])).toEqual([['Meant as a draft', true]]);
    const published = await api(stack as never, `/users/${author.user.username}/blogs`, author.user.token);
    expect(published.body.blogs).toEqual([]);
  });
});

test('an embed takes its room while it loads: nothing below it moves when it arrives', async ({ page, stack }) => {
  // The plugin ends its loading state 450 ms after the frame's last DOM change (a timer, not the
  // frame's load), which a slow runner could pass before the check below: the page's clock is
  // stopped from the Enter until the layout is measured.
  await page.clock.install();
  await openEditor(page, stack, 'Lena Layout');
  // The embed's answer is held until the test lets it go (openEditor's stub answers it after).
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/^https:\/\/www\.youtube-nocookie\.com\//, async (route) => {
    await held;
    await route.fallback();
  });
  const ed = editorOf(page);
  await ed.newParagraph();
  await ed.insert('Embed');
  const field = ed.editor.getByRole('textbox', { name: 'Link to embed' });
  await field.fill(YOUTUBE);
  await page.clock.pauseAt(Date.now() + 1_000);
  await field.press('Enter');
  const frame = ed.editor.locator('iframe.ink-embed__frame');
  await expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
  await expect(ed.editor.locator('.embed-tool--loading')).toHaveCount(1);
  const publish = page.getByRole('button', { name: 'Publish Blog' });
  const before = await publish.boundingBox();
  await page.clock.resume();
  release();
  await expect(ed.editor.locator('.embed-tool--loading')).toHaveCount(0);
  await expect(ed.editor.locator('.embed-tool__caption')).toBeVisible();
  expect(await publish.boundingBox()).toEqual(before);
});
