import { jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  sub: string;
  /** The user's token version when issued; bumping it revokes every older token. */
  ver: number;
}

/** Verified tokens kept in memory: jose's WebCrypto verify was a visible share of each signed-in request. */
const VERIFIED_CACHE_SIZE = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /** token → its claims and expiry (ms). Only valid signatures get in; revocation is checked per request elsewhere. */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ ver: claims.ver })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** Returns the claims, or null for any invalid, expired or tampered token. */
  async verify(token: string): Promise<AccessClaims | null> {
    return (await this.verifyWithExpiry(token))?.claims ?? null;
  }

  /** The claims and when the token expires (ms since epoch), or null for any invalid, expired or tampered token. */
  async verifyWithExpiry(token: string): Promise<{ claims: AccessClaims; expiresAt: number } | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > Date.now()) return known;
      this.verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number' || typeof payload.exp !== 'number') return null;
      const entry = { claims: { sub: payload.sub, ver: payload.ver }, expiresAt: payload.exp * 1000 };
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, entry);
      return entry;
    } catch {
      return null;
    }
  }
}
