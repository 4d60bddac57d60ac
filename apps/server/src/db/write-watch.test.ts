import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

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
