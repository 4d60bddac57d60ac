import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/**
 * Identity services for tests, both on 127.0.0.1 with a random port:
 * - a real OpenID provider (oidc-provider) for the browser flows, and
 * - a tiny discovery + JWKS server whose tokens the test crafts itself (bad audience, expired, ...).
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** An HTTP server that is already listening (so its URL is known) and answers once given a handler. */
async function listenLazily(): Promise<{ server: Server; url: string; handle(handler: Handler): void; close(): Promise<void> }> {
  let current: Handler = (_req, res) => {
    res.statusCode = 503;
    res.end('not started');
  };
  const server = createServer((req, res) => current(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    handle(handler) {
      current = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// oidc-provider

export interface TestAccountClaims {
  email: string;
  email_verified: boolean;
  name: string;
}

/**
 * Claims of a dev-login account id: 'jane' -> jane@example.test, verified, named 'Jane'.
 * An id containing 'unverified' gets email_verified false; an id that is already an e-mail keeps it.
 */
export function claimsForAccount(accountId: string): TestAccountClaims {
  const local = accountId.split('@')[0] ?? accountId;
  const name = local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join(' ');
  return {
    email: accountId.includes('@') ? accountId.toLowerCase() : `${accountId.toLowerCase()}@example.test`,
    email_verified: !accountId.includes('unverified'),
    name: name || 'Test Person',
  };
}

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  close(): Promise<void>;
}

export interface PendingIdentityProvider {
  /** Known before start(), so the app can be configured with it first. */
  issuer: string;
  /** Starts answering; redirectUris are the app's exact /signin URLs. */
  start(options: { redirectUris: string[]; clientId?: string }): Promise<IdentityProvider>;
  close(): Promise<void>;
}

interface ProviderLike {
  callback(): Handler;
  Client: { Schema: { prototype: { invalidate(message: string, code?: string): void } } };
}

/**
 * Reserves a port for oidc-provider and returns its issuer URL; start() configures it.
 * This solves the ordering of the browser tests: the app needs the issuer when it starts,
 * the provider needs the app's redirect URI when it starts.
 */
export async function listenIdentityProvider(): Promise<PendingIdentityProvider> {
  const lazy = await listenLazily();
  const issuer = lazy.url;
  return {
    issuer,
    async start({ redirectUris, clientId = `inkwell-${randomBytes(4).toString('hex')}` }) {
      // oidc-provider ships no type declarations; a specifier in a variable keeps tsc out of it.
      const specifier: string = 'oidc-provider';
      const mod = (await import(specifier)) as {
        default: new (issuer: string, configuration: Record<string, unknown>) => ProviderLike;
        interactionPolicy: {
          base(): unknown[] & { add(prompt: unknown): void };
          Prompt: new (options: { name: string; requestable: boolean }) => { checks: { clear(): void } };
        };
      };
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };

      // Google's authorization request carries prompt=select_account; accept it as a no-op here.
      const policy = mod.interactionPolicy.base();
      const selectAccount = new mod.interactionPolicy.Prompt({ name: 'select_account', requestable: true });
      selectAccount.checks.clear();
      policy.add(selectAccount);

      const provider = new mod.default(issuer, {
        clients: [
          {
            client_id: clientId,
            application_type: 'web',
            response_types: ['id_token'],
            grant_types: ['implicit'],
            token_endpoint_auth_method: 'none',
            redirect_uris: redirectUris,
          },
        ],
        jwks: { keys: [signingKey] },
        cookies: { keys: [randomBytes(32).toString('hex')] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        scopes: ['openid', 'email', 'profile'],
        responseTypes: ['id_token'],
        features: { devInteractions: { enabled: true } },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, IdToken: 3600 },
        interactions: { policy },
        async findAccount(_ctx: unknown, sub: string) {
          return { accountId: sub, claims: async () => ({ sub, ...claimsForAccount(sub) }) };
        },
      });
      // Test-only: implicit-flow web clients normally must use https (the documented oidc-provider recipe).
      const schema = provider.Client.Schema.prototype;
      const { invalidate } = schema;
      schema.invalidate = function allowHttpLoopback(message: string, code?: string) {
        if (code === 'implicit-force-https') return;
        invalidate.call(this, message, code);
      };
      lazy.handle(provider.callback());
      return { issuer, clientId, close: lazy.close };
    },
    close: lazy.close,
  };
}

// ---------------------------------------------------------------------------------------------
// Self-made issuer for crafted tokens

export interface CraftOptions {
  /** Sign with a key the issuer does not publish. */
  foreignKey?: boolean;
  /** Overrides of the standard claims; undefined removes a claim. */
  claims?: Partial<Record<keyof DefaultClaims, unknown>> & Record<string, unknown>;
  /** Seconds from now; negative = already expired. Default 3600. */
  expiresIn?: number;
}

export interface DefaultClaims extends JWTPayload {
  iss: string;
  aud: string;
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  nonce: string;
}

export interface FakeIssuer {
  issuer: string;
  clientId: string;
  /** Counts of requests per path, to check caching. */
  hits: Record<string, number>;
  /** An RS256 ID token; `nonce` from the app's /google-auth/nonce. */
  sign(nonce: string | undefined, options?: CraftOptions): Promise<string>;
  /** An unsigned token (alg none) with the same claims. */
  unsigned(nonce: string | undefined, options?: CraftOptions): string;
  close(): Promise<void>;
}

export async function startFakeIssuer(clientId = `crafted-${randomBytes(4).toString('hex')}.apps.example`): Promise<FakeIssuer> {
  const lazy = await listenLazily();
  const issuer = lazy.url;
  const kid = randomUUID();
  const own = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(own.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const hits: Record<string, number> = {};

  lazy.handle((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits[path] = (hits[path] ?? 0) + 1;
    res.setHeader('content-type', 'application/json');
    if (path === '/.well-known/openid-configuration') {
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    } else if (path === '/jwks') {
      res.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });

  const claimsFor = (nonce: string | undefined, options: CraftOptions) => {
    const now = Math.floor(Date.now() / 1000);
    const base: Record<string, unknown> = {
      iss: issuer,
      aud: clientId,
      sub: `sub-${randomBytes(6).toString('hex')}`,
      email: `crafted.${randomBytes(3).toString('hex')}@example.test`,
      email_verified: true,
      name: 'Crafted Person',
      nonce,
      iat: now,
      exp: now + (options.expiresIn ?? 3600),
    };
    const merged = { ...base, ...options.claims };
    for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
    return merged;
  };

  return {
    issuer,
    clientId,
    hits,
    async sign(nonce, options = {}) {
      const key: CryptoKey = options.foreignKey ? foreign.privateKey : own.privateKey;
      return new SignJWT(claimsFor(nonce, options)).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
    },
    unsigned(nonce, options = {}) {
      const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsFor(nonce, options))}.`;
    },
    close: lazy.close,
  };
}

// ---------------------------------------------------------------------------------------------
// The browser's part, scripted (API tests): authorization request, dev login, consent.

/** Runs the implicit flow against oidc-provider with fetch and returns the redirect's fragment parameters. */
export async function runImplicitFlow(options: {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  nonce: string;
  state?: string;
  login: string;
}): Promise<URLSearchParams> {
  const jar = new Map<string, string>();
  const request = async (url: string, init: { method?: string; body?: string } = {}) => {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method: init.method ?? 'GET', body: init.body, headers, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(';')[0]!;
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  };
  const query = new URLSearchParams({
    client_id: options.clientId,
    response_type: 'id_token',
    scope: 'openid email profile',
    redirect_uri: options.redirectUri,
    nonce: options.nonce,
    state: options.state ?? randomBytes(8).toString('hex'),
    prompt: 'select_account',
  });
  let res = await request(`${options.authorizationEndpoint}?${query}`);
  for (let step = 0; step < 10; step++) {
    if (res.status >= 300 && res.status < 400) {
      const location = new URL(res.headers.get('location')!, options.authorizationEndpoint).href;
      if (location.startsWith(options.redirectUri)) return new URLSearchParams(new URL(location).hash.slice(1));
      res = await request(location);
      continue;
    }
    const html = await res.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    if (res.status !== 200 || !action) throw new Error(`unexpected provider answer ${res.status}: ${html.slice(0, 300)}`);
    const body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login: options.login, password: 'any' }).toString()
      : new URLSearchParams({ prompt: 'consent' }).toString();
    res = await request(new URL(action.replace(/&amp;/g, '&'), options.authorizationEndpoint).href, { method: 'POST', body });
  }
  throw new Error('the provider did not redirect back');
}
