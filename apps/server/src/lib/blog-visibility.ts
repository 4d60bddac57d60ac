/**
 * Who may see a blog: a published one everyone, a draft only its author. The one place this rule
 * lives, so a policy module (hidden by a moderator, blocked authors, scheduled posts) can take it
 * over; anything that shows a blog's title or link to someone asks here first.
 */
export interface BlogVisibilityFacts {
  draft: number | boolean | null;
  creatorId: string | null;
}

export function canSeeBlog(blog: BlogVisibilityFacts, viewerId: string | null): boolean {
  if (!blog.draft) return true;
  return viewerId !== null && blog.creatorId === viewerId;
}
