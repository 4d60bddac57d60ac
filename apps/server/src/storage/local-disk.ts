import { randomBytes } from 'node:crypto';
import { constants, mkdirSync } from 'node:fs';
import { access, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertValidKey, contentTypeOf, type Storage, type StoredObject } from './storage';

/** Files under `${dataDir}/uploads`, served by @fastify/static at /uploads/ (see serve-uploads.ts). */
export class LocalDiskStorage implements Storage {
  readonly root: string;
  readonly servedByApp = true;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'uploads');
    // Created up front so the static server has a root to serve from the first request.
    mkdirSync(this.root, { recursive: true });
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a reader never sees a half-written image.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, body, { flag: 'wx' });
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    // Opened first, so a missing file is a null answer rather than an error on the stream.
    const handle = await open(this.pathOf(key), 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!handle) return null;
    const { size } = await handle.stat();
    return { body: handle.createReadStream(), contentType: contentTypeOf(key), contentLength: size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `/uploads/${key}`;
  }

  async check(): Promise<void> {
    await access(this.root, constants.W_OK);
  }

  private pathOf(key: string): string {
    // The key pattern already forbids '..' and absolute paths; this is belt and braces.
    assertValidKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return file;
  }
}
