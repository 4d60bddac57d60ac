import { createVerifiedUser, expect, test, uniqueEmail, watchConsole } from './support/fixtures';

test('sign up, verify by the mailed link, sign in, switch theme, log out', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const email = uniqueEmail('journey');

  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await expect(page.getByText('Get started with your new account')).toBeVisible();
  await expect(page.getByText('Or continue with')).toBeVisible();
  await page.getByLabel('Full Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('quill-and-ink-42');
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

  // The verification mail arrives at a real SMTP server; its link opens the verify page.
  const link = await stack.linkMailedTo(email);
  expect(link.startsWith(stack.baseURL)).toBe(true);
  await page.goto(link);
  await expect(page.getByText('Email verified successfully. You can now sign in.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('quill-and-ink-42');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Discover & Share Knowledge' })).toBeVisible();

  const session = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(session).toMatchObject({ email, name: 'Ada Lovelace', googleAuth: false });
  expect(session.token).toBeTruthy();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menu').getByText('Ada Lovelace')).toBeVisible();
  await expect(page.getByRole('menu').getByText(`@${session.username}`)).toBeVisible();
  await page.keyboard.press('Escape');

  // Theme: toggling adds the dark class and survives a reload.
  const html = page.locator('html');
  const wasDark = await html.evaluate((el) => el.classList.contains('dark'));
  await page.getByRole('button', { name: wasDark ? 'Switch to light mode' : 'Switch to dark mode' }).click();
  await expect(html).toHaveClass(wasDark ? /^(?!.*\bdark\b)/ : /\bdark\b/);
  await page.reload();
  await expect(html).toHaveClass(wasDark ? /^(?!.*\bdark\b)/ : /\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe(wasDark ? 'light' : 'dark');

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page.getByText('Logging out...')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible({ timeout: 5_000 });
  // The navbar shows Sign In before logging out's navigation ends; a read of storage during it
  // fails ("execution context was destroyed", seen on a slow CI host): read again until it answers.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('user')).catch(() => 'the page was navigating')).toBeNull();
  expect(problems).toEqual([]);
});

test('sign-in failures show the server message and keep the person on the form', async ({ page, stack }) => {
  const { email } = await createVerifiedUser(stack);
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  // From the keyboard: the button, disabled while the request ran, has the focus back after it failed.
  await page.getByRole('button', { name: 'Sign In' }).press('Enter');
  await expect(page.getByText('Invalid email or password').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeFocused();
});

test('routes that need sign-in redirect to /signin', async ({ page }) => {
  for (const path of ['/add-blog', '/setting', '/notifications', '/edit-profile']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/signin$/);
  }
});

test('a bad verification link shows the error and goes to /signin', async ({ page }) => {
  await page.goto('/verify-email/not-a-real-token');
  await expect(page.getByText('This verification link is invalid or has expired.').first()).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/, { timeout: 10_000 });
});

test('the navbar search goes to /search and clears the box', async ({ page }) => {
  await page.goto('/');
  // The server-rendered navbar is a plain GET form until the app takes over: type into the app's.
  await expect(page.locator('#server-search')).toHaveCount(0);
  const box = page.getByPlaceholder('Search articles...').first();
  await box.fill('   ');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await box.fill('kysely migrations');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=kysely(\+|%20)migrations$/);
});
