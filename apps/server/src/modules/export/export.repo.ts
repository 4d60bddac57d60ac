import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** Rows read per query while an account is exported: memory stays bounded whatever its size. */
export const EXPORT_PAGE_SIZE = 100;

/**
 * Everything an account owns or did, read in keyset pages (after = the last key of the previous
 * page, ordered by a unique key), for 'Download my data'. Queries only.
 */
export class ExportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  profile(userId: string) {
    return this.db
      .selectFrom('users')
      .select([
        'id',
        'email',
        'name',
        'username',
        'bio',
        'profile_pic',
        'google_auth',
        'email_verified',
        'show_liked_blogs',
        'show_saved_blogs',
        'follower_count',
        'following_count',
        'published_count',
        'created_at',
        'updated_at',
      ])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * A page of the account's posts with each one's series and place in it (counted over all the
   * series' posts, drafts included: the author's own view; the series_posts index answers it).
   */
  posts(userId: string, after: string | null) {
    return this.db
      .selectFrom('blogs')
      .leftJoin('series_posts as sp', 'sp.blog_id', 'blogs.id')
      .leftJoin('series as s', 's.id', 'sp.series_id')
      .select([
        'blogs.id',
        'blogs.blog_id',
        'blogs.title',
        'blogs.description',
        'blogs.image',
        'blogs.tags',
        'blogs.content',
        'blogs.draft',
        'blogs.scheduled_at',
        'blogs.like_count',
        'blogs.comment_count',
        'blogs.save_count',
        'blogs.created_at',
        'blogs.updated_at',
        's.id as series_id',
        's.title as series_title',
      ])
      .select((eb) =>
        eb
          .selectFrom('series_posts as before')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('before.series_id', '=', 'sp.series_id')
          .whereRef('before.position', '<=', 'sp.position')
          .as('series_part'),
      )
      .where('blogs.creator_id', '=', userId)
      .$if(after !== null, (qb) => qb.where('blogs.id', '>', after!))
      .orderBy('blogs.id')
      .limit(EXPORT_PAGE_SIZE)
      .execute();
  }

  /** A page of the account's series, oldest first (as the editor lists them). */
  series(userId: string, after: string | null) {
    return this.db
      .selectFrom('series')
      .select(['id', 'title', 'created_at'])
      .where('author_id', '=', userId)
      .$if(after !== null, (qb) => qb.where('id', '>', after!))
      .orderBy('id')
      .limit(EXPORT_PAGE_SIZE)
      .execute();
  }

  /** The posts of some series in their order, drafts included (at most MAX_SERIES_POSTS each). */
  seriesPosts(seriesIds: readonly string[]) {
    if (seriesIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('series_posts as sp')
      .innerJoin('blogs as b', 'b.id', 'sp.blog_id')
      .select(['sp.series_id', 'b.blog_id', 'b.title', 'b.draft'])
      .where('sp.series_id', 'in', seriesIds)
      .orderBy('sp.series_id')
      .orderBy('sp.position')
      .execute();
  }

  comments(userId: string, after: string | null) {
    return this.db
      .selectFrom('comments')
      .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
      .selectAll('comments')
      .select(['blogs.blog_id as blog_slug', 'blogs.title as blog_title'])
      .where('comments.user_id', '=', userId)
      .$if(after !== null, (qb) => qb.where('comments.id', '>', after!))
      .orderBy('comments.id')
      .limit(EXPORT_PAGE_SIZE)
      .execute();
  }

  /** The blogs the account liked or saved (the two tables have one shape). */
  reactions(table: 'likes' | 'saves', userId: string, after: string | null) {
    return this.db
      .selectFrom(`${table} as r`)
      .innerJoin('blogs', 'blogs.id', 'r.blog_id')
      .select(['r.blog_id as key', 'blogs.blog_id', 'blogs.title', 'r.created_at'])
      .where('r.user_id', '=', userId)
      .$if(after !== null, (qb) => qb.where('r.blog_id', '>', after!))
      .orderBy('r.blog_id')
      .limit(EXPORT_PAGE_SIZE)
      .execute();
  }

  commentLikes(userId: string, after: string | null) {
    return this.db
      .selectFrom('comment_likes as cl')
      .innerJoin('comments', 'comments.id', 'cl.comment_id')
      .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
      .select(['cl.comment_id as key', 'blogs.blog_id', 'cl.created_at'])
      .where('cl.user_id', '=', userId)
      .$if(after !== null, (qb) => qb.where('cl.comment_id', '>', after!))
      .orderBy('cl.comment_id')
      .limit(EXPORT_PAGE_SIZE)
      .execute();
  }

  /** 'following': the people the account follows; 'followers': those who follow it. */
  follows(direction: 'following' | 'followers', userId: string, after: string | null) {
    const [own, other] =
      direction === 'following' ? (['follower_id', 'following_id'] as const) : (['following_id', 'follower_id'] as const);
    return this.db
      .selectFrom('follows as f')
      .innerJoin('users', 'users.id', `f.${other}`)
      .select([`f.${other} as key`, 'users.username', 'users.name', 'f.created_at'])
      .where(`f.${own}`, '=', userId)
      .$if(after !== null, (qb) => qb.where(`f.${other}`, '>', after!))
      .orderBy(`f.${other}`)
      .limit(EXPORT_PAGE_SIZE)
      .execute();
  }
}
