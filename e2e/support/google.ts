import { test as base, type Page } from '@playwright/test';
import { type IdentityProvider, listenIdentityProvider } from '../../apps/server/test/oidc';
import { type Stack, startStack } from './stack';

/**
 * Google sign-in against oidc-provider on 127.0.0.1 as the identity service, one app and provider
 * per worker. Ordering: the provider's port is taken first (its issuer URL goes to the app), the
 * app starts, then the provider starts with the app's /signin as its redirect URI.
 */
export const googleTest = base.extend<object, { google: { stack: Stack; idp: IdentityProvider } }>({
  google: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture list from this destructuring.
    async ({}, use) => {
      const pending = await listenIdentityProvider();
      const clientId = 'inkwell-e2e-web';
      const stack = await startStack({ GOOGLE_CLIENT_ID: clientId, GOOGLE_ISSUER: pending.issuer });
      const idp = await pending.start({ clientId, redirectUris: [`${stack.baseURL}/signin`] });
      await use({ stack, idp });
      await stack.stop();
      await idp.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ google }, use) => use(google.stack.baseURL),
});

let n = 0;
/** A login never used before at the provider (each is a new Google account). */
export const uniqueLogin = (prefix: string) => `${prefix}.${Date.now().toString(36)}${n++}`;

/** The dev login form of oidc-provider: any login, any password; then consent. */
export async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  await consent.waitFor({ timeout: 10_000 });
  await consent.click();
}
