import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

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
  await expect(page.getByRole('button', { name: /^Notifications/ })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  expect(problems).toEqual([]);
});
