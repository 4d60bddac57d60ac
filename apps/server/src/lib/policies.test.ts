import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../test/blogs';
import { bearer, createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
import {
  type BlogFacts,
  blogReadableBySql,
  canChangeRole,
  canDeleteAccount,
  canDeleteBlog,
  canDeleteComment,
  canEditBlog,
  canEditComment,
  canEditProfile,
  canFollow,
  canInteract,
  canModeratorRead,
  canReadBlog,
  canReadComment,
  canReadThread,
  canReplyTo,
  canReport,
  canSeeProfileList,
  canSignIn,
  canSuspend,
  canWithdrawReaction,
  commentReadableBySql,
  isAdmin,
  isModerator,
  isPubliclyVisible,
  NO_VIEWER,
  type ProfileList,
  publiclyVisibleSql,
  publishedForSql,
  type RoleFacts,
  type ViewerId,
} from './policies';

const AUTHOR = 'author-id';
const COMMENTER = 'commenter-id';
const USER = 'user-id';

/** Who asks: a visitor, a signed-in stranger, the blog's author, the author of a comment on it. */
const ACTORS: Record<string, ViewerId> = { visitor: null, user: USER, author: AUTHOR, commenter: COMMENTER };
type Actor = keyof typeof ACTORS;

const BLOGS: Record<'published' | 'draft' | 'hidden' | 'suspended', BlogFacts> = {
  published: { draft: 0, hidden: 0, creator_id: AUTHOR },
  draft: { draft: 1, hidden: 0, creator_id: AUTHOR },
  // Issue 15: hidden by a moderator (bit 1), or its author suspended (bit 2).
  hidden: { draft: 0, hidden: 1, creator_id: AUTHOR },
  suspended: { draft: 0, hidden: 2, creator_id: AUTHOR },
};
const COMMENT = { user_id: COMMENTER };

/** The whole matrix: action × subject → the actors allowed (everyone else is refused). */
const BLOG_MATRIX: [string, (v: ViewerId, b: BlogFacts) => boolean, keyof typeof BLOGS, Actor[]][] = [
  ['read', canReadBlog, 'published', ['visitor', 'user', 'author', 'commenter']],
  ['read', canReadBlog, 'draft', ['author']],
  ['read', canReadBlog, 'hidden', ['author']],
  ['read', canReadBlog, 'suspended', ['author']],
  ['like, save or comment', canInteract, 'hidden', ['author']],
  ['like, save or comment', canInteract, 'published', ['user', 'author', 'commenter']],
  ['like, save or comment', canInteract, 'draft', ['author']],
  ['like, save or comment with a block between', (v, b) => canInteract(v, b, true), 'published', []],
  // Taking one's own like or save back: a block does not take part (there is no block argument).
  ['withdraw a like or save', canWithdrawReaction, 'published', ['user', 'author', 'commenter']],
  ['withdraw a like or save', canWithdrawReaction, 'draft', ['author']],
  ['edit', canEditBlog, 'published', ['author']],
  ['edit', canEditBlog, 'draft', ['author']],
  ['delete', canDeleteBlog, 'published', ['author']],
  ['delete', canDeleteBlog, 'draft', ['author']],
];

const COMMENT_MATRIX: [string, (v: ViewerId) => boolean, Actor[]][] = [
  ['edit a comment', (v) => canEditComment(v, COMMENT), ['commenter']],
  ['delete a comment', (v) => canDeleteComment(v, COMMENT, BLOGS.published), ['commenter', 'author']],
  ['delete a comment on a draft', (v) => canDeleteComment(v, COMMENT, BLOGS.draft), ['commenter', 'author']],
  ['delete a comment whose blog is gone', (v) => canDeleteComment(v, COMMENT, undefined), ['commenter']],
  ['read a comment', (v) => canReadComment(v, { ...COMMENT, hidden: 0 }), ['visitor', 'user', 'author', 'commenter']],
  ['read a hidden comment', (v) => canReadComment(v, { ...COMMENT, hidden: 1 }), ['commenter']],
  ['reply to a hidden comment', (v) => canReadComment(v, { ...COMMENT, hidden: 1 }) && canReplyTo([{ hidden: 1 }]), []],
  // A reply by someone else below the commenter's hidden comment: the thread is the commenter's to see, nobody's to answer.
  [
    'read a reply below a hidden comment',
    (v) =>
      canReadThread(v, [
        { user_id: 'replier', hidden: 0 },
        { ...COMMENT, hidden: 1 },
      ]),
    ['commenter'],
  ],
  ['reply below a hidden comment', (v) => canReplyTo([{ hidden: 0 }, { hidden: 1 }]), []],
  ["report the author's post", (v) => canReport(v, AUTHOR), ['user', 'commenter']],
];

const USER_MATRIX: [string, (v: ViewerId) => boolean, Actor[]][] = [
  ['follow the author', (v) => canFollow(v, AUTHOR), ['user', 'commenter']],
  ["edit the author's profile", (v) => canEditProfile(v, AUTHOR), ['author']],
  ["delete the author's account", (v) => canDeleteAccount(v, AUTHOR), ['author']],
];

const viewerOf = (actor: string): ViewerId => ACTORS[actor] ?? null;
const allowed = (actors: Actor[]) => Object.keys(ACTORS).map((a) => [a, actors.includes(a as Actor)] as const);

describe('policy matrix', () => {
  describe.each(BLOG_MATRIX)('%s a %s blog', (_action, can, subject, who) => {
    it.each(allowed(who))('%s: %s', (actor, expected) => {
      expect(can(viewerOf(actor), BLOGS[subject])).toBe(expected);
    });
  });

  describe.each([...COMMENT_MATRIX, ...USER_MATRIX])('%s', (_action, can, who) => {
    it.each(allowed(who))('%s: %s', (actor, expected) => {
      expect(can(viewerOf(actor))).toBe(expected);
    });
  });

  // Profile lists of the author, as they share them: [list, saved shared, liked shared, actors allowed].
  const LISTS: [ProfileList, boolean, boolean, Actor[]][] = [
    ['blogs', false, false, ['visitor', 'user', 'author', 'commenter']],
    ['drafts', true, true, ['author']],
    ['saved-blogs', false, true, ['author']],
    ['saved-blogs', true, false, ['visitor', 'user', 'author', 'commenter']],
    ['liked-blogs', true, false, ['author']],
    ['liked-blogs', false, true, ['visitor', 'user', 'author', 'commenter']],
  ];
  describe.each(LISTS)("the author's %s list (saved shared: %s, liked shared: %s)", (list, showSavedBlogs, showLikedBlogs, who) => {
    it.each(allowed(who))('%s: %s', (actor, expected) => {
      expect(canSeeProfileList(viewerOf(actor), { id: AUTHOR, showSavedBlogs, showLikedBlogs }, list)).toBe(expected);
    });
  });

  // Issue 15: who moderates. The actors by role; a suspended moderator is nobody's moderator.
  const ROLES: Record<string, RoleFacts> = {
    user: { id: 'u', role: 'user', suspended_at: null },
    moderator: { id: 'm', role: 'moderator', suspended_at: null },
    admin: { id: 'a', role: 'admin', suspended_at: null },
    'suspended moderator': { id: 's', role: 'moderator', suspended_at: '2026-01-01T00:00:00.000Z' },
  };
  const ROLE_MATRIX: [string, (actor: RoleFacts) => boolean, string[]][] = [
    ['moderate', (a) => isModerator(a), ['moderator', 'admin']],
    ['administer', (a) => isAdmin(a), ['admin']],
    ['suspend a user', (a) => canSuspend(a, ROLES.user!), ['moderator', 'admin']],
    ['suspend a moderator', (a) => canSuspend(a, { ...ROLES.moderator!, id: 'other' }), ['moderator', 'admin']],
    ['suspend an admin', (a) => canSuspend(a, { ...ROLES.admin!, id: 'other' }), []],
    ['suspend themselves', (a) => canSuspend(a, a), []],
    ["change a user's role", (a) => canChangeRole(a, ROLES.user!), ['admin']],
    ['change their own role', (a) => canChangeRole(a, a), []],
    ['sign in', (a) => canSignIn(a), ['user', 'moderator', 'admin']],
    ['open a hidden post', (a) => canModeratorRead(a, BLOGS.hidden), ['moderator', 'admin']],
    ['open a draft', (a) => canModeratorRead(a, BLOGS.draft), []],
  ];
  describe.each(ROLE_MATRIX)('%s', (_action, can, who) => {
    it.each(Object.keys(ROLES).map((r) => [r, who.includes(r)] as const))('%s: %s', (role, expected) => {
      expect(can(ROLES[role]!)).toBe(expected);
    });
  });

  it('counts only a published blog as public, whoever asks', () => {
    expect(isPubliclyVisible(BLOGS.published)).toBe(true);
    expect(isPubliclyVisible(BLOGS.draft)).toBe(false);
    expect(isPubliclyVisible({ draft: true, hidden: 0 })).toBe(false);
    expect(isPubliclyVisible(BLOGS.hidden)).toBe(false);
    expect(isPubliclyVisible(BLOGS.suspended)).toBe(false);
  });

  it('never takes the no-viewer id for an owner', () => {
    expect(canReadBlog(NO_VIEWER, BLOGS.draft)).toBe(false);
    expect(canReadBlog(null, { draft: 1, hidden: 0, creator_id: null })).toBe(false);
  });
});

/** The SQL twins must pick the same rows the predicates allow, on the engine under test. */
describe('SQL twins of the visibility rules', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;
  const rows: (BlogFacts & { id: string })[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t);
    other = await createUser(t);
    for (const [user, draft] of [
      [author, false],
      [author, true],
      [other, false],
      [other, true],
    ] as const) {
      const blog = await createBlog(t, user, { draft });
      rows.push({ id: blog._id, draft: draft ? 1 : 0, hidden: 0, creator_id: user.id });
    }
    // Issue 15: a post hidden by a moderator, and one whose author is suspended.
    const hidden = await createBlog(t, author);
    await t.app.services.moderation.setPostHidden(null, hidden.blogId, true, 'test');
    rows.push({ id: hidden._id, draft: 0, hidden: 1, creator_id: author.id });
    const suspended = await createUser(t);
    const theirs = await createBlog(t, suspended);
    await t.app.services.moderation.setSuspended(null, suspended.id, true, 'test');
    rows.push({ id: theirs._id, draft: 0, hidden: 2, creator_id: suspended.id });
  });
  afterAll(async () => t.close());

  const ids = (list: { id: string }[]) => list.map((r) => r.id).sort();

  it('publiclyVisibleSql keeps what isPubliclyVisible allows, on blogs and on blog_tags', async () => {
    const db = t.database.db;
    const blogs = await db.selectFrom('blogs').select('id').where(publiclyVisibleSql('blogs')).execute();
    expect(ids(blogs)).toEqual(ids(rows.filter(isPubliclyVisible)));
    const tagged = await db
      .selectFrom('blog_tags as tags')
      .select('tags.blog_id as id')
      .where('tags.tag', '=', 'kysely')
      .where(publiclyVisibleSql('tags'))
      .execute();
    expect(ids(tagged)).toEqual(ids(rows.filter(isPubliclyVisible)));
  });

  it('blogReadableBySql keeps what canReadBlog allows, for an id, a column and no viewer', async () => {
    const db = t.database.db;
    for (const reader of [author.id, other.id, NO_VIEWER]) {
      const found = await db.selectFrom('blogs').select('id').where(blogReadableBySql('blogs', reader)).execute();
      expect(ids(found)).toEqual(ids(rows.filter((b) => canReadBlog(reader, b))));
    }
    const byColumn = await db
      .selectFrom('users as u')
      .innerJoin('blogs', (j) => j.on((eb) => blogReadableBySql('blogs', eb.ref('u.id'))))
      .select('blogs.id')
      .where('u.id', '=', author.id)
      .execute();
    expect(ids(byColumn)).toEqual(ids(rows.filter((b) => canReadBlog(author.id, b))));
  });

  it("publishedForSql keeps a creator's published posts as a reader may list them: their hidden ones only for themselves", async () => {
    const db = t.database.db;
    for (const reader of [author.id, other.id, NO_VIEWER]) {
      const found = await db
        .selectFrom('blogs')
        .select('id')
        .where('creator_id', '=', author.id)
        .where(publishedForSql('blogs', reader))
        .execute();
      const expected = rows.filter((b) => b.creator_id === author.id && !b.draft && canReadBlog(reader, b));
      expect(ids(found)).toEqual(ids(expected));
    }
  });

  it('commentReadableBySql keeps what canReadComment allows', async () => {
    const db = t.database.db;
    const visible = rows.find((b) => b.creator_id === other.id && !b.draft && !b.hidden)!;
    const blogId = (await db.selectFrom('blogs').select('blog_id').where('id', '=', visible.id).executeTakeFirstOrThrow()).blog_id;
    const comments: { id: string; user_id: string; hidden: number }[] = [];
    for (const [by, hide] of [
      [author, false],
      [author, true],
      [other, true],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/blogs/comment/${blogId}`,
        headers: bearer(by.token),
        payload: { comment: 'c' },
      });
      const id = res.json().newComment._id as string;
      if (hide) await t.app.services.moderation.setCommentHidden(null, id, true, 'test');
      comments.push({ id, user_id: by.id, hidden: hide ? 1 : 0 });
    }
    for (const reader of [author.id, other.id, null]) {
      const found = await db
        .selectFrom('comments')
        .select('id')
        .where('blog_id', '=', visible.id)
        .where(commentReadableBySql('comments', reader))
        .execute();
      expect(ids(found)).toEqual(ids(comments.filter((c) => canReadComment(reader, c))));
    }
  });
});

/** The rules live in policies.ts: a draft or ownership test written anywhere else is a second copy. */
describe('no copies of the rules', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const COPIES = [
    /\.draft\s*&&/,
    /(creator_id|user_id)\s*[!=]==\s*(userId|viewerId|viewer)\b/,
    /draft['"],\s*'=',\s*0/,
    /\bdraft\s*=\s*0\b/,
  ];
  // Counters follow the stored flag (published_count), not who is looking.
  const ALLOWED = new Set(['lib/policies.ts', 'modules/users/counters.repo.ts']);

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(full);
      return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
    });
  }

  it('finds no draft or ownership check outside the policy module', () => {
    const found = sources(root).flatMap((file) => {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (ALLOWED.has(rel)) return [];
      const text = readFileSync(file, 'utf8');
      return COPIES.filter((re) => re.test(text)).map((re) => `${rel}: ${re}`);
    });
    expect(found).toEqual([]);
  });
});
