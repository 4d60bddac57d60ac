import { avatarColour, type BlogCard, initials, type Profile, postDay } from '@inkwell/core';
import { isSafeImageUrl } from '../lib/sanitize';
import { escapeHtml } from './html';
import { CLOCK } from './layout';

/**
 * The list screens (home, tag, search, profile) with their first page of posts as plain links,
 * in the markup and classes of the app's BlogCard, BlogResults, HomePage and ProfileScreen.
 */

export const blogPath = (blogId: string) => `/blog/${encodeURIComponent(blogId)}`;
export const profilePath = (username: string) => `/@${encodeURIComponent(username)}`;
export const tagPath = (tag: string) => `/tag/${encodeURIComponent(tag)}`;

/** The app's Avatar: the picture, or initials on the colour seeded by the name. */
export function avatar(name: string | null | undefined, src: string | null | undefined, size: number, extra = ''): string {
  const label = escapeHtml(name?.trim() || 'User');
  if (src && isSafeImageUrl(src)) {
    return `<img src="${escapeHtml(src)}" alt="${label}" width="${size}" height="${size}" style="width:${size}px;height:${size}px" loading="lazy" decoding="async" class="shrink-0 rounded-full object-cover ${extra}" />`;
  }
  const style = `width:${size}px;height:${size}px;background-color:${avatarColour(name?.trim() || 'User')};font-size:${Math.max(10, Math.round(size * 0.4))}px`;
  return `<span role="img" aria-label="${label}" style="${style}" class="inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white ${extra}">${escapeHtml(initials(name))}</span>`;
}

const TAG_CHIP =
  'rounded-full bg-indigo-50 px-2.5 py-1 font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-300 dark:hover:bg-indigo-500/20';

/** One card of a list (the app's BlogCard). */
export function blogCard(blog: BlogCard): string {
  const creatorName = blog.creator?.name || 'Unknown';
  const href = escapeHtml(blogPath(blog.blogId));
  const image =
    blog.image && isSafeImageUrl(blog.image)
      ? `<a href="${href}" tabindex="-1" aria-hidden="true" class="block shrink-0 sm:w-56"><img src="${escapeHtml(blog.image)}" alt="" loading="lazy" decoding="async" class="h-48 w-full object-cover sm:h-full" /></a>`
      : '';
  const tags = blog.tags
    .slice(0, 2)
    .map(
      (tag) =>
        `<a href="${escapeHtml(tagPath(tag))}" title="#${escapeHtml(tag)}" class="max-w-full truncate ${TAG_CHIP}">#${escapeHtml(tag)}</a>`,
    )
    .join('');
  return `<article class="group overflow-hidden rounded-xl border border-gray-200 bg-white transition hover:shadow-md sm:flex dark:border-gray-800 dark:bg-gray-900">${image}<div class="flex min-w-0 flex-1 flex-col p-5"><a href="${escapeHtml(profilePath(blog.creator?.username || 'unknown'))}" class="flex w-fit max-w-full min-w-0 items-center gap-2 text-sm text-gray-700 hover:underline dark:text-gray-300">${avatar(creatorName, blog.creator?.profilePic, 28)}<span class="truncate font-medium">${escapeHtml(creatorName)}</span></a><h2 class="mt-3 line-clamp-3 text-lg font-bold wrap-anywhere text-gray-900 dark:text-gray-100"><a href="${href}" class="hover:text-indigo-600 dark:hover:text-indigo-400">${escapeHtml(blog.title)}</a></h2>${blog.description ? `<p class="mt-1 line-clamp-2 wrap-anywhere text-gray-600 dark:text-gray-400">${escapeHtml(blog.description)}</p>` : ''}<div class="mt-auto flex flex-wrap items-center gap-2 pt-4 text-xs">${tags}<span class="ml-auto inline-flex items-center gap-2 text-gray-500 dark:text-gray-400"><time datetime="${escapeHtml(blog.createdAt)}">${escapeHtml(postDay(blog.createdAt))}</time><span aria-hidden="true">·</span><span class="inline-flex items-center gap-1">${CLOCK}${blog.readingTime} min read</span></span></div></div></article>`;
}

function cardList(blogs: BlogCard[], empty: string): string {
  if (!blogs.length) {
    return `<div class="flex flex-col items-center rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center text-gray-600 dark:border-gray-700 dark:text-gray-400"><p class="text-lg font-medium">${escapeHtml(empty)}</p></div>`;
  }
  return `<ul class="space-y-5">${blogs.map((b) => `<li>${blogCard(b)}</li>`).join('')}</ul>`;
}

/** Home: the hero and the newest posts. */
export function homeScreen(blogs: BlogCard[]): string {
  return `<section class="border-b border-gray-200 bg-gradient-to-b from-indigo-50 to-white dark:border-gray-800 dark:from-indigo-950/40 dark:to-gray-950"><div class="mx-auto max-w-6xl px-4 py-14 text-center sm:py-20"><p class="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">A journal for developers and tech writers</p><h1 class="mt-3 text-4xl font-extrabold tracking-tight text-gray-900 sm:text-5xl dark:text-white">Discover &amp; Share Knowledge</h1><p class="mx-auto mt-4 max-w-2xl text-lg text-gray-600 dark:text-gray-300">Read deep dives, tutorials and stories from the community, and publish your own.</p><a href="/signin" class="mt-8 inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-5 py-3 text-base font-medium text-white shadow-sm hover:bg-indigo-700 dark:bg-indigo-500">Start Writing</a></div></section><div class="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-10 lg:grid-cols-[minmax(0,1fr)_320px]"><section aria-labelledby="latest-heading" class="min-w-0"><h2 id="latest-heading" class="mb-5 text-2xl font-bold text-gray-900 dark:text-gray-100">Latest Articles</h2>${cardList(blogs, 'No Blogs Found. Start Writing 😃')}</section></div>`;
}

/** Tag and search results: 'Results for {term}' and the cards. */
export function resultsScreen(term: string, blogs: BlogCard[]): string {
  return `<section class="mx-auto max-w-3xl px-4 py-10" aria-labelledby="results-heading"><h1 id="results-heading" class="mb-6 wrap-anywhere text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-100">Results for <span class="text-indigo-600 dark:text-indigo-400">${escapeHtml(term)}</span></h1>${cardList(blogs, 'No blogs found')}</section>`;
}

const TAB_LABELS: Record<string, string> = { blogs: 'Blogs', 'saved-blogs': 'Saved', 'liked-blogs': 'Liked' };

/** A profile and one of its public tabs. `blogs` is undefined for a tab only its owner may see. */
export function profileScreen(user: Profile, tab: string, tabs: string[], blogs: BlogCard[] | undefined): string {
  const base = profilePath(user.username);
  const count = (value: number, label: string) =>
    `<span class="text-sm"><span class="font-bold text-gray-900 dark:text-gray-100">${value}</span> <span class="text-gray-600 dark:text-gray-400">${label}</span></span>`;
  const nav = tabs
    .map((t) => {
      const active = t === tab;
      const cls = active
        ? 'border-indigo-600 text-indigo-600 dark:border-indigo-400 dark:text-indigo-400'
        : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100';
      return `<a href="${escapeHtml(t === 'blogs' ? base : `${base}/${t}`)}"${active ? ' aria-current="page"' : ''} class="-mb-px shrink-0 border-b-2 px-4 py-2.5 text-sm font-medium transition-colors ${cls}">${TAB_LABELS[t] ?? t}</a>`;
    })
    .join('');
  return `<div class="mx-auto max-w-6xl px-4 py-6 sm:py-8"><section aria-label="Profile" class="rounded-2xl border border-gray-200 bg-white p-5 sm:p-7 dark:border-gray-800 dark:bg-gray-900"><div class="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-left">${avatar(user.name, user.profilePic, 104, 'ring-4 ring-indigo-50 dark:ring-indigo-500/20')}<div class="min-w-0 flex-1"><h1 class="text-2xl font-bold wrap-anywhere text-gray-900 sm:text-3xl dark:text-gray-100">${escapeHtml(user.name)}</h1><p class="wrap-anywhere text-gray-500 dark:text-gray-400">@${escapeHtml(user.username)}</p>${user.bio ? `<p class="mt-3 max-w-2xl whitespace-pre-line wrap-anywhere text-gray-700 dark:text-gray-300">${escapeHtml(user.bio)}</p>` : ''}<div class="mt-4 flex flex-wrap justify-center gap-x-6 gap-y-2 sm:justify-start">${count(user.followerCount, user.followerCount === 1 ? 'Follower' : 'Followers')}${count(user.followingCount, 'Following')}${count(user.publishedCount, user.publishedCount === 1 ? 'Post' : 'Posts')}</div></div></div></section><div class="mt-6 min-w-0"><nav aria-label="Profile tabs" class="mb-5 flex gap-1 overflow-x-auto border-b border-gray-200 dark:border-gray-800">${nav}</nav>${blogs ? cardList(blogs, 'No blogs found') : ''}</div></div>`;
}
