import { parseArgs } from 'node:util';
import { loadConfig, readEnvFile } from '../apps/server/src/config';
import { fillSearchRecent } from '../apps/server/src/db/migrations/0026_search_recent';
import { FILL_SEARCH_DOCS } from '../apps/server/src/db/migrations/0032_search_brackets';
import { hashPassword } from '../apps/server/src/lib/password';
import { RANKED_SPAN, RECENT_MARGIN, stemsOf, vocabularyOf } from '../apps/server/src/modules/search/search.query';
import type { BulkWriter, Row } from './bulk-writer';
import { content, Progress, rng, seedId, TAGS, title, words, zipf } from './seed-data';
import {
  analyze,
  dropSecondaryIndexes,
  emptyOrRefuse,
  insertStream,
  openWriter,
  restoreSecondaryIndexes,
  timedStep,
  USER_COLUMNS,
  uniquePairs,
} from './seed-helpers';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '1000' },
    users: { type: 'string' },
    likes: { type: 'string' },
    comments: { type: 'string' },
    follows: { type: 'string' },
    saves: { type: 'string' },
    reset: { type: 'boolean', default: false },
  },
});
const P = Number(values.posts);
const U = Number(values.users ?? Math.max(10, Math.round(P / 10)));
const L = Number(values.likes ?? P * 10);
const C = Number(values.comments ?? P * 2);
const F = Number(values.follows ?? P);
const S = Number(values.saves ?? P * 2);

readEnvFile();
const config = loadConfig(process.env);
const random = rng(7);
const now = Date.now();
const YEARS3 = 3 * 365 * 86400_000;
const start = now - YEARS3;
const iso = (ms: number) => new Date(ms).toISOString();
const userId = (i: number) => seedId(start + i, i);
const blogId = (i: number) => seedId(start + i, 0x100000 + i);
const commentId = (i: number) => seedId(start + i, 0x4000000 + i);
const blogTime = (i: number) => start + Math.floor((i / P) * (YEARS3 - 86400_000));

async function main() {
  const started = Date.now();
  console.log(
    `Seeding ${P} posts, ${U} users, ~${L} likes, ~${S} saves, ~${C} comments, ~${F} follows into ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`,
  );
  const { writer, engine } = await openWriter(config);
  await emptyOrRefuse(writer, engine, values.reset);
  await dropSecondaryIndexes(writer, engine);

  // Who wrote what, and which posts are drafts: decided first so every count is known up front.
  const authorOf = zipf(U, random);
  const creator = new Int32Array(P);
  const draft = new Uint8Array(P);
  const published = new Int32Array(U);
  for (let i = 0; i < P; i++) {
    creator[i] = authorOf();
    draft[i] = random() < 0.05 ? 1 : 0;
    if (!draft[i]) published[creator[i]!]!++;
  }
  const popularBlog = zipf(P, random, 1.05);
  // Zipf over ranks, mapped to newer posts being more popular.
  const pickBlog = () => {
    const b = P - 1 - popularBlog();
    return draft[b] ? null : b;
  };

  const likes = uniquePairs(
    L,
    U,
    () => {
      const b = pickBlog();
      return b === null ? null : [b, Math.floor(random() * U)];
    },
    'likes gen',
  );
  const saves = uniquePairs(
    S,
    U,
    () => {
      const b = pickBlog();
      return b === null ? null : [b, Math.floor(random() * U)];
    },
    'saves gen',
  );
  const popularUser = zipf(U, random, 1.1);
  const follows = uniquePairs(
    F,
    U,
    () => {
      const a = Math.floor(random() * U);
      const b = popularUser();
      return a === b ? null : [a, b];
    },
    'follows gen',
  );
  const likeCount = new Int32Array(P);
  const saveCount = new Int32Array(P);
  for (const k of likes) likeCount[Math.floor(k / U)]!++;
  for (const k of saves) saveCount[Math.floor(k / U)]!++;
  const followers = new Int32Array(U);
  const following = new Int32Array(U);
  for (const k of follows) {
    following[Math.floor(k / U)]!++;
    followers[k % U]!++;
  }

  // Comments: a quarter are replies to the blog's latest top-level comment.
  const cBlog = new Int32Array(C);
  const cUser = new Int32Array(C);
  const cParent = new Int32Array(C).fill(-1);
  const replies = new Int32Array(C);
  const lastTop = new Int32Array(P).fill(-1);
  const commentCount = new Int32Array(P);
  let nC = 0;
  for (let i = 0; i < C; i++) {
    const b = pickBlog();
    if (b === null) continue;
    cBlog[nC] = b;
    cUser[nC] = Math.floor(random() * U);
    if (random() < 0.25 && lastTop[b]! >= 0) {
      cParent[nC] = lastTop[b]!;
      replies[lastTop[b]!]!++;
    } else lastTop[b] = nC;
    commentCount[b]!++;
    nC++;
  }

  const passwordHash = await hashPassword('password123');
  await insertStream(writer, 'users', U, 'users', USER_COLUMNS, (i) => {
    const t = iso(start + Math.floor((i / U) * YEARS3 * 0.5));
    const name = `${words(random, 1)} ${words(random, 1)}`.replace(/\b\w/g, (c) => c.toUpperCase());
    return [
      userId(i),
      `user${i}@seed.example`,
      name,
      `user${i}`,
      passwordHash,
      words(random, 8),
      null,
      0,
      null,
      1,
      i % 3 === 0 ? 1 : 0,
      i % 4 === 0 ? 1 : 0,
      0,
      followers[i]!,
      following[i]!,
      published[i]!,
      t,
      t,
    ];
  });

  const blogCols: Parameters<BulkWriter['insert']>[1] = [
    ['id', 'uuid'],
    ['blog_id', 'text'],
    ['creator_id', 'uuid'],
    ['title', 'text'],
    ['description', 'text'],
    ['image', 'text'],
    ['content', 'text'],
    ['search_text', 'text'],
    ['tags', 'text'],
    ['block_count', 'int'],
    ['draft', 'int'],
    ['search_rowid', 'int'],
    ['like_count', 'int'],
    ['comment_count', 'int'],
    ['save_count', 'int'],
    ['created_at', 'time'],
    ['updated_at', 'time'],
  ];
  const progress = new Progress('posts', P);
  const BATCH = 10_000;
  // The next batch is made while the database writes the previous one.
  let pending: Promise<void> = Promise.resolve();
  const wordUses = new Map<string, number>();
  for (let i = 0; i < P; i += BATCH) {
    const blogs: Row[] = [];
    const tags: Row[] = [];
    const fts: Row[] = [];
    const heads: Row[] = [];
    for (let j = i; j < Math.min(P, i + BATCH); j++) {
      const t = title(random);
      const description = words(random, 12 + Math.floor(random() * 12));
      const body = content(random);
      const blogTags = [
        ...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => TAGS[Math.floor(random() ** 2 * TAGS.length)]!)),
      ];
      const time = iso(blogTime(j));
      const slug = `${t
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 50)}-s${j.toString(36)}`;
      blogs.push([
        blogId(j),
        slug,
        userId(creator[j]!),
        t,
        description,
        null,
        body.json,
        body.text,
        JSON.stringify(blogTags),
        body.blocks,
        draft[j]!,
        engine === 'sqlite' ? j + 1 : null,
        likeCount[j]!,
        commentCount[j]!,
        saveCount[j]!,
        time,
        time,
      ]);
      for (const tag of blogTags) tags.push([blogId(j), tag, draft[j]!, time]);
      if (engine === 'sqlite') {
        fts.push([j + 1, t, description, blogTags.join(' '), body.text]);
        heads.push([j + 1, stemsOf(t), stemsOf(blogTags.join(' ')), stemsOf(description)]);
        // The prefix vocabulary counts the published posts using each word (as the app keeps it).
        if (!draft[j])
          for (const w of vocabularyOf(`${t} ${description} ${blogTags.join(' ')} ${body.text}`))
            wordUses.set(w, (wordUses.get(w) ?? 0) + 1);
      }
    }
    await pending;
    progress.tick(i);
    pending = (async () => {
      await writer.insert('blogs', blogCols, blogs);
      await writer.insert(
        'blog_tags',
        [
          ['blog_id', 'uuid'],
          ['tag', 'text'],
          ['draft', 'int'],
          ['created_at', 'time'],
        ],
        tags,
      );
      if (engine === 'sqlite')
        await writer.insert(
          'blogs_fts',
          [
            ['rowid', 'int'],
            ['title', 'text'],
            ['description', 'text'],
            ['tags', 'text'],
            ['body', 'text'],
          ],
          fts,
        );
      if (engine === 'sqlite')
        await writer.insert(
          'search_heads',
          [
            ['rowid', 'int'],
            ['title', 'text'],
            ['tags', 'text'],
            ['description', 'text'],
          ],
          heads,
        );
    })();
  }
  await pending;
  progress.tick(P);
  if (engine === 'sqlite')
    await writer.insert(
      'search_words',
      [
        ['word', 'text'],
        ['uses', 'int'],
      ],
      [...wordUses],
      true,
    );

  const reaction =
    (keys: Float64Array) =>
    (i: number): Row => {
      const b = Math.floor(keys[i]! / U);
      const u = keys[i]! % U;
      return [userId(u), blogId(b), iso(blogTime(b) + Math.floor(random() * (now - blogTime(b))))];
    };
  const reactionCols: Parameters<BulkWriter['insert']>[1] = [
    ['user_id', 'uuid'],
    ['blog_id', 'uuid'],
    ['created_at', 'time'],
  ];
  await insertStream(writer, 'likes', likes.length, 'likes', reactionCols, reaction(likes));
  await insertStream(writer, 'saves', saves.length, 'saves', reactionCols, reaction(saves));
  await insertStream(
    writer,
    'follows',
    follows.length,
    'follows',
    [
      ['follower_id', 'uuid'],
      ['following_id', 'uuid'],
      ['created_at', 'time'],
    ],
    (i) => {
      const k = follows[i]!;
      return [userId(Math.floor(k / U)), userId(k % U), iso(now - Math.floor(random() * YEARS3))];
    },
  );
  await insertStream(
    writer,
    'comments',
    nC,
    'comments',
    [
      ['id', 'uuid'],
      ['blog_id', 'uuid'],
      ['user_id', 'uuid'],
      ['parent_id', 'uuid'],
      ['comment', 'text'],
      ['like_count', 'int'],
      ['reply_count', 'int'],
      ['created_at', 'time'],
      ['updated_at', 'time'],
    ],
    (i) => {
      const b = cBlog[i]!;
      const t = iso(blogTime(b) + Math.floor((i / nC) * (now - blogTime(b))));
      return [
        commentId(i),
        blogId(b),
        userId(cUser[i]!),
        cParent[i]! >= 0 ? commentId(cParent[i]!) : null,
        words(random, 6 + Math.floor(random() * 20)),
        0,
        replies[i]!,
        t,
        t,
      ];
    },
  );

  // A recent inbox for users: every 20th like becomes a 'like' notification to the author.
  await insertStream(
    writer,
    'notifs',
    Math.floor(likes.length / 20),
    'notifications',
    [
      ['id', 'uuid'],
      ['recipient_id', 'uuid'],
      ['sender_id', 'uuid'],
      ['type', 'text'],
      ['blog_id', 'uuid'],
      ['comment_id', 'uuid'],
      ['message', 'text'],
      ['is_read', 'int'],
      ['created_at', 'time'],
    ],
    (i) => {
      const k = likes[i * 20]!;
      const b = Math.floor(k / U);
      const u = k % U;
      if (creator[b] === u) return null;
      return [
        seedId(now - i, 0x8000000 + i),
        userId(creator[b]!),
        userId(u),
        'like',
        blogId(b),
        null,
        null,
        random() < 0.5 ? 1 : 0,
        iso(now - Math.floor(random() * 90 * 86400_000)),
      ];
    },
  );

  // The bulk writer runs without triggers: search_docs (migration 0021) is filled as its trigger does (as of 0032).
  if (engine === 'postgres') {
    await timedStep('search_docs (the publicly visible posts)', () => writer.exec(FILL_SEARCH_DOCS));
    await timedStep('search_recent (their newest, migration 0026)', () => writer.exec(fillSearchRecent(RANKED_SPAN + RECENT_MARGIN)));
  }
  await restoreSecondaryIndexes(writer);
  await analyze(writer, engine);
  await writer.close();
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Sign in as user0@seed.example / password123.`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
