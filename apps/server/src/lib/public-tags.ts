import { storedUsername } from '../modules/users/username';

/**
 * What a public value shows, as the tags that writes touch (lib/tagged-store.ts). One vocabulary
 * for both sides: the routes tag what they answer, the services touch what they change.
 */

/** A post's page and everything else showing the post itself (not its counts: countsTag). */
export const postTag = (blogId: string): string => `post:${blogId}`;

/** A post's comment threads (the comments of its page). */
export const commentsTag = (blogId: string): string => `comments:${blogId}`;

/** A user's profile and its tabs (counts, followers, following, liked and saved lists). */
export const profileTag = (username: string): string => `profile:${storedUsername(username)}`;

/**
 * A user's card as writes check it (name, username, picture, and users.relations: whether any
 * block or mute involves them; modules/blogs/post-refs). Unlike profileTag, no like, comment or
 * follow touches it: only a change of the card itself, which today is always a write no path
 * declares (a profile edit, a block or mute, a suspension, a deletion), so everything is dropped.
 * A path that comes to declare such a change must touch this tag.
 */
export const userCardTag = (userId: string): string => `card:${userId}`;

/**
 * Who follows the user: their followers tab, the profile page's HTML and viewers' "following"
 * flags on their posts. A follow touches this, not profileTag: the profile's API answer is kept
 * and its follower count put in when served (lib/live-counts.ts). Whatever shows the followers
 * also carries profileTag, so a change of the profile itself drops it too.
 */
export const followersTag = (username: string): string => `followers:${storedUsername(username)}`;

/**
 * A post's like, save and comment counts. The response cache keeps a list page up to
 * RESPONSE_CACHE_COUNTS_LAG_MS after a change of these (TaggedStore `lag`), so a burst of likes
 * recomputes each hot list once per lag, not once per like. The post's own API page is kept too:
 * its counts are put in when it is served (lib/live-counts.ts), always current. In-memory copies
 * without a lag (PublicMemo) drop at once.
 */
export const countsTag = (blogId: string): string => `counts:${blogId}`;
export const isCountsTag = (tag: string): boolean => tag.startsWith('counts:');

/** The post's server HTML article: it shows the counts as they are (nothing is put in when served). */
export const articleTag = (blogId: string): string => `article:${blogId}`;

/** A change of a post's likes or saves: its page's counts and its HTML article at once, its list cards within the lag. */
export const countTags = (blogId: string): string[] => [countsTag(blogId), articleTag(blogId)];

/** A comment added, removed or hidden: the post's counts and its comment threads. */
export const commentCountTags = (blogId: string): string[] => [...countTags(blogId), commentsTag(blogId)];

/** Every list of posts (feed, search, tags, profile tabs, feeds): a post added, edited or removed moves them. */
export const LISTS_TAG = 'lists';

/**
 * The list tags of a page of post cards: the lists, and each post's counts. Nothing else on a
 * card changes without touching LISTS_TAG (an edit, a deletion) or everything (a profile's name).
 */
export function cardTags(cards: readonly { blogId: string }[]): string[] {
  return [LISTS_TAG, ...cards.map((c) => countsTag(c.blogId))];
}

/**
 * A post's page. In a series (issue 16) it also lists the other parts' titles and which are
 * published: every post write touches LISTS_TAG (and a deletion drops everything), so the page
 * goes with any post's change rather than tracking each part, drafts included.
 */
export function blogPageTags(blogId: string, blog: { series: unknown }): string[] {
  return blog.series ? [postTag(blogId), LISTS_TAG] : [postTag(blogId)];
}
