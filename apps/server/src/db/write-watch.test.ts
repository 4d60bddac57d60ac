import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../../test/helpers';
import { oneStatement } from '../lib/tx';
import { touchChanges } from './write-watch';

const NONE = '00000000-0000-0000-0000-000000000000';
let t: TestApp;
const seen: string[][] = [];
beforeAll(async () => {
  t = await createTestApp();
  t.database.writes.on((tables) => seen.push([...tables].sort()));
});
afterAll(() => t.close());

test('a statement outside a transaction is reported once it ran; a read is not reported', async () => {
  seen.length = 0;
  await t.database.db.selectFrom('users').selectAll().execute();
  expect(seen).toEqual([]);
  await t.database.db.deleteFrom('blogs').where('id', '=', NONE).execute();
  expect(seen).toEqual([['blogs']]);
});

test('writes inside a transaction are reported together at commit, and not at all after a rollback', async () => {
  seen.length = 0;
  await t.database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('likes').where('blog_id', '=', NONE).execute();
    await trx.updateTable('users').set({ name: 'x' }).where('id', '=', NONE).execute();
    expect(seen).toEqual([]);
  });
  expect(seen).toEqual([['likes', 'users']]);

  seen.length = 0;
  await expect(
    t.database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('follows').where('follower_id', '=', NONE).execute();
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect(seen).toEqual([]);
});

test('raw SQL writes are reported with an unknown table', async () => {
  seen.length = 0;
  await sql`UPDATE users SET name = name WHERE id = '00000000-0000-0000-0000-000000000000'`.execute(t.database.db);
  expect(seen).toEqual([['*']]);
});

test('raw SQL that starts with WITH is a write only when a part of it writes', async () => {
  seen.length = 0;
  // A recursive read (as the sitemap's tag walk): each of its misses used to empty the public cache.
  await sql`WITH RECURSIVE walk(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM walk WHERE n < 3)
    SELECT n, (SELECT count(*) FROM users WHERE updated_at IS NOT NULL) AS updated FROM walk`.execute(t.database.db);
  expect(seen).toEqual([]);
  if (ENGINE !== 'postgres') return; // SQLite has no data-modifying WITH
  await sql`WITH gone AS (DELETE FROM likes WHERE blog_id = ${NONE} RETURNING user_id) SELECT count(*) FROM gone`.execute(t.database.db);
  expect(seen).toEqual([['*']]);
});

// SQLite has no data-modifying WITH.
test.skipIf(ENGINE !== 'postgres')(
  'PostgreSQL: a statement whose WITH writes is reported with every table it writes, though its top level reads',
  async () => {
    seen.length = 0;
    const db = t.database.db;
    await db
      .with('gone', () => db.deleteFrom('likes').where('blog_id', '=', NONE).returning('user_id'))
      .with('moved', () => db.updateTable('blogs').set({ like_count: 0 }).where('id', '=', NONE).returning('id') as never)
      .selectNoFrom(sql<number>`1`.as('one'))
      .execute();
    expect(seen).toEqual([['blogs', 'likes']]);
  },
);

test('outside a transaction, a declaration belongs to the next statement on the held connection, and dies with the hold', async () => {
  const reports: { tables: string[]; tags?: string[] }[] = [];
  const off = t.database.writes.on((tables, touched) => reports.push({ tables: [...tables].sort(), tags: touched && [...touched.tags] }));
  try {
    await oneStatement(t.database.db, { tags: ['post:x'], tables: ['likes'] }, (held) =>
      held.deleteFrom('likes').where('blog_id', '=', NONE).execute(),
    );
    expect(reports).toEqual([{ tables: ['likes'], tags: ['post:x'] }]);

    // Declared, but the connection went back to the pool before any statement: the next user of
    // that connection (here, the only one on SQLite) writes undeclared.
    reports.length = 0;
    await t.database.db.connection().execute((held) => touchChanges(held, ['post:y'], ['follows']));
    await t.database.db.deleteFrom('follows').where('follower_id', '=', NONE).execute();
    expect(reports).toEqual([{ tables: ['follows'], tags: undefined }]);
  } finally {
    off();
  }
});

test('rows a write declares it added are reported with its commit, in order, and forgotten by a rollback', async () => {
  const reports: unknown[][] = [];
  const off = t.database.writes.on((_tables, touched) => reports.push([...(touched?.added ?? [])]));
  const row = (value: string) => ({ tag: 'comments:x', value, since: 1 });
  try {
    await t.database.db.transaction().execute(async (trx) => {
      await touchChanges(trx, ['comments:x'], ['comments'], [row('one')]);
      await trx.deleteFrom('comments').where('id', '=', NONE).execute();
      await touchChanges(trx, ['comments:x'], ['comments'], [row('two')]);
    });
    expect(reports).toEqual([[row('one'), row('two')]]);

    reports.length = 0;
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await touchChanges(trx, ['comments:x'], ['comments'], [row('lost')]);
        await trx.deleteFrom('comments').where('id', '=', NONE).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await oneStatement(t.database.db, { tags: ['comments:x'], tables: ['comments'], added: [row('alone')] }, (held) =>
      held.deleteFrom('comments').where('id', '=', NONE).execute(),
    );
    expect(reports).toEqual([[row('alone')]]);
  } finally {
    off();
  }
});
