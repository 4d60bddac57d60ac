import { type BlogCard, type FollowUser, PROFILE_FOLLOWING_CARD_SIZE, type Profile, USER_MESSAGES } from '@inkwell/core';
import { forbidden, notFound } from '../../lib/errors';
import { canSeeProfileList, type ProfileList } from '../../lib/policies';
import type { BlockingRepository } from '../blocking/blocking.repo';
import { page, presentCard } from '../blogs/blogs.presenter';
import { storedUsername } from './username';
import type { ProfileListsRepository } from './users.lists.repo';
import { presentFollowUser, presentProfile, presentUserCard } from './users.presenter';
import type { UserRow, UsersRepository } from './users.repo';

export type BlogTab = ProfileList;
export interface PageQuery {
  page: number;
  limit: number;
}

/** The profile page and its tabs (SPEC.md 2 Profile, 6 permissions): who may see which list. */
export class ProfileService {
  constructor(
    private readonly lists: ProfileListsRepository,
    private readonly users: UsersRepository,
    private readonly blocking: BlockingRepository,
  ) {}

  async get(username: string, viewerId: string | null): Promise<Profile> {
    const name = storedUsername(username);
    const row = name ? await this.lists.findProfile(name, viewerId) : undefined;
    if (!row) throw notFound(USER_MESSAGES.notFound);
    const [preview, flags] = await Promise.all([
      this.lists.follows('following', row.id, null, PROFILE_FOLLOWING_CARD_SIZE, 0),
      // The viewer's own flags: the route caches only the anonymous answer, so these never leak.
      viewerId && viewerId !== row.id ? this.blocking.flagsOf(viewerId, row.id) : undefined,
    ]);
    return { ...presentProfile(row, viewerId, preview.slice(0, PROFILE_FOLLOWING_CARD_SIZE).map(presentUserCard)), ...flags };
  }

  /** The follower count the profile shows, as lib/live-counts.ts compares it; undefined when the user is gone. */
  async followerCount(username: string): Promise<string | undefined> {
    const name = storedUsername(username);
    const count = name ? await this.users.followerCountOf(name) : undefined;
    return count === undefined ? undefined : String(count);
  }

  async blogs(username: string, tab: BlogTab, viewerId: string | null, q: PageQuery): Promise<{ blogs: BlogCard[]; hasMore: boolean }> {
    const user = await this.find(username);
    const owner = { id: user.id, showSavedBlogs: user.show_saved_blogs === 1, showLikedBlogs: user.show_liked_blogs === 1 };
    if (!canSeeProfileList(viewerId, owner, tab)) {
      throw forbidden(tab === 'drafts' ? USER_MESSAGES.draftsOwnerOnly : USER_MESSAGES.listPrivate);
    }
    const offset = (q.page - 1) * q.limit;
    let rows: Awaited<ReturnType<ProfileListsRepository['authored']>>;
    switch (tab) {
      case 'blogs':
        rows = await this.lists.authored(user.id, 'public', q.limit, offset, viewerId);
        break;
      case 'drafts':
        rows = await this.lists.authored(user.id, 'drafts', q.limit, offset);
        break;
      case 'saved-blogs':
        rows = await this.lists.reacted('saves', user.id, viewerId, q.limit, offset);
        break;
      case 'liked-blogs':
        rows = await this.lists.reacted('likes', user.id, viewerId, q.limit, offset);
        break;
    }
    const { items, hasMore } = page(rows, q.limit);
    return { blogs: items.map(presentCard), hasMore };
  }

  /** Followers and following are public, like the counts on the profile. */
  async follows(
    username: string,
    direction: 'followers' | 'following',
    viewerId: string | null,
    q: PageQuery,
  ): Promise<{ users: FollowUser[]; hasMore: boolean }> {
    const user = await this.find(username);
    const rows = await this.lists.follows(direction, user.id, viewerId, q.limit, (q.page - 1) * q.limit);
    const { items, hasMore } = page(rows, q.limit);
    return { users: items.map(presentFollowUser), hasMore };
  }

  private async find(username: string): Promise<UserRow> {
    const name = storedUsername(username);
    const row = name ? await this.users.findByUsername(name) : undefined;
    if (!row) throw notFound(USER_MESSAGES.notFound);
    return row;
  }
}
