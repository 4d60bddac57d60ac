import { AUTH_MESSAGES, MODERATION_MESSAGES, type SessionUser, USER_MESSAGES } from '@inkwell/core';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { refuseCommonPassword } from '../../lib/common-passwords';
import { hashToken, newLinkToken } from '../../lib/crypto';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/password';
import { canSignIn } from '../../lib/policies';
import type { RateGuard } from '../../lib/rate-guard';
import type { SessionEvents } from '../../lib/session-events';
import type { TokenService } from '../../lib/tokens';
import { transact } from '../../lib/tx';
import type { MailService } from '../../mail/mail.service';
import { signupAttemptMail, verificationMail } from '../../mail/templates';
import { usernameCandidates } from '../users/username';
import { presentSessionUser } from '../users/users.presenter';
import { newUserRow, type UserRow, type UsersRepository } from '../users/users.repo';
import type { PendingSignup, VerificationRepository } from './auth.repo';

const VERIFICATION_TTL_MS = 24 * 3600_000;
const SESSION_FOLLOW_CAP = 500;
/** Sign-in of an unverified address tries the password of at most this many pending sign-ups (argon2 each). */
const SIGNUPS_CHECKED_AT_SIGNIN = 3;

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

type SignupInput = { name: string; email: string; password: string };

export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  /**
   * One answer for every address: new, pending or already registered (the owner of a registered
   * one gets a mail instead). A sign-up never changes an existing account's name or password:
   * it gets its own link, and only that link activates what it chose.
   */
  async signup(input: SignupInput): Promise<{ message: string }> {
    const { users, rate } = this.deps;
    // Per IP in the route hook (RATE_LIMITS.signup); per address here.
    await rate.check('signup-email', input.email);
    await refuseCommonPassword(input.password);
    // Hashed for every address, so the time taken does not tell which ones have an account.
    const passwordHash = await hashPassword(input.password);
    const existing = await users.findByEmail(input.email);
    if (existing) await this.signupOfExisting(existing, input, passwordHash);
    else {
      await this.createAccount(input, passwordHash).catch(async (err) => {
        // Two sign-ups for one address at once: the unique index decides; the loser is a second sign-up.
        if (!isUniqueViolation(err)) throw err;
        const winner = await users.findByEmail(input.email);
        if (!winner) throw err;
        await this.signupOfExisting(winner, input, passwordHash);
      });
    }
    this.deps.mail.kick();
    return { message: AUTH_MESSAGES.signedUp };
  }

  private async signupOfExisting(user: UserRow, input: SignupInput, passwordHash: string): Promise<void> {
    const { rate, mail, publicUrl } = this.deps;
    if (user.email_verified) {
      if (!(await rate.allowed('signup-attempt-mail', user.email))) return;
      const googleOnly = user.google_auth === 1 && !user.password_hash;
      await mail.enqueue(
        signupAttemptMail(user.email, user.name, { signin: `${publicUrl}/signin`, reset: `${publicUrl}/forgot-password` }, googleOnly),
      );
      return;
    }
    // Pending: this sign-up gets its own link beside the others; the account row is left as it is.
    if (!(await rate.allowed('verify-mail', user.email))) return;
    const signup = { signupId: newId(), name: input.name, passwordHash, signedUpAt: nowIso() };
    await transact(this.deps.db, ({ db: trx }) => this.issueVerification(user.id, user.email, signup, trx));
  }

  private async createAccount(input: SignupInput, passwordHash: string): Promise<void> {
    const { db, users, rate } = this.deps;
    await transact(db, async ({ db: trx }) => {
      const id = newId();
      const now = nowIso();
      const username = await this.freeUsername(input.email, trx);
      const row = { id, email: input.email, name: input.name, username, password_hash: passwordHash, google_auth: 0 as const };
      await users.insert(newUserRow({ ...row, google_sub: null, email_verified: 0 }, now), trx);
      await this.issueVerification(id, input.email, { signupId: newId(), name: input.name, passwordHash, signedUpAt: now }, trx);
    });
    // Counted like the re-sends, so the limit of mails to one address is the same for all sign-ups.
    await rate.allowed('verify-mail', input.email);
  }

  /**
   * Every unexpired link of a pending sign-up works until one link is used; that one activates its
   * sign-up's name and password and discards all other links. Links of a verified account say so.
   */
  async verifyEmail(token: string): Promise<string> {
    const { db, verifications, users } = this.deps;
    const row = await verifications.findByHash(hashToken(token));
    const user = row && (await users.findById(row.user_id));
    if (!row || !user) throw badRequest(AUTH_MESSAGES.badVerification);
    if (user.email_verified) return AUTH_MESSAGES.alreadyVerified;
    if (row.used_at) throw badRequest(AUTH_MESSAGES.usedVerification);
    if (row.expires_at < nowIso()) throw badRequest(AUTH_MESSAGES.badVerification);
    const activated = await transact(db, async ({ db: trx }) => {
      if (!(await verifications.markUsed(row.id, trx))) return false;
      const credentials = row.password_hash ? { name: row.name ?? user.name, password_hash: row.password_hash } : {};
      if (!(await verifications.activateAccount(user.id, credentials, trx))) return false;
      await verifications.discardForUser(user.id, trx);
      return true;
    });
    if (activated) return AUTH_MESSAGES.verified;
    // Another link (or this one, clicked twice) won the race: the account is verified now.
    if ((await users.findById(user.id))?.email_verified) return AUTH_MESSAGES.alreadyVerified;
    throw badRequest(AUTH_MESSAGES.usedVerification);
  }

  async signin(input: { email: string; password: string }, ip: string): Promise<{ message: string; user: SessionUser }> {
    const { users, rate } = this.deps;
    // Per IP in the route hook (RATE_LIMITS.signin). Strict per (address, IP), looser per address:
    // a stranger's failures do not lock the owner out for long.
    await rate.check('signin-email-ip', `${input.email} ${ip}`);
    await rate.check('signin-email', input.email);

    const user = await users.findByEmail(input.email);
    if (!user?.password_hash) {
      await burnPasswordCheck(input.password);
      throw unauthorized(AUTH_MESSAGES.badCredentials);
    }
    if (!user.email_verified) {
      const signup = await this.signupWithPassword(user, input.password);
      if (!signup) throw unauthorized(AUTH_MESSAGES.badCredentials);
      // The password was right, so saying "unverified" reveals nothing to a stranger. The new link
      // belongs to the same sign-up as the password; the links mailed before keep working.
      if (await rate.allowed('verify-mail', user.email)) {
        await transact(this.deps.db, ({ db: trx }) => this.issueVerification(user.id, user.email, signup, trx));
        this.deps.mail.kick();
      }
      throw new AppError(403, AUTH_MESSAGES.unverified);
    }
    if (!(await verifyPassword(user.password_hash, input.password))) throw unauthorized(AUTH_MESSAGES.badCredentials);
    return { message: AUTH_MESSAGES.signedIn, user: await this.sessionFor(user) };
  }

  /** The pending sign-up of an unverified account whose password this is (the account row's own as a last resort). */
  private async signupWithPassword(user: UserRow, password: string): Promise<PendingSignup | null> {
    const pending = await this.deps.verifications.pendingSignups(user.id, SIGNUPS_CHECKED_AT_SIGNIN);
    const tried = new Set<string>();
    for (const signup of pending) {
      if (!signup.passwordHash || tried.has(signup.passwordHash)) continue;
      tried.add(signup.passwordHash);
      if (await verifyPassword(signup.passwordHash, password)) return signup;
    }
    if (user.password_hash && !tried.has(user.password_hash) && (await verifyPassword(user.password_hash, password))) {
      return { signupId: newId(), name: user.name, passwordHash: user.password_hash, signedUpAt: user.created_at };
    }
    return null;
  }

  /**
   * Signs a fresh token and builds the session user: the one door of password and Google
   * sign-in and of session refreshes, so a suspended account (issue 15) is refused here.
   */
  async sessionFor(user: UserRow): Promise<SessionUser> {
    if (!canSignIn(user)) throw forbidden(MODERATION_MESSAGES.accountSuspended);
    const token = await this.deps.tokens.sign({ sub: user.id, ver: user.token_version });
    const follows = await this.deps.users.followIds(user.id, SESSION_FOLLOW_CAP);
    return presentSessionUser(user, token, follows);
  }

  async currentSession(userId: string): Promise<SessionUser> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw unauthorized(USER_MESSAGES.sessionExpired);
    return this.sessionFor(user);
  }

  /** Revokes every token of the user (logout everywhere). */
  async revokeAllSessions(userId: string): Promise<void> {
    await this.deps.users.bumpTokenVersion(userId);
    this.deps.sessions?.revoked(userId);
  }

  /** A new link for a sign-up; older links are left working (most people open the first mail). */
  private async issueVerification(userId: string, email: string, signup: PendingSignup, trx: Kysely<Database>) {
    const { token, hash } = newLinkToken();
    await this.deps.verifications.insert(userId, hash, new Date(Date.now() + VERIFICATION_TTL_MS).toISOString(), signup, trx);
    const url = `${this.deps.publicUrl}/verify-email/${token}`;
    await this.deps.mail.enqueue(verificationMail(email, signup.name ?? email, url, signup.signedUpAt), trx);
  }

  private async freeUsername(email: string, trx: Kysely<Database>): Promise<string> {
    for (const candidate of usernameCandidates(email)) {
      if (!(await this.deps.users.usernameTaken(candidate, trx))) return candidate;
    }
    return `user${newId().replace(/-/g, '').slice(-12)}`;
  }
}
