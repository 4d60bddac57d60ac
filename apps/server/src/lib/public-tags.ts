/**
 * What a public value shows, as the tags that writes touch (lib/tagged-store.ts). One vocabulary
 * for both sides: the routes tag what they answer, the services touch what they change.
 */

/** A post's page, its comments and every list card of it (counts included). */
export const postTag = (blogId: string): string => `post:${blogId}`;

/** A user's profile and its tabs (counts, followers, following, liked and saved lists). */
export const profileTag = (username: string): string => `profile:${username}`;

/** Every list of posts (feed, search, tags, profile tabs, feeds): a post added, edited or removed moves them. */
export const LISTS_TAG = 'lists';

/** The list tags of a page of post cards: the lists, and each post shown. */
export function cardTags(cards: readonly { blogId: string }[]): string[] {
  return [LISTS_TAG, ...cards.map((c) => postTag(c.blogId))];
}

/**
 * A post's page. In a series (issue 16) it also lists the other parts' titles and which are
 * published: every post write touches LISTS_TAG (and a deletion drops everything), so the page
 * goes with any post's change rather than tracking each part, drafts included.
 */
export function blogPageTags(blogId: string, blog: { series: unknown }): string[] {
  return blog.series ? [postTag(blogId), LISTS_TAG] : [postTag(blogId)];
}
