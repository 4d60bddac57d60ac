import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Person } from './fixtures';
import type { Stack } from './stack';

/**
 * A post with a thread longer than a page of comments (e2e/comment-threads.spec.ts, and
 * `npm run bench:panel`). 1,100 replies cannot go through the API (9 comments per 30 s per
 * person), so they are written straight into the test server's SQLite file, with the counts the
 * server keeps itself, before anything about the post is read (so no cache holds it yet).
 */

export const LONG_REPLIES = 1100;
/** Replies to replies: the 521st goes under the 11th (shown on the page), the 531st under the 521st (read with it), the 1,051st under the 601st (read a call earlier). */
const NESTED: Record<number, number> = { 520: 10, 530: 520, 1050: 600 };
export const replyText = (i: number) => `Reply number ${i + 1}`;

/** A UUIDv7 (db/ids.ts): the time in its first 48 bits. created_at orders the replies, the id breaks ties. */
function uuid7(ms: number): string {
  const time = ms.toString(16).padStart(12, '0');
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

export interface Seeded {
  replyIds: string[];
  /** The direct replies of the long thread's first comment: its reply count. */
  direct: number;
  total: number;
}

/**
 * Two threads on one post, three hours old: 'Quiet thread' (newer, shown first) with one reply,
 * newer than every other reply; 'Long thread opener' with LONG_REPLIES replies a second apart, of
 * which the page shows the oldest 499 (the quiet thread's reply takes the 500th place: a cut oldest
 * first across the page left it out).
 */
export function seedThreads(stack: Stack, blogId: string, author: Person, replier: Person): Seeded {
  const db = new Database(path.join(stack.dataDir, 'inkwell.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    const blog = db.prepare('SELECT id FROM blogs WHERE blog_id = ?').get(blogId) as { id: string };
    const userId = (who: Person) => (db.prepare('SELECT id FROM users WHERE email = ?').get(who.email) as { id: string }).id;
    const authorId = userId(author);
    const replierId = userId(replier);
    const base = Date.now() - 3 * 3600_000;
    const rows: { id: string; userId: string; parent: string | null; text: string; at: number; replies: number }[] = [];
    const add = (userId: string, parent: string | null, text: string, at: number) => {
      const row = { id: uuid7(at), userId, parent, text, at, replies: 0 };
      rows.push(row);
      const parentRow = rows.find((r) => r.id === parent);
      if (parentRow) parentRow.replies++;
      return row.id;
    };
    const rootId = add(authorId, null, 'Long thread opener', base);
    const quietId = add(authorId, null, 'Quiet thread', base + 60_000);
    add(replierId, quietId, 'The quiet reply', base + 360_000 + LONG_REPLIES * 1000);
    const replyIds: string[] = [];
    for (let i = 0; i < LONG_REPLIES; i++) {
      const under = NESTED[i];
      const parent = under === undefined ? rootId : replyIds[under]!;
      replyIds.push(add(replierId, parent, replyText(i), base + 300_000 + i * 1000));
    }
    const insert = db.prepare(
      `INSERT INTO comments (id, blog_id, user_id, parent_id, comment, like_count, reply_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (const r of rows) {
        const at = new Date(r.at).toISOString();
        insert.run(r.id, blog.id, r.userId, r.parent, r.text, r.replies, at, at);
      }
      db.prepare('UPDATE blogs SET comment_count = comment_count + ? WHERE id = ?').run(rows.length, blog.id);
    })();
    return { replyIds, direct: rows[0]!.replies, total: rows.length };
  } finally {
    db.close();
  }
}
