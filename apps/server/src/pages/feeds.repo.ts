import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

/** A post's stored content as a feed takes it: its length, and the content itself only when within the cap. */
export interface FeedContent {
  length: number;
  content: string | null;
}

/** The stored content of the few posts a feed shows (the lists that pick them carry no content). */
export class FeedsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Content longer than `maxChars` is not read at all (its length is). */
  async contents(ids: string[], maxChars: number): Promise<Map<string, FeedContent>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('blogs')
      .select([
        'id',
        sql<number>`length(content)`.as('length'),
        sql<string | null>`case when length(content) <= ${maxChars} then content end`.as('content'),
      ])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, { length: Number(r.length), content: r.content }]));
  }
}
