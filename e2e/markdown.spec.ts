import { readFileSync } from 'node:fs';
import path from 'node:path';
import { axeScan, formatFindings, isBlocking } from './support/axe';
import { png } from './support/editor';
import { api, createVerifiedUser, expect, signInAs, test, watchConsole } from './support/fixtures';

/**
 * Markdown in and out (issue 16): import a .md file into the editor, publish it, export it back
 * as Markdown, and download the whole account from Settings → Account.
 */

const FIXTURE = path.resolve(import.meta.dirname, '../packages/core/src/markdown/fixtures/devto-post.md');

test('imports a Markdown file, publishes it, exports it back and downloads my data', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  // The test machine has no internet: the file's images by URL get a small PNG.
  const image = await png(40, 20, { r: 20, g: 120, b: 200 });
  await page.route(/^https:\/\/images\.example\.com\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: image }));
  const author = await createVerifiedUser(stack, 'Mark Down');
  await signInAs(page, author.user);

  await page.goto('/add-blog');
  await expect(page.getByRole('heading', { name: 'Create New Blog Post' })).toBeVisible();
  await expect(page.locator('.codex-editor')).toBeVisible();

  // Scanned before the import: Editor.js' own image tool renders its picture without alt text.
  const findings = (await axeScan(page, 'editor with Import Markdown')).filter(isBlocking);
  expect(findings, formatFindings(findings)).toEqual([]);

  // The import button is a real button: reachable and pressed with the keyboard.
  const importButton = page.getByRole('button', { name: 'Import Markdown' });
  await importButton.focus();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles({ name: 'devto-post.md', mimeType: 'text/markdown', buffer: readFileSync(FIXTURE) });

  await expect(page.locator('[data-sonner-toast]', { hasText: 'Imported devto-post.md' })).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue('Building a REST API with Fastify and TypeScript');
  await expect(page.getByLabel('Description')).toHaveValue(/^A practical walk-through/);
  for (const tag of ['node', 'typescript', 'webdev', 'tutorial']) {
    await expect(page.getByRole('button', { name: `Remove tag ${tag}` })).toBeVisible();
  }
  const editor = page.locator('.codex-editor');
  await expect(editor.locator('h2', { hasText: 'Why Fastify?' })).toBeVisible();
  await expect(editor.locator('h3', { hasText: 'Setting up the project' })).toBeVisible();
  await expect(editor.locator('li', { hasText: 'Schemas validate input and serialize output' })).toBeVisible();
  await expect(editor.locator('.ink-code__textarea').first()).toHaveValue(/^mkdir api && cd api\nnpm init -y\n/);
  await expect(editor.locator('.ink-code__select').first()).toHaveValue('bash');
  await expect(editor.getByText('Premature optimization is the root of all evil.')).toBeVisible();
  await expect(editor.locator('b', { hasText: 'fastest' })).toBeVisible();
  await expect(editor.locator('a[href="https://fastify.dev/benchmarks/"]')).toHaveText('official benchmarks');

  await page.getByRole('button', { name: 'Publish Blog' }).click();
  await expect(page).toHaveURL(/\/$/);

  const { blogs } = await api<{ blogs: { blogId: string; title: string; image: string | null }[] }>(
    stack,
    author,
    'GET',
    `/users/${author.user.username}/blogs`,
  );
  const blog = blogs.find((b) => b.title === 'Building a REST API with Fastify and TypeScript');
  expect(blog).toBeTruthy();
  expect(blog!.image).toBe('https://images.example.com/covers/fastify-api.png');

  // Export it back from the editor: the file carries the same front matter and blocks.
  await page.goto(`/edit/${blog!.blogId}`);
  await expect(page.getByRole('heading', { name: 'Edit Blog Post' })).toBeVisible();
  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Markdown' }).click();
  const file = await exported;
  expect(file.suggestedFilename()).toBe(`${blog!.blogId}.md`);
  const markdown = readFileSync((await file.path())!, 'utf8');
  expect(markdown).toMatch(/^---\ntitle: Building a REST API with Fastify and TypeScript\n/);
  expect(markdown).toContain('tags:\n  - node\n  - typescript\n  - webdev\n  - tutorial\n');
  expect(markdown).toContain('## Why Fastify?');
  expect(markdown).toContain('```bash\nmkdir api && cd api\nnpm init -y\n');
  expect(markdown).toContain('> — Donald Knuth');
  expect(markdown).toContain('![Test output in the terminal](https://images.example.com/posts/inject-output.png)');

  // Download my data from Settings → Account: a zip holding data.json and the post as Markdown.
  await page.goto('/setting?tab=account');
  await expect(page.getByRole('heading', { name: 'Download my data' })).toBeVisible();
  const accountFindings = (await axeScan(page, 'settings account with download my data')).filter(isBlocking);
  expect(accountFindings, formatFindings(accountFindings)).toEqual([]);
  const archive = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const zip = await archive;
  expect(zip.suggestedFilename()).toMatch(new RegExp(`^inkwell-${author.user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const bytes = readFileSync((await zip.path())!);
  // A zip starts with a local file header; its central directory names every entry in plain text.
  expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
  expect(bytes.includes(Buffer.from('data.json'))).toBe(true);
  expect(bytes.includes(Buffer.from(`posts/${blog!.blogId}.md`))).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: /^Downloaded inkwell-/ })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a file that is not valid Markdown front matter is refused with a readable message', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Bad File');
  await signInAs(page, author.user);
  await page.goto('/add-blog');
  await expect(page.locator('.codex-editor')).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import Markdown' }).click();
  await (await chooser).setFiles({ name: 'broken.md', mimeType: 'text/markdown', buffer: Buffer.from('---\ntitle: [unclosed\n---\nBody') });
  await expect(
    page.locator('[data-sonner-toast]', { hasText: 'The front matter at the top of the file is not valid YAML.' }),
  ).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue('');
});
