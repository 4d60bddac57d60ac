import { expect, test } from 'vitest';
import { newId, nowIso } from './ids';

test('ids are UUIDv7, all different and in the order they were made, across refills of the random pool', () => {
  const ids = Array.from({ length: 10_000 }, () => newId());
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect([...ids].sort()).toEqual(ids);
  // The random part differs between ids made in the same millisecond.
  expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
});

test('nowIso is the time now', () => {
  const before = Date.now();
  const iso = nowIso();
  expect(Date.parse(iso)).toBeGreaterThanOrEqual(before);
  expect(Date.parse(iso)).toBeLessThanOrEqual(Date.now());
});
