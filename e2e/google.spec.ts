import { devices, type Page } from '@playwright/test';
import { createVerifiedUser, expect, test as plain, watchConsole } from './support/fixtures';
import { googleTest, signInAtProvider, uniqueLogin } from './support/google';

/** Google sign-in against oidc-provider on 127.0.0.1 as the identity service (e2e/support/google.ts). */
const test = googleTest;

const storedSession = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));

test('desktop: Google sign-in in a popup ends signed in on /', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const login = uniqueLogin('ada');
  // Config and nonce are prefetched, so the click opens the issuer's page straight away.
  const prefetched = page.waitForResponse((r) => r.url().endsWith('/api/v1/google-auth/nonce') && r.ok());
  await page.goto('/signin');
  await expect(page.getByText('Or continue with')).toBeVisible();
  await prefetched;
  const googleButton = page.getByRole('button', { name: /Continue with Google/ });

  const popupOpened = page.waitForEvent('popup');
  await googleButton.click();
  const popup = await popupOpened;
  // The button shows a spinner while the popup is open.
  await expect(page.getByRole('status', { name: 'Signing in with Google' })).toBeVisible();
  await expect(googleButton).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('google-button-loading.png') });

  await popup.waitForURL(/\/interaction\//);
  // Listened for before the consent click: the popup may close while that click still waits for
  // its navigation (seen on a loaded machine), and a close already past is never reported.
  const closed = popup.waitForEvent('close');
  await signInAtProvider(popup, login);
  await closed;

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Signed in with Google')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Discover & Share Knowledge' })).toBeVisible();
  const session = await storedSession(page);
  expect(session).toMatchObject({ email: `${login}@example.test`, name: expect.stringMatching(/^Ada /), googleAuth: true });
  expect(session.token).toBeTruthy();

  // A Google account has no Change Password tab.
  await page.goto('/setting');
  await expect(page.getByRole('tab', { name: 'Privacy Settings' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Change Password' })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('phone: Google sign-in by redirect is finished when the auth screen loads', async ({ browser, google }) => {
  const { defaultBrowserType: _unused, ...iPhone } = devices['iPhone 13'];
  const context = await browser.newContext({ ...iPhone, baseURL: google.stack.baseURL });
  const page = await context.newPage();
  const problems = watchConsole(page);
  const login = uniqueLogin('grace');
  try {
    await page.goto('/signup');
    await page.getByRole('button', { name: /Continue with Google/ }).click();
    // A full-page redirect, not a popup.
    await page.waitForURL((url) => url.href.startsWith(google.idp.issuer));
    await signInAtProvider(page, login);

    await expect(page).toHaveURL(`${google.stack.baseURL}/`);
    await expect(page.getByText('Signed in with Google')).toBeVisible();
    const session = await storedSession(page);
    expect(session).toMatchObject({ email: `${login}@example.test`, googleAuth: true });
    // The identity token was taken out of the URL and history.
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

test('a redirect answer with an error or a foreign state is refused', async ({ browser, google }) => {
  const { defaultBrowserType: _unused, ...iPhone } = devices['iPhone 13'];
  const context = await browser.newContext({ ...iPhone, baseURL: google.stack.baseURL });
  const page = await context.newPage();
  try {
    await page.goto('/signin#error=access_denied&state=r.123');
    await expect(page.getByText('Authentication failed. Please try again.')).toBeVisible();
    await page.goto('/');
    await page.goto('/signin#id_token=a.b.c&state=r.not-ours');
    await expect(page.getByText('Authentication failed. Please try again.')).toBeVisible();
    expect(await storedSession(page)).toBeNull();
  } finally {
    await context.close();
  }
});

test('an e-mail/password account is not merged: the server message is shown', async ({ page, google }) => {
  const { email } = await createVerifiedUser(google.stack);
  // A slow config: the click opens a blank popup at once and sends it on when the config arrives.
  await page.route('**/api/v1/google-auth/config', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto('/signin');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: /Continue with Google/ }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/interaction\//);
  await signInAtProvider(popup, email);
  await expect(page.getByText('An account with this email already exists. Please sign in with your email and password.')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await storedSession(page)).toBeNull();
  await expect(page.getByRole('button', { name: /Continue with Google/ })).toBeEnabled();
});

plain('without configuration the button stays and says Google sign-in is not configured', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('button', { name: /Continue with Google/ }).click();
  await expect(page.getByText('Google sign-in is not configured on this server')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
});
