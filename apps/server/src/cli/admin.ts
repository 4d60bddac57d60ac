import { BLOG_MESSAGES, MAX_MODERATION_REASON_LENGTH, MODERATION_MESSAGES, USER_MESSAGES } from '@inkwell/core';
import { buildApp } from '../app';
import { loadConfig, readEnvFile } from '../config';
import { AppError } from '../lib/errors';

/**
 * The operator's command line (issue 15): `npm run admin -- <command>`. It reads the server's own
 * configuration (DATABASE_URL, or the default SQLite file under DATA_DIR), migrates like a server
 * start, and acts through the same services as the moderation routes, so every rule, cascade,
 * cache invalidation and audit row is the same; the audit shows these actions as 'Command line'.
 */
const USAGE = `Usage: npm run admin -- <command>

  grant admin|moderator <email>   give a role (the first admin is made this way)
  revoke <email>                  back to a plain user
  suspend <email> [reason]        sign the user out everywhere and hide their posts and comments
  unsuspend <email> [reason]      undo a suspension
  delete-user <email>             delete the account and everything it owns
  delete-post <post> [reason]     delete one post (its /blog/ address, the id in it, or its _id) with its images`;

const DEFAULT_REASON = 'From the command line';
export const REDIS_UNREACHABLE =
  'Redis (REDIS_URL) cannot be reached, so running servers would not hear of this change: nothing was done. Start Redis, or check REDIS_URL.';

class UsageError extends Error {}

export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const [command, ...args] = argv;
  const needEmail = (email: string | undefined): string => {
    if (!email || !email.includes('@')) throw new UsageError(USAGE);
    return email.trim().toLowerCase();
  };
  const reasonOf = (words: string[]) => (words.join(' ').trim() || DEFAULT_REASON).slice(0, MAX_MODERATION_REASON_LENGTH);
  let action: (s: Services, userId: string) => Promise<string>;
  let email: string;
  if (command === 'delete-post') return run(env, (s) => deletePost(s, postIdOf(args[0]), reasonOf(args.slice(1))));
  switch (command) {
    case 'grant': {
      const role = args[0];
      if (role !== 'admin' && role !== 'moderator') throw new UsageError(USAGE);
      email = needEmail(args[1]);
      action = (s, id) => s.moderation.setRole(null, id, role);
      break;
    }
    case 'revoke':
      email = needEmail(args[0]);
      action = (s, id) => s.moderation.setRole(null, id, 'user');
      break;
    case 'suspend':
    case 'unsuspend':
      email = needEmail(args[0]);
      action = (s, id) => s.moderation.setSuspended(null, id, command === 'suspend', reasonOf(args.slice(1)));
      break;
    case 'delete-user':
      email = needEmail(args[0]);
      action = async (s, id) => {
        const user = (await s.repos.users.findById(id))!;
        const target = { type: 'user' as const, dbId: id, apiId: id, ownerId: id, label: user.username };
        await s.account.eraseAccount(user, (tx) => s.moderation.audit(tx, null, 'delete_user', target, DEFAULT_REASON));
        return USER_MESSAGES.accountDeleted;
      };
      break;
    default:
      throw new UsageError(USAGE);
  }

  return run(env, async (s) => {
    const user = await s.repos.users.findByEmail(email);
    if (!user) throw new AppError(404, `${MODERATION_MESSAGES.userNotFound}: ${email}`);
    return `${await action(s, user.id)}: ${user.username} <${user.email}>`;
  });
}

type Services = Awaited<ReturnType<typeof buildApp>>['services'];

/** Builds the app on the server's configuration, acts, hands what the action announces to Redis, and closes. */
async function run(env: NodeJS.ProcessEnv, act: (services: Services) => Promise<string>): Promise<string> {
  // No mail sending, no background jobs, and only warnings in the log: this process acts and leaves.
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'warn', ...env }, { mailWorker: false, backgroundJobs: false }));
  try {
    // Connected before acting, so what the action announces (a suspension lifted, tokens revoked)
    // reaches the running instances. A configured Redis that cannot be reached stops the command
    // before it acts: running servers would not hear of it (cached pages, open sockets, tokens).
    if (app.services.redis) {
      try {
        await app.services.redis.ping();
      } catch {
        throw new AppError(503, REDIS_UNREACHABLE);
      }
    }
    const done = await act(app.services);
    // Handed to Redis before the process closes its connections (an unsuspend's message was lost).
    await Promise.all([app.services.publicData.published(), app.services.sessions.published()]);
    return done;
  } finally {
    await app.close();
  }
}

/** A post named by its id or by its page's address (what a report or a complaint quotes). */
function postIdOf(given: string | undefined): string {
  const text = given?.trim() ?? '';
  const fromAddress = /\/blog\/([^/?#]+)\/?(?:[?#].*)?$/.exec(text)?.[1];
  let id = text;
  try {
    if (fromAddress) id = decodeURIComponent(fromAddress);
  } catch {
    throw new UsageError(USAGE);
  }
  if (!id || /[\s/]/.test(id)) throw new UsageError(USAGE);
  return id;
}

async function deletePost(s: Services, blogId: string, reason: string): Promise<string> {
  const blog = await s.blogs.removeAsOperator(blogId, async (tx, row) => {
    const target = { type: 'post' as const, dbId: row.id, apiId: row.blog_id, ownerId: row.creator_id, label: row.title };
    await s.moderation.audit(tx, null, 'delete_post', target, reason);
  });
  return `${BLOG_MESSAGES.deleted}: “${blog.title}” (${blog.blog_id})`;
}

if (process.argv[1] && /admin\.(ts|js)$/.test(process.argv[1])) {
  readEnvFile();
  runAdmin(process.argv.slice(2)).then(
    (message) => {
      console.log(message);
      process.exit(0);
    },
    (err) => {
      // The message names what is wrong (a variable, an address); a stack only helps a developer.
      console.error(err instanceof Error ? err.message : err);
      if (!(err instanceof UsageError || err instanceof AppError) && process.env.LOG_LEVEL === 'debug') console.error(err);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
