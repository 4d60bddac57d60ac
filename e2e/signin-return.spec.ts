import { devices, type Page } from '@playwright/test';
import { createVerifiedUser, expect, type Person, test } from './support/fixtures';
import { googleTest, signInAtProvider, uniqueLogin } from './support/google';

/**
 * Signing in goes back to the page that sent the person to /signin (a protected route), with its
 * query; a plain visit to /signin still lands on / (SPEC.md 2); `?next=` works for app paths only.
 */

async function signInOnForm(page: Page, who: Person) {
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Signed in successfully')).toBeVisible();
}

const signOut = (page: Page) => page.evaluate(() => localStorage.removeItem('user'));

test('signing in after a protected route sent the visitor to /signin returns to that route', async ({ page, stack }) => {
  const ada = await createVerifiedUser(stack, 'Returning Ada');
  const cases: { path: string; url: RegExp; ready: () => Promise<void> }[] = [
    {
      path: '/add-blog',
      url: /\/add-blog$/,
      ready: () => expect(page.getByRole('heading', { name: 'Create New Blog Post' })).toBeVisible(),
    },
    {
      path: '/setting?tab=password',
      url: /\/setting\?tab=password$/,
      ready: () => expect(page.getByRole('tab', { name: 'Change Password', selected: true })).toBeVisible(),
    },
    {
      path: '/notifications',
      url: /\/notifications$/,
      ready: () => expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible(),
    },
    {
      path: '/edit-profile',
      url: /\/edit-profile$/,
      ready: () => expect(page.getByRole('button', { name: 'Save Changes' })).toBeVisible(),
    },
  ];
  await page.goto('/');
  for (const { path, url, ready } of cases) {
    await signOut(page);
    await page.goto(path);
    await expect(page).toHaveURL(/\/signin$/);
    await signInOnForm(page, ada);
    await expect(page, `back to ${path}`).toHaveURL(url);
    await ready();
  }

  // Through the switch to sign-up and back, the page to return to is kept.
  await signOut(page);
  await page.goto('/notifications');
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByRole('link', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await signInOnForm(page, ada);
  await expect(page).toHaveURL(/\/notifications$/);
});

test("'Start Writing' and 'Get Started' go to /signin as a visitor, and on to the editor once signed in", async ({ page, stack }) => {
  const ada = await createVerifiedUser(stack, 'Writing Ada');
  await page.goto('/');
  for (const [path, name] of [
    ['/', 'Start Writing'],
    ['/about', 'Get Started'],
  ] as const) {
    await signOut(page);
    await page.goto(path);
    await page.locator('#main').getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await signInOnForm(page, ada);
    await expect(page, `${name} ends in the editor`).toHaveURL(/\/add-blog$/);
    await expect(page.getByRole('heading', { name: 'Create New Blog Post' })).toBeVisible();
  }
});

test('a plain visit to /signin lands on /, and ?next= is followed only for paths of this app', async ({ page, stack }) => {
  const bo = await createVerifiedUser(stack, 'Next Bo');
  const land = async (signinUrl: string, expected: RegExp) => {
    await signOut(page);
    await page.goto(signinUrl);
    await signInOnForm(page, bo);
    await expect(page, signinUrl).toHaveURL(expected);
  };
  await page.goto('/');
  await land('/signin', /^http:\/\/127\.0\.0\.1:\d+\/$/);
  await land(`/signin?next=${encodeURIComponent('/setting?tab=account')}`, /\/setting\?tab=account$/);
  for (const evil of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/signin']) {
    await land(`/signin?next=${encodeURIComponent(evil)}`, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole('heading', { name: 'Discover & Share Knowledge' })).toBeVisible();
  }
});

/** Google sign-in against oidc-provider (e2e/support/google.ts). */
const google = googleTest;

google('Google sign-in (popup, and redirect on a phone) returns to the protected route too', async ({ page, browser, google }) => {
  const prefetched = page.waitForResponse((r) => r.url().endsWith('/api/v1/google-auth/nonce') && r.ok());
  await page.goto('/notifications');
  await expect(page).toHaveURL(/\/signin$/);
  await prefetched;
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: /Continue with Google/ }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/interaction\//);
  const closed = popup.waitForEvent('close');
  await signInAtProvider(popup, uniqueLogin('popup'));
  await closed;
  await expect(page.getByText('Signed in with Google')).toBeVisible();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();

  // A phone leaves for the issuer and comes back to /signin: the route is kept across the trip.
  const { defaultBrowserType: _unused, ...iPhone } = devices['iPhone 13'];
  const context = await browser.newContext({ ...iPhone, baseURL: google.stack.baseURL });
  try {
    const phone = await context.newPage();
    await phone.goto('/setting?tab=account');
    await expect(phone).toHaveURL(/\/signin$/);
    await phone.getByRole('button', { name: /Continue with Google/ }).click();
    await phone.waitForURL((url) => url.href.startsWith(google.idp.issuer));
    await signInAtProvider(phone, uniqueLogin('phone'));
    await expect(phone.getByText('Signed in with Google')).toBeVisible();
    await expect(phone).toHaveURL(`${google.stack.baseURL}/setting?tab=account`);
    await expect(phone.getByRole('tab', { name: 'Account', selected: true })).toBeVisible();
  } finally {
    await context.close();
  }
});
