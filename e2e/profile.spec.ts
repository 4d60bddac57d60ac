import sharp from 'sharp';
import { api, createVerifiedUser, expect, type Person, signInAs, test, watchConsole } from './support/fixtures';
import type { Stack } from './support/stack';

/** Calls the API as a user (Bearer), failing the test on an error status. */

async function createBlog(stack: Stack, who: Person, title: string, draft = false): Promise<string> {
  const body = await api<{ blog: { blogId: string } }>(stack, who, 'POST', '/blogs', {
    title,
    description: `About ${title}`,
    content: { blocks: [{ type: 'paragraph', data: { text: `${title} body text` } }] },
    tags: ['testing'],
    draft,
  });
  return body.blog.blogId;
}

test('following from a profile updates the counts, the modal lists and the Following card', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const alice = await createVerifiedUser(stack, 'Alice Writer');
  const bob = await createVerifiedUser(stack, 'Bob Reader');
  await createBlog(stack, alice, 'Profiles in practice');

  await signInAs(page, bob.user);
  await page.goto(`/@${alice.user.username}`);
  const header = page.getByRole('region', { name: 'Profile' });
  await expect(header.getByRole('heading', { name: 'Alice Writer' })).toBeVisible();
  await expect(header.getByText(`@${alice.user.username}`)).toBeVisible();
  await expect(header.getByRole('button', { name: '0 Followers', exact: true })).toBeVisible();
  await expect(header.getByText('1 Post')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit Profile', exact: true })).toHaveCount(0);
  // Others see Blogs only.
  const tabs = page.getByRole('navigation', { name: 'Profile tabs' });
  await expect(tabs.getByRole('link')).toHaveText(['Blogs']);

  // The blog card: title, description, date and the three counts.
  const card = page.getByRole('article').filter({ hasText: 'Profiles in practice' });
  await expect(card.getByText('About Profiles in practice')).toBeVisible();
  await expect(card.getByTitle('0 likes')).toBeVisible();
  await expect(card.getByTitle('0 comments')).toBeVisible();
  await expect(card.getByTitle('0 saves')).toBeVisible();

  // From the keyboard: the button keeps the focus through its 'Processing...' state.
  await header.getByRole('button', { name: 'Follow', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(header.getByRole('button', { name: 'Following', exact: true })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Following', exact: true })).toBeFocused();
  await expect(header.getByRole('button', { name: '1 Follower', exact: true })).toBeVisible();
  await expect(page.getByText('You are now following Alice Writer')).toBeVisible();
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(session.following).toContain(alice.user.id);

  // Followers modal: Bob with the 'You' tag and no Follow button on his own row; Escape closes it.
  await header.getByRole('button', { name: '1 Follower', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Followers' });
  await expect(dialog).toBeVisible();
  const row = dialog.getByRole('listitem').filter({ hasText: 'Bob Reader' });
  await expect(row.getByText('You', { exact: true })).toBeVisible();
  await expect(row.getByRole('button')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Bob's own profile: following 1, the Following card and its modal with a Following button.
  await page.goto(`/@${bob.user.username}`);
  await expect(page.getByRole('link', { name: 'Edit Profile', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: '1 Following', exact: true })).toBeVisible();
  const followingCard = page.getByRole('region', { name: 'Following', exact: true });
  await expect(followingCard.getByRole('link', { name: /Alice Writer/ })).toBeVisible();
  await followingCard.getByRole('button', { name: 'View all (1)' }).click();
  const following = page.getByRole('dialog', { name: 'Following', exact: true });
  await expect(following.getByRole('button', { name: 'Following Alice Writer', exact: true })).toBeVisible();
  // Unfollow from the list, then close with the X (300 ms animation).
  await following.getByRole('button', { name: 'Following Alice Writer', exact: true }).click();
  await expect(following.getByRole('button', { name: 'Follow Alice Writer', exact: true })).toBeVisible();
  await following.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(following).toBeHidden();
  await expect(page.getByRole('button', { name: '0 Following', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Following', exact: true }).getByText('Not following anyone yet')).toBeVisible();
  expect(problems).toEqual([]);
});

test('signed-out visitors are asked to sign in to follow', async ({ page, stack }) => {
  const alice = await createVerifiedUser(stack, 'Alice Public');
  await page.goto(`/@${alice.user.username}`);
  await page.getByRole('region', { name: 'Profile' }).getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByText('Please sign in to follow this creator')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Member Since' })).toContainText(String(new Date().getFullYear()));
});

test('privacy settings show or hide the Saved tab for others; Drafts stay owner-only', async ({ browser, stack }) => {
  const alice = await createVerifiedUser(stack, 'Alice Private');
  const bob = await createVerifiedUser(stack, 'Bob Visitor');
  const published = await createBlog(stack, alice, 'Saved for later');
  await createBlog(stack, alice, 'Unfinished thoughts', true);
  await api(stack, alice, 'PATCH', `/save-blog/${published}`);
  await api(stack, alice, 'POST', `/blogs/like/${published}`);

  const aliceContext = await browser.newContext();
  const bobContext = await browser.newContext();
  const alicePage = await aliceContext.newPage();
  const bobPage = await bobContext.newPage();
  await signInAs(alicePage, alice.user);
  await signInAs(bobPage, bob.user);
  const profile = `/@${alice.user.username}`;

  // The owner sees every tab, and the draft only there.
  await alicePage.goto(profile);
  const ownerTabs = alicePage.getByRole('navigation', { name: 'Profile tabs' });
  await expect(ownerTabs.getByRole('link')).toHaveText(['Blogs', 'Saved', 'Liked', 'Drafts']);
  await expect(alicePage.getByRole('region', { name: 'Activity Stats' })).toContainText('Drafts1');
  await ownerTabs.getByRole('link', { name: 'Drafts', exact: true }).click();
  await expect(alicePage).toHaveURL(new RegExp(`${profile}/draft-blogs$`));
  await expect(alicePage.getByRole('article').filter({ hasText: 'Unfinished thoughts' }).getByText('Draft', { exact: true })).toBeVisible();

  // Others: Blogs only; the private tabs redirect to the profile.
  await bobPage.goto(profile);
  await expect(bobPage.getByRole('navigation', { name: 'Profile tabs' }).getByRole('link')).toHaveText(['Blogs']);
  await expect(bobPage.getByRole('region', { name: 'Activity Stats' })).not.toContainText('Drafts');
  for (const tab of ['saved-blogs', 'liked-blogs', 'draft-blogs']) {
    await bobPage.goto(`${profile}/${tab}`);
    await expect(bobPage).toHaveURL(new RegExp(`${profile}$`));
  }

  // Alice shows her saved blogs.
  await alicePage.goto('/setting');
  await alicePage.getByLabel('Show Saved Blogs on Profile').selectOption({ label: 'Visible to everyone' });
  await expect(alicePage.getByText('Privacy settings updated successfully')).toBeVisible();
  expect(await alicePage.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').showSavedBlogs)).toBe(true);

  await bobPage.goto(profile);
  const bobTabs = bobPage.getByRole('navigation', { name: 'Profile tabs' });
  await expect(bobTabs.getByRole('link')).toHaveText(['Blogs', 'Saved']);
  await bobTabs.getByRole('link', { name: 'Saved', exact: true }).click();
  await expect(bobPage.getByRole('article').filter({ hasText: 'Saved for later' })).toBeVisible();
  await bobPage.goto(`${profile}/liked-blogs`);
  await expect(bobPage).toHaveURL(new RegExp(`${profile}$`));

  // And hides them again.
  await alicePage.getByLabel('Show Saved Blogs on Profile').selectOption({ label: 'Only visible to me' });
  await expect(alicePage.getByText('Privacy settings updated successfully').first()).toBeVisible();
  await expect.poll(() => alicePage.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').showSavedBlogs)).toBe(false);
  await bobPage.goto(`${profile}/saved-blogs`);
  await expect(bobPage).toHaveURL(new RegExp(`${profile}$`));
  await expect(bobPage.getByRole('navigation', { name: 'Profile tabs' }).getByRole('link')).toHaveText(['Blogs']);

  await aliceContext.close();
  await bobContext.close();
});

test('edit profile: new picture, username and bio; the session follows', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const alice = await createVerifiedUser(stack, 'Alice Editor');
  await signInAs(page, alice.user);
  await page.goto('/edit-profile');
  const save = page.getByRole('button', { name: 'Save Changes' });
  await expect(save).toBeDisabled();

  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 79, g: 70, b: 229 } } })
    .png()
    .toBuffer();
  await page.getByLabel('Profile picture file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(save).toBeEnabled();
  await expect(page.getByRole('main').getByRole('img', { name: 'Alice Editor' })).toHaveAttribute('src', /^blob:/);

  const newName = `alice_${Date.now().toString(36)}`.slice(0, 20);
  await page.getByLabel('Username').fill(newName);
  await expect(page.getByText(`/@${newName}`)).toBeVisible();
  await page.getByLabel('Bio').fill('Writes about tests.');
  await expect(page.getByText('19/160')).toBeVisible();
  await save.click();

  await expect(page).toHaveURL(new RegExp(`/@${newName}$`));
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  const header = page.getByRole('region', { name: 'Profile' });
  await expect(header.getByText(`@${newName}`)).toBeVisible();
  await expect(header.getByText('Writes about tests.')).toBeVisible();
  await expect(header.getByRole('img', { name: 'Alice Editor' })).toHaveAttribute('src', /\/uploads\//);
  const session = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(session).toMatchObject({ username: newName, bio: 'Writes about tests.' });
  expect(session.profilePic).toMatch(/\/uploads\//);

  // Nothing changed: Save stays disabled; removing the picture enables it.
  await page.goto('/edit-profile');
  await expect(save).toBeDisabled();
  await page.getByRole('button', { name: 'Remove picture' }).click();
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page).toHaveURL(new RegExp(`/@${newName}$`));
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').profilePic)).toBeNull();
  expect(problems).toEqual([]);
});

test("a profile that does not exist shows 'User not found', then goes home", async ({ page }) => {
  await page.goto('/@nobody_here_at_all');
  await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
});

test('a signed-in reader following a link to a missing profile stays signed in', async ({ page, stack }) => {
  const reader = await createVerifiedUser(stack, 'Stale Link Reader');
  // Signed in by the form, not signInAs: its init script would put the session back on the reload.
  await page.goto('/signin');
  await page.getByLabel('Email').fill(reader.email);
  await page.getByLabel('Password', { exact: true }).fill(reader.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  const session = () => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { id?: string; token?: string });
  expect((await session()).id).toBe(reader.user.id);
  // A renamed author's old address, or a typo: someone else's profile, not the reader's.
  await page.goto('/@renamed_long_ago');
  await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  const after = await session();
  expect([after.id, Boolean(after.token)]).toEqual([reader.user.id, true]);
});
