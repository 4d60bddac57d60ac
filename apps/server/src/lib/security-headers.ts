import type { FastifyInstance } from 'fastify';

export type CspDirectives = Record<string, readonly string[] | null>;

/** 'defaultSrc: ["'self'"]' → "default-src 'self'"; a null directive is left out. */
export function contentSecurityPolicy(directives: CspDirectives): string {
  return Object.entries(directives)
    .filter((entry): entry is [string, readonly string[]] => entry[1] !== null)
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' '))
    .join(';');
}

/**
 * The security headers of every response, built once: the same set helmet sends with our
 * options, without its per-request middleware cost (it halved the API's throughput).
 * A route may still override one (uploads send their own stricter CSP).
 */
export function registerSecurityHeaders(app: FastifyInstance, directives: CspDirectives): void {
  const headers = securityHeaders(directives);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers themselves, for answers given before any hook runs (Fastify's framework errors, app.ts). */
export function securityHeaders(directives: CspDirectives) {
  return {
    'content-security-policy': contentSecurityPolicy(directives),
    // The Google sign-in popup goes to the issuer and back, then hands the result to its opener.
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  } as const;
}
