import { describe, expect, test } from 'vitest';
import { weakEtag } from './etag';
import { ResponseCache } from './response-cache';
import { ANY_CHANGE } from './tagged-store';

const entry = (body: string) => ({ headers: { 'content-type': 'application/json' }, etag: 'W/"x"', body });
/** A body of n bytes that compresses well. */
const text = (n: number) => 'a'.repeat(n);

describe('response cache', () => {
  test('evicts the least recently used entry beyond its entry limit', () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    cache.set('/a', cache.generation, entry('a'));
    cache.set('/b', cache.generation, entry('b'));
    expect(cache.get('/a')).toBeDefined(); // /a is now the most recently used
    cache.set('/c', cache.generation, entry('c'));
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')?.text).toBe('a');
    expect(cache.get('/c')?.text).toBe('c');
    expect(cache.size).toBe(2);
  });

  test('counts the text, its buffer and each compressed copy, and gives them all back', () => {
    const cache = new ResponseCache({ compressThreshold: 10 });
    cache.set('/a', cache.generation, entry(text(2000)));
    expect(cache.bytes).toBe(4000);
    const a = cache.get('/a')!;
    const gzip = cache.body(a, 'gzip');
    const br = cache.body(a, 'br');
    expect(cache.bytes).toBe(4000 + gzip.body.length + br.body.length);
    cache.body(a, 'gzip'); // kept: not counted twice
    expect(cache.bytes).toBe(4000 + gzip.body.length + br.body.length);
    cache.set('/a', cache.generation, entry(text(100))); // replaced
    expect(cache.bytes).toBe(200);
    cache.touch([ANY_CHANGE]);
    expect(cache.bytes).toBe(0);
    // A body compressed for an entry that already left is sent but not kept or counted.
    expect(cache.body(a, 'gzip').encoding).toBe('gzip');
    expect(cache.bytes).toBe(0);
  });

  test('evicts the oldest entries to stay within its byte limit, compressed copies included', () => {
    const cache = new ResponseCache({ maxBytes: 1600, compressThreshold: 10 }); // bodies up to 100 bytes are kept
    for (let i = 0; i < 8; i++) cache.set(`/${i}`, cache.generation, entry(text(100)));
    expect(cache.bytes).toBe(1600);
    cache.set('/8', cache.generation, entry(text(100)));
    expect(cache.get('/0')).toBeUndefined();
    expect(cache.bytes).toBe(1600);
    // A compressed copy counts too: the least recently used entry (/2; /1 was just read) makes room.
    const one = cache.get('/1')!;
    const gzip = cache.body(one, 'gzip');
    expect(cache.get('/2')).toBeUndefined();
    expect(cache.bytes).toBe(1400 + gzip.body.length);
    expect(cache.set('/big', cache.generation, entry(text(101)))).toBeUndefined();
  });

  test('a change drops only the entries tagged with it (and those that depend on anything)', () => {
    const cache = new ResponseCache();
    cache.set('/post/1', cache.generation, entry('1'), ['post:1']);
    cache.set('/post/2', cache.generation, entry('2'), ['post:2']);
    cache.set('/feed', cache.generation, entry('feed'), ['lists', 'post:1', 'post:2']);
    cache.set('/feed.xml', cache.generation, entry('xml'));
    cache.touch(['post:1']);
    expect(cache.get('/post/1')).toBeUndefined();
    expect(cache.get('/feed')).toBeUndefined();
    expect(cache.get('/feed.xml')).toBeUndefined();
    expect(cache.get('/post/2')?.text).toBe('2');
    expect(cache.invalidations).toBe(1);
  });

  test('refuses an answer computed before a change to what it shows, and keeps one computed before an unrelated change', () => {
    const cache = new ResponseCache();
    const before = cache.generation;
    cache.touch(['post:1']);
    expect(cache.set('/post/1', before, entry('old'), ['post:1'])).toBeUndefined();
    expect(cache.get('/post/1')).toBeUndefined();
    expect(cache.set('/post/2', before, entry('2'), ['post:2'])).toBeDefined();
    // An untagged answer depends on anything: any change since refuses it.
    expect(cache.set('/feed.xml', before, entry('xml'))).toBeUndefined();
    const now = cache.generation;
    expect(cache.set('/feed.xml', now, entry('xml'))).toBeDefined();
    // After "anything changed" every earlier computation is refused.
    const beforeAll = cache.generation;
    cache.invalidate();
    expect(cache.set('/post/3', beforeAll, entry('3'), ['post:3'])).toBeUndefined();
  });

  test('forgets old tag versions without ever keeping a stale answer', () => {
    const cache = new ResponseCache();
    const before = cache.generation;
    for (let i = 0; i < 10_001; i++) cache.touch([`post:${i}`]);
    // post:0's version was forgotten: the answer is refused rather than risked.
    expect(cache.set('/post/0', before, entry('0'), ['post:0'])).toBeUndefined();
    const now = cache.generation;
    expect(cache.set('/post/0', now, entry('0'), ['post:0'])).toBeDefined();
  });

  test('an entry is not served past its time to live', () => {
    let now = 1_000_000;
    const cache = new ResponseCache({ ttlMs: 60_000, now: () => now });
    cache.set('/a', cache.generation, entry('a'), ['post:1']);
    now += 59_999;
    expect(cache.get('/a')?.text).toBe('a');
    now += 1;
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  test('a change of counts keeps a list for the lag at most, drops the post page at once, and lag 0 drops both', () => {
    let now = 1_000_000;
    const cache = new ResponseCache({ countsLagMs: 1000, now: () => now });
    cache.set('/post/1', cache.generation, entry('page'), ['post:1']);
    cache.set('/feed', cache.generation, entry('feed'), ['lists', 'counts:1', 'counts:2']);
    cache.set('/other', cache.generation, entry('other'), ['lists', 'counts:3']);
    cache.touch(['post:1', 'counts:1']);
    expect(cache.get('/post/1')).toBeUndefined();
    now += 999;
    expect(cache.get('/feed')?.text).toBe('feed');
    // A second like later does not extend the first one's lag.
    cache.touch(['post:1', 'counts:1']);
    now += 1;
    expect(cache.get('/feed')).toBeUndefined();
    expect(cache.get('/other')?.text).toBe('other');
    // A list computed before a counts change is kept only until that change's lag ends.
    const before = cache.generation;
    cache.touch(['counts:3']);
    now += 400;
    expect(cache.set('/other', before, entry('older'), ['lists', 'counts:3'])).toBeDefined();
    now += 599;
    expect(cache.get('/other')?.text).toBe('older');
    now += 1;
    expect(cache.get('/other')).toBeUndefined();
    now += 1;
    expect(cache.set('/other', before, entry('older'), ['lists', 'counts:3'])).toBeUndefined();

    const exact = new ResponseCache({ countsLagMs: 0, now: () => now });
    exact.set('/feed', exact.generation, entry('feed'), ['lists', 'counts:1']);
    exact.touch(['counts:1']);
    expect(exact.get('/feed')).toBeUndefined();
    expect(exact.bytes).toBe(0);
  });

  describe('a row a write added, taken into the entries that show it', () => {
    /** A route's patch: the added word goes in front of the body. */
    const prepend = (_url: string, body: string, added: unknown) => `${added} ${body}`;
    const patchable = (body: string, readAt: number) => ({ ...entry(body), patch: prepend, readAt });

    test('an entry read before the write began is updated in place, with its ETag, tags and TTL', () => {
      let now = 1_000;
      const cache = new ResponseCache({ now: () => now, ttlMs: 60_000 });
      cache.set('/p', cache.generation, patchable('old', 5), ['comments:a', 'post:a']);
      cache.set('/other', cache.generation, patchable('kept', 5), ['comments:b']);
      now = 30_000;
      cache.touch(['comments:a'], [{ tag: 'comments:a', value: 'new', since: 10 }]);
      const updated = cache.get('/p')!;
      expect(updated.text).toBe('new old');
      expect(updated.etag).toBe(weakEtag('new old'));
      expect(updated.headers.etag).toBe(weakEtag('new old'));
      expect(updated.readAt).toBe(5); // still what it read then, plus the row
      expect(cache.updates).toBe(1);
      expect(cache.get('/other')?.text).toBe('kept');
      // Its tags stay: a later change of the post drops it.
      cache.touch(['post:a']);
      expect(cache.get('/p')).toBeUndefined();
      // Its TTL is the first read's: at 60 s after it, it goes.
      cache.set('/q', cache.generation, patchable('old', 5), ['comments:a']);
      cache.touch(['comments:a'], [{ tag: 'comments:a', value: 'new', since: 10 }]);
      now = 30_000 + 60_000;
      expect(cache.get('/q')).toBeUndefined();
    });

    test('an entry read after the write began (it may show the row), or whose route cannot take it, is dropped', () => {
      const cache = new ResponseCache();
      cache.set('/late', cache.generation, patchable('old', 20), ['comments:a']);
      cache.set('/plain', cache.generation, entry('old'), ['comments:a']);
      cache.set('/refuses', cache.generation, { ...entry('old'), patch: () => undefined, readAt: 5 }, ['comments:a']);
      const broken = () => {
        throw new Error('unreadable');
      };
      cache.set('/throws', cache.generation, { ...entry('old'), patch: broken, readAt: 5 }, ['comments:a']);
      cache.touch(['comments:a'], [{ tag: 'comments:a', value: 'new', since: 10 }]);
      for (const url of ['/late', '/plain', '/refuses', '/throws']) expect(cache.get(url), url).toBeUndefined();
      expect(cache.updates).toBe(0);
    });

    test('two rows in one change are both taken in; anything-changed drops all', () => {
      const cache = new ResponseCache();
      cache.set('/p', cache.generation, patchable('old', 5), ['comments:a']);
      cache.touch(
        ['comments:a'],
        [
          { tag: 'comments:a', value: 'one', since: 10 },
          { tag: 'comments:a', value: 'two', since: 10 },
        ],
      );
      expect(cache.get('/p')?.text).toBe('two one old');
      cache.touch([ANY_CHANGE], [{ tag: 'comments:a', value: 'three', since: 10 }]);
      expect(cache.get('/p')).toBeUndefined();
    });
  });
});
