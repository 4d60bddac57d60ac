import type { Kysely } from 'kysely';

/**
 * The moderators' 'Hidden and suspended' list (GET /moderation/hidden), read from the audit log:
 *
 * - moderation_actions_action_idx (action, created_at, id): one kind of action (hide_post,
 *   hide_comment, suspend_user), newest first, from a keyset cursor: one index range.
 * - moderation_actions_target_idx (target_id, action, created_at, id): "is there a later action
 *   of this kind on this item?", asked of every row of that list (only the hide in force is shown).
 *
 * Both engines; the audit log had only (created_at, id) and (moderator_id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('moderation_actions_action_idx').on('moderation_actions').columns(['action', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('moderation_actions_target_idx')
    .on('moderation_actions')
    .columns(['target_id', 'action', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('moderation_actions_target_idx').execute();
  await db.schema.dropIndex('moderation_actions_action_idx').execute();
}
