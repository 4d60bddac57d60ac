import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';
import { createBlog } from './support/reading';

/**
 * The profile's Saved and Liked tabs follow an unsave or unlike made on the post's page: Back to the
 * tab no longer lists the post (the list used to stay cached, and fresh, for 30 s).
 */
test('after unsaving or unliking a post on its page, Back to the Saved or Liked tab no longer lists it', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Author Bo');
  const reader = await createVerifiedUser(stack, 'Reader Ada');
  const kept = await createBlog(stack, author, { title: `Kept post ${Date.now()}` });
  const dropped = await createBlog(stack, author, { title: `Dropped post ${Date.now()}` });
  for (const post of [kept, dropped]) {
    await api(stack, reader, 'PATCH', `/save-blog/${post.blogId}`);
    await api(stack, reader, 'POST', `/blogs/like/${post.blogId}`);
  }
  await signInAs(page, reader.user);

  const cases = [
    { tab: 'saved-blogs', button: () => page.getByRole('button', { name: /^Saved?$/ }), call: '/save-blog/' },
    { tab: 'liked-blogs', button: () => page.getByRole('button', { name: /^\d+ likes?$/ }), call: '/blogs/like/' },
  ] as const;
  for (const { tab, button, call } of cases) {
    await page.goto(`/@${reader.user.username}/${tab}`);
    const list = page.getByRole('main');
    await expect(list.getByRole('link', { name: dropped.title })).toBeVisible();
    await expect(list.getByRole('link', { name: kept.title })).toBeVisible();

    await list.getByRole('link', { name: dropped.title }).click();
    await expect(page).toHaveURL(new RegExp(`/blog/${dropped.blogId}$`));
    const toggled = page.waitForResponse((r) => r.url().includes(`${call}${dropped.blogId}`) && r.ok());
    await button().click();
    await toggled;
    await expect(button()).toHaveAttribute('aria-pressed', 'false');

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/@${reader.user.username}/${tab}$`));
    await expect(list.getByRole('link', { name: kept.title }), tab).toBeVisible();
    // At once, not after the cached list's 30 s.
    await expect(list.getByRole('link', { name: dropped.title }), tab).toHaveCount(0, { timeout: 3_000 });
  }
});
