/** Business constants and limits of SPEC.md section 9. */
export const MAX_TAGS = 10;
export const MAX_BIO_LENGTH = 160;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
/** Sign-in and "current password" still accept what the old 256 limit allowed, so nobody is locked out. */
export const MAX_PASSWORD_INPUT_LENGTH = 256;
export const MAX_NAME_LENGTH = 80;
export const MAX_COMMENT_LENGTH = 5000;
/** A search's words (server-enforced; the search box stops there, a longer address is cut to it). */
export const MAX_SEARCH_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const FEATURED_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const HEADER_LEVELS = [2, 3, 4] as const;
export const DEFAULT_HEADER_LEVEL = 3;
export const BLOCKS_PER_READING_MINUTE = 5;

export const HOME_PAGE_SIZE = 4;
/** Search and tag results per page (also the first page the server renders on those pages). */
export const RESULTS_PAGE_SIZE = 10;
/** Posts per page of a profile tab. */
export const PROFILE_PAGE_SIZE = 10;
export const NOTIFICATION_HEADER_FETCH = 4;
export const NOTIFICATION_DROPDOWN_SHOWN = 3;
export const UNREAD_BADGE_CAP = 9;
export const PROFILE_FOLLOWING_CARD_SIZE = 5;
export const MAX_PAGE_LIMIT = 50;
/** Top-level comments per page: the comment panel's page and the API's default. */
export const COMMENTS_PAGE_SIZE = 20;
/** Replies loaded with a page of comments; more than this and the thread says it is truncated. */
export const MAX_REPLIES_PER_PAGE = 500;

export const DELAYS_MS = {
  logout: 1000,
  userNotFoundRedirect: 1000,
  transferSuccessRedirect: 5000,
  postTransferSignOut: 2000,
  newsletter: 1500,
  modalClose: 300,
} as const;

export const NOTIFICATION_FILTERS = ['all', 'unread', 'like', 'comment', 'follow'] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'system';

export const STORAGE_KEYS = { user: 'user', theme: 'theme', selectedBlog: 'selectedBlog' } as const;

export const POPULAR_TOPICS = [
  'React',
  'Node.js',
  'MERN',
  'Express',
  'JavaScript',
  'Algorithms',
  'Frontend',
  'Backend',
  'Fullstack',
  'Database',
] as const;

/** User agents that get the redirect (not popup) Google flow. */
export const MOBILE_USER_AGENT = /iPhone|iPad|iPod|Android/i;

/** Moderation (issue 15): roles, report reasons, and the longest report text or moderator reason. */
export const USER_ROLES = ['user', 'moderator', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const REPORT_TARGET_TYPES = ['post', 'comment', 'user'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
export const REPORT_REASONS = ['spam', 'harassment', 'illegal', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const MODERATION_ACTIONS = [
  'hide_post',
  'restore_post',
  'hide_comment',
  'restore_comment',
  'dismiss_report',
  'suspend_user',
  'unsuspend_user',
  'grant_role',
  'revoke_role',
  'delete_user',
  'delete_post',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
export const MAX_REPORT_TEXT_LENGTH = 1000;
export const MAX_MODERATION_REASON_LENGTH = 1000;
/** Report groups and audit rows per page of the moderation screen. */
export const MODERATION_PAGE_SIZE = 20;

/** The realtime socket (server-enforced; SPEC.md 7). A tab opens one socket and registers once on it. */
export const REALTIME_LIMITS = {
  /** Open sockets of one account on one instance; more are refused (tabs past this get no live updates). */
  socketsPerUser: 20,
  /** Messages one socket may send in a minute; past this it is dropped (each one may read the database). */
  messagesPerMinute: 30,
  /**
   * How often each open socket's token is checked again: the backstop for a revocation this instance
   * never heard (an admin command run without Redis, a lost publish); announced ones drop it at once.
   */
  recheckMs: 30_000,
} as const;
