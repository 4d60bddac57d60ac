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
 * first is checked to be a date and the last a UUID, so nothing else reaches the database
 * (PostgreSQL's uuid and timestamptz parsers answer a 500; SQLite compares any text).
 */
export function decodeTimeKeyCursor(cursor: string | undefined, length: number): string[] | null {
  const parts = decodeCursor(cursor, length);
  if (!parts) return null;
  const [time, id] = [parts[0]!, parts[length - 1]!];
  if (!isUuid(id) || !ISO_TIME.test(time) || Number.isNaN(Date.parse(time))) throw badRequest('Invalid cursor');
  return parts;
}

/** A cursor for lists ordered by (created_at, id): the last row's pair. */
export function decodeTimeCursor(cursor: string | undefined): { createdAt: string; id: string } | null {
  const parts = decodeTimeKeyCursor(cursor, 2);
  return parts && { createdAt: parts[0]!, id: parts[1]! };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
