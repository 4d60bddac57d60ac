import type { FastifyRequest } from 'fastify';
import { readMultipart, type UploadedFile } from '../modules/uploads/multipart';
import { badRequest } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'as-written': a body that fails the route's schema is answered with the schema's own message,
     * without the field's name in front, so the texts of SPEC.md 5 and 8 ('Recipient email is
     * required', 'Bio must be at most 160 characters') reach people word for word.
     */
    bodyMessages?: 'as-written';
  }
}

export interface FormBodyOptions {
  /** Accept multipart/form-data with at most this many files (a JSON-only form leaves it out). */
  maxFiles?: number;
  /** Refuses files the route does not take, before any field is validated. */
  checkFiles?: (files: UploadedFile[]) => void;
}

type FormBodyHook = ((request: FastifyRequest) => Promise<void>) & { readonly [READS_BODY]: true };

const READS_BODY = Symbol('readsBody');
const filesByRequest = new WeakMap<FastifyRequest, UploadedFile[]>();

/**
 * preValidation of the form routes (create and edit a blog, edit a profile, the settings and
 * account calls), so their bodies are validated by the route schema like every other body: a
 * missing body is an empty form, anything but an object is refused, and a multipart body is read
 * here, its text fields becoming the body the schema validates and its files waiting for the
 * handler (formFiles). The route's rate limit is counted before it (lib/rate-limit-hook.ts), so
 * nothing is read for a client over its limit.
 */
export function formBody(options: FormBodyOptions = {}): FormBodyHook {
  const hook = async (request: FastifyRequest) => {
    if (options.maxFiles !== undefined && request.isMultipart()) {
      const { fields, files } = await readMultipart(request, { maxFiles: options.maxFiles });
      options.checkFiles?.(files);
      filesByRequest.set(request, files);
      request.body = fields;
      return;
    }
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be an object');
    request.body = body;
  };
  return Object.assign(hook, { [READS_BODY]: true as const });
}

/** The files of a multipart form read by formBody, in arrival order (none for JSON). */
export function formFiles(request: FastifyRequest): UploadedFile[] {
  return filesByRequest.get(request) ?? [];
}

/** Whether a route hook is a formBody reader (the rate limit must be counted before it). */
export function readsBody(hook: unknown): boolean {
  return typeof hook === 'function' && READS_BODY in hook;
}
