import { type Blog, type BlogSeries, postDay } from '@inkwell/core';
import { isSafeImageUrl } from '../lib/sanitize';
import { renderBlocksHtml } from './blocks-html';
import { escapeHtml } from './html';
import { CLOCK } from './layout';
import { avatar, blogPath, profilePath, tagPath } from './lists';

/** The class that styles rendered blocks like the app's block components (apps/web/src/index.css). */
export const SERVER_BLOCKS_CLASS = 'server-blocks';

/**
 * A post's reading page as the app's BlogArticle lays it out (same elements and classes), with
 * every block rendered by blocks-html.ts: the whole text readable without JavaScript.
 */
export function articleScreen(blog: Blog): string {
  const creatorName = blog.creator?.name || 'Unknown';
  const image =
    blog.image && isSafeImageUrl(blog.image)
      ? `<img src="${escapeHtml(blog.image)}" alt="" decoding="async" fetchpriority="high" class="mt-8 aspect-[16/9] w-full rounded-2xl bg-gray-100 object-cover dark:bg-gray-800" />`
      : '';
  const tags = blog.tags.length
    ? `<ul class="mt-5 flex flex-wrap gap-2" aria-label="Tags">${blog.tags
        .map(
          (tag) =>
            `<li class="max-w-full min-w-0"><a href="${escapeHtml(tagPath(tag))}" title="#${escapeHtml(tag)}" class="block max-w-full truncate rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-100 dark:bg-indigo-500/10 dark:text-indigo-300 dark:hover:bg-indigo-500/20">#${escapeHtml(tag)}</a></li>`,
        )
        .join('')}</ul>`
    : '';
  const counts = `<footer class="mt-12 flex flex-wrap items-center gap-2 border-y border-gray-200 py-3 text-sm text-gray-600 dark:border-gray-800 dark:text-gray-300"><span class="px-3.5 py-2">${blog.likeCount} ${blog.likeCount === 1 ? 'like' : 'likes'}</span><span class="px-3.5 py-2">${blog.commentCount} ${blog.commentCount === 1 ? 'comment' : 'comments'}</span></footer>`;
  return `<article class="mx-auto max-w-3xl px-4 py-8 sm:py-12" aria-labelledby="server-blog-title"><header><h1 id="server-blog-title" class="text-3xl leading-tight font-extrabold tracking-tight wrap-anywhere text-gray-900 sm:text-4xl dark:text-white">${escapeHtml(blog.title)}</h1>${
    blog.description
      ? `<p class="mt-3 text-lg wrap-anywhere text-gray-600 sm:text-xl dark:text-gray-400">${escapeHtml(blog.description)}</p>`
      : ''
  }${image}<div class="mt-6 flex flex-wrap items-center gap-x-4 gap-y-3 border-b border-gray-200 pb-6 dark:border-gray-800"><a href="${escapeHtml(profilePath(blog.creator?.username || 'unknown'))}" rel="author" class="group flex min-w-0 items-center gap-3">${avatar(creatorName, blog.creator?.profilePic, 44)}<span class="min-w-0"><span class="block truncate font-semibold text-gray-900 group-hover:underline dark:text-gray-100">${escapeHtml(creatorName)}</span><span class="flex flex-wrap items-center gap-x-2 text-sm text-gray-500 dark:text-gray-400"><span class="inline-flex items-center gap-1">${CLOCK}${blog.readingTime} min read</span><span aria-hidden="true">·</span><time datetime="${escapeHtml(blog.createdAt)}">${escapeHtml(postDay(blog.createdAt))}</time></span></span></a></div>${tags}</header>${blog.series ? seriesBox(blog.series, blog.blogId) : ''}<div class="mt-8 ${SERVER_BLOCKS_CLASS}">${renderBlocksHtml(blog.content)}</div>${counts}</article>`;
}

/** The app's 'Blog not found' screen. */
export function blogMissingScreen(): string {
  return '<section class="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center"><h1 class="mt-4 text-2xl font-bold text-gray-900 dark:text-gray-100">Blog not found</h1><a href="/" class="mt-8 inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700">Go back</a></section>';
}

/** The app's SeriesBox (issue 16): 'Part n of m' and the series' published parts, this one marked. */
function seriesBox(series: BlogSeries, blogId: string): string {
  const items = series.posts
    .map((p) => {
      const title = escapeHtml(p.title);
      const link =
        p.blogId === blogId
          ? `<span aria-current="page" class="font-semibold text-gray-900 dark:text-gray-100">${title}</span>`
          : `<a href="${escapeHtml(blogPath(p.blogId))}" class="break-words text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">${title}</a>`;
      return `<li class="flex gap-2"><span class="w-6 shrink-0 text-right text-gray-500 dark:text-gray-400">${p.part}.</span>${link}</li>`;
    })
    .join('');
  return `<nav aria-label="${escapeHtml(`Series: ${series.title}`)}" class="mt-6 rounded-lg border border-gray-200 bg-gray-50 p-4 dark:border-gray-800 dark:bg-gray-900"><p class="text-sm font-semibold text-gray-900 dark:text-gray-100">${escapeHtml(series.title)} <span class="font-normal text-gray-600 dark:text-gray-400">(Part ${series.part} of ${series.total})</span></p><ol class="mt-2 space-y-1 text-sm">${items}</ol></nav>`;
}
