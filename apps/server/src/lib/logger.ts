import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/** Fastify's logger options (pino's, which fastify owns: the server does not depend on pino itself). */
type PinoLoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** Where log lines go: pino writes one JSON line per call (fastify's pino; no direct dependency). */
export interface LogStream {
  write(line: string): void;
}

const ERROR_LEVEL = 50;

/**
 * A response stream that ends before its body was sent: the reader closed the tab or moved on
 * mid-download. Node's streams name it ERR_STREAM_PREMATURE_CLOSE; the older end-of-stream
 * package that @fastify/compress pipes through says only 'premature close'.
 */
export function isPrematureClose(value: unknown): boolean {
  if (!(value instanceof Error)) return false;
  return (value as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || value.message.toLowerCase() === 'premature close';
}

/** The error a log call is about: `log.error(err)` or `log.error({ err }, msg)`. */
function loggedError(first: unknown): unknown {
  if (first instanceof Error) return first;
  if (first && typeof first === 'object' && 'err' in first) return (first as { err: unknown }).err;
  return undefined;
}

/**
 * pino options of the app. An abandoned download is normal traffic, yet @fastify/compress logs
 * it with `log.error`: such lines are written at debug instead, whoever logs them.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: LogStream): PinoLoggerOptions & { stream?: LogStream } {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    ...(stream ? { stream } : {}),
    hooks: {
      logMethod(args, method, level) {
        if (level >= ERROR_LEVEL && level < ERROR_LEVEL + 10 && isPrematureClose(loggedError(args[0]))) {
          if (this.isLevelEnabled('debug')) this.debug.apply(this, args);
          return;
        }
        method.apply(this, args);
      },
    },
  };
}
