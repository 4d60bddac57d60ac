import {
  type AuditEntry,
  type HiddenItem,
  type HiddenListKind,
  MODERATION_MESSAGES,
  type ModerationAction,
  type ReportGroup,
  type ReportReason,
  type UserRole,
} from '@inkwell/core';
import { REPORT_REASON_OPTIONS } from '../../lib/reports';
import type { ModeratorCall } from './api/moderation';

export const MODERATION_TEXTS = {
  title: 'Moderation',
  noAccess: MODERATION_MESSAGES.noAccess,
  noAccessHint: 'Only moderators and admins can open the moderation screen.',
  reportsTab: 'Open reports',
  auditTab: 'Audit log',
  noReports: 'No open reports. All caught up.',
  noAudit: 'No moderator actions yet.',
  reportsFailed: 'Could not load the open reports.',
  auditFailed: 'Could not load the audit log.',
  commandLine: MODERATION_MESSAGES.commandLine,
  rolesTab: 'Roles',
  rolesHint: 'Moderators handle reports; admins can also change roles. Nobody can change their own role.',
  usernameRequired: 'Please enter a username',
  noSuchUser: MODERATION_MESSAGES.userNotFound,
  hiddenTab: 'Hidden and suspended',
  hiddenKindLabel: 'Show',
  hiddenFailed: 'Could not load the hidden and suspended items.',
} as const;

/** The segmented choice of the 'Hidden and suspended' tab, and each list's empty and loading words. */
export const HIDDEN_KINDS: { value: HiddenListKind; label: string; empty: string; loading: string }[] = [
  { value: 'posts', label: 'Posts', empty: 'Nothing is hidden: no post is hidden by a moderator.', loading: 'Loading the hidden posts' },
  {
    value: 'comments',
    label: 'Comments',
    empty: 'Nothing is hidden: no comment is hidden by a moderator.',
    loading: 'Loading the hidden comments',
  },
  { value: 'users', label: 'Users', empty: 'Nobody is suspended.', loading: 'Loading the suspended users' },
];

export const ROLE_LABELS: Record<UserRole, string> = { user: 'User (no role)', moderator: 'Moderator', admin: 'Admin' };

/** The username typed into the Roles form, without spaces or a leading '@' (a profile's handle is '/@{username}'). */
export const usernameOf = (input: string): string => input.trim().replace(/^@/, '');

export const reasonLabel = (reason: ReportReason): string => REPORT_REASON_OPTIONS.find((o) => o.value === reason)?.label ?? reason;

const TARGET_NAMES = { post: 'Post', comment: 'Comment', user: 'Profile' } as const;
export const targetKind = (type: ReportGroup['targetType']): string => TARGET_NAMES[type];

/**
 * Where the item's link goes in this app. The API names a profile '/profile/{username}'; the web's
 * profile route is '/@{username}'. Anything that is not a site path is not linked at all.
 */
export function targetHref(url: string): string | null {
  if (!url.startsWith('/') || url.startsWith('//')) return null;
  const profile = /^\/profile\/([^/?#]+)$/.exec(url);
  return profile ? `/@${profile[1]}` : url;
}

/** The buttons a report group offers: Hide or Restore for a post or comment, Suspend or Unsuspend its author. */
export function groupCalls(group: ReportGroup): { label: string; call: ModeratorCall }[] {
  const out: { label: string; call: ModeratorCall }[] = [];
  if (group.targetType !== 'user') {
    const targetType = group.targetType;
    out.push(
      group.target.hidden
        ? { label: 'Restore', call: { kind: 'restore', targetType, targetId: group.targetId } }
        : { label: 'Hide', call: { kind: 'hide', targetType, targetId: group.targetId } },
    );
  }
  const userId = group.target.author.id;
  out.push(
    group.target.authorSuspended
      ? { label: 'Unsuspend author', call: { kind: 'unsuspend', userId } }
      : { label: 'Suspend author', call: { kind: 'suspend', userId } },
  );
  return out;
}

/** What a moderator action acts on, as its dialog names it: a report group's item, or an item of the hidden list. */
export interface CallSubject {
  targetType: ReportGroup['targetType'];
  /** Post title, comment excerpt, or the user's name. */
  title: string;
  /** The author (of a post or comment), or the user. */
  authorName: string;
  /** The open reports (a dismissal names the reporter). */
  reports?: ReportGroup['reports'];
}

export const groupSubject = (group: ReportGroup): CallSubject => ({
  targetType: group.targetType,
  title: group.target.title,
  authorName: group.target.author.name,
  reports: group.reports,
});

/** An item of 'Hidden and suspended': what it is, where it links, who it is by, and its one action (Restore or Unsuspend). */
export function hiddenItemView(item: HiddenItem): {
  key: string;
  subject: CallSubject;
  href: string | null;
  author: { name: string; username: string } | null;
  on: { title: string; href: string | null } | null;
  action: { label: string; call: ModeratorCall };
} {
  switch (item.kind) {
    case 'post':
      return {
        key: `post:${item.post._id}`,
        subject: { targetType: 'post', title: item.post.title, authorName: item.post.author.name },
        href: targetHref(item.post.url),
        author: item.post.author,
        on: null,
        action: { label: 'Restore', call: { kind: 'restore', targetType: 'post', targetId: item.post._id } },
      };
    case 'comment':
      return {
        key: `comment:${item.comment._id}`,
        subject: { targetType: 'comment', title: item.comment.excerpt, authorName: item.comment.author.name },
        href: targetHref(item.comment.url),
        author: item.comment.author,
        on: { title: item.comment.post.title, href: targetHref(item.comment.post.url) },
        action: { label: 'Restore', call: { kind: 'restore', targetType: 'comment', targetId: item.comment._id } },
      };
    case 'user':
      return {
        key: `user:${item.user._id}`,
        subject: { targetType: 'user', title: item.user.name, authorName: item.user.name },
        href: targetHref(item.user.url),
        author: null,
        on: null,
        action: { label: 'Unsuspend', call: { kind: 'unsuspend', userId: item.user._id } },
      };
  }
}

/** 'Hidden by Mo Derator' / 'Suspended by the command line', for the hidden list. */
export function hiddenByText(item: HiddenItem): string {
  const verb = item.kind === 'user' ? 'Suspended' : 'Hidden';
  return `${verb} by ${item.action.by ? item.action.by.name : MODERATION_TEXTS.commandLine}`;
}

export interface CallDialogTexts {
  title: string;
  message: string;
  confirm: string;
  busy: string;
  /** Hide, restore, suspend and unsuspend need a reason; a dismissal may go without. */
  reasonRequired: boolean;
}

/** The words of the reason dialog of each action, naming the item or person it acts on. */
export function callDialogTexts(call: ModeratorCall, subject: CallSubject): CallDialogTexts {
  const kind = targetKind(subject.targetType).toLowerCase();
  const author = subject.authorName;
  switch (call.kind) {
    case 'hide':
      return {
        title: `Hide ${kind}`,
        message: `“${subject.title}” disappears for everyone but ${author}, who sees it marked as hidden. Its open reports are closed.`,
        confirm: 'Hide',
        busy: 'Hiding...',
        reasonRequired: true,
      };
    case 'restore':
      return {
        title: `Restore ${kind}`,
        message: `“${subject.title}” becomes visible again to everyone who could read it.`,
        confirm: 'Restore',
        busy: 'Restoring...',
        reasonRequired: true,
      };
    case 'suspend':
      return {
        title: `Suspend ${author}`,
        message: `${author} is signed out everywhere at once, cannot sign in, and their posts and comments are hidden until they are unsuspended.`,
        confirm: 'Suspend',
        busy: 'Suspending...',
        reasonRequired: true,
      };
    case 'unsuspend':
      return {
        title: `Unsuspend ${author}`,
        message: `${author} can sign in again and their posts and comments come back.`,
        confirm: 'Unsuspend',
        busy: 'Unsuspending...',
        reasonRequired: true,
      };
    case 'dismiss': {
      const report = subject.reports?.find((r) => r.id === call.reportId);
      return {
        title: 'Dismiss report',
        message: `The report${report ? ` by ${report.reporter.name}` : ''} is closed without action; “${subject.title}” stays as it is.`,
        confirm: 'Dismiss',
        busy: 'Dismissing...',
        reasonRequired: false,
      };
    }
  }
}

const ACTION_WORDS: Record<ModerationAction, string> = {
  hide_post: 'hid the post',
  restore_post: 'restored the post',
  hide_comment: 'hid the comment',
  restore_comment: 'restored the comment',
  dismiss_report: 'dismissed a report on',
  suspend_user: 'suspended',
  unsuspend_user: 'unsuspended',
  grant_role: 'granted a role to',
  revoke_role: 'revoked the role of',
  delete_user: 'deleted the account of',
  delete_post: 'deleted the post',
};

/** One audit row in words: who ('Command line' for the operator's CLI), what they did, and to what. */
export function describeAudit(entry: AuditEntry): { who: string; what: string } {
  return {
    who: entry.moderator ? entry.moderator.name : MODERATION_TEXTS.commandLine,
    what: `${ACTION_WORDS[entry.action] ?? entry.action} “${entry.targetLabel}”`,
  };
}
