import { isUuid } from '../db/ids';
import { badRequest } from './errors';

/** Opaque keyset cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, length: number): string[] | null {
  if (!cursor) return null;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parts) && parts.length === length && parts.every((p) => typeof p === 'string')) return parts as string[];
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('Invalid cursor');
}

/**
 * A cursor for lists ordered by a time, then other keys, then an id (`length` parts in all): the
 * first must be a time as the database hands it out (UTC, milliseconds: what reading it back as
 * a Date writes again) and the last a lowercase UUID, so nothing else reaches the database.
 * PostgreSQL's parsers answered a 500 to what V8's Date.parse takes ('2024-02-30' rolls over to
 * March); SQLite compares text, so an offset or an uppercase id read the wrong page.
 */
export function decodeTimeKeyCursor(cursor: string | undefined, length: number): string[] | null {
  const parts = decodeCursor(cursor, length);
  if (!parts) return null;
  const [time, id] = [parts[0]!, parts[length - 1]!];
  if (!isUuid(id) || id !== id.toLowerCase() || !isCanonicalTime(time)) throw badRequest('Invalid cursor');
  return parts;
}

function isCanonicalTime(time: string): boolean {
  const at = new Date(time);
  return /^(?!0000)\d{4}-/.test(time) && !Number.isNaN(at.getTime()) && at.toISOString() === time;
}

/** A cursor for lists ordered by (created_at, id): the last row's pair. */
export function decodeTimeCursor(cursor: string | undefined): { createdAt: string; id: string } | null {
  const parts = decodeTimeKeyCursor(cursor, 2);
  return parts && { createdAt: parts[0]!, id: parts[1]! };
}
