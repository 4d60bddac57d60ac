import type { Compilable, Insertable, Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { prepared, readThroughIndex } from '../../db/prepared';
import type { BlogsTable, Database } from '../../db/schema';
import { NO_VIEWER, notMutedBySql, publiclyVisibleSql } from '../../lib/policies';

export type BlogRow = Selectable<BlogsTable>;
export type BlogRef = Pick<Selectable<BlogsTable>, 'id' | 'blog_id' | 'draft' | 'hidden' | 'creator_id'> & {
  /** The creator's users.relations (null without a creator): 0 means no block or mute involves them. */
  creator_relations: number | null;
};

export type BlogRefWithActor = BlogRef & {
  actor_name: string | null;
  actor_username: string | null;
  actor_profile_pic: string | null;
  actor_relations: number | null;
};

/** Columns of a blog card with its creator, selected in one query (no N+1). */
export function selectCard(qb: SelectQueryBuilder<Database, 'blogs', object>) {
  return qb
    .leftJoin('users as creator', 'creator.id', 'blogs.creator_id')
    .select([
      'blogs.id',
      'blogs.blog_id',
      'blogs.title',
      'blogs.description',
      'blogs.image',
      'blogs.tags',
      'blogs.draft',
      'blogs.block_count',
      'blogs.like_count',
      'blogs.comment_count',
      'blogs.save_count',
      'blogs.created_at',
      'blogs.updated_at',
      'blogs.scheduled_at',
      'blogs.hidden',
      'blogs.creator_id',
      'creator.name as creator_name',
      'creator.username as creator_username',
      'creator.profile_pic as creator_profile_pic',
    ]);
}

export type BlogCardRow = Awaited<ReturnType<ReturnType<typeof selectCard>['executeTakeFirstOrThrow']>>;

/**
 * What a like, save or comment needs of its post. On SQLite it comes from blogs_ref_idx alone
 * (migration 0027): from the table, these columns sit after the post's body in the row.
 */
function refQuery(db: Kysely<Database>, blogId: string) {
  return db
    .selectFrom('blogs')
    .leftJoin('users as creator', 'creator.id', 'blogs.creator_id')
    .select(['blogs.id', 'blogs.blog_id', 'blogs.draft', 'blogs.hidden', 'blogs.creator_id', 'creator.relations as creator_relations'])
    .where('blogs.blog_id', '=', blogId);
}
const throughRefIndex = <R>(db: Kysely<Database>, query: Compilable<R>) =>
  isPostgres(db) ? query : readThroughIndex(query, 'blogs', 'blogs_ref_idx');

const blogRef = prepared((db, blogId: string) => throughRefIndex(db, refQuery(db, blogId)), { statementName: 'blog_ref' });

/**
 * The post's reference and the user acting on it (a like, a save, a comment) in one read: on
 * PostgreSQL each statement is a round trip, the most of a write's cost (docs/performance.md).
 */
const blogRefWithActor = prepared(
  (db, blogId: string, actorId: string) =>
    throughRefIndex(
      db,
      refQuery(db, blogId)
        .leftJoin('users as actor', (join) => join.on('actor.id', '=', actorId))
        .select([
          'actor.name as actor_name',
          'actor.username as actor_username',
          'actor.profile_pic as actor_profile_pic',
          'actor.relations as actor_relations',
        ]),
    ),
  { statementName: 'blog_ref_with_actor' },
);

/** A post's counts (its page shows all three: blogs.presenter countsText), as read or as a write leaves them. */
export interface PostCounts {
  like_count: number;
  comment_count: number;
  save_count: number;
}
export const POST_COUNTS = ['like_count', 'comment_count', 'save_count'] as const;
/** Counts from the driver (PostgreSQL may send a bigint as text) as numbers. */
export const postCounts = (row: Record<(typeof POST_COUNTS)[number], unknown>): PostCounts => ({
  like_count: Number(row.like_count),
  comment_count: Number(row.comment_count),
  save_count: Number(row.save_count),
});

const blogCounts = prepared((db, blogId: string) => db.selectFrom('blogs').select(POST_COUNTS).where('blog_id', '=', blogId), {
  statementName: 'blog_counts',
});

/** A blog's reading page with the viewer's flags (every page miss runs it): compiled once. */
const pageQuery = prepared(
  (db, blogId: string, viewer: string) =>
    selectCard(db.selectFrom('blogs'))
      .select((eb) => [
        'blogs.content',
        eb
          .exists(
            eb.selectFrom('likes').select('likes.user_id').whereRef('likes.blog_id', '=', 'blogs.id').where('likes.user_id', '=', viewer),
          )
          .as('is_liked'),
        eb
          .exists(
            eb.selectFrom('saves').select('saves.user_id').whereRef('saves.blog_id', '=', 'blogs.id').where('saves.user_id', '=', viewer),
          )
          .as('is_saved'),
        eb
          .exists(
            eb
              .selectFrom('follows')
              .select('follows.follower_id')
              .whereRef('follows.following_id', '=', 'blogs.creator_id')
              .where('follows.follower_id', '=', viewer),
          )
          .as('is_following'),
      ])
      .where('blogs.blog_id', '=', blogId),
  { statementName: 'blog_page' },
);

export class BlogsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('blogs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** What tells whether a post changed, read under its row lock on PostgreSQL (SQLite's transaction holds the only connection). */
  lockState(id: string, trx: Kysely<Database>) {
    const query = trx.selectFrom('blogs').select(['version', 'updated_at', 'draft', 'hidden']).where('id', '=', id);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  }

  findByBlogId(blogId: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('blogs').selectAll().where('blog_id', '=', blogId).executeTakeFirst();
  }

  /** What access checks, reactions and comments need: no content, a blog row's largest part. */
  async findRef(blogId: string, db: Kysely<Database> = this.db): Promise<BlogRef | undefined> {
    return (await blogRef(db, blogId)).rows[0];
  }

  /** findRef with the acting user's card (null fields when that user is gone). */
  async findRefWithActor(blogId: string, actorId: string, db: Kysely<Database> = this.db): Promise<BlogRefWithActor | undefined> {
    return (await blogRefWithActor(db, blogId, actorId)).rows[0];
  }

  /** The counts a blog page shows, read alone when only they changed (lib/live-counts.ts). */
  async findCounts(blogId: string, db: Kysely<Database> = this.db) {
    return (await blogCounts(db, blogId)).rows[0];
  }

  async blogIdTaken(blogId: string, db: Kysely<Database> = this.db): Promise<boolean> {
    return !!(await db.selectFrom('blogs').select('id').where('blog_id', '=', blogId).executeTakeFirst());
  }

  /** The whole blog with creator and the viewer's own like, save and follow flags. */
  async findPage(blogId: string, viewerId: string | null) {
    return (await pageQuery(this.db, blogId, viewerId ?? NO_VIEWER)).rows[0];
  }

  /**
   * Newest published blogs; one extra row tells whether more exist. The page's ids come from the
   * feed index alone (draft, created_at, id), so a deep page skips index entries, not rows and
   * their creators.
   */
  listPublished(limit: number, offset: number, muterId: string | null = null) {
    return selectCard(this.db.selectFrom('blogs'))
      .where('blogs.id', 'in', (eb) =>
        eb
          .selectFrom('blogs as page')
          .select('page.id')
          .where(publiclyVisibleSql('page'))
          // Only for a viewer who muted someone (issue 15): everyone else's page stays index-only.
          .$if(muterId !== null, (q) => q.where(notMutedBySql('page.creator_id', muterId!)))
          .orderBy('page.created_at', 'desc')
          .orderBy('page.id', 'desc')
          .limit(limit + 1)
          .offset(offset),
      )
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .execute();
  }

  /** A tag's newest published blogs: the page is picked from the blog_tags index (tag, draft, created_at, blog_id), then joined. */
  listByTag(tag: string, limit: number, offset: number) {
    return selectCard(this.db.selectFrom('blogs'))
      .where('blogs.id', 'in', (eb) =>
        eb
          .selectFrom('blog_tags')
          .select('blog_tags.blog_id')
          .where('blog_tags.tag', '=', tag)
          .where(publiclyVisibleSql('blog_tags'))
          .orderBy('blog_tags.created_at', 'desc')
          .orderBy('blog_tags.blog_id', 'desc')
          .limit(limit + 1)
          .offset(offset),
      )
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .execute();
  }

  insert(row: Insertable<BlogsTable>, db: Kysely<Database>) {
    return db.insertInto('blogs').values(row).execute();
  }

  update(id: string, changes: Updateable<BlogsTable>, db: Kysely<Database>) {
    return db.updateTable('blogs').set(changes).where('id', '=', id).execute();
  }

  delete(id: string, db: Kysely<Database>) {
    return db.deleteFrom('blogs').where('id', '=', id).execute();
  }

  /** Tags live in blog_tags too, with the blog's draft and hidden flags and date, for the tag page index. */
  async replaceTags(blogDbId: string, tags: string[], draft: 0 | 1, createdAt: string, db: Kysely<Database>, hidden = 0) {
    await db.deleteFrom('blog_tags').where('blog_id', '=', blogDbId).execute();
    if (tags.length) {
      await db
        .insertInto('blog_tags')
        .values(tags.map((tag) => ({ blog_id: blogDbId, tag, draft, hidden, created_at: createdAt })))
        .execute();
    }
  }

  adjustPublishedCount(userId: string, delta: number, db: Kysely<Database>) {
    return db
      .updateTable('users')
      .set((eb) => ({ published_count: eb('published_count', '+', delta) }))
      .where('id', '=', userId)
      .execute();
  }
}
