import {
  type AuditEntry,
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
} as const;

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

export interface CallDialogTexts {
  title: string;
  message: string;
  confirm: string;
  busy: string;
  /** Hide, restore, suspend and unsuspend need a reason; a dismissal may go without. */
  reasonRequired: boolean;
}

/** The words of the reason dialog of each action, naming the item or person it acts on. */
export function callDialogTexts(call: ModeratorCall, group: ReportGroup): CallDialogTexts {
  const kind = targetKind(group.targetType).toLowerCase();
  const author = group.target.author.name;
  switch (call.kind) {
    case 'hide':
      return {
        title: `Hide ${kind}`,
        message: `“${group.target.title}” disappears for everyone but ${author}, who sees it marked as hidden. Its open reports are closed.`,
        confirm: 'Hide',
        busy: 'Hiding...',
        reasonRequired: true,
      };
    case 'restore':
      return {
        title: `Restore ${kind}`,
        message: `“${group.target.title}” becomes visible again to everyone who could read it.`,
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
      const report = group.reports.find((r) => r.id === call.reportId);
      return {
        title: 'Dismiss report',
        message: `The report${report ? ` by ${report.reporter.name}` : ''} is closed without action; “${group.target.title}” stays as it is.`,
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
