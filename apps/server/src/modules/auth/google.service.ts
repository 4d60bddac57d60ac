import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { emailField, GOOGLE_MESSAGES, MAX_NAME_LENGTH, type SessionUser } from '@inkwell/core';
import type { FastifyBaseLogger } from 'fastify';
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors';
import { newId, nowIso } from '../../db/ids';
import type { Database } from '../../db/schema';
import { AppError, badRequest, conflict, serviceUnavailable, unauthorized } from '../../lib/errors';
import type { RateGuard } from '../../lib/rate-guard';
import type { RateLimiter } from '../../lib/rate-limiter';
import { transact } from '../../lib/tx';
import { usernameCandidates } from '../users/username';
import { newUserRow, type UserRow, type UsersRepository } from '../users/users.repo';

/** Nonces handed to the browser are valid this long, and remembered as used this long. */
export const NONCE_TTL_SECONDS = 600;
/** Discovery document and key set are re-read after this long (keys also refresh on an unknown kid). */
const DISCOVERY_TTL_MS = 3600_000;
const CLOCK_TOLERANCE_SECONDS = 60;
/** Asymmetric algorithms only: never HS* (the JWKS is public) and never 'none'. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Google documents both spellings of its issuer in ID tokens. */
const GOOGLE_ISSUER = 'https://accounts.google.com';

export interface GooglePublicConfig {
  enabled: boolean;
  clientId?: string;
  authorizationEndpoint?: string;
}

interface Discovery {
  issuer: string;
  authorizationEndpoint: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string;
  picture: string | null;
}

export interface GoogleAuthDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  rate: RateGuard;
  /** The shared limiter (memory or Redis) doubles as the store of used nonces. */
  limiter: RateLimiter;
  sessionFor(user: UserRow): Promise<SessionUser>;
  clientId?: string;
  issuer: string;
  /** Nonces are signed with a key derived from this secret. */
  secret: string;
  log: FastifyBaseLogger;
  fetchTimeoutMs?: number;
}

/** A token problem: answered as 401 'Authentication failed', the reason only logged. */
class TokenRejected extends Error {}

/**
 * Google sign-in through standard OpenID Connect (implicit flow, response_type=id_token):
 * the browser gets an ID token from the issuer and posts it here; this verifies it against
 * the issuer's published keys and signs the person in (docs/decisions.md).
 */
export class GoogleAuthService {
  private discovery?: { value: Promise<Discovery>; expiresAt: number };
  private readonly nonceKey: Buffer;

  constructor(private readonly deps: GoogleAuthDeps) {
    this.nonceKey = createHash('sha256').update(`inkwell:google-nonce:${deps.secret}`).digest();
  }

  get enabled(): boolean {
    return !!this.deps.clientId;
  }

  /** What the browser needs to start the flow; it cannot read the issuer itself under the CSP. */
  async publicConfig(): Promise<GooglePublicConfig> {
    if (!this.deps.clientId) return { enabled: false };
    const discovery = await this.loadDiscovery();
    return { enabled: true, clientId: this.deps.clientId, authorizationEndpoint: discovery.authorizationEndpoint };
  }

  /** A stateless nonce: random.expiry.hmac; the ID token must carry one, and only once. */
  issueNonce(): { nonce: string; expiresIn: number } {
    if (!this.deps.clientId) throw badRequest(GOOGLE_MESSAGES.notConfigured);
    const body = `${randomBytes(18).toString('base64url')}.${Math.floor(Date.now() / 1000) + NONCE_TTL_SECONDS}`;
    return { nonce: `${body}.${this.mac(body)}`, expiresIn: NONCE_TTL_SECONDS };
  }

  async signIn(idToken: string, ip: string): Promise<{ message: string; user: SessionUser }> {
    if (!this.deps.clientId) throw badRequest(GOOGLE_MESSAGES.notConfigured);
    let identity: GoogleIdentity;
    try {
      identity = await this.verifyIdToken(idToken);
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.deps.log.debug({ reason: reasonOf(err) }, 'google sign-in: ID token refused');
      throw unauthorized(GOOGLE_MESSAGES.failed);
    }
    const user = await this.findOrCreate(identity);
    return { message: GOOGLE_MESSAGES.signedIn, user: await this.deps.sessionFor(user) };
  }

  /**
   * Signature against the issuer's JWKS, iss, aud = client id, exp/iat, our signed unexpired
   * nonce (burned on first use), email_verified === true. Throws TokenRejected (or a jose error).
   */
  async verifyIdToken(idToken: string): Promise<GoogleIdentity> {
    const clientId = this.deps.clientId!;
    if (typeof idToken !== 'string' || idToken.split('.').length !== 3) throw new TokenRejected('not a compact JWS');
    const discovery = await this.loadDiscovery();
    const issuers = discovery.issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : [discovery.issuer];
    const { payload } = await jwtVerify(idToken, discovery.jwks, {
      issuer: issuers,
      audience: clientId,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['iss', 'aud', 'sub', 'exp', 'iat'],
    });
    // With several audiences, OpenID Connect Core 3.1.3.7 wants azp to name us.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== clientId) throw new TokenRejected('azp mismatch');
    if (typeof payload.sub !== 'string' || !payload.sub || payload.sub.length > 255) throw new TokenRejected('bad sub');
    if (payload.email_verified !== true) throw new TokenRejected('email not verified');
    const email = emailField.safeParse(payload.email);
    if (!email.success) throw new TokenRejected('no usable email');
    await this.consumeNonce(payload);
    return { sub: payload.sub, email: email.data, name: nameFrom(payload, email.data), picture: pictureFrom(payload) };
  }

  private async consumeNonce(payload: JWTPayload): Promise<void> {
    const { nonce } = payload;
    if (typeof nonce !== 'string' || nonce.length > 200) throw new TokenRejected('missing nonce');
    const parts = nonce.split('.');
    if (parts.length !== 3) throw new TokenRejected('malformed nonce');
    const body = `${parts[0]}.${parts[1]}`;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(parts[2]!);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new TokenRejected('nonce not ours');
    const remaining = Number(parts[1]) - Math.floor(Date.now() / 1000);
    if (!Number.isFinite(remaining) || remaining <= 0) throw new TokenRejected('nonce expired');
    // Remembered for at least the rest of its validity; a second token with it is a replay.
    const used = await this.deps.limiter.hit(`google-nonce:${nonce}`, 1, Math.min(NONCE_TTL_SECONDS, remaining + 1));
    if (!used.allowed) throw new TokenRejected('nonce replayed');
  }

  private mac(body: string): string {
    return createHmac('sha256', this.nonceKey).update(body).digest('base64url');
  }

  /** Existing Google account by sub; a Google account without sub is linked; password accounts are refused. */
  private async findOrCreate(identity: GoogleIdentity): Promise<UserRow> {
    const { users } = this.deps;
    const bySub = await this.findBySub(identity.sub);
    if (bySub) return bySub;
    const byEmail = await users.findByEmail(identity.email);
    if (byEmail) return this.linkExisting(byEmail, identity);
    try {
      return await this.create(identity);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A parallel sign-in of the same person (or a sign-up of the address) won the race.
      const winner = (await this.findBySub(identity.sub)) ?? (await users.findByEmail(identity.email));
      if (winner) return winner.google_sub === identity.sub ? winner : this.linkExisting(winner, identity);
      // Only the generated username collided: try once more with fresh candidates.
      return this.create(identity);
    }
  }

  private async linkExisting(user: UserRow, identity: GoogleIdentity): Promise<UserRow> {
    if (user.password_hash || user.google_auth !== 1) throw conflict(GOOGLE_MESSAGES.passwordAccount);
    if (user.google_sub && user.google_sub !== identity.sub) throw conflict(GOOGLE_MESSAGES.otherGoogleAccount);
    if (!user.google_sub) {
      await this.deps.users.update(user.id, { google_sub: identity.sub, email_verified: 1, updated_at: nowIso() });
      return { ...user, google_sub: identity.sub, email_verified: 1 };
    }
    return user;
  }

  private findBySub(sub: string) {
    return this.deps.db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst();
  }

  private async create(identity: GoogleIdentity): Promise<UserRow> {
    const { db, users } = this.deps;
    return transact(db, async ({ db: trx }) => {
      const now = nowIso();
      const row: UserRow = newUserRow(
        {
          id: newId(),
          email: identity.email,
          name: identity.name,
          username: await this.freeUsername(identity.email, trx),
          password_hash: null,
          profile_pic: identity.picture,
          google_auth: 1,
          google_sub: identity.sub,
          email_verified: 1,
        },
        now,
      );
      await users.insert(row, trx);
      return row;
    });
  }

  private async freeUsername(email: string, trx: Kysely<Database>): Promise<string> {
    for (const candidate of usernameCandidates(email)) {
      if (!(await this.deps.users.usernameTaken(candidate, trx))) return candidate;
    }
    return `user${newId().replace(/-/g, '').slice(-12)}`;
  }

  /** The issuer's discovery document and a caching remote JWKS, shared by every request. */
  private loadDiscovery(): Promise<Discovery> {
    const now = Date.now();
    if (this.discovery && this.discovery.expiresAt > now) return this.discovery.value;
    const value = this.fetchDiscovery();
    this.discovery = { value, expiresAt: now + DISCOVERY_TTL_MS };
    value.catch((err) => {
      if (this.discovery?.value === value) this.discovery = undefined;
      this.deps.log.warn({ err, issuer: this.deps.issuer }, 'google sign-in: cannot read the issuer discovery document');
    });
    return value.catch(() => {
      throw serviceUnavailable(GOOGLE_MESSAGES.unavailable);
    });
  }

  private async fetchDiscovery(): Promise<Discovery> {
    const issuer = this.deps.issuer.replace(/\/+$/, '');
    const timeout = this.deps.fetchTimeoutMs ?? 5000;
    const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(timeout),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const doc = (await res.json()) as Record<string, unknown>;
    const docIssuer = typeof doc.issuer === 'string' ? doc.issuer.replace(/\/+$/, '') : '';
    if (docIssuer !== issuer) throw new Error(`discovery issuer ${String(doc.issuer)} is not ${issuer}`);
    const authorizationEndpoint = httpUrl(doc.authorization_endpoint);
    const jwksUri = httpUrl(doc.jwks_uri);
    if (!authorizationEndpoint || !jwksUri) throw new Error('discovery lacks authorization_endpoint or jwks_uri');
    return {
      issuer: doc.issuer as string,
      authorizationEndpoint,
      jwks: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: timeout, cooldownDuration: 30_000, cacheMaxAge: DISCOVERY_TTL_MS }),
    };
  }
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function nameFrom(payload: JWTPayload, email: string): string {
  const claim = typeof payload.name === 'string' ? payload.name.trim() : '';
  const name = claim || email.split('@')[0] || 'Google user';
  return name.slice(0, MAX_NAME_LENGTH);
}

function pictureFrom(payload: JWTPayload): string | null {
  const { picture } = payload;
  if (typeof picture !== 'string' || picture.length > 1000) return null;
  try {
    return new URL(picture).protocol === 'https:' ? picture : null;
  } catch {
    return null;
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof joseErrors.JOSEError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
