import { MAX_REPORT_TEXT_LENGTH, REPORT_MESSAGES, type ReportReason, type ReportTargetType } from '@inkwell/core';
import { apiRequest } from './api';

/** The four reasons of the Report dialog, in the order shown. */
export const REPORT_REASON_OPTIONS: { value: ReportReason; label: string; hint: string }[] = [
  { value: 'spam', label: 'Spam', hint: 'Advertising, scams or repeated unwanted posts' },
  { value: 'harassment', label: 'Harassment', hint: 'Abuse, threats or hate aimed at someone' },
  { value: 'illegal', label: 'Illegal', hint: 'Content that breaks the law' },
  { value: 'other', label: 'Other', hint: 'Something else: please describe it' },
];

/** What is being reported: the API's target, and how the dialog names it ('post', 'comment', a person's name). */
export interface ReportTarget {
  type: ReportTargetType;
  id: string;
}

/**
 * The message the dialog shows before sending, or null when the report may go: a reason is
 * chosen, and 'Other' says what is wrong (the server checks the same, REPORT_MESSAGES).
 */
export function reportProblem(reason: ReportReason | null, text: string): string | null {
  if (!reason) return REPORT_MESSAGES.reasonInvalid;
  if (text.length > MAX_REPORT_TEXT_LENGTH) return REPORT_MESSAGES.textTooLong;
  if (reason === 'other' && !text.trim()) return REPORT_MESSAGES.textRequired;
  return null;
}

/** The body of POST /reports: the text trimmed, and left out when empty. */
export function reportBody(target: ReportTarget, reason: ReportReason, text: string) {
  const trimmed = text.trim();
  return { targetType: target.type, targetId: target.id, reason, ...(trimmed ? { text: trimmed } : {}) };
}

/** POST /api/v1/reports → 201 { message, report }; 409 when this person already has an open report on the item. */
export function sendReport(target: ReportTarget, reason: ReportReason, text: string) {
  return apiRequest<{ message: string }>('/reports', { method: 'POST', body: reportBody(target, reason, text) });
}
