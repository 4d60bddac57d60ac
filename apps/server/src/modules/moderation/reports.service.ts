import {
  REPORT_MESSAGES,
  REPORT_TARGET_TYPES,
  type Report,
  type ReportGroup,
  type ReportReason,
  type ReportTargetType,
} from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { isUuid, newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { decodeTimeKeyCursor, encodeCursor } from '../../lib/keyset-cursor';
import { canReadBlog, canReadThread, canReport } from '../../lib/policies';
import type { BlogsRepository } from '../blogs/blogs.repo';
import type { CommentsRepository } from '../comments/comments.repo';
import type { UsersRepository } from '../users/users.repo';
import type { ModerationRepository } from './moderation.repo';
import { describeTargets, excerpt, type Target } from './targets';

export interface ReportsDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  blogs: BlogsRepository;
  comments: CommentsRepository;
  moderation: ModerationRepository;
}

/** Reports by readers and the moderators' queue of them (issue 15). */
export class ReportsService {
  constructor(private readonly deps: ReportsDeps) {}

  /** One open report per reporter and item (the partial unique index decides a race); never one's own. */
  async create(
    reporterId: string,
    body: { targetType: ReportTargetType; targetId: string; reason: ReportReason; text?: string },
  ): Promise<Report> {
    const target = await this.resolve(body.targetType, body.targetId, reporterId);
    if (!target) throw notFound(REPORT_MESSAGES.notFound);
    if (!canReport(reporterId, target.ownerId)) throw badRequest(REPORT_MESSAGES.ownContent);
    const id = newId();
    const createdAt = nowIso();
    try {
      await this.deps.moderation.insertReport({
        id,
        reporter_id: reporterId,
        target_type: target.type,
        target_id: target.dbId,
        blog_id: target.type === 'post' ? target.dbId : null,
        comment_id: target.type === 'comment' ? target.dbId : null,
        target_user_id: target.type === 'user' ? target.dbId : null,
        reason: body.reason,
        text: body.text || null,
        status: 'open',
        created_at: createdAt,
        resolved_at: null,
        resolved_by: null,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(REPORT_MESSAGES.duplicate);
      throw err;
    }
    return { id, targetType: target.type, targetId: target.apiId, reason: body.reason, createdAt };
  }

  /**
   * The item a report or an action names, if `viewer` may read it (null: the command line or a
   * moderator, who may name anything). A post by its blogId, a comment or user by id.
   */
  async resolve(type: ReportTargetType, apiId: string, viewer: string | null): Promise<Target | undefined> {
    const { blogs, comments, users } = this.deps;
    if (type === 'post') {
      const blog = await blogs.findByBlogId(apiId);
      if (!blog || (viewer && !canReadBlog(viewer, blog))) return undefined;
      return { type, dbId: blog.id, apiId: blog.blog_id, ownerId: blog.creator_id, label: blog.title };
    }
    if (!isUuid(apiId)) return undefined;
    if (type === 'comment') {
      const comment = await comments.findById(apiId);
      const blog = comment && (await blogs.findById(comment.blog_id));
      if (!comment || !blog) return undefined;
      // A reply below a hidden comment is unknown to whoever may not read that comment.
      if (viewer && (!canReadBlog(viewer, blog) || !canReadThread(viewer, (await comments.thread(comment.id)) ?? []))) return undefined;
      return { type, dbId: comment.id, apiId: comment.id, ownerId: comment.user_id, label: excerpt(comment.comment) };
    }
    const user = await users.findById(apiId);
    if (!user) return undefined;
    return { type, dbId: user.id, apiId: user.id, ownerId: user.id, label: user.username };
  }

  /** Open reports grouped by item, groups by their newest open report, newest first. */
  async queue(cursor: string | undefined, limit: number): Promise<{ items: ReportGroup[]; nextCursor: string | null }> {
    const { moderation } = this.deps;
    const after = decodeTimeKeyCursor(cursor, 3);
    if (after && !(REPORT_TARGET_TYPES as readonly string[]).includes(after[1]!)) throw badRequest('Invalid cursor');
    const rows = await moderation.openGroups(after && { latestAt: after[0]!, targetType: after[1]!, targetId: after[2]! }, limit);
    const groups = rows.slice(0, limit);
    const [targets, reports] = await Promise.all([describeTargets(moderation, groups), moderation.openReportsOf(groups)]);
    const items: ReportGroup[] = [];
    for (const g of groups) {
      const target = targets.get(`${g.targetType}:${g.targetId}`);
      if (!target) continue; // deleted between the two reads; its reports went with it
      const { apiId, ...shown } = target;
      items.push({
        targetType: g.targetType as ReportTargetType,
        targetId: apiId,
        target: shown,
        reports: reports
          .filter((r) => r.target_type === g.targetType && r.target_id === g.targetId)
          .map((r) => ({
            id: r.id,
            reason: r.reason as ReportReason,
            text: r.text,
            reporter: { id: r.reporter_id, username: r.reporter_username, name: r.reporter_name },
            createdAt: r.created_at,
          })),
        latestAt: g.latestAt,
      });
    }
    const last = groups[groups.length - 1];
    return { items, nextCursor: rows.length > limit && last ? encodeCursor([last.latestAt, last.targetType, last.targetId]) : null };
  }
}
