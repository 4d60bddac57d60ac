import { api, createVerifiedUser, expect, signInAs, test } from './support/fixtures';

/**
 * 'Load more' on /notifications asks for the items after the last one shown. With page numbers,
 * an item deleted (or read, under Unread) on the first page made the next page skip as many.
 */
test('Load more after deleting an item on the first page skips nothing', async ({ page, stack }) => {
  const reader = await createVerifiedUser(stack, 'Paging Reader');
  const writer = await createVerifiedUser(stack, 'Paging Writer');
  const { blog } = await api<{ blog: { blogId: string } }>(stack, reader, 'POST', '/blogs', {
    title: 'Many comments',
    description: 'd',
    content: { blocks: [{ type: 'paragraph', data: { text: 'hello' } }] },
    tags: [],
    draft: false,
  });
  for (let i = 1; i <= 12; i++) await api(stack, writer, 'POST', `/blogs/comment/${blog.blogId}`, { comment: `Comment ${i}` });
  // Read items: deleting one changes no unread count, so the page keeps what it loaded.
  await api(stack, reader, 'PATCH', '/notifications/mark-read');

  await signInAs(page, reader.user);
  await page.goto('/notifications');
  const list = page.getByRole('main').getByRole('listitem');
  await expect(list).toHaveCount(10);
  await list.first().getByRole('button', { name: 'Delete notification' }).click();
  await expect(page.getByText('Notification deleted')).toBeVisible();
  await expect(list).toHaveCount(9);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(list).toHaveCount(11);
  await expect(list.last()).toContainText('Comment 1');
  await expect(page.getByRole('button', { name: 'Load more' })).toBeHidden();
});
