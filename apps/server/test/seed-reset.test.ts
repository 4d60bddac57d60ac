import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BulkWriter, postgresWriter, sqliteWriter } from '../../../bench/bulk-writer';
import { appTables, emptyOrRefuse } from '../../../bench/seed-helpers';
import { createBlog, postComment, reportPost } from './blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp } from './helpers';

/**
 * `npm run seed -- --reset` (README): the seeder empties the database it is pointed at before
 * filling it. A fixed list of tables had left PostgreSQL's search tables (every search then
 * answered 500 on rows of deleted posts), SQLite's search vocabulary, series, blocks, reports,
 * revisions and the audit log of the old site.
 */
let t: TestApp;
let writer: BulkWriter;
beforeAll(async () => {
  t = await createTestApp();
  writer =
    ENGINE === 'postgres'
      ? postgresWriter(
          new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, options: `-c search_path=${t.database.pgSchema}`, max: 1 }),
        )
      : sqliteWriter(new BetterSqlite3(path.join(t.config.dataDir, 'test.sqlite')));
});
afterAll(async () => {
  await writer?.close();
  await t?.close();
});

describe(`seed --reset on ${ENGINE}`, () => {
  it('empties every table of the app, and the emptied site searches without an error', async () => {
    const [author, reader] = await Promise.all([createUser(t), createUser(t)]);
    const { blogId } = await createBlog(t, author, { title: 'Kubernetes operators in practice' });
    await postComment(t, reader, blogId, 'Which operator framework?');
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/users/${author.id}/block`, headers: bearer(reader.token) })).statusCode,
    ).toBe(200);
    await reportPost(t, reader, blogId, 'spam');
    const found = await t.app.inject({ url: '/api/v1/search-blogs?search=kubernetes' });
    expect(found.json().blogs).toHaveLength(1);

    await emptyOrRefuse(writer, ENGINE, true);

    const tables = await appTables(writer, ENGINE);
    expect(tables).toEqual(
      expect.arrayContaining(['users', 'blogs', 'reports', 'user_blocks', ENGINE === 'postgres' ? 'search_docs' : 'search_words']),
    );
    const left: Record<string, number> = {};
    for (const table of tables) {
      const [row] = await writer.all<{ n: number | string }>(`SELECT count(*) AS n FROM "${table}"`);
      if (Number(row?.n)) left[table] = Number(row?.n);
    }
    expect(left).toEqual({});
    const after = await t.app.inject({ url: '/api/v1/search-blogs?search=kubernetes+operators' });
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().blogs).toEqual([]);
  });
});
