import { createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { createBlog, likeButton, toast } from './support/reading';

/**
 * Offline: a write fails at once with a message saying so, never a button left on 'Processing...'
 * that sends the write later unasked; the message shows even when the toast library's chunk could
 * not be fetched, and toasts work again once it can.
 */

const OFFLINE = 'You are offline. Check your connection and try again.';

test('a like offline says so at once, even without the toast chunk, and toasts come back online', async ({ page, context, stack }) => {
  const author = await createVerifiedUser(stack, 'Offline Author');
  const reader = await createVerifiedUser(stack, 'Offline Reader');
  const post = await createBlog(stack, author);
  // The toast library's chunk cannot be fetched (as when the connection drops before the browser
  // was idle long enough to fetch it).
  const sonnerChunk = '**/assets/sonner-*.js';
  await page.route(sonnerChunk, (route) => route.abort('internetdisconnected'));
  await signInAs(page, reader.user);
  await page.goto(`/blog/${post.blogId}`);
  const like = likeButton(page, post.title);
  await expect(like).toHaveAccessibleName('0 likes');

  await context.setOffline(true);
  await like.click();
  await expect(page.getByRole('alert').filter({ hasText: OFFLINE })).toBeVisible();
  await expect(like).toHaveAccessibleName('0 likes');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like).toBeEnabled();

  await page.unroute(sonnerChunk);
  await context.setOffline(false);
  await like.click();
  await expect(like).toHaveAccessibleName('1 like');
  // The Toaster is mounted now: a failed call's message is sonner's toast again.
  await page.route(`**/api/v1/blogs/like/${post.blogId}`, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"message":"Server had a moment"}' }),
  );
  await like.click();
  await expect(page.locator('[data-sonner-toast]', { hasText: 'Server had a moment' })).toBeVisible();
  await expect(like).toHaveAccessibleName('1 like');
});

test('a screen whose code cannot be fetched says so in the page, and Try again loads it', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Chunk Author');
  const post = await createBlog(stack, author, { title: `Chunk post ${Date.now()}` });
  await page.goto('/');
  await expect(page.getByRole('link', { name: post.title }).first()).toBeVisible();
  // As after a deploy: the reading page's file of the build this tab started with is gone.
  const pageChunk = '**/assets/BlogPage-*.js';
  await page.route(pageChunk, (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.getByRole('link', { name: post.title }).first().click();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
  await expect(page).toHaveTitle(/Page could not be loaded/);
  // The app is still there (it used to go blank): the bar and footer work.
  await expect(page.getByRole('link', { name: 'Inkwell home' }).first()).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();

  await page.unroute(pageChunk);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
});

test('the bell menu’s file not fetched leaves the bell a link to the notifications page, not a blank app', async ({ page, stack }) => {
  const reader = await createVerifiedUser(stack, 'Bell Reader');
  await page.route('**/assets/BellMenu-*.js', (route) => route.abort('internetdisconnected'));
  await signInAs(page, reader.user);
  await page.goto('/about');
  const bell = page.getByRole('link', { name: 'Notifications' });
  await expect(bell).toBeVisible();
  await expect(page.getByRole('main')).not.toBeEmpty();
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
});

test('a server-rendered post whose screen cannot be fetched stays readable past the 10 s fallback', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Held Author');
  const post = await createBlog(stack, author, { title: `Held post ${Date.now()}` });
  await page.clock.install();
  await page.route('**/assets/BlogPage-*.js', (route) => route.fulfill({ status: 404, body: 'Not found' }));
  await page.goto(`/blog/${post.blogId}`);
  await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
  // main.tsx gives the server page up after 10 s whatever happens; not while the screen failed.
  await page.clock.runFor(11_000);
  await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeHidden();
  await expect(page).toHaveTitle(new RegExp(post.title));
});

test('the bell menu comes back when the browser is online again', async ({ page, context, stack }) => {
  const reader = await createVerifiedUser(stack, 'Bell Returner');
  await signInAs(page, reader.user);
  await page.route('**/assets/BellMenu-*.js', (route) => route.abort('internetdisconnected'));
  await page.goto('/about');
  await expect(page.getByRole('link', { name: 'Notifications' })).toBeVisible();
  await page.unroute('**/assets/BellMenu-*.js');
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(page.getByRole('button', { name: /Notifications/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Notifications' })).toHaveCount(0);
});

test('Load More that fails says the posts could not be loaded, and Try again brings them back', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Feed Author');
  for (let i = 0; i < 5; i++) await createBlog(stack, author, { title: `Feed post ${i} ${Date.now()}` });
  await page.goto('/');
  const cards = page.locator('main ul > li article');
  await expect(cards).toHaveCount(4);
  await page.route(/\/api\/v1\/blogs\?.*page=2/, (route) =>
    route.fulfill({ status: 503, json: { success: false, message: 'Service temporarily unavailable. Please try again.' } }),
  );
  await page.getByRole('button', { name: 'Load More' }).click();
  // SPEC.md 8: the list is cleared and the server's message toasted; it does not claim there are no posts.
  await expect(toast(page, 'Service temporarily unavailable. Please try again.')).toBeVisible();
  await expect(page.getByText('The posts could not be loaded.')).toBeVisible();
  await expect(page.getByText('No Blogs Found. Start Writing 😃')).toHaveCount(0);
  await page.unroute(/\/api\/v1\/blogs\?.*page=2/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(cards).toHaveCount(4);
  await page.getByRole('button', { name: 'Load More' }).click();
  // The next page comes (other tests' posts share this server: 5 or more).
  await expect.poll(() => cards.count()).toBeGreaterThan(4);
});
