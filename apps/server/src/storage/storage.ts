import type { Readable } from 'node:stream';

/**
 * Where uploaded files (and other generated files) live. The app only ever writes whole
 * objects under opaque keys (`inline/2025/01/<id>-<hex>.webp`), reads them back and deletes
 * them, so any object store fits: LocalDiskStorage (default) and S3Storage (any
 * S3-compatible service), chosen by config in create-storage.ts. Nothing else in the app
 * touches files, so instances stay stateless.
 */
export interface Storage {
  /** Writes the object whole (readers never see part of it); a later get(key) returns exactly `body`. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes and type, or null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** The URL browsers load the object from (relative when the app serves it). */
  publicUrl(key: string): string;
  /** True when browsers load files through this app at /uploads/ (serve-uploads.ts). */
  readonly servedByApp: boolean;
  /** Resolves when the store can be reached and used; rejects with the reason (readiness). */
  check(): Promise<void>;
  /** Releases connections (on app close). */
  close?(): void;
}

export interface StoredObject {
  body: Readable;
  contentType: string;
  contentLength?: number;
}

/** Keys we generate: lowercase path segments, no dot segments, so they are safe as paths and URLs. */
export const STORAGE_KEY_PATTERN = /^(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9][a-z0-9_-]*\.[a-z0-9]{2,5}$/;

export function assertValidKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
}

/** Content types of the extensions we write, for stores that do not keep one (local disk). */
export const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  json: 'application/json',
  xml: 'application/xml',
  txt: 'text/plain; charset=utf-8',
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}
