import { type blogBody, type blogUpdateBody, NOTHING_TO_UPDATE } from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest } from '../../lib/errors';
import { formBody, formFiles } from '../../lib/form-body';
import type { BlogInput, BlogPatch } from './blog-edit';

/** Image files a create or update may carry: the featured image and up to 20 inline ones. */
const MAX_FILES = 21;

/** Reads a create/update body, JSON or multipart, before the route schema (blogBody) validates it. */
export const blogFormBody = formBody({ maxFiles: MAX_FILES });

/** Turns a validated create body and its files into a BlogInput (SPEC.md 7 payload names). */
export function blogInputOf(request: FastifyRequest, body: z.infer<typeof blogBody>): BlogInput {
  const patch = blogPatchOf(request, body);
  // A scheduled post is stored as a draft until the scheduled-posts job publishes it.
  const draft = body.draft || !!body.scheduledAt;
  return {
    ...patch,
    title: body.title,
    description: body.description,
    draft,
    content: body.content ?? { blocks: [] },
    tags: body.tags ?? [],
  };
}

/** Turns a validated update body and its files into a BlogPatch: what the body leaves out stays as it is. */
export function blogPatchOf(request: FastifyRequest, body: z.infer<typeof blogUpdateBody>): BlogPatch {
  const { image: imageText, ...fields } = body;
  const files = formFiles(request);
  const featured = files.find((f) => f.fieldname === 'image');
  let image: BlogInput['image'];
  if (featured) image = { file: featured.buffer };
  else if ('image' in body) image = typeof imageText === 'string' && imageText ? { url: imageText } : null;
  const images = files.filter((f) => f.fieldname === 'images').map((f) => f.buffer);
  const patch: BlogPatch = { ...fields, image, ...(request.isMultipart() ? { images } : {}) };
  // Nothing named (`{}`, unknown fields, a version alone) is refused: it answered 'Blog updated',
  // wrote a revision and moved the post's modified date (feeds, dateModified) for no change.
  const { version: _version, images: placeholders, ...named } = patch;
  if (Object.values(named).every((value) => value === undefined) && !placeholders?.length) throw badRequest(NOTHING_TO_UPDATE);
  return patch;
}
