/**
 * Texts and limits the web shows or checks before calling the server. Kept free of zod so
 * that importing them does not pull the schemas into a browser bundle.
 */

export const MAX_TITLE_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MAX_TAG_LENGTH = 40;
export const MIN_USERNAME_LENGTH = 3;
export const MAX_USERNAME_LENGTH = 20;

/** A PATCH whose body names nothing it can change (an empty object, only unknown fields, only a version). */
export const NOTHING_TO_UPDATE = 'Nothing to update';

/** A write that met another one (the server's error handler). */
export const RACE_MESSAGES = {
  /** What it refers to (a post, comment or account) was deleted between its check and its write. */
  deleted: 'Not found: it was deleted a moment ago',
  /** PostgreSQL rolled it back for a deadlock on every attempt. */
  conflict: 'This change collided with another one. Please try again.',
} as const;

export const BLOG_MESSAGES = {
  titleRequired: 'Title is required',
  created: 'Blog created successfully',
  createdDraft: 'Draft saved successfully',
  updated: 'Blog updated successfully',
  deleted: 'Blog deleted successfully',
  notFound: 'Blog not found',
  notAuthor: 'Only the author can change this blog',
  /** A read of what only the author works with: saved versions, unpublished changes, series. */
  notAuthorToRead: 'Only the author can see this',
  deleteFailed: 'Failed to delete blog',
} as const;

/** Messages of profile, settings, account and transfer calls (SPEC.md 5 and 8 where given). */
export const USER_MESSAGES = {
  notFound: 'User not found',
  /** The signed-in user's account is gone (or their token no longer holds). */
  sessionExpired: 'Your session has expired. Please sign in again.',
  draftsOwnerOnly: 'Only the owner can see drafts',
  listPrivate: 'This list is private',
  notYourProfile: 'You can only change your own profile',
  notYourAccount: 'You can only delete your own account',
  profileUpdated: 'Profile updated successfully',
  usernameTaken: 'Username is already taken',
  usernameReserved: 'This username is not available',
  badProfilePic: 'Profile picture must be an image you uploaded',
  visibilityUpdated: 'Privacy settings updated successfully',
  passwordChanged: 'Password changed successfully',
  wrongCurrentPassword: 'Current password is incorrect',
  googleNoPassword: 'Google accounts do not have a password',
  currentPasswordMissing: 'Please enter your current password',
  accountDeleted: 'Account deleted successfully',
} as const;

export const TRANSFER_MESSAGES = {
  emailRequired: 'Recipient email is required',
  emailInvalid: 'Invalid email format',
  self: 'Cannot transfer to yourself',
  passwordRequired: 'Current password is required',
  passwordWrong: 'Incorrect password',
  recipientNotFound: 'User not found with this email',
  sent: 'Transfer request sent. The recipient must accept it from their email.',
  badLink: 'This transfer link is invalid or has expired.',
  suspended: 'This transfer cannot be completed while one of the accounts is suspended.',
  rejected: 'Transfer request rejected',
  accepted: 'Account transferred successfully',
} as const;

/** Messages of sign-up, verification, sign-in and password reset (SPEC.md 8 where given). */
export const AUTH_MESSAGES = {
  /** The one answer to every sign-up, whether the address is new, pending or already registered. */
  signedUp: 'Account created. Check your email for a link to verify your address.',
  googleAccount: 'This email is registered with Google sign-in. Please continue with Google.',
  badCredentials: 'Invalid email or password',
  unverified: 'Please verify your email before signing in. We sent you a new verification link.',
  signedIn: 'Signed in successfully',
  verified: 'Email verified successfully. You can now sign in.',
  alreadyVerified: 'Your email is already verified. Please sign in.',
  badVerification: 'This verification link is invalid or has expired.',
  usedVerification: 'This verification link has already been used.',
  commonPassword: 'This password is one of the most common passwords and easy to guess. Please choose another one.',
  resetRequested: 'If an account exists for this email, we sent it a link to reset the password. The link works for 1 hour.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  badResetLink: 'This password reset link is invalid or has expired. Please ask for a new one.',
  passwordsDontMatch: "Passwords don't match",
  signedOutEverywhere: 'Signed out on every device',
} as const;

/** Messages of Google sign-in (SPEC.md 8 where given); the web shows the same words for its own failures. */
export const GOOGLE_MESSAGES = {
  notConfigured: 'Google sign-in is not configured on this server',
  unavailable: 'Google sign-in is temporarily unavailable. Please try again later.',
  failed: 'Authentication failed',
  signedIn: 'Signed in with Google',
  passwordAccount: 'An account with this email already exists. Please sign in with your email and password.',
  otherGoogleAccount: 'This email is linked to a different Google account.',
} as const;

/** Answers of the comment calls (SPEC.md 7); the web falls back to them when an answer has none. */
export const COMMENT_MESSAGES = {
  added: 'Comment added',
  replyAdded: 'Reply added',
  updated: 'Comment updated',
  deleted: 'Comment deleted',
  liked: 'Comment liked',
  unliked: 'Comment unliked',
} as const;

/** Answers of the notification calls (SPEC.md 7), shown by the web as toasts. */
export const NOTIFICATION_MESSAGES = {
  allMarkedRead: 'All notifications marked as read',
  markedRead: 'Marked Read Successfully',
  deleted: 'Notification deleted',
  cleared: 'All notifications cleared',
} as const;

/** Blocking and muting (issue 15): the refusals a block causes, and the answers of its calls. */
export const BLOCK_MESSAGES = {
  cannotFollow: 'You cannot follow this user',
  cannotComment: 'You cannot comment on this post',
  cannotReply: 'You cannot reply to this comment',
  cannotLikeComment: 'You cannot like this comment',
  cannotReact: 'You cannot like or save this post',
  notYourself: 'You cannot block or mute yourself',
  blocked: 'User blocked',
  unblocked: 'User unblocked',
  muted: 'User muted',
  unmuted: 'User unmuted',
} as const;

/** Reports (issue 15): the answers of POST /reports and its refusals. */
export const REPORT_MESSAGES = {
  sent: 'Thank you. A moderator will look at your report.',
  duplicate: 'You have already reported this. A moderator will look at it.',
  notFound: 'There is nothing to report here',
  ownContent: 'You cannot report your own post, comment or profile',
  reasonInvalid: 'Please choose a reason',
  textRequired: 'Please describe the problem',
  textTooLong: 'Report text must be at most 1000 characters',
} as const;

/** Moderation (issue 15): answers and refusals of /moderation/*, the suspended sign-in, the author's badge. */
export const MODERATION_MESSAGES = {
  notModerator: 'Only moderators can do this',
  notAdmin: 'Only admins can change roles',
  ownRole: 'You cannot change your own role',
  suspendSelf: 'You cannot suspend yourself',
  suspendAdmin: 'An admin cannot be suspended. Revoke the role first.',
  reasonRequired: 'Please give a reason',
  reasonTooLong: 'The reason must be at most 1000 characters',
  reportNotFound: 'Report not found',
  reportClosed: 'This report is already closed',
  postNotFound: 'Blog not found',
  commentNotFound: 'Comment not found',
  userNotFound: 'User not found',
  reportDismissed: 'Report dismissed',
  postHidden: 'Post hidden',
  postRestored: 'Post restored',
  postAlreadyHidden: 'This post is already hidden',
  postNotHidden: 'This post is not hidden',
  commentHidden: 'Comment hidden',
  commentRestored: 'Comment restored',
  commentAlreadyHidden: 'This comment is already hidden',
  commentNotHidden: 'This comment is not hidden',
  userSuspended: 'User suspended',
  userUnsuspended: 'User unsuspended',
  alreadySuspended: 'This user is already suspended',
  notSuspended: 'This user is not suspended',
  roleChanged: 'Role changed',
  roleUnchanged: 'The user already has this role',
  /** Sign-in (password or Google) of a suspended account (its old tokens get the usual 401). */
  accountSuspended: 'This account has been suspended. Contact the site operator if you think this is a mistake.',
  /** The author's badge and banner on their own hidden post or comment. */
  hiddenByModerator: 'Hidden by a moderator',
  /** The audit log's name for actions taken from the command line (moderator null). */
  commandLine: 'Command line',
  noAccess: 'You do not have access to this page',
} as const;
