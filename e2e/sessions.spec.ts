import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';
import { commentsButton, createBlog, toast } from './support/reading';

/**
 * Revocation reaches open tabs (issue 11, "A socket outlives its token"): the server drops the
 * tab's socket, the tab connects again with its token, is refused, and signs itself out.
 */
test('signing out everywhere signs an open tab out without a reload', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const person = await createVerifiedUser(stack, 'Open Tab');
  await signInAs(page, person.user);
  const registered = new Promise<void>((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framesent', (frame) => {
        if (String(frame.payload).includes('"register"')) resolve();
      });
    });
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  await registered;

  // Another device signs out everywhere.
  const res = await fetch(`${stack.baseURL}/api/v1/signout-everywhere`, {
    method: 'POST',
    headers: { authorization: `Bearer ${person.user.token}` },
  });
  expect(res.status).toBe(200);

  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  // Said, not a silent change.
  await expect(toast(page, 'Your session has expired. Please sign in again.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Notifications/ })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  expect(problems).toEqual([]);
});

test('a comment being typed when the session ends is back in its box after signing in again', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Draft Author');
  const reader = await createVerifiedUser(stack, 'Draft Reader');
  const post = await createBlog(stack, author);
  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  const box = page.getByRole('textbox', { name: 'Write a comment' });
  await box.fill('A long considered comment');

  const res = await fetch(`${stack.baseURL}/api/v1/signout-everywhere`, {
    method: 'POST',
    headers: { authorization: `Bearer ${reader.user.token}` },
  });
  expect(res.status).toBe(200);
  await expect(toast(page, 'Your session has expired. Please sign in again.')).toBeVisible();
  await expect(box).toHaveCount(0);

  await page.goto('/signin');
  await page.getByLabel('Email').fill(reader.email);
  await page.getByLabel('Password', { exact: true }).fill(reader.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  await page.goto(`/blog/${post.blogId}`);
  await commentsButton(page, post.title).click();
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('A long considered comment');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByRole('dialog').getByText('A long considered comment')).toHaveCount(1);
  await page.reload();
  await commentsButton(page, post.title).click();
  // Sent: no longer kept as a draft.
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('');

  // Signing out on purpose drops what was being typed: the next person here does not find it.
  await page.getByRole('textbox', { name: 'Write a comment' }).fill('Not for the next person');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /^Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  // Read again while logging out's reload may still be under way (see auth.spec).
  await expect
    .poll(() => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('draft:'))).catch(() => ['navigating']))
    .toEqual([]);
});

test('profile changes being typed when the session ends come back to the same account only', async ({ page, stack }) => {
  const person = await createVerifiedUser(stack, 'Profile Drafter');
  const other = await createVerifiedUser(stack, 'Other Person');
  const signInByForm = async (who: { email: string; password: string }) => {
    await expect(page).toHaveURL(/\/signin$/);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  };
  const endSessionElsewhere = async () => {
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').token as string);
    const res = await fetch(`${stack.baseURL}/api/v1/signout-everywhere`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    await expect(toast(page, 'Your session has expired. Please sign in again.')).toBeVisible();
  };

  await page.goto('/edit-profile');
  await signInByForm(person);
  await expect(page).toHaveURL(/\/edit-profile$/);
  await page.getByLabel('Bio').fill('Half of a considered bio');
  await page.getByLabel('Name', { exact: true }).fill('Profile Drafter Renamed');

  await endSessionElsewhere();
  await signInByForm(person);
  await expect(page).toHaveURL(/\/edit-profile$/);
  await expect(page.getByLabel('Bio')).toHaveValue('Half of a considered bio');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Profile Drafter Renamed');

  // Another account signing in at this tab finds its own profile, not the first one's typing.
  await endSessionElsewhere();
  await signInByForm(other);
  await expect(page).toHaveURL(/\/edit-profile$/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Other Person');
  await expect(page.getByLabel('Bio')).toHaveValue('');
});
