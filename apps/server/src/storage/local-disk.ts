import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertValidKey, type Storage } from './storage';

/** Files under `${dataDir}/uploads`, served by @fastify/static at /uploads/ (see serve-uploads.ts). */
export class LocalDiskStorage implements Storage {
  readonly root: string;

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

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `/uploads/${key}`;
  }

  private pathOf(key: string): string {
    // The key pattern already forbids '..' and absolute paths; this is belt and braces.
    assertValidKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return file;
  }
}
