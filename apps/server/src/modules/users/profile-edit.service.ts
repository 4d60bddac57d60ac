import { type SessionUser, USER_MESSAGES } from '@inkwell/core';
import type { Kysely, Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { nowIso } from '../../db/ids';
import type { Database, UsersTable } from '../../db/schema';
import { badRequest, conflict, unauthorized } from '../../lib/errors';
import { transact } from '../../lib/tx';
import type { StoredImage, UploadsService } from '../uploads/uploads.service';
import { isReservedUsername } from './username';
import type { ProfileInput } from './users.input';
import type { UserRow, UsersRepository } from './users.repo';

export interface ProfileEditDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  uploads: UploadsService;
  /** Builds the refreshed session user (AuthService.sessionFor). */
  sessionUsers: { sessionFor(user: UserRow): Promise<SessionUser> };
}

/** Edit profile and privacy settings (SPEC.md 2 Edit profile, Settings). The route asked canEditProfile before reading the body (users.routes.ts). */
export class ProfileEditService {
  constructor(private readonly deps: ProfileEditDeps) {}

  async update(userId: string, input: ProfileInput): Promise<SessionUser> {
    const { db, users, uploads } = this.deps;
    const current = await this.current(userId);
    const changes: Updateable<UsersTable> = {};
    const { name, username, bio } = input.fields;
    if (name !== undefined) changes.name = name;
    if (bio !== undefined) changes.bio = bio || null;
    if (username !== undefined && username !== current.username) {
      if (isReservedUsername(username)) throw badRequest(USER_MESSAGES.usernameReserved);
      if (await users.usernameTaken(username)) throw conflict(USER_MESSAGES.usernameTaken);
      changes.username = username;
    }

    const stored: StoredImage[] = [];
    let oldFileKeys: string[] = [];
    try {
      const pic = await this.resolvePicture(current, input.profilePic, stored);
      if (pic !== current.profile_pic) changes.profile_pic = pic;
      await transact(db, async ({ db: trx }) => {
        await users.update(userId, { ...changes, updated_at: nowIso() }, trx);
        if ('profile_pic' in changes && current.profile_pic) {
          // The replaced avatar goes with its row; its file is removed only after commit.
          const old = await users.findOwnAvatarUpload(userId, current.profile_pic, trx);
          if (old) {
            await users.deleteUpload(old.id, trx);
            oldFileKeys = [old.storage_key];
          }
        }
      });
    } catch (err) {
      await uploads.discard(stored);
      // Two people claiming one free username at once: the unique index decides.
      if (isUniqueViolation(err)) throw conflict(USER_MESSAGES.usernameTaken);
      throw err;
    }
    await uploads.deleteFiles(oldFileKeys);
    return this.deps.sessionUsers.sessionFor(await this.current(userId));
  }

  async setVisibility(
    userId: string,
    flags: { showLikedBlogs?: boolean; showSavedBlogs?: boolean },
  ): Promise<{ showLikedBlogs: boolean; showSavedBlogs: boolean }> {
    const changes: Updateable<UsersTable> = { updated_at: nowIso() };
    if (flags.showLikedBlogs !== undefined) changes.show_liked_blogs = flags.showLikedBlogs ? 1 : 0;
    if (flags.showSavedBlogs !== undefined) changes.show_saved_blogs = flags.showSavedBlogs ? 1 : 0;
    await this.deps.users.update(userId, changes);
    const user = await this.current(userId);
    return { showLikedBlogs: user.show_liked_blogs === 1, showSavedBlogs: user.show_saved_blogs === 1 };
  }

  /** The new picture URL: a fresh upload, the current one, one of the user's own avatar uploads, or none. */
  private async resolvePicture(current: UserRow, pic: ProfileInput['profilePic'], stored: StoredImage[]): Promise<string | null> {
    if (pic === undefined) return current.profile_pic;
    if (pic === null) return null;
    if ('file' in pic) {
      const upload = await this.deps.uploads.storeImage(current.id, pic.file, 'avatar');
      stored.push(upload);
      return upload.url;
    }
    if (pic.url === current.profile_pic) return pic.url;
    // Anything else could be a tracking pixel or someone else's file; only the user's own avatar uploads are accepted.
    if (this.deps.uploads.isOwnUploadUrl(pic.url) && (await this.deps.users.findOwnAvatarUpload(current.id, pic.url))) return pic.url;
    throw badRequest(USER_MESSAGES.badProfilePic);
  }

  private async current(userId: string): Promise<UserRow> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw unauthorized(USER_MESSAGES.sessionExpired);
    return user;
  }
}
