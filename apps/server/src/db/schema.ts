/**
 * Table types for Kysely. Both engines store the same shapes:
 * ids are UUIDv7 strings, timestamps ISO-8601 strings, flags 0/1 integers
 * (better-sqlite3 cannot bind booleans; see docs/decisions.md).
 */
import type { Generated } from 'kysely';

export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  username: string;
  password_hash: string | null;
  bio: string | null;
  profile_pic: string | null;
  google_auth: Flag;
  google_sub: string | null;
  email_verified: Flag;
  show_liked_blogs: Flag;
  show_saved_blogs: Flag;
  token_version: number;
  follower_count: number;
  following_count: number;
  published_count: number;
  created_at: string;
  updated_at: string;
  /** Issue 15 (0020): 'user' | 'moderator' | 'admin', and when a moderator suspended the account. */
  role: UserRole;
  suspended_at: string | null;
  /** 0024: 1 once any block or mute involved the user (either side); 0 means none can stand. */
  relations: number;
}

export type UserRole = 'user' | 'moderator' | 'admin';

/**
 * Why a blog, its blog_tags rows or a comment is hidden (0020): a bitmask, visible iff 0.
 * Two bits, so an unsuspension never shows what a moderator hid, nor a restore what a suspension hid.
 */
export const HIDDEN_BY_MODERATOR = 1;
export const HIDDEN_AUTHOR_SUSPENDED = 2;

export interface EmailVerificationsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** The sign-up this link belongs to: links resent for it share the id, name, password and time. */
  signup_id: string | null;
  /** What the link activates; null on links that activate the account row as it is. */
  name: string | null;
  password_hash: string | null;
  signed_up_at: string | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface BlogsTable {
  id: string;
  blog_id: string;
  creator_id: string;
  title: string;
  description: string;
  image: string | null;
  content: string;
  /** Plain text of title, description, tags and blocks, for full-text search. */
  search_text: string;
  tags: string;
  block_count: number;
  draft: Flag;
  /** SQLite only: rowid of this blog's row in blogs_fts. */
  search_rowid: number | null;
  like_count: number;
  comment_count: number;
  save_count: number;
  created_at: string;
  updated_at: string;
  /** Bumped by every committed update; saves name the version they started from (0016). */
  version: Generated<number>;
  /** A draft to publish at this time (UTC ISO) by the scheduled-posts job; null otherwise (0017). */
  scheduled_at: Generated<string | null>;
  /** HIDDEN_BY_MODERATOR | HIDDEN_AUTHOR_SUSPENDED (0020). */
  hidden: Generated<number>;
  /** When the post first went public (created_at took the same time then); null: never published (0029). */
  published_at: Generated<string | null>;
}

export interface BlogTagsTable {
  blog_id: string;
  tag: string;
  draft: Flag;
  created_at: string;
  /** A copy of the blog's hidden bits, for the tag index (0020). */
  hidden: Generated<number>;
}

export interface BlogReactionTable {
  user_id: string;
  blog_id: string;
  created_at: string;
}

export interface FollowsTable {
  follower_id: string;
  following_id: string;
  created_at: string;
}

export interface CommentsTable {
  id: string;
  blog_id: string;
  user_id: string;
  parent_id: string | null;
  comment: string;
  like_count: number;
  reply_count: number;
  created_at: string;
  updated_at: string;
  /** HIDDEN_BY_MODERATOR | HIDDEN_AUTHOR_SUSPENDED (0020). */
  hidden: Generated<number>;
}

export interface CommentLikesTable {
  comment_id: string;
  user_id: string;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  recipient_id: string;
  sender_id: string | null;
  type: string;
  blog_id: string | null;
  comment_id: string | null;
  message: string | null;
  is_read: Flag;
  created_at: string;
}

export interface TransferRequestsTable {
  id: string;
  from_user_id: string;
  to_user_id: string;
  accept_token_hash: string;
  reject_token_hash: string;
  status: 'pending' | 'accepted' | 'rejected' | 'expired';
  expires_at: string;
  created_at: string;
  resolved_at: string | null;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
  /** JSON object of extra headers (List-Unsubscribe on newsletter mail); null when none. */
  headers: string | null;
}

export interface UploadsTable {
  id: string;
  owner_id: string;
  storage_key: string;
  url: string;
  /** 'card': a post's generated social card (pages/social-card.ts). */
  kind: 'featured' | 'inline' | 'avatar' | 'card';
  /** One of the posts using it (upload_uses lists them all); null: used by none. */
  blog_id: string | null;
  width: number;
  height: number;
  bytes: number;
  created_at: string;
}

/** A post showing an upload (0030): its file stays while any post uses it. */
export interface UploadUsesTable {
  blog_id: string;
  upload_id: string;
}

/** A post's notices still to be written past the first 500 (0034): the notification-fanout job's work. */
export interface NotificationFanoutsTable {
  blog_id: string;
  /** 'published': the author's followers; 'updated': the post's likers and savers. */
  kind: 'published' | 'updated';
  sender_id: string;
  /** The last recipient told: followers by (follow's created_at, id), reactors by id (after_time null). */
  after_time: string | null;
  after_id: string;
  created_at: string;
}

export interface JobLeasesTable {
  name: string;
  /** The instance running the job now; null when free. */
  holder: string | null;
  locked_until: string | null;
  next_run_at: string;
  last_started_at: string | null;
  last_finished_at: string | null;
  /** What the last run did (JSON counts) or its error message. */
  last_result: string | null;
}

/** The author's work in progress on an existing post (autosave), never shown to readers. */
export interface BlogAutosavesTable {
  blog_id: string;
  author_id: string;
  version: number;
  title: string;
  description: string;
  tags: string;
  image: string | null;
  content: string;
  saved_at: string;
}

/** A previous version of a post (revision history), the last 50 per post. */
export interface BlogRevisionsTable {
  id: string;
  blog_id: string;
  author_id: string;
  version: number;
  reason: 'publish' | 'update' | 'restore';
  title: string;
  description: string;
  tags: string;
  image: string | null;
  content: string;
  draft: Flag;
  images: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  email_verifications: EmailVerificationsTable;
  password_resets: PasswordResetsTable;
  blogs: BlogsTable;
  blog_tags: BlogTagsTable;
  likes: BlogReactionTable;
  saves: BlogReactionTable;
  follows: FollowsTable;
  comments: CommentsTable;
  comment_likes: CommentLikesTable;
  notifications: NotificationsTable;
  transfer_requests: TransferRequestsTable;
  mail_outbox: MailOutboxTable;
  uploads: UploadsTable;
  upload_uses: UploadUsesTable;
  notification_fanouts: NotificationFanoutsTable;
  job_leases: JobLeasesTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  digest_preferences: DigestPreferencesTable;
  digest_sends: DigestSendsTable;
  blog_autosaves: BlogAutosavesTable;
  blog_revisions: BlogRevisionsTable;
  series: SeriesTable;
  series_posts: SeriesPostsTable;
  user_blocks: UserBlocksTable;
  user_mutes: UserMutesTable;
  reports: ReportsTable;
  moderation_actions: ModerationActionsTable;
}

export type ReportTargetType = 'post' | 'comment' | 'user';
export type ReportStatus = 'open' | 'dismissed' | 'actioned';

/** A report (0020). target_id is the internal id; exactly one of blog_id, comment_id, target_user_id is set, for the cascade. */
export interface ReportsTable {
  id: string;
  reporter_id: string;
  target_type: ReportTargetType;
  target_id: string;
  blog_id: string | null;
  comment_id: string | null;
  target_user_id: string | null;
  reason: string;
  text: string | null;
  status: ReportStatus;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
}

/** The audit log (0020): moderator_id null and moderator_username null = the command line. */
export interface ModerationActionsTable {
  id: string;
  moderator_id: string | null;
  moderator_username: string | null;
  action: string;
  target_type: ReportTargetType;
  target_id: string;
  target_label: string;
  reason: string | null;
  created_at: string;
}

export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed';

/** An address from the home page's form (double opt-in: nothing but the confirmation until confirmed). */
export interface NewsletterSubscribersTable {
  id: string;
  email: string;
  status: SubscriberStatus;
  /** SHA-256 of the confirmation link's token; null once confirmed. */
  confirm_token_hash: string | null;
  /** In every mail's unsubscribe link; kept as is because each digest needs it again. */
  unsubscribe_token: string;
  /** The latest subscribe request (unconfirmed ones are deleted some days after it). */
  requested_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
}

export type DigestFrequency = 'off' | 'daily' | 'weekly';

/** A signed-in reader's digest of the authors they follow. */
export interface DigestPreferencesTable {
  user_id: string;
  frequency: DigestFrequency;
  unsubscribe_token: string;
  updated_at: string;
}

/** One digest of one period to one recipient: written in the transaction that queues its mail. */
export interface DigestSendsTable {
  /** 'newsletter' (recipient: a subscriber) or 'following' (recipient: a user). */
  kind: 'newsletter' | 'following';
  recipient_id: string;
  /** 'D2026-11-23' for that day, 'W2026-11-16' for the week starting that Monday (UTC). */
  period: string;
  /** 0 when there was nothing to send (no new posts by the followed authors). */
  mailed: Flag;
  created_at: string;
}

/** An author's ordered group of posts (issue 16). */
export interface SeriesTable {
  id: string;
  author_id: string;
  title: string;
  created_at: string;
}

/** A post's place in a series; a post is in at most one. */
export interface SeriesPostsTable {
  series_id: string;
  blog_id: string;
  position: number;
}

/** blocker_id blocked blocked_id: no follows, comments, likes or notifications between them (issue 15). */
export interface UserBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: string;
}

/** muter_id muted muted_id: their posts leave the muter's home feed, their notifications the list. */
export interface UserMutesTable {
  muter_id: string;
  muted_id: string;
  created_at: string;
}
