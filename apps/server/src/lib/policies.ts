import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Who may see or change what (SPEC.md 6), in one place. Services ask these predicates and turn
 * a "no" into their own 404 or 403; repositories put the SQL twins of the visibility rules in
 * their WHERE clauses. A new rule is one line here, in the predicate and in its SQL twin:
 *
 * - hidden by a moderator, author suspended, scheduled for later: `isPubliclyVisible` and
 *   `publiclyVisibleSql` (the blog row, or blog_tags' copy of its flags, carries the fact);
 *   for comments `canReadComment` and `commentReadableBySql` (the comment row's `hidden`), and
 *   `canReadThread` for a reply with the comments above it.
 * - blocked (the author blocked the viewer, or the other way round): `canReadBlog`,
 *   `canInteract` and `blogReadableBySql`, which get the block as one more fact.
 * - moderators (issue 15): a role on the user row, read by the moderation service and asked
 *   here (`isModerator`, `isAdmin`, `canSuspend`, `canChangeRole`); reports: `canReport`.
 */

/** The signed-in user's id, or null for a visitor. */
export type ViewerId = string | null;

/**
 * Stands for "no viewer" where a query needs an id: no user has it, so every "the viewer's
 * own" test in SQL is false, and one query shape serves visitors and signed-in users.
 */
export const NO_VIEWER = '00000000-0000-0000-0000-000000000000';

/** What the rules read of a blog: the rows of blogs, blog refs and notification joins all have these. */
export interface BlogFacts {
  draft: number | boolean | null;
  /** Bits of HIDDEN_BY_MODERATOR and HIDDEN_AUTHOR_SUSPENDED (db/schema.ts); visible iff 0. */
  hidden: number | null;
  creator_id: string | null;
}

export interface CommentFacts {
  user_id: string;
}

/** What the moderation rules read of a user: their role and whether they are suspended. */
export interface RoleFacts {
  id: string;
  role: string;
  suspended_at: string | null;
}

/** The profile lists of SPEC.md 2 Profile, and whether the owner shares the reaction lists. */
export type ProfileList = 'blogs' | 'drafts' | 'saved-blogs' | 'liked-blogs';
export interface ProfileListOwner {
  id: string;
  showSavedBlogs: boolean;
  showLikedBlogs: boolean;
}

const isSelf = (viewer: ViewerId, userId: string | null): boolean => viewer !== null && userId !== null && viewer === userId;

/** Anyone, signed in or not, may see it: published, not hidden by a moderator, author not suspended. */
export function isPubliclyVisible(blog: Pick<BlogFacts, 'draft' | 'hidden'>): boolean {
  return !blog.draft && !Number(blog.hidden);
}

/** Whether the blog is the viewer's own. */
export const isBlogOwner = (viewer: ViewerId, blog: BlogFacts): boolean => isSelf(viewer, blog.creator_id);

/** Read the blog, its comments and its title or link anywhere (a notification): published, or one's own draft. */
export function canReadBlog(viewer: ViewerId, blog: BlogFacts): boolean {
  return isPubliclyVisible(blog) || isBlogOwner(viewer, blog);
}

/**
 * A moderator (issue 15) may open a hidden post's reading page, marked hidden, to judge it
 * before restoring it; never a draft. Only the read of one post asks (BlogsService.get: its page,
 * and its Markdown export, which reads through it), and only for a post the viewer cannot
 * otherwise read, so no list or search looks up roles.
 */
export const canModeratorRead = (moderator: RoleFacts | null | undefined, blog: BlogFacts): boolean =>
  isModerator(moderator) && !blog.draft;

/**
 * Like, save, comment or like a comment: a signed-in reader of the blog, with no block (either
 * way) between them and whoever the action reaches (the post's creator, the comment's author).
 * Reading stays open: a public post is public, and a blocked reader only loses the ways to reach.
 */
export function canInteract(viewer: ViewerId, blog: BlogFacts, blocked = false): boolean {
  return viewer !== null && !blocked && canReadBlog(viewer, blog);
}

/**
 * Take back one's own like, save or comment like: any signed-in reader of the blog, even with a
 * block between them. Withdrawing reaches nobody, and a block made after the like must not pin it
 * there (the blocker would keep a like from someone they blocked). Adding one again is
 * `canInteract`'s question.
 */
export const canWithdrawReaction = (viewer: ViewerId, blog: BlogFacts): boolean => viewer !== null && canReadBlog(viewer, blog);

export const canEditBlog = (viewer: ViewerId, blog: BlogFacts): boolean => isBlogOwner(viewer, blog);
export const canDeleteBlog = (viewer: ViewerId, blog: BlogFacts): boolean => isBlogOwner(viewer, blog);

/** A hidden comment (issue 15) is its author's alone, as a draft is; every other comment is public. */
export function canReadComment(viewer: ViewerId, comment: CommentFacts & { hidden: number | null }): boolean {
  return !Number(comment.hidden) || isSelf(viewer, comment.user_id);
}

/**
 * A comment read as part of its thread (the comment, then every comment above it): a hidden
 * comment hides the replies below it from whoever may not read it, their own authors included.
 */
export function canReadThread(viewer: ViewerId, thread: readonly (CommentFacts & { hidden: number | null })[]): boolean {
  return thread.every((comment) => canReadComment(viewer, comment));
}

/**
 * Nobody replies to a hidden comment or anywhere below it, its author included: its thread is
 * closed until restored. `thread` is the comment replied to, then every comment above it.
 */
export const canReplyTo = (thread: readonly { hidden: number | null }[]): boolean => thread.every((comment) => !Number(comment.hidden));

/** Only the comment's author edits it. */
export const canEditComment = (viewer: ViewerId, comment: CommentFacts): boolean => isSelf(viewer, comment.user_id);

/** The comment's author, or the creator of the blog it is on. */
export function canDeleteComment(viewer: ViewerId, comment: CommentFacts, blog: BlogFacts | undefined): boolean {
  return canEditComment(viewer, comment) || (blog !== undefined && isBlogOwner(viewer, blog));
}

/** Nobody follows themselves; visitors follow nobody; a block either way forbids it. */
export const canFollow = (viewer: ViewerId, targetId: string, blocked = false): boolean =>
  viewer !== null && viewer !== targetId && !blocked;

/** Block or mute: anyone signed in, anyone but themselves. */
export const canBlock = (viewer: ViewerId, targetId: string): boolean => viewer !== null && viewer !== targetId;

/** Profile edits and account deletion: one's own only. */
export const canEditProfile = (viewer: ViewerId, userId: string): boolean => isSelf(viewer, userId);
export const canDeleteAccount = (viewer: ViewerId, userId: string): boolean => isSelf(viewer, userId);

/** Published blogs are public, drafts their owner's, liked and saved lists public once shared. */
export function canSeeProfileList(viewer: ViewerId, owner: ProfileListOwner, list: ProfileList): boolean {
  if (isSelf(viewer, owner.id)) return true;
  switch (list) {
    case 'blogs':
      return true;
    case 'drafts':
      return false;
    case 'saved-blogs':
      return owner.showSavedBlogs;
    case 'liked-blogs':
      return owner.showLikedBlogs;
  }
}

/**
 * SQL twin of `isPubliclyVisible` for the row under `table`: `blogs` (or its alias) or
 * `blog_tags`, which keeps a copy of the blog's flags for the tag index. The values are bound as
 * parameters, so the statement is the one the indexes (draft, hidden, …) were built for.
 */
export function publiclyVisibleSql(table: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${table}.draft`)} = ${0} and ${sql.ref(`${table}.hidden`)} = ${0})`;
}

/** A creator's published posts as `reader` sees them in their list: the public ones, plus the hidden ones if they are the creator. */
export function publishedForSql(table: string, reader: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${table}.draft`)} = ${0} and (${sql.ref(`${table}.hidden`)} = ${0} or ${sql.ref(`${table}.creator_id`)} = ${reader}))`;
}

/**
 * A comment everyone sees (not hidden by a moderator, issue 15): what the counts count (a post's
 * comment_count, a comment's reply_count), since a count is the same for every reader.
 */
export function commentPublicSql(table: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${table}.hidden`)} = ${0}`;
}

/** SQL twin of `canReadComment` for the comments row under `table`. */
export function commentReadableBySql(table: string, reader: ViewerId): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${commentPublicSql(table)} or ${sql.ref(`${table}.user_id`)} = ${reader ?? NO_VIEWER})`;
}

/**
 * SQL twin of `canReadBlog` for the blogs row under `table`: published, or created by `reader`
 * (an id, or a column reference such as the profile owner's `u.id`).
 */
export function blogReadableBySql(table: string, reader: string | Expression<string>): RawBuilder<SqlBool> {
  const id = typeof reader === 'string' ? sql.val(reader) : reader;
  return sql<SqlBool>`(${publiclyVisibleSql(table)} or ${sql.ref(`${table}.creator_id`)} = ${id})`;
}

/**
 * Posts whose author (the column `creatorColumn`) `muterId` has not muted (issue 15): a mute takes
 * the author out of the muter's home feed and their follower digest, nowhere else.
 */
export function notMutedBySql(creatorColumn: string, muterId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from user_mutes where user_mutes.muter_id = ${muterId} and user_mutes.muted_id = ${sql.ref(creatorColumn)})`;
}

/**
 * The notices the recipient (column `recipientColumn`) is shown from the sender (`senderColumn`):
 * none from someone they blocked or muted, none from a suspended account (issue 15; the rows stay,
 * so an unblock or the end of a suspension brings them back). Three primary-key probes a row.
 */
export function noticeShownSql(recipientColumn: string, senderColumn: string): RawBuilder<SqlBool> {
  const [recipient, sender] = [sql.ref(recipientColumn), sql.ref(senderColumn)];
  return sql<SqlBool>`(not exists (select user_blocks.blocker_id from user_blocks where user_blocks.blocker_id = ${recipient} and user_blocks.blocked_id = ${sender})
    and not exists (select user_mutes.muter_id from user_mutes where user_mutes.muter_id = ${recipient} and user_mutes.muted_id = ${sender})
    and not exists (select suspended_sender.id from users as suspended_sender where suspended_sender.id = ${sender} and suspended_sender.suspended_at is not null))`;
}

/** Profiles with something to show a crawler (the sitemap): at least one public post (published_count counts only those). */
export function hasPublicPostsSql(usersTable: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${usersTable}.published_count`)} > ${0}`;
}

/** A suspended account (issue 15) is sent no mail it did not ask for at that moment (digests). */
export function notSuspendedSql(usersTable: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${usersTable}.suspended_at`)} is null`;
}

/** A series (issue 16) is changed only by its author, and holds only the author's own posts (canEditBlog). */
export const canEditSeries = (viewer: ViewerId, series: { author_id: string }): boolean => isSelf(viewer, series.author_id);

/** A suspended account (issue 15) cannot sign in, by password or Google, nor refresh a session. */
export const canSignIn = (user: { suspended_at: string | null }): boolean => !user.suspended_at;
/**
 * An account moves to another only while neither is suspended: a suspension hides the account's
 * posts and comments by a bit that belongs to their author (HIDDEN_AUTHOR_SUSPENDED), which a
 * move would carry to the other account or leave behind on it.
 */
export const canTransferAccount = (sender: { suspended_at: string | null }, recipient: { suspended_at: string | null }): boolean =>
  !sender.suspended_at && !recipient.suspended_at;

/** Moderators and admins (issue 15); a suspended account is neither, whatever its role. */
export const isModerator = (user: RoleFacts | null | undefined): boolean =>
  !!user && !user.suspended_at && (user.role === 'moderator' || user.role === 'admin');
export const isAdmin = (user: RoleFacts | null | undefined): boolean => !!user && !user.suspended_at && user.role === 'admin';

/** Only admins change roles, and never their own (the last admin cannot lock everyone out by a slip). */
export const canChangeRole = (actor: RoleFacts | null | undefined, target: RoleFacts): boolean => isAdmin(actor) && actor!.id !== target.id;

/** Moderators suspend anyone but themselves and admins (an admin loses the role first). */
export const canSuspend = (actor: RoleFacts | null | undefined, target: RoleFacts): boolean =>
  isModerator(actor) && actor!.id !== target.id && target.role !== 'admin';

/** Anyone signed in reports a post, comment or profile that is not their own. */
export const canReport = (viewer: ViewerId, ownerId: string | null): boolean => viewer !== null && !isSelf(viewer, ownerId);
