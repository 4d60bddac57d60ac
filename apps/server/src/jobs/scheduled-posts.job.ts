import { nowIso } from '../db/ids';
import { AppError } from '../lib/errors';
import type { BlogsService } from '../modules/blogs/blogs.service';
import type { ScheduledPostsRepository } from '../modules/blogs/scheduled-posts.repo';
import type { JobContext, JobReport } from './scheduler';

const BATCH = 50;

/**
 * Publishes scheduled drafts whose time has come through BlogsService.update (draft=false), so
 * counters, tags, search, followers' notifications, caches and revisions follow the normal
 * publish path. The claim inside that transaction makes each publish happen exactly once.
 */
export function scheduledPostsJob(deps: { scheduled: ScheduledPostsRepository; blogs: BlogsService }) {
  return async (ctx: JobContext): Promise<JobReport> => {
    const report = { published: 0, failed: 0 };
    for (;;) {
      const now = nowIso();
      const due = await deps.scheduled.due(now, BATCH);
      let retryLater = false;
      for (const post of due) {
        try {
          await deps.blogs.update(post.creator_id, post.blog_id, {
            title: post.title,
            description: post.description,
            content: JSON.parse(post.content),
            tags: JSON.parse(post.tags),
            draft: false,
            claim: (db) => deps.scheduled.claim(post.id, now, db),
          });
          report.published++;
        } catch (err) {
          // 409: another instance or the author got there first.
          if (err instanceof AppError && err.statusCode === 409) continue;
          report.failed++;
          ctx.log.warn({ err, blogId: post.blog_id }, 'scheduled post could not be published');
          // Refused (no longer publishable): it stays a draft and is not retried every run.
          // Anything else (database down): the next run tries again.
          if (err instanceof AppError && err.statusCode < 500) await deps.scheduled.cancel(post.id);
          else retryLater = true;
        }
      }
      if (retryLater || due.length < BATCH || !(await ctx.keepGoing())) return report;
    }
  };
}
