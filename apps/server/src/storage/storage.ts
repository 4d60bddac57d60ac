/**
 * Where uploaded files live. The app only ever writes whole objects under opaque keys
 * (`inline/2025/01/<id>-<hex>.webp`), reads them back through a public URL and deletes
 * them, so any object store fits.
 *
 * An S3-compatible store (`@aws-sdk/client-s3`) implements it as:
 *  - put:       PutObjectCommand { Bucket, Key: key, Body: body, ContentType,
 *               CacheControl: 'public, max-age=31536000, immutable' } (keys are never reused)
 *  - delete:    DeleteObjectCommand { Bucket, Key: key } (S3 answers 204 for missing keys)
 *  - publicUrl: `${S3_PUBLIC_URL}/${key}` (bucket website, CDN or path-style endpoint)
 * Nothing else in the app touches files, so instances stay stateless.
 */
export interface Storage {
  /** Writes the object; a later read of publicUrl(key) returns exactly `body`. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** The URL browsers load the object from (relative for local disk). */
  publicUrl(key: string): string;
}

/** Keys we generate: lowercase path segments, no dot segments, so they are safe as paths and URLs. */
export const STORAGE_KEY_PATTERN = /^(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9][a-z0-9_-]*\.[a-z0-9]{2,5}$/;

export function assertValidKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
}
