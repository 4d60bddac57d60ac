import { axeScan, formatFindings, isBlocking } from './support/axe';
import { createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { commentsButton, createBlog, pageAs, toast } from './support/reading';

/**
 * Blocking (issue 15): block someone from their profile's '⋯' menu (with a confirm), then, as
 * the blocked person, see following and commenting refused; Settings lists the block with Undo.
 */
test('block a user from their profile; they cannot follow or comment; Settings undoes it', async ({ page, stack, browser }) => {
  const blocker = await createVerifiedUser(stack, 'Block Owner');
  const pest = await createVerifiedUser(stack, 'Pesky Person');
  const post = await createBlog(stack, blocker);

  await signInAs(page, blocker.user);
  await page.goto(`/@${pest.user.username}`);
  await page.getByRole('button', { name: 'More actions for Pesky Person' }).click();
  const menu = page.getByRole('menu', { name: 'Actions for Pesky Person' });
  await expect(menu.getByRole('menuitem', { name: 'Block' })).toBeFocused();
  await menu.getByRole('menuitem', { name: 'Block' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block Pesky Person?' });
  await dialog.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(toast(page, 'User blocked')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'More actions for Pesky Person' }).click();
  await expect(page.getByRole('menuitem', { name: 'Unblock' })).toBeVisible();
  const menuFindings = (await axeScan(page, 'profile menu')).filter(isBlocking);
  expect(menuFindings, formatFindings(menuFindings)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'More actions for Pesky Person' })).toBeFocused();

  // As the blocked user: following and commenting are refused with a clear message.
  const pestPage = await pageAs(browser, stack, pest);
  await pestPage.goto(`/@${blocker.user.username}`);
  await pestPage.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(toast(pestPage, 'You cannot follow this user')).toBeVisible();
  await expect(pestPage.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();

  await pestPage.goto(`/blog/${post.blogId}`);
  await commentsButton(pestPage, post.title).click();
  const panel = pestPage.getByRole('dialog', { name: /^Comments \(\d+\)$/ });
  await panel.getByPlaceholder('Write a comment...').fill('Let me in');
  await panel.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toast(pestPage, 'You cannot comment on this post')).toBeVisible();
  await expect(panel).toHaveAccessibleName('Comments (0)');
  await pestPage.context().close();

  // Settings → Blocked and muted lists the block; Undo removes it.
  await page.goto('/setting');
  const blocked = page.getByRole('region', { name: 'Blocked' });
  await expect(blocked.getByRole('link', { name: /Pesky Person/ })).toBeVisible();
  const settingsFindings = (await axeScan(page, 'settings blocked and muted')).filter(isBlocking);
  expect(settingsFindings, formatFindings(settingsFindings)).toEqual([]);
  await blocked.getByRole('button', { name: 'Undo: unblock Pesky Person' }).click();
  await expect(toast(page, 'User unblocked')).toBeVisible();
  await expect(blocked.getByText('You have not blocked anyone.')).toBeVisible();
});
