import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';
import { createBlog } from './support/reading';

/**
 * Keys pressed outside the block editor stay outside it. Editor.js hands keys aimed elsewhere to
 * the block it last had the caret in: after a click in the post, Tab in the Title field or in the
 * History dialog moved the caret into the post, and what was typed next changed it.
 */
test('after a click in the post, Tab and typing in the form and in a dialog leave the post as it was', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Keyboard Writer');
  // Several blocks: Editor.js' Tab moves the caret on to the next one.
  const post = await createBlog(stack, author, {
    blocks: ['First paragraph.', 'Second paragraph.', 'Third paragraph.'].map((text) => ({ type: 'paragraph', data: { text } })),
  });
  await signInAs(page, author.user);
  await page.goto(`/edit/${post.blogId}`);
  const paragraph = page.locator('.codex-editor .ce-paragraph').first();
  await expect(paragraph).toBeVisible();
  const texts = () => page.locator('.codex-editor .ce-paragraph').allTextContents();
  const before = await texts();
  const focusInEditor = () => page.evaluate(() => Boolean(document.activeElement?.closest('.codex-editor')));

  // Into the post with the mouse, back to the title with the keyboard (no click elsewhere).
  await paragraph.click();
  await page.getByLabel('Title').focus();
  await page.keyboard.press('Tab');
  expect(await focusInEditor()).toBe(false);
  await page.keyboard.type('Q');
  expect(await texts()).toEqual(before);

  // Into the post again, then the History dialog opened from the keyboard.
  await paragraph.click();
  await page.getByRole('button', { name: 'History' }).focus();
  await page.keyboard.press('Enter');
  const history = page.getByRole('dialog', { name: 'History' });
  await expect(history).toBeVisible();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInEditor()).toBe(false);
    expect(await history.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.type('ZZZ');
  await page.keyboard.press('Escape');
  await expect(history).toHaveCount(0);
  expect(await texts()).toEqual(before);
});

test('Tab in a code block indents the line without an error from Editor.js', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const author = await createVerifiedUser(stack, 'Code Writer');
  const post = await createBlog(stack, author, { blocks: [{ type: 'code', data: { code: 'return 1;', language: 'javascript' } }] });
  await signInAs(page, author.user);
  await page.goto(`/edit/${post.blogId}`);
  const code = page.locator('.codex-editor textarea').first();
  await expect(code).toHaveValue('return 1;');
  await code.click();
  await code.press('Home');
  await code.press('Tab');
  await expect(code).toHaveValue('  return 1;');
  await code.press('Shift+Tab');
  await expect(code).toHaveValue('return 1;');
  expect(problems).toEqual([]);
});

test("the inline toolbar's buttons have names a screen reader can say, and Bold works from the keyboard", async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Toolbar Writer');
  const post = await createBlog(stack, author, { blocks: [{ type: 'paragraph', data: { text: 'Select these words.' } }] });
  await signInAs(page, author.user);
  await page.goto(`/edit/${post.blogId}`);
  const paragraph = page.locator('.codex-editor .ce-paragraph').first();
  await expect(paragraph).toBeVisible();
  await paragraph.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  const toolbar = page.locator('.ce-inline-toolbar');
  for (const name of ['Bold', 'Italic', 'Link', 'Highlight', 'Underline', 'Inline code']) {
    await expect(toolbar.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await toolbar.getByRole('button', { name: 'Bold', exact: true }).click();
  await expect(paragraph.locator('b')).toHaveText('Select these words.');
});
