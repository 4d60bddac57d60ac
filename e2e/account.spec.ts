import { api, createVerifiedUser, expect, type Person, signInAs, test, watchConsole } from './support/fixtures';
import type { Stack } from './support/stack';

async function createBlog(stack: Stack, who: Person, title: string): Promise<string> {
  const body = await api<{ blog: { blogId: string } }>(stack, who, 'POST', '/blogs', {
    title,
    description: `About ${title}`,
    content: { blocks: [{ type: 'paragraph', data: { text: `${title} body` } }] },
    tags: [],
    draft: false,
  });
  return body.blog.blogId;
}

test('transfer an account through the accept link mailed to the recipient', async ({ page, browser, stack }) => {
  const problems = watchConsole(page);
  const sender = await createVerifiedUser(stack, 'Sender Sam');
  const recipient = await createVerifiedUser(stack, 'Recipient Rae');
  const fan = await createVerifiedUser(stack, 'Fan Fiona');
  const blogId = await createBlog(stack, sender, 'Handed over');
  await api(stack, sender, 'POST', `/blogs/comment/${blogId}`, { comment: 'First!' });
  await api(stack, fan, 'PATCH', `/follow/${sender.user.id}`);
  const mailsBefore = stack.mails.filter((m) => m.to.includes(recipient.email)).length;

  await signInAs(page, sender.user);
  await page.goto('/setting');
  await page.getByRole('tab', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Transfer Account Ownership' })).toBeVisible();
  const email = page.getByLabel('Recipient Email');
  const password = page.getByLabel('Current Password');
  const initiate = page.getByRole('button', { name: 'Initiate Transfer' });

  // Client checks of SPEC 5, one at a time.
  await initiate.click();
  await expect(page.getByText('Recipient email is required')).toBeVisible();
  await email.fill('not-an-email');
  await initiate.click();
  await expect(page.getByText('Invalid email format')).toBeVisible();
  await email.fill(sender.email.toUpperCase());
  await initiate.click();
  await expect(page.getByText('Cannot transfer to yourself')).toBeVisible();
  await email.fill(recipient.email);
  await initiate.click();
  await expect(page.getByText('Current password is required')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A wrong password: the confirm dialog, then 'Incorrect password' on the field, still signed in.
  await password.fill('wrong-password');
  await initiate.click();
  const dialog = page.getByRole('dialog', { name: 'Transfer your account?' });
  await expect(dialog).toContainText(recipient.email);
  await dialog.getByRole('button', { name: 'Yes, Transfer' }).click();
  await expect(page.locator('#transfer-password-error')).toHaveText('Incorrect password');
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('user'))).not.toBeNull();

  // An unknown recipient marks the e-mail field.
  await email.fill('nobody-here@example.com');
  await password.fill(sender.password);
  await initiate.click();
  await dialog.getByRole('button', { name: 'Yes, Transfer' }).click();
  await expect(page.locator('#transfer-email-error')).toHaveText('User not found with this email');

  // The real request: toast, then signed out and home after 2 seconds.
  await email.fill(recipient.email);
  await initiate.click();
  await dialog.getByRole('button', { name: 'Yes, Transfer' }).click();
  await expect(page.getByText('Transfer request sent. The recipient must accept it from their email.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
  await expect.poll(() => page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();

  // The recipient opens the accept link from their mailbox (a fresh browser).
  const link = await stack.linkMailedTo(recipient.email, mailsBefore);
  expect(link).toContain('/confirm-transfer/accept/');
  const other = await browser.newContext();
  const recipientPage = await other.newPage();
  await recipientPage.goto(link);
  await expect(recipientPage.getByRole('heading', { name: 'Transfer Successful!' })).toBeVisible();
  await expect(recipientPage.getByTestId('transferred-blogs')).toHaveText('1');
  await expect(recipientPage.getByTestId('transferred-comments')).toHaveText('1');
  await expect(recipientPage.getByTestId('transferred-followers')).toHaveText('1');
  await expect(recipientPage.getByRole('link', { name: 'Return Home' })).toBeVisible();
  await expect(recipientPage.getByRole('link', { name: 'Sign In' }).last()).toBeVisible();
  // Redirected home after 5 seconds.
  await expect(recipientPage).toHaveURL(/\/$/, { timeout: 8_000 });

  // The recipient now owns the blog; the sender is gone.
  const blog = await (await fetch(`${stack.baseURL}/api/v1/blogs/${blogId}`)).json();
  expect(blog.blog.creator.username).toBe(recipient.user.username);
  await recipientPage.goto(`/@${recipient.user.username}`);
  await expect(recipientPage.getByRole('article').filter({ hasText: 'Handed over' })).toBeVisible();
  await expect(recipientPage.getByRole('button', { name: '1 Follower', exact: true })).toBeVisible();
  const gone = await fetch(`${stack.baseURL}/api/v1/users/${sender.user.username}`);
  expect(gone.status).toBe(404);

  // The link works once: opening it again fails, and Try Again asks again.
  await recipientPage.goto(link);
  await expect(recipientPage.getByRole('heading', { name: 'Transfer Failed' })).toBeVisible();
  await expect(recipientPage.getByText('This transfer link is invalid or has expired.')).toBeVisible();
  const again = recipientPage.waitForResponse((r) => r.url().includes('/api/v1/confirm-transfer/'));
  await recipientPage.getByRole('button', { name: 'Try Again' }).click();
  expect((await again).status()).toBe(400);
  await expect(recipientPage.getByRole('heading', { name: 'Transfer Failed' })).toBeVisible();
  await other.close();
  expect(problems).toEqual([]);
});

test('the confirmation page calls the API once per visit', async ({ page }) => {
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/confirm-transfer/')) calls++;
  });
  await page.goto('/confirm-transfer/accept/not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Transfer Failed' })).toBeVisible();
  await expect(page.getByText('This transfer link is invalid or has expired.')).toBeVisible();
  await page.waitForTimeout(500);
  expect(calls).toBe(1);
  await page.getByRole('link', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('delete an account: the password is required, a wrong one keeps the session, the right one deletes', async ({ page, stack }) => {
  const problems = watchConsole(page);
  const doomed = await createVerifiedUser(stack, 'Doomed Dana');
  await createBlog(stack, doomed, 'Soon gone');
  await signInAs(page, doomed.user);
  await page.goto('/setting?tab=account');

  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();
  await expect(dialog.getByText('Please enter your current password')).toBeVisible();

  await dialog.getByLabel('Current Password').fill('wrong-password');
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();
  // In the toast and (first in the page) at the field.
  await expect(page.getByText('Current password is incorrect').first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('user'))).not.toBeNull();

  // Escape closes the dialog (after the 300 ms animation); open it again and confirm.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await dialog.getByLabel('Current Password').fill(doomed.password);
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Account deleted successfully')).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('user'))).toBeNull();

  const signin = await fetch(`${stack.baseURL}/api/v1/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: doomed.email, password: doomed.password }),
  });
  expect(signin.status).toBeGreaterThanOrEqual(400);
  expect((await fetch(`${stack.baseURL}/api/v1/users/${doomed.user.username}`)).status).toBe(404);
  expect(problems).toEqual([]);
});
