import type { Page } from '@playwright/test';
import { createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/** Resolves once the page's socket has registered its session with the server. */
function socketRegistered(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framesent', (frame) => {
        if (String(frame.payload).includes('"register"')) resolve();
      });
    });
  });
}

/**
 * Settings → Account → 'Sign out of all devices' (issue 12): the device that asks goes to
 * /signin signed out, and another browser signed in to the same account is signed out too.
 */
test('signing out of all devices from Settings signs out this browser and another one', async ({ browser, stack }) => {
  const person = await createVerifiedUser(stack, 'Two Devices');
  const laptop = await browser.newContext({ baseURL: stack.baseURL });
  const phone = await browser.newContext({ baseURL: stack.baseURL });
  try {
    const here = await laptop.newPage();
    const there = await phone.newPage();
    const problems = [here, there].map(watchConsole);
    await signInAs(here, person.user);
    await signInAs(there, person.user);

    const registered = socketRegistered(there);
    await there.goto('/');
    await expect(there.getByRole('button', { name: /^Notifications/ })).toBeVisible();
    await registered;

    await here.goto('/setting?tab=account');
    await expect(here.getByRole('heading', { name: 'Sign out of all devices' })).toBeVisible();
    await here.getByRole('button', { name: 'Sign out of all devices' }).click();
    const dialog = here.getByRole('dialog', { name: 'Sign out of all devices?' });
    await expect(dialog).toBeVisible();

    // Cancel keeps everything as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    const me = await fetch(`${stack.baseURL}/api/v1/me`, { headers: { authorization: `Bearer ${person.user.token}` } });
    expect(me.status).toBe(200);

    await here.getByRole('button', { name: 'Sign out of all devices' }).click();
    await here.getByRole('dialog', { name: 'Sign out of all devices?' }).getByRole('button', { name: 'Sign Out Everywhere' }).click();

    // This device: the server's message, then /signin with no session.
    await expect(here.getByText('Signed out on every device')).toBeVisible();
    await expect(here).toHaveURL(/\/signin$/);
    await expect.poll(() => here.evaluate(() => localStorage.getItem('user'))).toBeNull();

    // The other device: its socket was revoked, it signs itself out without a reload.
    await expect(there.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
    await expect(there.getByRole('button', { name: /^Notifications/ })).toHaveCount(0);
    expect(await there.evaluate(() => localStorage.getItem('user'))).toBeNull();

    // The old token is dead everywhere.
    const after = await fetch(`${stack.baseURL}/api/v1/me`, { headers: { authorization: `Bearer ${person.user.token}` } });
    expect(after.status).toBe(401);
    expect(problems.flat()).toEqual([]);
  } finally {
    await laptop.close();
    await phone.close();
  }
});
