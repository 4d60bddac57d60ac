import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: the fork ships no types; the few calls used here are typed below.
import S3rverModule from '@20minutes/s3rver';
import type { StorageConfig } from '../src/config';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = S3rverModule as new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver's built-in account; it checks request signatures against this secret. */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Storage settings for the app: path-style against this server, served through the app unless publicUrl. */
  storage(extra?: { publicUrl?: string; secretAccessKey?: string }): StorageConfig;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, objects in a temporary folder) on 127.0.0.1 with one
 * bucket, so S3Storage is tested over HTTP with signed requests, never against a mock.
 */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'inkwell-s3-'));
  const bucket = `media-${randomBytes(3).toString('hex')}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storage: (extra = {}) => ({
      kind: 's3',
      bucket,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      publicUrl: extra.publicUrl,
      credentials: { ...S3_TEST_CREDENTIALS, ...(extra.secretAccessKey ? { secretAccessKey: extra.secretAccessKey } : {}) },
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
