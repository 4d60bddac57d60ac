import { type ProfileUpdateFields, profileUpdateFields } from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest } from '../../lib/errors';
import { readMultipart } from '../uploads/multipart';

/** What a profile update carries, whether the request was JSON or multipart. */
export interface ProfileInput {
  fields: ProfileUpdateFields;
  /** undefined keeps the picture, null removes it, a file replaces it, a URL re-selects an own upload. */
  profilePic?: { file: Buffer } | { url: string } | null;
}

/**
 * Validates a body with the schema's own message, unprefixed: the messages of SPEC.md 5 and 8
 * ('Recipient email is required', 'Bio must be at most 160 characters') are shown as they are.
 */
export function parseInput<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const value = body ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('Request body must be an object');
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid input');
  return parsed.data;
}

/** PATCH /users/{id}: name, username, bio and profilePic (file, existing URL, or '' to remove). */
export async function readProfileInput(request: FastifyRequest): Promise<ProfileInput> {
  if (request.isMultipart()) {
    const { fields, files } = await readMultipart(request, { maxFiles: 1 });
    const file = files[0];
    if (file && file.fieldname !== 'profilePic') throw badRequest('Send the picture in the profilePic field');
    const input: ProfileInput = { fields: parseInput(profileUpdateFields, pick(fields)) };
    if (file) input.profilePic = { file: file.buffer };
    else if ('profilePic' in fields) input.profilePic = picFromText(fields.profilePic);
    return input;
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const input: ProfileInput = { fields: parseInput(profileUpdateFields, body) };
  if ('profilePic' in body) {
    const pic = body.profilePic;
    if (pic !== null && typeof pic !== 'string') throw badRequest('profilePic must be a file, an image URL or an empty string');
    input.profilePic = picFromText(pic);
  }
  return input;
}

const picFromText = (text: string | null | undefined) => (text?.trim() ? { url: text.trim() } : null);

/** Only the known text fields; FormData sends every value as a string. */
function pick(fields: Record<string, string>) {
  const out: Record<string, string> = {};
  for (const key of ['name', 'username', 'bio'] as const) if (key in fields) out[key] = fields[key]!;
  return out;
}
