import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../test/helpers';
import { prepared, readThroughIndex } from './prepared';

let t: TestApp;
let a: TestUser;
let b: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  a = await createUser(t, { name: 'Prepared A' });
  b = await createUser(t, { name: 'Prepared B' });
});
afterAll(() => t.close());

const nameOf = prepared((db, id: string) => db.selectFrom('users').select(['name']).where('id', '=', id).where('email_verified', '=', 1));

test('each call runs the compiled query with its own arguments, constants kept', async () => {
  expect((await nameOf(t.database.db, a.id)).rows).toEqual([{ name: 'Prepared A' }]);
  expect((await nameOf(t.database.db, b.id)).rows).toEqual([{ name: 'Prepared B' }]);
  expect((await nameOf(t.database.db, '00000000-0000-0000-0000-000000000000')).rows).toEqual([]);
});

test('works inside a transaction and reports affected rows', async () => {
  const rename = prepared((db, id: string, name: string) => db.updateTable('users').set({ name }).where('id', '=', id));
  await t.database.db.transaction().execute(async (trx) => {
    expect(Number((await rename(trx, a.id, 'Renamed A')).numAffectedRows)).toBe(1);
  });
  expect((await nameOf(t.database.db, a.id)).rows).toEqual([{ name: 'Renamed A' }]);
});

test('refuses a build that uses an argument as anything but a value', async () => {
  const byColumn = prepared((db, column: string) =>
    db
      .selectFrom('users')
      .select(['id'])
      .orderBy(column as 'id'),
  );
  await expect(byColumn(t.database.db, 'name')).rejects.toThrow(/does not use all its arguments/);
});

test.skipIf(ENGINE !== 'postgres')('PostgreSQL: a query given a statement name runs as that named statement, once parsed', async () => {
  const named = prepared((db, id: string) => db.selectFrom('users').select(['name']).where('id', '=', id), {
    statementName: 'test_user_name',
  });
  const db = t.database.db;
  // One connection, so the statement and the catalogue read meet on the same session.
  const seen = await db.connection().execute(async (conn) => {
    expect((await named(conn, b.id)).rows).toEqual([{ name: 'Prepared B' }]);
    expect((await named(conn, a.id)).rows).toHaveLength(1);
    return (await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(conn)).rows;
  });
  expect(seen.filter((s) => s.name === 'test_user_name').map((s) => s.statement)).toEqual([expect.stringContaining('from "users"')]);
  // Another query may not take the name: the connection would refuse the second text.
  const other = prepared((db, id: string) => db.selectFrom('blogs').select(['id']).where('id', '=', id), {
    statementName: 'test_user_name',
  });
  await expect(other(db, a.id)).rejects.toThrow(/already taken/);
});

test('readThroughIndex names the index after its table, and refuses a query without exactly one such table', () => {
  const db = t.database.db;
  const one = readThroughIndex(db.selectFrom('users').select('name'), 'users', 'users_name_idx');
  expect(one.compile().sql).toBe('select "name" from "users" indexed by "users_name_idx"');
  expect(() => readThroughIndex(db.selectFrom('blogs').select('id'), 'users', 'x').compile()).toThrow(/no single from "users"/);
});
