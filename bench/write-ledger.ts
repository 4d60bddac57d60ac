import path from 'node:path';
import { loadConfig } from '../apps/server/src/config';
import { createDatabase } from '../apps/server/src/db/database';

/**
 * What the write mix was told succeeded, checked against the database afterwards: every
 * acknowledged comment must exist, and every (user, blog) like pair must be in the state of
 * its last acknowledged toggle (pairs with a request still in flight when the run stopped are
 * left out: their outcome was never reported).
 */
export class WriteLedger {
  private readonly comments = new Set<string>();
  private readonly likes = new Map<string, boolean>();
  private readonly inFlight = new Map<string, number>();

  likeSent(pair: string): void {
    this.inFlight.set(pair, (this.inFlight.get(pair) ?? 0) + 1);
  }

  likeAnswered(pair: string, status: number, body: string): void {
    this.inFlight.set(pair, (this.inFlight.get(pair) ?? 1) - 1);
    if (status === 200) this.likes.set(pair, (JSON.parse(body) as { liked: boolean }).liked);
  }

  commentAnswered(status: number, body: string): void {
    if (status === 201) this.comments.add((JSON.parse(body) as { newComment: { _id: string } }).newComment._id);
  }

  async verify(): Promise<string> {
    const config = loadConfig(process.env, {});
    const { db, destroy } = createDatabase({
      databaseUrl: config.databaseUrl,
      sqliteFile: path.join(config.dataDir, 'inkwell.sqlite'),
    });
    try {
      const ids = [...this.comments];
      let found = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('comments')
          .select('id')
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        found += rows.length;
      }
      let likeChecked = 0;
      let likeWrong = 0;
      for (const [pair, liked] of this.likes) {
        if ((this.inFlight.get(pair) ?? 0) > 0) continue;
        const [userId, blogId] = pair.split('|') as [string, string];
        const row = await db
          .selectFrom('likes')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('blog_id', '=', blogId)
          .executeTakeFirst();
        likeChecked++;
        if (!!row !== liked) likeWrong++;
      }
      const lost = ids.length - found + likeWrong;
      return `${lost === 0 ? 'nothing lost' : `${lost} LOST`}: ${found}/${ids.length} acknowledged comments present, ${likeChecked - likeWrong}/${likeChecked} like pairs in their acknowledged state`;
    } finally {
      await destroy();
    }
  }
}
