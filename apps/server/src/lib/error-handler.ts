import { RACE_MESSAGES } from '@inkwell/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isForeignKeyViolation, isTransientConflict } from '../db/errors';
import { AppError } from './errors';

const DOWN_LOG_INTERVAL_MS = 5000;

/** One error shape for the whole API: { success: false, message } with the right status. */
export function registerErrorHandler(app: FastifyInstance): void {
  // While the database is down every request fails at once: log the first failure, then one line
  // per interval with how many were not logged, instead of a stack trace per request.
  let lastDownLog = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).headers(error.headers).send({ success: false, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const text = issue?.message ?? 'Invalid input';
      const asWritten = error.validationContext === 'body' && request.routeOptions.config.bodyMessages === 'as-written';
      const field = asWritten ? '' : issue?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
      const message = field && !text.toLowerCase().includes(String(field).toLowerCase()) ? `${field}: ${text}` : text;
      return reply.status(400).send({ success: false, message });
    }
    const down = isDatabaseDown(error) ? 'database' : isRedisDown(error) ? 'redis' : null;
    if (down) {
      const now = Date.now();
      if (now - lastDownLog >= DOWN_LOG_INTERVAL_MS) {
        request.log.error({ err: error, alsoFailedSinceLastLog: unlogged }, `${down} unavailable`);
        lastDownLog = now;
        unlogged = 0;
      } else {
        unlogged++;
      }
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ success: false, message: 'Service temporarily unavailable. Please try again.' });
    }
    // A write that raced the deletion of what it refers to, or lost every attempt to a deadlock:
    // the client's answer, not the server's fault (logged, as they should stay rare).
    if (isForeignKeyViolation(error)) {
      request.log.warn({ err: error }, 'write refers to a row deleted meanwhile');
      return reply.status(404).send({ success: false, message: RACE_MESSAGES.deleted });
    }
    if (isTransientConflict(error)) {
      request.log.warn({ err: error }, 'write lost to concurrent writes');
      return reply.status(409).send({ success: false, message: RACE_MESSAGES.conflict });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type).
      return reply.status(status).send({ success: false, message: clientErrorMessage(error) });
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.status(500).send({ success: false, message: `Something went wrong (request ${request.id})` });
  });
}

/** JSON 404 for API paths (and everything else when no web app is served). */
export function notFoundBody(method: string, url: string) {
  return { success: false as const, message: `Route ${method} ${url.split('?')[0]} not found` };
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty';
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'File is too large';
    default:
      return error.message || 'Bad request';
  }
}

/**
 * Errors that mean the database cannot be reached right now (restart, failover, network): answered
 * 503 so clients retry, instead of 500. Connection errors (errno codes), PostgreSQL's
 * admin/crash shutdown, cannot-connect-now, too-many-connections and connection-exception
 * classes, and pg's messages for a connection that ended or a client that lost its connection.
 */
const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // The database is gone (dropped or renamed under the server): only ever raised when connecting.
  '3D000',
]);
// The last: a database that refuses new connections (ALLOW_CONNECTIONS false, code 55000, which
// other statements raise for other reasons, so matched by its message).
const DOWN_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|is not currently accepting connections/;

export function isDatabaseDown(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  const msg = (error as Error).message ?? '';
  return (code !== undefined && DOWN_CODES.has(code)) || DOWN_MESSAGES.test(msg);
}

/**
 * ioredis's errors for a command that could not reach Redis (its retries spent, or the connection
 * closed under it): a write checks its rate limits there first, so it answers 503 like a database
 * outage (the readiness probe says which), instead of 500.
 */
export function isRedisDown(error: unknown): boolean {
  const { name, message } = error as Error;
  return name === 'MaxRetriesPerRequestError' || message === 'Connection is closed.' || /^Stream isn't writeable/.test(message ?? '');
}
