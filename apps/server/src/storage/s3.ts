import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config';
import { assertValidKey, type Storage, type StoredObject } from './storage';

type Sdk = typeof import('@aws-sdk/client-s3');

export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

/** A key that is never written: reading it answers NoSuchKey from a reachable bucket we may read. */
const READINESS_PROBE_KEY = 'inkwell-readiness-probe/absent.txt';

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Uploads in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Garage…). Objects are
 * written with their type and an immutable cache lifetime, since keys are never reused.
 * Browsers load them from S3_PUBLIC_URL when set (public bucket or CDN), otherwise through
 * the app at /uploads/, which keeps the bucket private and the URLs stable.
 */
export class S3Storage implements Storage {
  readonly servedByApp: boolean;
  private connection?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(private readonly config: S3StorageConfig) {
    this.servedByApp = !config.publicUrl;
  }

  /** The SDK is loaded on first use: a site on local disk never pays its start-up time and memory. */
  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    const { config } = this;
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        // Only when the service asks for checksums: several S3-compatible services reject the
        // SDK's newer default trailers, and our bodies are small buffers signed whole anyway.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
      }),
    }));
    return this.connection;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return {
        body: object.Body as Readable,
        contentType: object.ContentType ?? 'application/octet-stream',
        contentLength: object.ContentLength,
      };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    // S3 answers 204 for a missing key as well.
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return this.config.publicUrl ? `${this.config.publicUrl}/${key}` : `/uploads/${key}`;
  }

  /**
   * A GET of an absent key: NoSuchKey proves the endpoint, the bucket and the credentials work.
   * Not a HEAD: its answer has no body, so a bucket that does not exist (a misspelt S3_BUCKET)
   * answered the same bare 404 and was reported ready while every upload failed. (HeadBucket would
   * need the s3:ListBucket right; AWS answers 403 instead of 404 without it.)
   */
  async check(): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      const found = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: READINESS_PROBE_KEY }));
      (found.Body as Readable | undefined)?.destroy();
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return;
      throw err;
    }
  }

  close(): void {
    void this.connection?.then(({ client }) => client.destroy());
  }
}
