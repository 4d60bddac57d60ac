import type { PublicDataChanges } from '../../lib/public-data';
import { PublicMemo } from '../../lib/public-memo';
import { postTag, userCardTag } from '../../lib/public-tags';
import type { UserCards } from '../users/user-cards';
import type { BlogRef, BlogRefWithActor, BlogsRepository } from './blogs.repo';

/** Posts whose references are kept: a few fields each. */
export const POST_REFS_MEMO_SIZE = 10_000;

/**
 * The reference of a post (its state, its author, the author's block flag) and the card of the
 * user acting on it, which a like, a save and a new comment check their permissions on, kept in
 * memory between writes: on PostgreSQL the read was one of a like's two round trips
 * (docs/decisions.md, "A post's reference and the actor's card kept between writes").
 *
 * Every change of what is kept drops it, on every instance: a post's state changes with a write
 * that touches its post tag (an edit, a publication, a moderator's hide, a deletion); its author's
 * block flag with their card (modules/users/user-cards). Likes, saves and comments touch neither.
 * Used only while every instance's changes reach this one (PublicDataChanges.reliable); without a
 * change feed (the response cache off) every call reads the database.
 */
export class PostRefs {
  private readonly posts?: PublicMemo<BlogRef>;

  constructor(
    private readonly deps: {
      blogs: BlogsRepository;
      cards: UserCards;
      publicData?: PublicDataChanges;
      /** The response cache's TTL: the backstop for a change nobody announced (an operator's SQL). */
      ttlMs?: number;
    },
  ) {
    if (deps.publicData) {
      this.posts = new PublicMemo<BlogRef>(deps.publicData, { ttlMs: deps.ttlMs, maxEntries: POST_REFS_MEMO_SIZE, whileReliable: true });
    }
  }

  /** Whether the post's reference is kept now (tests: a check that the next write will not read it). */
  knows(blogId: string): boolean {
    return this.posts?.get(blogId) !== undefined;
  }

  /** The post `blogId` with the card of `actorId` (null fields when that user is gone); undefined for an unknown post. */
  async withActor(blogId: string, actorId: string): Promise<BlogRefWithActor | undefined> {
    const { blogs, cards } = this.deps;
    const post = this.posts?.get(blogId);
    const actor = cards.get(actorId);
    if (post && actor) {
      const { name, username, profile_pic, relations } = actor;
      return { ...post, actor_name: name, actor_username: username, actor_profile_pic: profile_pic, actor_relations: relations };
    }
    const generations = [this.posts?.generation ?? 0, cards.generation] as const;
    const row = await blogs.findRefWithActor(blogId, actorId);
    if (!row) return row;
    const { actor_name, actor_username, actor_profile_pic, actor_relations, ...ref } = row;
    // Its author's block flag is the author's card.
    this.posts?.set(blogId, generations[0], ref, [postTag(row.blog_id), ...(ref.creator_id ? [userCardTag(ref.creator_id)] : [])]);
    // A user who is gone is not kept: their row may come back (a restore) under another name.
    if (actor_username !== null) {
      cards.keep(actorId, generations[1], {
        name: actor_name!,
        username: actor_username,
        profile_pic: actor_profile_pic,
        relations: actor_relations!,
      });
    }
    return row;
  }
}
