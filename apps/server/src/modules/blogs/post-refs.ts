import type { PublicDataChanges } from '../../lib/public-data';
import { PublicMemo } from '../../lib/public-memo';
import { postTag, userCardTag } from '../../lib/public-tags';
import type { BlogRef, BlogRefWithActor, BlogsRepository } from './blogs.repo';

type ActorCard = Pick<BlogRefWithActor, 'actor_name' | 'actor_username' | 'actor_profile_pic'>;

/** Posts, and users acting on them, whose references are kept: a few fields each. */
export const POST_REFS_MEMO_SIZE = 10_000;

/**
 * The reference of a post (its state, its author, the author's block flag) and the card of the
 * user acting on it, which a like, a save and a new comment check their permissions on, kept in
 * memory between writes: on PostgreSQL the read was one of a like's two round trips
 * (docs/performance.md, "The post's reference kept between writes").
 *
 * Every change of what is kept drops it, on every instance: a post's state changes with a write
 * that touches its post tag (an edit, a publication, a moderator's hide, a deletion); a block or
 * mute, a suspension, a profile's name, picture or username, an account's deletion or transfer
 * are writes no path declares, which drop everything (lib/public-data.ts changedTags). Likes,
 * saves and comments touch neither (the card is tagged userCardTag, not the liker's profile). Used only while every
 * instance's changes reach this one (PublicDataChanges.reliable); without a change feed (the
 * response cache off) every call reads the database.
 */
export class PostRefs {
  private readonly posts?: PublicMemo<BlogRef>;
  private readonly actors?: PublicMemo<ActorCard>;

  constructor(
    private readonly deps: {
      blogs: BlogsRepository;
      publicData?: PublicDataChanges;
      /** The response cache's TTL: the backstop for a change nobody announced (an operator's SQL). */
      ttlMs?: number;
    },
  ) {
    if (deps.publicData) {
      const options = { ttlMs: deps.ttlMs, maxEntries: POST_REFS_MEMO_SIZE };
      this.posts = new PublicMemo<BlogRef>(deps.publicData, options);
      this.actors = new PublicMemo<ActorCard>(deps.publicData, options);
    }
  }

  /** Whether the post's reference is kept now (tests: a check that the next write will not read it). */
  knows(blogId: string): boolean {
    return this.posts?.get(blogId) !== undefined;
  }

  /** The post `blogId` with the card of `actorId` (null fields when that user is gone); undefined for an unknown post. */
  async withActor(blogId: string, actorId: string): Promise<BlogRefWithActor | undefined> {
    const reliable = this.deps.publicData?.reliable === true;
    const post = reliable ? this.posts?.get(blogId) : undefined;
    const actor = reliable ? this.actors?.get(actorId) : undefined;
    if (post && actor) return { ...post, ...actor };
    const generations = [this.posts?.generation ?? 0, this.actors?.generation ?? 0] as const;
    const row = await this.deps.blogs.findRefWithActor(blogId, actorId);
    if (!row || !reliable) return row;
    const { actor_name, actor_username, actor_profile_pic, ...ref } = row;
    // Its author's block flag is the author's card.
    this.posts?.set(blogId, generations[0], ref, [postTag(row.blog_id), ...(ref.creator_id ? [userCardTag(ref.creator_id)] : [])]);
    // A user who is gone is not kept: their row may come back (a restore) under another name.
    if (actor_username)
      this.actors?.set(actorId, generations[1], { actor_name, actor_username, actor_profile_pic }, [userCardTag(actorId)]);
    return row;
  }
}
