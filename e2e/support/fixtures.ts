import { test as base, expect, type Page } from '@playwright/test';
import { type Stack, startStack } from './stack';

/** One server + SMTP stack per worker; tests use unique e-mails so they never collide. */
export const test = base.extend<{ baseURL: string }, { stack: Stack }>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture list from this destructuring.
    async ({}, use) => {
      const stack = await startStack();
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ stack }, use) => use(stack.baseURL),
});

export { expect };

let n = 0;
export const uniqueEmail = (prefix = 'e2e') => `${prefix}${Date.now()}${n++}@example.com`;

/** Signs up, verifies by the mailed link, signs in: all through the API, for tests about other screens. */
export async function createVerifiedUser(stack: Stack, name = 'E2E Person') {
  const email = uniqueEmail();
  const password = 'quill-and-ink-42';
  const post = (path: string, data: unknown) =>
    fetch(`${stack.baseURL}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    });
  const signup = await post('/signup', { name, email, password });
  if (signup.status !== 201) throw new Error(`signup ${signup.status}`);
  const link = await stack.linkMailedTo(email);
  const verify = await fetch(`${stack.baseURL}/api/v1/verify-email/${link.split('/').pop()}`);
  if (!verify.ok) throw new Error(`verify ${verify.status}`);
  const signin = await post('/signin', { email, password });
  const body = await signin.json();
  return { email, password, name, user: body.user as { token: string; id: string; username: string } };
}

/** Puts a session into local storage the way the app's sign-in does. */
export async function signInAs(page: Page, user: unknown) {
  await page.addInitScript((u) => {
    if (!localStorage.getItem('user')) localStorage.setItem('user', JSON.stringify(u));
  }, user);
}

/** Waits until the server-rendered page has given way to the app's own screen (apps/web/src/lib/server-page.ts). */
export async function waitForApp(page: Page) {
  await expect(page.locator('#server-page')).toHaveCount(0);
  await expect(page.locator('#root')).toBeVisible();
}

/** Fails the test on any uncaught page error or CSP violation. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) problems.push(m.text());
  });
  return problems;
}

export type Person = Awaited<ReturnType<typeof createVerifiedUser>>;

/** An API call as a signed-in person; throws with the status and body when it fails. */
export async function api<T = any>(stack: Stack, who: Person, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${stack.baseURL}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${who.user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}
