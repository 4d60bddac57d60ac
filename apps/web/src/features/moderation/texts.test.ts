import { type AuditEntry, type HiddenItem, MODERATION_ACTIONS, MODERATION_MESSAGES, type ReportGroup } from '@inkwell/core';
import { describe, expect, it } from 'vitest';
import { callPath } from './api/moderation';
import { callDialogTexts, describeAudit, groupCalls, groupSubject, hiddenByText, hiddenItemView, targetHref, usernameOf } from './texts';

const author = { id: 'u-author', username: 'writer', name: 'Wendy Writer' };
const reporter = { id: 'u-reporter', username: 'reader', name: 'Rae Reader' };

function group(over: Partial<ReportGroup['target']> = {}, targetType: ReportGroup['targetType'] = 'comment'): ReportGroup {
  return {
    targetType,
    targetId: 'c-1',
    target: { title: 'Buy cheap pills', url: '/blog/b-1#comment-c-1', author, hidden: false, authorSuspended: false, ...over },
    reports: [{ id: 'r-1', reason: 'spam', text: null, reporter, createdAt: '2026-11-25T01:00:00.000Z' }],
    latestAt: '2026-11-25T01:00:00.000Z',
  };
}

describe('moderation screen texts and actions (issue 15)', () => {
  it('offers Hide for a visible item and Restore for a hidden one, and suspends or unsuspends its author', () => {
    expect(groupCalls(group()).map((c) => c.label)).toEqual(['Hide', 'Suspend author']);
    expect(groupCalls(group({ hidden: true, authorSuspended: true })).map((c) => c.label)).toEqual(['Restore', 'Unsuspend author']);
    // A reported profile has nothing to hide: only its owner can be suspended.
    expect(groupCalls(group({}, 'user')).map((c) => c.label)).toEqual(['Suspend author']);
  });

  it('calls the contract paths, with ids encoded', () => {
    const [hide, suspend] = groupCalls(group());
    expect(callPath(hide!.call)).toBe('/moderation/comments/c-1/hide');
    expect(callPath(suspend!.call)).toBe('/moderation/users/u-author/suspend');
    expect(callPath({ kind: 'restore', targetType: 'post', targetId: 'b/1' })).toBe('/moderation/posts/b%2F1/restore');
    expect(callPath({ kind: 'dismiss', reportId: 'r-1' })).toBe('/moderation/reports/r-1/dismiss');
  });

  it('asks a reason for every action but a dismissal, and names what it acts on', () => {
    const g = groupSubject(group());
    const hide = callDialogTexts({ kind: 'hide', targetType: 'comment', targetId: 'c-1' }, g);
    expect(hide).toMatchObject({ title: 'Hide comment', confirm: 'Hide', reasonRequired: true });
    expect(hide.message).toContain('Wendy Writer');
    expect(callDialogTexts({ kind: 'suspend', userId: author.id }, g)).toMatchObject({
      title: 'Suspend Wendy Writer',
      reasonRequired: true,
    });
    const dismiss = callDialogTexts({ kind: 'dismiss', reportId: 'r-1' }, g);
    expect(dismiss).toMatchObject({ title: 'Dismiss report', reasonRequired: false });
    expect(dismiss.message).toContain('Rae Reader');
  });

  it("links a profile to the web's /@username route and keeps other site paths; never links elsewhere", () => {
    expect(targetHref('/profile/writer')).toBe('/@writer');
    expect(targetHref('/@writer')).toBe('/@writer');
    expect(targetHref('/blog/b-1#comment-c-1')).toBe('/blog/b-1#comment-c-1');
    expect(targetHref('https://evil.example/x')).toBeNull();
    expect(targetHref('//evil.example/x')).toBeNull();
  });

  it("words every audit action; the command line's rows name it", () => {
    const entry = (over: Partial<AuditEntry>): AuditEntry => ({
      id: 'a-1',
      moderator: { id: 'm', username: 'mod', name: 'Mo Derator' },
      action: 'hide_comment',
      targetType: 'comment',
      targetId: 'c-1',
      targetLabel: 'Buy cheap pills',
      reason: 'spam',
      createdAt: '2026-11-25T01:00:00.000Z',
      ...over,
    });
    expect(describeAudit(entry({}))).toEqual({ who: 'Mo Derator', what: 'hid the comment “Buy cheap pills”' });
    expect(describeAudit(entry({ moderator: null, action: 'grant_role', targetLabel: 'writer' })).who).toBe(
      MODERATION_MESSAGES.commandLine,
    );
    for (const action of MODERATION_ACTIONS) expect(describeAudit(entry({ action })).what).not.toMatch(/^[a-z]+_[a-z]+/);
  });

  it('reads the Roles form username with or without its @ and spaces', () => {
    expect(usernameOf('  @writer ')).toBe('writer');
    expect(usernameOf('writer')).toBe('writer');
    expect(usernameOf(' @ ')).toBe('');
  });

  it('offers Restore on a hidden post or comment and Unsuspend on a suspended user, with the contract paths and dialog words', () => {
    const action = { at: '2026-11-25T01:00:00.000Z', by: { id: 'm', username: 'mod', name: 'Mo Derator' }, reason: 'spam' };
    const post: HiddenItem = { kind: 'post', post: { _id: 'b-1', title: 'Spam post', url: '/blog/b-1', author }, action };
    const comment: HiddenItem = {
      kind: 'comment',
      comment: {
        _id: 'c-1',
        excerpt: 'Buy pills',
        url: '/blog/b-1#comment-c-1',
        author,
        post: { _id: 'b-1', title: 'Host', url: '/blog/b-1' },
      },
      action: { ...action, by: null },
    };
    const user: HiddenItem = { kind: 'user', user: { _id: 'u-1', username: 'troll', name: 'Tr Oll', url: '/profile/troll' }, action };

    const [p, c, u] = [post, comment, user].map(hiddenItemView);
    expect([p!.action.label, c!.action.label, u!.action.label]).toEqual(['Restore', 'Restore', 'Unsuspend']);
    expect(callPath(p!.action.call)).toBe('/moderation/posts/b-1/restore');
    expect(callPath(c!.action.call)).toBe('/moderation/comments/c-1/restore');
    expect(callPath(u!.action.call)).toBe('/moderation/users/u-1/unsuspend');
    expect(u!.href).toBe('/@troll');
    expect(c!.on).toEqual({ title: 'Host', href: '/blog/b-1' });
    expect(callDialogTexts(p!.action.call, p!.subject)).toMatchObject({ title: 'Restore post', reasonRequired: true });
    expect(callDialogTexts(u!.action.call, u!.subject).title).toBe('Unsuspend Tr Oll');
    expect(hiddenByText(post)).toBe('Hidden by Mo Derator');
    expect(hiddenByText(comment)).toBe(`Hidden by ${MODERATION_MESSAGES.commandLine}`);
    expect(hiddenByText(user)).toBe('Suspended by Mo Derator');
  });
});
