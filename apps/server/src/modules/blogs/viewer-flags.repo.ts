import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';

const flags = prepared(
  (db, blogDbId: string, creatorId: string, viewerId: string) =>
    db.selectNoFrom((eb) => [
      eb
        .exists(eb.selectFrom('likes').select('likes.user_id').where('likes.blog_id', '=', blogDbId).where('likes.user_id', '=', viewerId))
        .as('is_liked'),
      eb
        .exists(eb.selectFrom('saves').select('saves.user_id').where('saves.blog_id', '=', blogDbId).where('saves.user_id', '=', viewerId))
        .as('is_saved'),
      eb
        .exists(
          eb
            .selectFrom('follows')
            .select('follows.follower_id')
            .where('follows.following_id', '=', creatorId)
            .where('follows.follower_id', '=', viewerId),
        )
        .as('is_following'),
    ]),
  { statementName: 'viewer_flags' },
);

/** The signed-in viewer's own flags on a blog page, in one round trip of three index lookups. */
export class ViewerFlagsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async find(blogDbId: string, creatorId: string, viewerId: string) {
    return (await flags(this.db, blogDbId, creatorId, viewerId)).rows[0]!;
  }
}
