import { MAX_REPORT_TEXT_LENGTH, REPORT_MESSAGES, REPORT_REASONS } from '@inkwell/core';
import { describe, expect, it } from 'vitest';
import { REPORT_REASON_OPTIONS, reportBody, reportProblem } from './reports';

describe('the Report dialog (issue 15)', () => {
  it('offers exactly the four reasons the API takes, in order', () => {
    expect(REPORT_REASON_OPTIONS.map((o) => o.value)).toEqual([...REPORT_REASONS]);
    expect(REPORT_REASON_OPTIONS.map((o) => o.label)).toEqual(['Spam', 'Harassment', 'Illegal', 'Other']);
  });

  it('needs a reason, and a description for Other only', () => {
    expect(reportProblem(null, 'text')).toBe(REPORT_MESSAGES.reasonInvalid);
    expect(reportProblem('spam', '')).toBeNull();
    expect(reportProblem('other', '   \n ')).toBe(REPORT_MESSAGES.textRequired);
    expect(reportProblem('other', 'It copies my post word for word')).toBeNull();
  });

  it('refuses text past the limit (the box stops there, a paste is checked too)', () => {
    expect(reportProblem('harassment', 'x'.repeat(MAX_REPORT_TEXT_LENGTH))).toBeNull();
    expect(reportProblem('harassment', 'x'.repeat(MAX_REPORT_TEXT_LENGTH + 1))).toBe(REPORT_MESSAGES.textTooLong);
  });

  it('sends the text trimmed, and none at all when it is blank', () => {
    const target = { type: 'comment' as const, id: 'c1' };
    expect(reportBody(target, 'spam', '  ')).toEqual({ targetType: 'comment', targetId: 'c1', reason: 'spam' });
    expect(reportBody(target, 'other', '  buy pills \n')).toEqual({
      targetType: 'comment',
      targetId: 'c1',
      reason: 'other',
      text: 'buy pills',
    });
  });
});
