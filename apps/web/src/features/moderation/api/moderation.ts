import type { AuditLogResponse, HiddenListKind, HiddenListResponse, ReportQueueResponse } from '@inkwell/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

/** Both lists of the moderation screen, under one prefix so an action can refresh them together. */
export const moderationKeys = {
  all: ['moderation'] as const,
  reports: ['moderation', 'reports'] as const,
  audit: ['moderation', 'audit'] as const,
  hidden: (kind: HiddenListKind) => ['moderation', 'hidden', kind] as const,
};

/** GET /moderation/reports?cursor= → open reports grouped by item, newest group first. */
export function useReportGroups(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: moderationKeys.reports,
    queryFn: ({ pageParam, signal }) => apiRequest<ReportQueueResponse>('/moderation/reports', { query: { cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** GET /moderation/audit?cursor= → every moderator action, newest first. */
export function useAuditLog(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: moderationKeys.audit,
    queryFn: ({ pageParam, signal }) => apiRequest<AuditLogResponse>('/moderation/audit', { query: { cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** GET /moderation/hidden?kind=&cursor= → what is hidden (posts, comments) or suspended (users), newest first. */
export function useHiddenList(kind: HiddenListKind, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: moderationKeys.hidden(kind),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<HiddenListResponse>('/moderation/hidden', { query: { kind, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** One moderator action of the report queue: which call it makes, and whether its reason may be left empty. */
export type ModeratorCall =
  | { kind: 'hide' | 'restore'; targetType: 'post' | 'comment'; targetId: string }
  | { kind: 'suspend' | 'unsuspend'; userId: string }
  | { kind: 'dismiss'; reportId: string };

/** The path of each action's POST (see docs of the moderation API in the contract). */
export function callPath(call: ModeratorCall): string {
  const id = (value: string) => encodeURIComponent(value);
  switch (call.kind) {
    case 'hide':
    case 'restore':
      return `/moderation/${call.targetType === 'post' ? 'posts' : 'comments'}/${id(call.targetId)}/${call.kind}`;
    case 'suspend':
    case 'unsuspend':
      return `/moderation/users/${id(call.userId)}/${call.kind}`;
    case 'dismiss':
      return `/moderation/reports/${id(call.reportId)}/dismiss`;
  }
}

/** Runs an action with its reason (trimmed; a dismissal without one sends none) → { message }. */
export function runModeratorCall(call: ModeratorCall, reason: string) {
  const trimmed = reason.trim();
  const body = call.kind === 'dismiss' && !trimmed ? {} : { reason: trimmed };
  return apiRequest<{ message: string }>(callPath(call), { method: 'POST', body });
}
