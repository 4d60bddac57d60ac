import type { Locator, Page } from '@playwright/test';
import { type AxeFinding, axeScan, formatFindings, isBlocking } from './support/axe';
import { api, createVerifiedUser, expect, type Person, signInAs, test } from './support/fixtures';

/**
 * axe-core (WCAG 2.1 AA and best practices) over every screen of SPEC.md section 2, signed out and
 * signed in, in the light and the dark theme. Everything it finds is printed; serious and critical
 * findings fail the test.
 */

type Screen = { name: string; path: string; ready: (page: Page) => Promise<unknown>; open?: (page: Page) => Promise<unknown> };

const heading = (page: Page, name: string | RegExp) => expect(page.getByRole('heading', { name, level: 1 }).first()).toBeVisible();

for (const theme of ['light', 'dark'] as const) {
  test(`every screen passes axe in the ${theme} theme`, async ({ browser, stack }) => {
    test.setTimeout(180_000);
    // The author is signed in for the signed-in screens; readers named so that their initials
    // avatars take several colours of the palette (amber among them).
    const author = await createVerifiedUser(stack, 'Alice Writer');
    const readers = [await createVerifiedUser(stack, 'Dana Reader'), await createVerifiedUser(stack, 'Ava Reader')];
    const { blog } = await api<{ blog: { blogId: string } }>(stack, author, 'POST', '/blogs', {
      title: 'Accessible by default',
      description: 'Contrast, names and landmarks.',
      tags: ['a11y', 'css'],
      draft: false,
      content: {
        blocks: [
          { type: 'header', data: { text: 'Why it matters', level: 2 } },
          { type: 'paragraph', data: { text: 'Everyone reads the web <b>differently</b>.' } },
          { type: 'list', data: { style: 'unordered', items: [{ content: 'Contrast', items: [] }] } },
          { type: 'quote', data: { text: 'Design for all.', caption: 'Someone' } },
        ],
      },
    });
    await api(stack, author, 'POST', '/blogs', {
      title: 'A draft',
      description: 'Not yet.',
      tags: [],
      draft: true,
      content: { blocks: [{ type: 'paragraph', data: { text: 'Later.' } }] },
    });
    // Unread likes, comments and follows: the highlighted rows of the bell and the notifications page.
    for (const reader of readers) {
      await api(stack, reader, 'POST', `/blogs/like/${blog.blogId}`);
      await api(stack, reader, 'POST', `/blogs/comment/${blog.blogId}`, { comment: `Thanks from ${reader.name}` });
      await api(stack, reader, 'PATCH', `/follow/${author.user.id}`);
    }
    // More than nine unread: the bell's badge reads '9+'.
    for (let i = 0; i < 5; i++) await api(stack, readers[0] as Person, 'POST', `/blogs/comment/${blog.blogId}`, { comment: `More ${i}` });
    const me = author.user.username;

    const signedOut: Screen[] = [
      { name: 'home', path: '/', ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      { name: 'blog page', path: `/blog/${blog.blogId}`, ready: (p) => heading(p, 'Accessible by default') },
      { name: 'profile', path: `/@${me}`, ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      { name: 'tag', path: '/tag/a11y', ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      { name: 'search', path: '/search?q=accessible', ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      { name: 'search, no results', path: '/search?q=zzzznothing', ready: (p) => expect(p.getByText('No blogs found')).toBeVisible() },
      { name: 'about', path: '/about', ready: (p) => heading(p, 'About Inkwell') },
      { name: 'sign in', path: '/signin', ready: (p) => heading(p, 'Welcome back') },
      { name: 'sign up', path: '/signup', ready: (p) => heading(p, 'Create account') },
      { name: 'verify email', path: '/verify-email/not-a-real-token', ready: (p) => expect(p.getByRole('status')).toBeVisible() },
      { name: 'forgot password', path: '/forgot-password', ready: (p) => heading(p, 'Forgot password?') },
      { name: 'reset password', path: '/reset-password/not-a-real-token', ready: (p) => heading(p, 'Choose a new password') },
      {
        name: 'confirm transfer',
        path: '/confirm-transfer/accept/not-a-real-token',
        ready: (p) => expect(p.getByText('Transfer Failed')).toBeVisible(),
      },
      {
        name: 'newsletter confirmation',
        path: '/newsletter/confirm/not-a-real-token',
        ready: (p) => expect(p.getByText('This confirmation link is invalid or has expired.', { exact: false })).toBeVisible(),
      },
      {
        name: 'newsletter unsubscribe',
        path: '/newsletter/unsubscribe/not-a-real-token',
        ready: (p) => expect(p.getByRole('button', { name: 'Unsubscribe' })).toBeVisible(),
      },
      { name: 'blog not found', path: '/blog/no-such-blog', ready: (p) => heading(p, 'Blog not found') },
      { name: '404', path: '/no/such/page', ready: (p) => heading(p, 'Page not found') },
    ];
    const signedIn: Screen[] = [
      { name: 'home (signed in)', path: '/', ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      {
        name: 'bell dropdown',
        path: '/',
        ready: (p) => expect(p.getByRole('article').first()).toBeVisible(),
        open: async (p) => {
          await p.getByRole('button', { name: /Notifications/ }).click();
          await expect(p.getByRole('link', { name: 'View all' })).toBeVisible();
        },
      },
      {
        name: 'account menu',
        path: '/',
        ready: (p) => expect(p.getByRole('article').first()).toBeVisible(),
        open: async (p) => {
          await p.getByRole('button', { name: /Account menu/ }).click();
          await expect(p.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
        },
      },
      {
        name: 'blog page with comments',
        path: `/blog/${blog.blogId}`,
        ready: (p) => heading(p, 'Accessible by default'),
        open: async (p) => {
          await p.getByRole('button', { name: /^\d+ comments?$/ }).click();
          await expect(p.getByText('Thanks from Dana Reader')).toBeVisible();
        },
      },
      { name: 'own profile', path: `/@${me}`, ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      { name: 'profile saved', path: `/@${me}/saved-blogs`, ready: (p) => expect(p.getByText('No blogs found')).toBeVisible() },
      { name: 'profile liked', path: `/@${me}/liked-blogs`, ready: (p) => expect(p.getByText('No blogs found')).toBeVisible() },
      { name: 'profile drafts', path: `/@${me}/draft-blogs`, ready: (p) => expect(p.getByRole('article').first()).toBeVisible() },
      {
        name: 'followers modal',
        path: `/@${me}`,
        ready: (p) => expect(p.getByRole('article').first()).toBeVisible(),
        open: async (p) => {
          await p.getByRole('button', { name: /Followers/ }).click();
          await expect(p.getByRole('dialog').getByText('Dana Reader')).toBeVisible();
        },
      },
      { name: 'notifications', path: '/notifications', ready: (p) => expect(p.getByText('Thanks from Dana Reader')).toBeVisible() },
      { name: 'settings', path: '/setting', ready: (p) => heading(p, /Settings/) },
      // The author is a plain user: the moderation screen itself is scanned in e2e/moderation.spec.ts.
      { name: 'moderation, no access', path: '/moderation', ready: (p) => heading(p, 'You do not have access to this page') },
      { name: 'edit profile', path: '/edit-profile', ready: (p) => heading(p, 'Edit Profile') },
      { name: 'editor (new)', path: '/add-blog', ready: (p) => expect(p.locator('.codex-editor')).toBeVisible() },
      { name: 'editor (edit)', path: `/edit/${blog.blogId}`, ready: (p) => expect(p.getByText('Why it matters')).toBeVisible() },
    ];

    const findings: AxeFinding[] = [];
    for (const [who, screens] of [
      ['signed out', signedOut],
      ['signed in', signedIn],
    ] as const) {
      const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: theme });
      const page = await context.newPage();
      if (who === 'signed in') await signInAs(page, author.user);
      for (const screen of screens) {
        await page.goto(screen.path);
        await screen.ready(page);
        await screen.open?.(page);
        // Fonts and transitions settle before colours are measured.
        await page.evaluate(() => document.fonts.ready);
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
        findings.push(...(await axeScan(page, `${screen.name} [${theme}]`)));
      }
      await context.close();
    }

    if (findings.length) console.log(`axe findings (${theme}):\n${formatFindings(findings)}`);
    const blocking = findings.filter(isBlocking);
    expect(blocking.map((f) => `${f.screen}: ${f.rule} (${f.nodes.length})`)).toEqual([]);
  });
}

/**
 * The WCAG contrast ratio of an element's text over what its ancestors paint behind it, from the
 * computed colours as they are now (hovered or not). A 1-pixel canvas turns any CSS colour (the
 * theme's are oklch) into sRGB and lays the translucent ones over what is below, as the page does.
 * axe judges the colours at rest only, and a hover is what it never sees.
 */
async function textContrast(locator: Locator): Promise<number> {
  await locator.page().evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  return locator.evaluate((element) => {
    const context = Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d', {
      willReadFrequently: true,
    }) as CanvasRenderingContext2D;
    const paint = (colour: string) => {
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const chain: Element[] = [];
    for (let e: Element | null = element; e; e = e.parentElement) chain.unshift(e);
    let background = paint('#fff');
    for (const e of chain) background = paint(getComputedStyle(e).backgroundColor);
    const text = paint(getComputedStyle(element).color);
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4)) as [
        number,
        number,
        number,
      ];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  });
}

test('primary buttons keep 4.5:1 when hovered in the dark theme', async ({ browser, stack }) => {
  const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveClass(/dark/);
  // The shared Button's primary look (the bar's Sign Up) and the forms' own (Sign in).
  const targets = [
    page.getByRole('banner').getByRole('link', { name: 'Sign Up' }),
    page.getByRole('main').getByRole('button', { name: 'Sign in' }),
  ];
  for (const target of targets) {
    expect(await textContrast(target)).toBeGreaterThanOrEqual(4.5);
    await target.hover();
    expect(await textContrast(target)).toBeGreaterThanOrEqual(4.5);
  }
  await context.close();
});

test('a liked like count keeps 4.5:1, hovered or not, in both themes', async ({ browser, stack }) => {
  const author = await createVerifiedUser(stack, 'Alice Writer');
  const reader = await createVerifiedUser(stack, 'Dana Reader');
  const { blog } = await api<{ blog: { blogId: string } }>(stack, author, 'POST', '/blogs', {
    title: 'Liked in red',
    description: 'Contrast of a liked count.',
    tags: [],
    draft: false,
    content: { blocks: [{ type: 'paragraph', data: { text: 'Hello.' } }] },
  });
  await api(stack, reader, 'POST', `/blogs/like/${blog.blogId}`);
  const { newComment } = await api<{ newComment: { _id: string } }>(stack, author, 'POST', `/blogs/comment/${blog.blogId}`, {
    comment: 'Liked comment',
  });
  await api(stack, reader, 'PATCH', `/blogs/like-comment/${newComment._id}`);

  for (const theme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL: stack.baseURL, colorScheme: theme });
    const page = await context.newPage();
    await signInAs(page, reader.user);
    await page.goto(`/blog/${blog.blogId}`);
    const liked = async (button: Locator) => {
      await expect(button).toHaveAttribute('aria-pressed', 'true');
      const count = button.getByText('1', { exact: true });
      expect(await textContrast(count), `${theme}, at rest`).toBeGreaterThanOrEqual(4.5);
      await button.hover();
      expect(await textContrast(count), `${theme}, hovered`).toBeGreaterThanOrEqual(4.5);
    };
    // The footer's like button (on the page's grey), then the comment's (in the white panel, which covers the footer).
    await liked(page.getByRole('article', { name: 'Liked in red' }).getByRole('button', { name: '1 like', exact: true }));
    await page.getByRole('button', { name: '1 comment', exact: true }).click();
    await liked(page.getByRole('dialog').getByRole('button', { name: '1 like', exact: true }));
    await context.close();
  }
});

test('the shared dialog runs no transition under prefers-reduced-motion: reduce', async ({ browser, stack }) => {
  const person = await createVerifiedUser(stack, 'Calm Reader');
  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    const context = await browser.newContext({ baseURL: stack.baseURL });
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion });
    await signInAs(page, person.user);
    await page.goto(`/@${person.user.username}`);
    await page.getByRole('button', { name: /Followers/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Followers' });
    await expect(dialog).toBeVisible();
    // The panel and the overlay before it; a transition-property of none counts as no time.
    const overlay = dialog.locator('xpath=preceding-sibling::div[1]');
    const durations = await Promise.all(
      [dialog, overlay].map((part) =>
        part.evaluate((element) => {
          const style = getComputedStyle(element);
          return style.transitionProperty === 'none' ? '0s' : style.transitionDuration;
        }),
      ),
    );
    expect(durations, reducedMotion).toEqual(reducedMotion === 'reduce' ? ['0s', '0s'] : ['0.3s', '0.3s']);

    // Closing: the fade and shrink run only when motion is welcome.
    await page.evaluate(() => {
      (window as unknown as { transitions: number }).transitions = 0;
      document.addEventListener('transitionrun', () => (window as unknown as { transitions: number }).transitions++);
    });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    const transitions = await page.evaluate(() => (window as unknown as { transitions: number }).transitions);
    if (reducedMotion === 'reduce') expect(transitions).toBe(0);
    else expect(transitions).toBeGreaterThan(0);
    await context.close();
  }
});

test('moving to another page says its title and hands the keyboard focus to its content', async ({ page, stack }) => {
  const author = await createVerifiedUser(stack, 'Focus Author');
  const { blog } = await api<{ blog: { blogId: string } }>(stack, author, 'POST', '/blogs', {
    title: 'Where the focus goes',
    description: 'After a link is followed.',
    tags: ['focus'],
    draft: false,
    content: {
      blocks: [
        { type: 'paragraph', data: { text: 'Body.' } },
        { type: 'code', data: { code: `const line = '${'x'.repeat(300)}';`, language: 'js' } },
      ],
    },
  });
  await page.goto('/');
  const announcer = page.getByTestId('page-announcer');
  // The page the tab opened on is not announced.
  await expect(announcer).toHaveText('');
  // Follow a post card's link from the keyboard: the link leaves with the home page.
  await page.getByRole('link', { name: 'Where the focus goes' }).first().press('Enter');
  await expect(page).toHaveURL(new RegExp(`/blog/${blog.blogId}$`));
  await expect(announcer).toHaveText(/^Where the focus goes/);
  await expect(page.locator('main#main')).toBeFocused();
  // The next Tab goes on inside the page, not to 'Skip to content' at the top.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);

  // A code line wider than the screen scrolls inside its block, which the keyboard reaches too.
  await page.getByRole('button', { name: 'Copy code' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('pre')).toBeFocused();

  // Back from the keyboard: the same.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(announcer).not.toHaveText(/^Where the focus goes/);
  await expect(page.locator('main#main')).toBeFocused();
});
