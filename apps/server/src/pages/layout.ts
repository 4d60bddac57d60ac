import { escapeHtml } from './html';

/**
 * The app's chrome (apps/web/src/app/layout: Navbar, Footer) as static HTML with the same classes,
 * so the server page and the app's screen that replaces it look the same. Without JavaScript the
 * links still work and the search box is a plain GET form to /search.
 */

const FEATHER =
  '<svg xmlns="http://www.w3.org/2000/svg" class="lucide lucide-feather" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M12.67 19a2 2 0 0 0 1.416-.588l6.154-6.172a6 6 0 0 0-8.49-8.49L5.586 9.914A2 2 0 0 0 5 11.328V18a1 1 0 0 0 1 1z"/><path d="M16 8 2 22"/><path d="M17.5 15H9"/></svg>';

const LOGO = `<a href="/" aria-label="Inkwell home" class="flex shrink-0 items-center gap-2 rounded-lg"><span class="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">${FEATHER}</span><span class="text-xl font-extrabold tracking-tight text-gray-900 dark:text-white">Inkwell</span></a>`;

const BUTTON = {
  primary:
    'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors px-4 py-2 text-sm bg-indigo-600 text-white hover:bg-indigo-700 dark:bg-indigo-500 dark:hover:bg-indigo-600 dark:text-white',
  ghost:
    'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors px-4 py-2 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-200 dark:hover:bg-gray-800',
};

function navbar(search: string): string {
  return `<header class="fixed inset-x-0 top-0 z-40 border-b border-gray-200 bg-white/90 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90">
<nav aria-label="Main" class="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4">${LOGO}
<form action="/search" method="get" role="search" class="mx-4 hidden max-w-md flex-1 md:block"><label for="server-search" class="sr-only">Search articles</label><input id="server-search" type="search" name="q" value="${escapeHtml(search)}" placeholder="Search articles..." class="w-full rounded-full border border-gray-200 bg-gray-100 px-4 py-2 text-sm text-gray-900 placeholder:text-gray-500 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-100" /></form>
<div class="ml-auto flex items-center gap-2"><a href="/signin" class="${BUTTON.ghost}">Sign In</a><a href="/signup" class="${BUTTON.primary}">Sign Up</a></div>
</nav>
</header>`;
}

const FOOTER = `<footer class="border-t border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-950">
<div class="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-12 lg:grid-cols-4"><div class="col-span-2 lg:col-span-1">${LOGO}<p class="mt-3 text-sm text-gray-600 dark:text-gray-400">A journal for developers and tech writers.</p></div>
<nav aria-label="Explore"><h2 class="text-sm font-semibold text-gray-900 dark:text-gray-100">Explore</h2><ul class="mt-3 space-y-2 text-sm"><li><a href="/" class="text-gray-600 hover:text-indigo-600 dark:text-gray-400 dark:hover:text-indigo-400">Latest Articles</a></li><li><a href="/about" class="text-gray-600 hover:text-indigo-600 dark:text-gray-400 dark:hover:text-indigo-400">About Inkwell</a></li></ul></nav></div>
<div class="border-t border-gray-200 dark:border-gray-800"><div class="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-5 text-sm text-gray-500 sm:flex-row dark:text-gray-400"><p>© ${new Date().getFullYear()} Inkwell. Open source.</p></div></div>
</footer>`;

/** A whole page around its main content, as RootLayout lays it out. */
export function pageLayout(main: string, options: { search?: string } = {}): string {
  return `<div class="flex min-h-screen flex-col">${navbar(options.search ?? '')}<main class="flex-1 pt-16">${main}</main>${FOOTER}</div>`;
}

/** The app's NotFoundPage. */
export function notFoundScreen(title = 'Page not found', text = 'The page you are looking for does not exist or has moved.'): string {
  return `<section class="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center"><p class="text-6xl font-extrabold text-indigo-600 dark:text-indigo-400">404</p><h1 class="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">${escapeHtml(title)}</h1><p class="mt-2 text-gray-600 dark:text-gray-400">${escapeHtml(text)}</p><a href="/" class="${BUTTON.primary} mt-8">Go home</a></section>`;
}

/** A screen only the app can show (sign-in, editor, settings…): a quiet placeholder of the same height as its spinner. */
export function appOnlyScreen(): string {
  return '<div class="flex justify-center py-24" aria-busy="true"><span class="sr-only">Loading…</span></div>';
}

/** Clock icon of the reading time (lucide), as the app draws it. */
export const CLOCK =
  '<svg xmlns="http://www.w3.org/2000/svg" class="lucide lucide-clock" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="12" cy="12" r="10"/><path d="M12 6v6l4 2"/></svg>';

const CARD_SECTION = 'rounded-2xl border border-gray-200 bg-white p-6 sm:p-8 dark:border-gray-800 dark:bg-gray-900';

/** The app's AboutPage text. */
export function aboutScreen(): string {
  return `<div class="mx-auto max-w-4xl px-4 py-12 sm:py-16"><header class="text-center"><h1 class="mt-4 text-4xl font-extrabold tracking-tight text-gray-900 dark:text-white">About Inkwell</h1><p class="mx-auto mt-4 max-w-2xl text-lg text-gray-600 dark:text-gray-300">A journal for developers and tech writers: a place to share what you learn while building software.</p></header><section aria-labelledby="server-mission" class="mt-12 ${CARD_SECTION}"><h2 id="server-mission" class="text-2xl font-bold text-gray-900 dark:text-gray-100">Our mission</h2><p class="mt-3 leading-relaxed text-gray-700 dark:text-gray-300">Knowledge grows when it is shared. Inkwell gives every developer a simple, fast and respectful place to publish: no paywalls, no trackers, just writing and the people who read it. Discover &amp; Share Knowledge.</p></section><section aria-labelledby="server-author" class="mt-8 ${CARD_SECTION}"><h2 id="server-author" class="text-2xl font-bold text-gray-900 dark:text-gray-100">The author</h2><p class="mt-3 leading-relaxed text-gray-700 dark:text-gray-300">Inkwell was started by a developer who learned most of what they know from other people's blog posts, and wanted a home for that kind of writing that anyone can run. It is maintained in the open by its contributors; issues and pull requests are welcome.</p></section><div class="mt-10 flex flex-col justify-center gap-3 sm:flex-row"><a href="/signin" class="${BUTTON.primary}">Get Started</a><a href="/" class="${BUTTON.ghost}">Browse</a></div></div>`;
}
