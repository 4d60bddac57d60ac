import type { ProfileUpdateFields, profileUpdateBody } from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest } from '../../lib/errors';
import { formBody, formFiles } from '../../lib/form-body';

/** What a profile update carries, whether the request was JSON or multipart. */
export interface ProfileInput {
  fields: ProfileUpdateFields;
  /** undefined keeps the picture, null removes it, a file replaces it, a URL re-selects an own upload. */
  profilePic?: { file: Buffer } | { url: string } | null;
}

/** Reads a PATCH /users/{id} body, JSON or multipart with at most the picture, before profileUpdateBody validates it. */
export const profileFormBody = formBody({
  maxFiles: 1,
  checkFiles: (files) => {
    if (files[0] && files[0].fieldname !== 'profilePic') throw badRequest('Send the picture in the profilePic field');
  },
});

/** PATCH /users/{id}: name, username, bio and profilePic (file, existing URL, or '' to remove). */
export function profileInputOf(request: FastifyRequest, body: z.infer<typeof profileUpdateBody>): ProfileInput {
  const { profilePic, ...fields } = body;
  const input: ProfileInput = { fields };
  const file = formFiles(request)[0];
  if (file) input.profilePic = { file: file.buffer };
  else if ('profilePic' in body) input.profilePic = profilePic?.trim() ? { url: profilePic.trim() } : null;
  return input;
}
