import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import type { RateGuard } from '../../lib/rate-guard';
import type { Tx } from '../../lib/tx';
import { STORAGE_KEY_PATTERN, type Storage } from '../../storage/storage';
import { newStorageKey, processImage, type UploadKind } from './image-processing';
import type { UploadsRepository } from './uploads.repo';
import { fetchRemoteImage } from './url-fetch';

export interface StoredImage {
  id: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
}

export interface UploadsDeps {
  uploads: UploadsRepository;
  storage: Storage;
  rate: RateGuard;
  log: FastifyBaseLogger;
  maxBytes: number;
  allowPrivateUrlFetch: boolean;
}

/**
 * Images users upload: validated and re-encoded, written to storage, recorded with their owner.
 * Blogs record the uploads their content uses (attachToBlog) so that editing or deleting a blog
 * can remove the files no post references any more (releasedByBlog). Files are deleted only after
 * the database change commits (deleteFiles), so a rolled-back edit never loses an image.
 */
export class UploadsService {
  private readonly urlPrefix: string;

  constructor(private readonly deps: UploadsDeps) {
    this.urlPrefix = deps.storage.publicUrl('x.webp').slice(0, -'x.webp'.length);
  }

  async storeImage(ownerId: string, buffer: Buffer, kind: UploadKind): Promise<StoredImage> {
    await this.deps.rate.check('image', ownerId);
    return this.store(ownerId, buffer, kind);
  }

  async storeImageFromUrl(ownerId: string, url: string, kind: UploadKind): Promise<StoredImage> {
    // Counted before fetching: the fetch itself is the expensive, abusable part.
    await this.deps.rate.check('image', ownerId);
    const { maxBytes, allowPrivateUrlFetch } = this.deps;
    const buffer = await fetchRemoteImage(url, { maxBytes, allowPrivate: allowPrivateUrlFetch });
    return this.store(ownerId, buffer, kind);
  }

  /** Links the owner's uploads among `urls` to the blog; others' URLs are ignored. */
  attachToBlog(blogDbId: string, ownerId: string, urls: string[], trx?: Kysely<Database>): Promise<number> {
    const own = urls.filter((u) => this.isOwnUploadUrl(u));
    return own.length ? this.deps.uploads.attach(blogDbId, ownerId, own, trx) : Promise.resolve(0);
  }

  /**
   * The blog stops using its uploads whose URL is not in keepUrls (all of them when it is about to
   * be deleted). An upload another post still uses moves to that post; the owner's current profile
   * picture stays unlinked; any other goes, and its key is returned for deleteFiles after commit.
   */
  async releasedByBlog(blogDbId: string, keepUrls: string[], trx: Kysely<Database>): Promise<string[]> {
    const { uploads } = this.deps;
    const released = await uploads.lockUsedBy(blogDbId, keepUrls, trx);
    if (!released.length) return [];
    const ids = released.map((r) => r.id);
    await uploads.removeUses(blogDbId, ids, trx);
    const elsewhere = await uploads.otherUses(ids, trx);
    const avatars = await uploads.currentAvatars(ids, trx);
    const gone: typeof released = [];
    for (const row of released) {
      const next = elsewhere.get(row.id) ?? null;
      if (next || avatars.has(row.id)) {
        if (row.blog_id !== next) await uploads.setBlog(row.id, next, trx);
      } else gone.push(row);
    }
    await uploads.deleteByIds(
      gone.map((r) => r.id),
      trx,
    );
    return gone.map((r) => r.storage_key);
  }

  /**
   * A post hidden by a moderator, or every post of a suspended author, loses its generated social
   * card (title and author, drawn for sharing) with the transaction's commit: the card's address
   * never changes, so it would be served on. The next public view after a restore draws it again.
   */
  async dropCards(of: { blogId: string } | { ownerId: string }, tx: Tx): Promise<void> {
    const keys = await this.deps.uploads.deleteCards(of, tx.db);
    if (keys.length) tx.afterCommit(() => this.deleteFiles(keys));
  }

  /** Best effort: a file that cannot be removed is logged, never fails the request that committed. */
  async deleteFiles(keys: string[]): Promise<void> {
    const results = await Promise.allSettled(keys.map((k) => this.deps.storage.delete(k)));
    results.forEach((r, i) => {
      if (r.status === 'rejected') this.deps.log.warn({ err: r.reason, key: keys[i] }, 'could not delete uploaded file');
    });
  }

  /**
   * Undoes uploads made while saving a blog that then failed: their rows (only if still
   * unlinked) and files. Best effort, like deleteFiles; call it outside any transaction.
   */
  async discard(images: Pick<StoredImage, 'id'>[]): Promise<void> {
    if (!images.length) return;
    try {
      const rows = await this.deps.uploads.listUnattached(images.map((i) => i.id));
      await this.deps.uploads.deleteByIds(rows.map((r) => r.id));
      await this.deleteFiles(rows.map((r) => r.storage_key));
    } catch (err) {
      this.deps.log.warn({ err }, 'could not remove the uploads of a failed save');
    }
  }

  /** True for URLs this app's storage hands out (the form only; ownership is checked by attachToBlog). */
  isOwnUploadUrl(url: string): boolean {
    return url.startsWith(this.urlPrefix) && STORAGE_KEY_PATTERN.test(url.slice(this.urlPrefix.length));
  }

  private async store(ownerId: string, input: Buffer, kind: UploadKind): Promise<StoredImage> {
    const { buffer, width, height } = await processImage(input, kind, this.deps.maxBytes);
    const key = newStorageKey(kind);
    const url = this.deps.storage.publicUrl(key);
    await this.deps.storage.put(key, buffer, 'image/webp');
    const id = newId();
    try {
      await this.deps.uploads.insert({
        id,
        owner_id: ownerId,
        storage_key: key,
        url,
        kind,
        blog_id: null,
        width,
        height,
        bytes: buffer.length,
        created_at: nowIso(),
      });
    } catch (err) {
      // No row means nothing would ever clean the file up.
      await this.deleteFiles([key]);
      throw err;
    }
    return { id, url, width, height, bytes: buffer.length };
  }
}
