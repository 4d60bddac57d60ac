import { CONTENT_LIMIT_MESSAGES, MAX_BLOCKS, MAX_CONTENT_BYTES, MAX_POST_INLINE_TAGS, MAX_POST_LIST_ITEMS } from '@inkwell/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../test/blogs';
import { bearer, createTestApp, createUser, ENGINE, type TestApp, type TestUser } from '../../../test/helpers';

let t: TestApp;
let author: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t);
});
afterAll(async () => t.close());

/**
 * The CPU time is printed beside it: on a loaded machine wall time includes waiting for a core.
 * The longest stretch the event loop was blocked while fn ran: a setImmediate probe notes the gap
 * between its turns. Printed, never asserted (speed is measured, not tested).
 */
async function worstBlockMs<T>(fn: () => Promise<T>): Promise<{ result: T; worst: number; cpu: number }> {
  const cpuBefore = process.cpuUsage();
  let worst = 0;
  let last = performance.now();
  let running = true;
  const probe = () => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    if (running) setImmediate(probe);
  };
  setImmediate(probe);
  const result = await fn();
  running = false;
  await new Promise((r) => setImmediate(r));
  const cpu = process.cpuUsage(cpuBefore);
  return { result, worst, cpu: (cpu.user + cpu.system) / 1000 };
}

const send = (body: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/blogs',
    headers: { ...bearer(author.token), 'content-type': 'application/json' },
    payload: body,
  });
const blogBody = (blocks: unknown[]) => JSON.stringify({ title: 'Limits', description: 'Limits', content: { blocks } });
const formatted = (tags: number, filler: number) => `${'plain words '.repeat(filler)}${'<b>bold</b> '.repeat(tags / 2)}`.trim();
const list = (items: number, text = 'item') => ({
  type: 'list',
  data: { style: 'unordered', items: Array.from({ length: items }, (_, i) => ({ content: `${text} ${i}`, items: [] })) },
});
const table = (rows: number, cols: number) => ({
  type: 'table',
  data: { content: Array.from({ length: rows }, () => Array.from({ length: cols }, (_, i) => `cell ${i}`)) },
});

/** The largest posts the limits accept, each at one or more limits at once. */
const accepted: [string, unknown[]][] = [
  [
    '25 paragraphs of 20 KB, 3,000 inline tags',
    Array.from({ length: 25 }, () => ({ type: 'paragraph', data: { text: formatted(120, 1500) } })),
  ],
  [
    `${MAX_BLOCKS} blocks: 2,000 list items, 2,500 table cells, 2,900 inline tags`,
    [
      ...Array.from({ length: MAX_POST_LIST_ITEMS / 200 }, () => list(200, 'a list item with some words')),
      table(50, 50),
      ...Array.from({ length: MAX_BLOCKS - 11 }, () => ({ type: 'paragraph', data: { text: formatted(6, 40) } })),
    ],
  ],
];

/** Hostile posts: each must be refused before the expensive part. */
const refused: [string, string, string][] = [
  [
    '500 lists x 200 items (the 426 KB report)',
    blogBody(Array.from({ length: 500 }, () => ({ type: 'list', data: { items: Array.from({ length: 200 }, () => 'a') } }))),
    CONTENT_LIMIT_MESSAGES.listItems,
  ],
  [
    'a list nested 3,000 levels',
    `{"title":"Deep","description":"d","content":{"blocks":[{"type":"list","data":{"items":[${'{"content":"x","items":['.repeat(3000)}${']}'.repeat(3000)}]}}]}}`,
    'nested too deeply',
  ],
  ['4 tables of 50 x 50 cells', blogBody(Array.from({ length: 4 }, () => table(50, 50))), CONTENT_LIMIT_MESSAGES.tableCells],
  [
    '3,002 inline tags',
    blogBody(Array.from({ length: 2 }, () => ({ type: 'paragraph', data: { text: formatted(MAX_POST_INLINE_TAGS / 2 + 2, 0) } }))),
    CONTENT_LIMIT_MESSAGES.inlineTags,
  ],
  ['501 blocks', blogBody(Array.from({ length: 501 }, () => ({ type: 'delimiter', data: {} }))), CONTENT_LIMIT_MESSAGES.blocks],
];

describe('the work one post can cause is bounded', () => {
  it('accepts the largest posts the limits allow and prints the worst event-loop block', async () => {
    const rows: string[] = [];
    for (const [name, blocks] of accepted) {
      const body = blogBody(blocks);
      expect(body.length).toBeLessThan(MAX_CONTENT_BYTES);
      let worst = Number.POSITIVE_INFINITY;
      let cpu = Number.POSITIVE_INFINITY;
      // The best of three runs, after a warm-up, so a one-off pause of the shared machine does not count.
      for (let run = 0; run < 4; run++) {
        const measured = await worstBlockMs(() => send(body));
        expect(measured.result.statusCode, measured.result.body).toBe(201);
        if (run > 0) worst = Math.min(worst, measured.worst);
        if (run > 0) cpu = Math.min(cpu, measured.cpu);
      }
      rows.push(
        `accepted  ${name} (${Math.round(body.length / 1024)} KB): worst block ${worst.toFixed(1)} ms, CPU of the request ${cpu.toFixed(1)} ms`,
      );
    }
    console.log(`[${ENGINE}] event-loop blocking per request:\n${rows.join('\n')}`);
  });

  it('refuses hostile posts with 400 and a message, quickly and without storing anything', async () => {
    const before = await countRows(t, 'blogs');
    const rows: string[] = [];
    for (const [name, body, message] of refused) {
      const { result, worst, cpu } = await worstBlockMs(() => send(body));
      expect(result.statusCode, name).toBe(400);
      expect(result.json().message, name).toContain(message);
      rows.push(`refused   ${name} (${Math.round(body.length / 1024)} KB): worst block ${worst.toFixed(1)} ms, CPU ${cpu.toFixed(1)} ms`);
    }
    expect(await countRows(t, 'blogs')).toBe(before);
    console.log(`[${ENGINE}] event-loop blocking per request:\n${rows.join('\n')}`);
  });
});
