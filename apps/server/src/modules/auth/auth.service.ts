import type { SessionUser } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { hashToken, newLinkToken } from '../../lib/crypto';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/errors';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password';
import type { RateGuard } from '../../lib/rate-guard';
import type { SessionEvents } from '../../lib/session-events';
import type { TokenService } from '../../lib/tokens';
import type { MailService } from '../../mail/mail.service';
import { verificationMail } from '../../mail/templates';
import { usernameCandidates } from '../users/username';
import { presentSessionUser } from '../users/users.presenter';
import { newUserRow, type UserRow, type UsersRepository } from '../users/users.repo';
import type { VerificationRepository } from './auth.repo';

const VERIFICATION_TTL_MS = 24 * 3600_000;
const SESSION_FOLLOW_CAP = 500;

export const AUTH_MESSAGES = {
  signedUp: 'Account created. Check your email for a link to verify your address.',
  resent: 'This email is not verified yet. We sent you a new verification link.',
  alreadyRegistered: 'An account with this email already exists. Please sign in.',
  googleAccount: 'This email is registered with Google sign-in. Please continue with Google.',
  badCredentials: 'Invalid email or password',
  unverified: 'Please verify your email before signing in. We sent you a new verification link.',
  signedIn: 'Signed in successfully',
  verified: 'Email verified successfully. You can now sign in.',
  badVerification: 'This verification link is invalid or has expired.',
  usedVerification: 'This verification link has already been used.',
} as const;

export interface AuthDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  verifications: VerificationRepository;
  tokens: TokenService;
  mail: MailService;
  rate: RateGuard;
  publicUrl: string;
  sessions?: SessionEvents;
}

export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  async signup(input: { name: string; email: string; password: string }, ip: string): Promise<{ message: string; created: boolean }> {
    const { db, users, rate } = this.deps;
    await rate.check('signup-ip', ip);
    await rate.check('signup-email', input.email);

    const existing = await users.findByEmail(input.email);
    if (existing?.email_verified) {
      throw conflict(existing.google_auth && !existing.password_hash ? AUTH_MESSAGES.googleAccount : AUTH_MESSAGES.alreadyRegistered);
    }
    await rate.check('verify-mail', input.email);
    const passwordHash = await hashPassword(input.password);

    if (existing) {
      // Unverified: the latest sign-up's name and password win; only the mailbox owner can activate it.
      await db.transaction().execute(async (trx) => {
        await users.update(existing.id, { name: input.name, password_hash: passwordHash, updated_at: nowIso() }, trx);
        await this.issueVerification(existing.id, input.email, input.name, trx);
      });
      this.deps.mail.kick();
      return { message: AUTH_MESSAGES.signedUp, created: false };
    }

    await db
      .transaction()
      .execute(async (trx) => {
        const id = newId();
        const now = nowIso();
        const username = await this.freeUsername(input.email, trx);
        await users.insert(
          newUserRow(
            {
              id,
              email: input.email,
              name: input.name,
              username,
              password_hash: passwordHash,
              google_auth: 0,
              google_sub: null,
              email_verified: 0,
            },
            now,
          ),
          trx,
        );
        await this.issueVerification(id, input.email, input.name, trx);
      })
      .catch((err) => {
        // Two sign-ups for one address at once: the unique index decides; the loser is told plainly.
        if (isUniqueViolation(err)) throw conflict('A sign-up for this email is already in progress. Please check your inbox.');
        throw err;
      });
    this.deps.mail.kick();
    return { message: AUTH_MESSAGES.signedUp, created: true };
  }

  async verifyEmail(token: string): Promise<string> {
    const { db, verifications, users } = this.deps;
    const row = await verifications.findByHash(hashToken(token));
    if (!row) throw badRequest(AUTH_MESSAGES.badVerification);
    if (row.used_at) throw badRequest(AUTH_MESSAGES.usedVerification);
    if (row.expires_at < nowIso()) throw badRequest(AUTH_MESSAGES.badVerification);
    await db.transaction().execute(async (trx) => {
      if (!(await verifications.markUsed(row.id, trx))) throw badRequest(AUTH_MESSAGES.usedVerification);
      await users.update(row.user_id, { email_verified: 1, updated_at: nowIso() }, trx);
    });
    return AUTH_MESSAGES.verified;
  }

  async signin(input: { email: string; password: string }, ip: string): Promise<{ message: string; user: SessionUser }> {
    const { users, rate } = this.deps;
    await rate.check('signin-ip', ip);
    await rate.check('signin-email', input.email);

    const user = await users.findByEmail(input.email);
    if (!user?.password_hash) {
      await burnPasswordCheck(input.password);
      throw unauthorized(AUTH_MESSAGES.badCredentials);
    }
    if (!(await verifyPassword(user.password_hash, input.password))) throw unauthorized(AUTH_MESSAGES.badCredentials);

    if (!user.email_verified) {
      // The password was right, so saying "unverified" reveals nothing to a stranger.
      const allowed = await rate.allowed('verify-mail', user.email);
      if (allowed) {
        await this.deps.db.transaction().execute((trx) => this.issueVerification(user.id, user.email, user.name, trx));
        this.deps.mail.kick();
      }
      throw new AppError(403, AUTH_MESSAGES.unverified);
    }
    return { message: AUTH_MESSAGES.signedIn, user: await this.sessionFor(user) };
  }

  /** Signs a fresh token and builds the session user. */
  async sessionFor(user: UserRow): Promise<SessionUser> {
    const token = await this.deps.tokens.sign({ sub: user.id, ver: user.token_version });
    const follows = await this.deps.users.followIds(user.id, SESSION_FOLLOW_CAP);
    return presentSessionUser(user, token, follows);
  }

  async currentSession(userId: string): Promise<SessionUser> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw unauthorized('Your session has expired. Please sign in again.');
    return this.sessionFor(user);
  }

  /** Revokes every token of the user (logout everywhere). */
  async revokeAllSessions(userId: string): Promise<void> {
    await this.deps.users.bumpTokenVersion(userId);
    this.deps.sessions?.revoked(userId);
  }

  private async issueVerification(userId: string, email: string, name: string, trx: Kysely<Database>) {
    const { token, hash } = newLinkToken();
    await this.deps.verifications.invalidateForUser(userId, trx);
    await this.deps.verifications.insert(userId, hash, new Date(Date.now() + VERIFICATION_TTL_MS).toISOString(), trx);
    await this.deps.mail.enqueue(verificationMail(email, name, `${this.deps.publicUrl}/verify-email/${token}`), trx);
  }

  private async freeUsername(email: string, trx: Kysely<Database>): Promise<string> {
    for (const candidate of usernameCandidates(email)) {
      if (!(await this.deps.users.usernameTaken(candidate, trx))) return candidate;
    }
    return `user${newId().replace(/-/g, '').slice(-12)}`;
  }
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
