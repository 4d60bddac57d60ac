import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/helpers';
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

test('readThroughIndex names the index after its table, and refuses a query without exactly one such table', () => {
  const db = t.database.db;
  const one = readThroughIndex(db.selectFrom('users').select('name'), 'users', 'users_name_idx');
  expect(one.compile().sql).toBe('select "name" from "users" indexed by "users_name_idx"');
  expect(() => readThroughIndex(db.selectFrom('blogs').select('id'), 'users', 'x').compile()).toThrow(/no single from "users"/);
});
