import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The stored content of the few posts a feed shows (the lists that pick them carry no content). */
export class FeedsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async contents(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('blogs').select(['id', 'content']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.content]));
  }
}
