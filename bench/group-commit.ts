/**
 * Would group commit make SQLite writes cheaper? `DATA_DIR=/tmp/bench-1k npx tsx bench/group-commit.ts`
 * (on a copy: it adds comments). Runs the comment write's three statements (comment, counter,
 * notification) alternately one transaction each and batched N to a transaction, each write in its
 * own savepoint (a batched request must roll back alone). Prints µs of CPU and wall time a write.
 */
import path from 'node:path';
import SQLite from 'better-sqlite3';

const dir = process.env.DATA_DIR;
if (!dir) throw new Error('Set DATA_DIR to a copy of a seeded SQLite data folder');
const db = new SQLite(path.join(dir, 'inkwell.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -64000');
type Row = { id: string; creator_id: string };
const blogs = db.prepare('select id, creator_id from blogs order by created_at desc limit 50').all() as Row[];
const users = db.prepare('select id from users limit 20').all() as Row[];
const ins = db.prepare(
  'insert into comments (id, blog_id, user_id, parent_id, comment, like_count, reply_count, created_at, updated_at) values (?, ?, ?, null, ?, 0, 0, ?, ?)',
);
const upd = db.prepare('update blogs set comment_count = comment_count + 1 where id = ?');
const note = db.prepare(
  "insert into notifications (id, recipient_id, sender_id, type, blog_id, comment_id, message, is_read, created_at) values (?, ?, ?, 'comment', ?, ?, 'x', 0, ?)",
);
let k = 0;
const write = () => {
  const blog = blogs[k % blogs.length]!;
  const user = users[k % users.length]!;
  const id = `gc${process.pid}-${k++}`;
  const now = new Date().toISOString();
  ins.run(id, blog.id, user.id, 'Benchmark comment', now, now);
  upd.run(blog.id);
  note.run(`n${id}`, blog.creator_id, user.id, blog.id, id, now);
};
const begin = db.prepare('begin'),
  commit = db.prepare('commit');
const sp = db.prepare('savepoint s'),
  rel = db.prepare('release s');
for (const batch of [1, 10, 1, 10, 1, 10, 25, 1]) {
  // Each run starts from an empty WAL (SQLite's own checkpoint would land in some runs only).
  db.pragma('wal_checkpoint(TRUNCATE)');
  const n = 3000;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < n; i += batch) {
    begin.run();
    for (let j = 0; j < batch; j++) {
      if (batch > 1) sp.run();
      write();
      if (batch > 1) rel.run();
    }
    commit.run();
  }
  const used = process.cpuUsage(cpu);
  const perWrite = (us: number) => (us / n).toFixed(1);
  console.log(
    `${batch} a commit: ${perWrite(used.user + used.system)} µs CPU, ${perWrite((performance.now() - wall) * 1000)} µs wall a write`,
  );
}
