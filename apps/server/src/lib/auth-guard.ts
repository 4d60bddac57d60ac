import { type AccountFacts, USER_MESSAGES } from '@inkwell/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UsersRepository } from '../modules/users/users.repo';
import type { AuthStateMemo } from './auth-state-memo';
import { unauthorized } from './errors';
import type { TokenService } from './tokens';

export interface AuthUser {
  id: string;
  /**
   * The account facts of its rate-limit tier (packages/core accountTier), read in the same query
   * as the token version: always current, and no extra round trip per write.
   */
  account: AccountFacts;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by app.authenticate (required) or app.identify (optional). */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>;
    identify(request: FastifyRequest): Promise<void>;
  }
}

const kViewerRead = Symbol('viewerRead');

/** Whether this request looked up its viewer (app.identify or app.authenticate ran): its answer may be theirs alone. */
export function viewerWasRead(request: FastifyRequest): boolean {
  return (request as FastifyRequest & { [kViewerRead]?: true })[kViewerRead] === true;
}

function markViewerRead(request: FastifyRequest): void {
  (request as FastifyRequest & { [kViewerRead]?: true })[kViewerRead] = true;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

type AuthState = Awaited<ReturnType<UsersRepository['findAuthState']>>;

/**
 * Resolves a token to a user if it is valid, unexpired and not revoked by a token-version bump.
 * The user's token state comes from the memo when it remembers it (dropped by every revocation,
 * lib/auth-state-memo.ts), else from the database.
 */
export async function resolveToken(
  token: string,
  tokens: TokenService,
  users: UsersRepository,
  memo?: AuthStateMemo<NonNullable<AuthState>>,
): Promise<AuthUser | null> {
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const load = () => users.findAuthState(claims.sub);
  let state = memo ? await memo.get(claims.sub, load) : await load();
  if (memo && state && state.token_version < claims.ver) {
    // A token newer than the remembered state: issued after a revocation whose message has not
    // reached this instance yet. The memo is behind; the database says.
    memo.drop(claims.sub);
    state = await memo.get(claims.sub, load);
  }
  if (!state || state.token_version !== claims.ver) return null;
  return { id: state.id, account: { createdAt: state.created_at, publishedCount: state.published_count } };
}

export const authGuardPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { tokens: TokenService; users: UsersRepository; authStates?: AuthStateMemo<NonNullable<AuthState>> },
  ) => {
    app.decorateRequest('user', null);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      markViewerRead(request);
      const token = bearer(request);
      if (!token) throw unauthorized('Please sign in to continue');
      const user = await resolveToken(token, opts.tokens, opts.users, opts.authStates);
      if (!user) throw unauthorized(USER_MESSAGES.sessionExpired);
      request.user = user;
    });

    app.decorate('identify', async (request: FastifyRequest) => {
      markViewerRead(request);
      const token = bearer(request);
      request.user = token ? await resolveToken(token, opts.tokens, opts.users, opts.authStates) : null;
    });
  },
);
