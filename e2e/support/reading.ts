import type { Browser, Page } from '@playwright/test';
import { type createVerifiedUser, signInAs } from './fixtures';
import type { Stack } from './stack';

/** Helpers shared by the reading and comment specs: content made through the API, pages as a user. */
export type User = Awaited<ReturnType<typeof createVerifiedUser>>;

export async function api(stack: Stack, token: string | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.baseURL}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

let counter = 0;
export async function createBlog(
  stack: Stack,
  author: User,
  fields: { title?: string; description?: string; tags?: string[]; blocks?: unknown[]; image?: string } = {},
): Promise<{ blogId: string; title: string }> {
  const title = fields.title ?? `Reading post ${Date.now()} ${counter++}`;
  const res = await api(stack, author.user.token, 'POST', '/blogs', {
    title,
    description: fields.description ?? 'A short description of the post.',
    tags: fields.tags ?? [],
    draft: false,
    ...(fields.image ? { image: fields.image } : {}),
    content: { blocks: fields.blocks ?? [{ type: 'paragraph', data: { text: 'Hello from the body.' } }] },
  });
  if (res.status !== 201) throw new Error(`create blog ${res.status} ${JSON.stringify(res.body)}`);
  return { blogId: res.body.blog.blogId as string, title };
}

export async function pageAs(browser: Browser, stack: Stack, user: User | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.baseURL });
  const page = await context.newPage();
  if (user) await signInAs(page, user.user);
  return page;
}

export const article = (page: Page, title: string) => page.getByRole('article', { name: title });
export const likeButton = (page: Page, title: string) => article(page, title).getByRole('button', { name: /^\d+ likes?$/ });
export const commentsButton = (page: Page, title: string) => article(page, title).getByRole('button', { name: /^\d+ comments?$/ });
export const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text });
