import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { registerCleanupJobs } from './jobs/cleanup-jobs';
import { scheduledPostsJob } from './jobs/scheduled-posts.job';
import { Scheduler } from './jobs/scheduler';
import { AuthStateMemo } from './lib/auth-state-memo';
import { CountsMemo } from './lib/live-counts';
import { PublicDataChanges } from './lib/public-data';
import { RateGuard } from './lib/rate-guard';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './lib/rate-limiter';
import { SessionEvents } from './lib/session-events';
import { TokenService } from './lib/tokens';
import { MailRepository } from './mail/mail.repo';
import { MailService } from './mail/mail.service';
import { createFileTransport, createSmtpTransport } from './mail/transport';
import { PasswordResetRepository, VerificationRepository } from './modules/auth/auth.repo';
import { AuthService } from './modules/auth/auth.service';
import { GoogleAuthService } from './modules/auth/google.service';
import { PasswordResetService } from './modules/auth/password-reset.service';
import { BlockingRepository } from './modules/blocking/blocking.repo';
import { BlockingService } from './modules/blocking/blocking.service';
import { BlogsRepository } from './modules/blogs/blogs.repo';
import { BlogsService } from './modules/blogs/blogs.service';
import { PostRefs } from './modules/blogs/post-refs';
import { ReactionsRepository } from './modules/blogs/reactions.repo';
import { ReactionsService } from './modules/blogs/reactions.service';
import { ScheduledPostsRepository } from './modules/blogs/scheduled-posts.repo';
import { ViewerFlagsRepository } from './modules/blogs/viewer-flags.repo';
import { CommentsRepository } from './modules/comments/comments.repo';
import { CommentsService } from './modules/comments/comments.service';
import { ExportRepository } from './modules/export/export.repo';
import { ExportService } from './modules/export/export.service';
import { FollowsRepository } from './modules/follows/follows.repo';
import { FollowsService } from './modules/follows/follows.service';
import { ModerationRepository } from './modules/moderation/moderation.repo';
import { ModerationService } from './modules/moderation/moderation.service';
import { ReportsService } from './modules/moderation/reports.service';
import { DigestRepository } from './modules/newsletter/digest.repo';
import { DigestService } from './modules/newsletter/digest.service';
import { NewsletterRepository } from './modules/newsletter/newsletter.repo';
import { NewsletterService } from './modules/newsletter/newsletter.service';
import { FanoutsRepository } from './modules/notifications/fanouts.repo';
import {
  blockingNotificationEvents,
  blogNotificationEvents,
  moderationNotificationEvents,
  notificationEvents,
} from './modules/notifications/notification-events';
import { NotificationsRepository } from './modules/notifications/notifications.repo';
import { NotificationsService } from './modules/notifications/notifications.service';
import { PostFanout } from './modules/notifications/post-fanout';
import { RevisionKeeper } from './modules/revisions/revision-keeper';
import { RevisionsRepository } from './modules/revisions/revisions.repo';
import { RevisionsService } from './modules/revisions/revisions.service';
import { SearchRepository } from './modules/search/search.repo';
import { SeriesRepository } from './modules/series/series.repo';
import { SeriesService } from './modules/series/series.service';
import { AccountMergeRepository } from './modules/transfer/transfer.merge.repo';
import { TransferRepository } from './modules/transfer/transfer.repo';
import { TransferService } from './modules/transfer/transfer.service';
import { UploadsRepository } from './modules/uploads/uploads.repo';
import { UploadsService } from './modules/uploads/uploads.service';
import { AccountService } from './modules/users/account.service';
import { CountersRepository } from './modules/users/counters.repo';
import { ProfileService } from './modules/users/profile.service';
import { ProfileEditService } from './modules/users/profile-edit.service';
import { UserCards } from './modules/users/user-cards';
import { ProfileListsRepository } from './modules/users/users.lists.repo';
import { UsersRepository } from './modules/users/users.repo';
import { FeedsRepository } from './pages/feeds.repo';
import { FeedsService } from './pages/feeds.service';
import { SitemapRepository } from './pages/sitemap.repo';
import { SitemapService } from './pages/sitemap.service';
import { createStorage } from './storage/create-storage';
import type { Storage } from './storage/storage';

/**
 * The composition root: every repository and service, wired once per app.
 * Route handlers reach services through app.services; nothing else builds them.
 */
export function createServices(config: Config, database: DatabaseHandle, log: FastifyBaseLogger) {
  const { db } = database;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
  redis?.on('error', (err) => log.warn({ err }, 'redis error'));
  const rateLimiter: RateLimiter = redis ? createRedisRateLimiter(redis, `${config.redisPrefix}rl:`) : createMemoryRateLimiter();
  const rate = new RateGuard(rateLimiter, config.rateLimitFactor);
  const tokens = new TokenService(config.jwtSecret, config.jwtTtlSeconds);
  const sessions = new SessionEvents({ redis, channel: `${config.redisPrefix}sessions`, log });
  // Each signed-in request's token check without a database round trip; every revocation drops it.
  const authStates = new AuthStateMemo<NonNullable<Awaited<ReturnType<UsersRepository['findAuthState']>>>>({
    reliable: () => sessions.reliable,
  });
  sessions.onRevokedAnywhere((userId) => authStates.drop(userId));
  sessions.onUnknown(() => authStates.clear());
  const publicData = new PublicDataChanges(database.writes, { redis, channel: `${config.redisPrefix}public-data`, log });
  // The public cache's live counts (lib/live-counts.ts), which likes, saves and comments report to.
  const liveCounts = config.responseCache ? new CountsMemo() : undefined;

  const repos = {
    users: new UsersRepository(db),
    verifications: new VerificationRepository(db),
    passwordResets: new PasswordResetRepository(db),
    mail: new MailRepository(db),
    uploads: new UploadsRepository(db),
    blogs: new BlogsRepository(db),
    viewerFlags: new ViewerFlagsRepository(db),
    search: new SearchRepository(db),
    profileLists: new ProfileListsRepository(db),
    counters: new CountersRepository(),
    transfers: new TransferRepository(db),
    accountMerge: new AccountMergeRepository(),
    reactions: new ReactionsRepository(),
    follows: new FollowsRepository(),
    comments: new CommentsRepository(db),
    notifications: new NotificationsRepository(db),
    fanouts: new FanoutsRepository(db),
    feeds: new FeedsRepository(db),
    sitemap: new SitemapRepository(db),
    exports: new ExportRepository(db),
    newsletter: new NewsletterRepository(db),
    digests: new DigestRepository(db),
    revisions: new RevisionsRepository(db),
    series: new SeriesRepository(db),
    blocking: new BlockingRepository(db),
    moderation: new ModerationRepository(db),
  };

  const transport = config.smtpUrl ? createSmtpTransport(config.smtpUrl) : createFileTransport(path.join(config.dataDir, 'mail'), log);
  const mail = new MailService(repos.mail, transport, config.mailFrom, log);

  const auth = new AuthService({
    db,
    users: repos.users,
    verifications: repos.verifications,
    tokens,
    mail,
    rate,
    publicUrl: config.publicUrl,
    sessions,
  });
  const passwordReset = new PasswordResetService({
    db,
    users: repos.users,
    resets: repos.passwordResets,
    verifications: repos.verifications,
    mail,
    rate,
    publicUrl: config.publicUrl,
    sessions,
  });

  const google = new GoogleAuthService({
    db,
    users: repos.users,
    rate,
    limiter: rateLimiter,
    sessionFor: (user) => auth.sessionFor(user),
    clientId: config.google.clientId,
    issuer: config.google.issuer,
    secret: config.jwtSecret,
    log,
  });

  const storage: Storage = createStorage(config);
  // Ticks at least as often as the shortest job interval (scheduled posts), 30 s at most.
  const schedulerTickMs = Math.min(30_000, config.scheduledPostsIntervalMs);
  const scheduler = new Scheduler({ db, log, tickMs: schedulerTickMs });
  registerCleanupJobs(scheduler, { db, storage, config });
  const uploads = new UploadsService({
    uploads: repos.uploads,
    storage,
    rate,
    log,
    maxBytes: config.uploadMaxBytes,
    allowPrivateUrlFetch: config.allowPrivateUrlFetch,
  });

  const notifications = new NotificationsService({
    db,
    notifications: repos.notifications,
    blocking: repos.blocking,
    comments: repos.comments,
  });
  const fanout = new PostFanout({
    db,
    fanouts: repos.fanouts,
    notifications: repos.notifications,
    notify: notifications,
    blogs: repos.blogs,
  });
  // Past a post's first 500 recipients: at once on this instance after the commit (unless it runs
  // no jobs), else at the next tick of whichever instance claims the job.
  scheduler.register('notification-fanout', schedulerTickMs, (ctx) => fanout.continue(() => ctx.keepGoing()));
  if (config.backgroundJobs) fanout.onQueued(() => void scheduler.runNow('notification-fanout'));
  const events = notificationEvents(notifications);
  const blogs = new BlogsService({
    db,
    blogs: repos.blogs,
    users: repos.users,
    viewerFlags: repos.viewerFlags,
    publicData: config.responseCache ? publicData : undefined,
    publicTtlMs: config.responseCacheTtlMs,
    search: repos.search,
    uploads,
    events: blogNotificationEvents(notifications, fanout),
    revisions: new RevisionKeeper(repos.revisions),
    series: (blogDbId, blogId, viewerId) => series.forPage(blogDbId, blogId, viewerId),
    blocking: repos.blocking,
  });
  scheduler.register(
    'scheduled-posts',
    config.scheduledPostsIntervalMs,
    scheduledPostsJob({ scheduled: new ScheduledPostsRepository(db), blogs }),
  );
  const exports = new ExportService({ exports: repos.exports, blogs, newsletter: repos.newsletter, publicUrl: config.publicUrl });
  const series = new SeriesService({ db, blogs: repos.blogs, series: repos.series });
  const revisions = new RevisionsService({ db, blogs: repos.blogs, blogsService: blogs, revisions: repos.revisions, uploads });
  const profiles = new ProfileService(repos.profileLists, repos.users, repos.blocking);
  const profileEdit = new ProfileEditService({ db, users: repos.users, uploads, sessionUsers: auth });
  const account = new AccountService({
    db,
    users: repos.users,
    counters: repos.counters,
    search: repos.search,
    uploads,
    mail: repos.mail,
    newsletter: repos.newsletter,
    resets: repos.passwordResets,
    sessions,
    onErasing: (userId, tx) => notifications.beforeAccountErased(userId, tx),
  });
  const transfer = new TransferService({
    db,
    users: repos.users,
    transfers: repos.transfers,
    merge: repos.accountMerge,
    counters: repos.counters,
    uploads,
    mail,
    rate,
    publicUrl: config.publicUrl,
    sessions,
  });
  // Users' cards, kept between the writes that check them (likes, comments, follows).
  const cards = new UserCards(repos.users, config.responseCache ? publicData : undefined, config.responseCacheTtlMs);
  const refs = new PostRefs({
    cards,
    blogs: repos.blogs,
    publicData: config.responseCache ? publicData : undefined,
    ttlMs: config.responseCacheTtlMs,
  });
  const reactions = new ReactionsService({
    db,
    refs,
    reactions: repos.reactions,
    blocking: repos.blocking,
    events,
    liveCounts,
  });
  const follows = new FollowsService({ db, cards, follows: repos.follows, blocking: repos.blocking, events, liveCounts });
  const blocking = new BlockingService({
    db,
    users: repos.users,
    follows: repos.follows,
    blocking: repos.blocking,
    events: blockingNotificationEvents(notifications),
  });
  const comments = new CommentsService({
    db,
    blogs: repos.blogs,
    refs,
    comments: repos.comments,
    blocking: repos.blocking,
    counters: repos.counters,
    events,
    liveCounts,
  });
  const reports = new ReportsService({
    db,
    users: repos.users,
    blogs: repos.blogs,
    comments: repos.comments,
    moderation: repos.moderation,
  });
  const moderation = new ModerationService({
    db,
    users: repos.users,
    counters: repos.counters,
    moderation: repos.moderation,
    reports,
    revokeAllSessions: (userId) => auth.revokeAllSessions(userId),
    onSuspensionChanging: (userId, tx) => notifications.senderShownChanging(userId, tx),
    ...moderationNotificationEvents(notifications),
    dropCards: (of, tx) => uploads.dropCards(of, tx),
  });
  const { publicUrl } = config;
  const feeds = new FeedsService({
    blogs: repos.blogs,
    profileLists: repos.profileLists,
    users: repos.users,
    feeds: repos.feeds,
    publicUrl,
  });
  const sitemap = new SitemapService(repos.sitemap, publicUrl);
  const newsletter = new NewsletterService({
    db,
    newsletter: repos.newsletter,
    mail,
    rate,
    publicUrl,
    confirmDays: config.retention.unconfirmedSubscriberDays,
  });
  const digests = new DigestService({ db, digests: repos.digests, mail, publicUrl });
  // Hourly: the first run after midnight (UTC) sends yesterday's daily digests, the first after
  // Monday 00:00 the weekly ones; later runs only pick up whoever a stopped run did not reach.
  scheduler.register('digests', 3600_000, (ctx) => digests.run(ctx));

  return {
    config,
    database,
    redis,
    repos,
    tokens,
    sessions,
    authStates,
    publicData,
    liveCounts,
    refs,
    rate,
    mail,
    auth,
    passwordReset,
    google,
    storage,
    scheduler,
    uploads,
    blogs,
    revisions,
    series,
    profiles,
    profileEdit,
    account,
    transfer,
    reactions,
    follows,
    blocking,
    comments,
    reports,
    moderation,
    notifications,
    feeds,
    sitemap,
    exports,
    newsletter,
    digests,
    async close() {
      await scheduler.stop();
      await mail.stop();
      await rateLimiter.close();
      publicData.close();
      sessions.close();
      storage.close?.();
      redis?.disconnect();
    },
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
