import type { blogBody } from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { formBody, formFiles } from '../../lib/form-body';
import type { BlogInput } from './blogs.service';

/** Image files a create or update may carry: the featured image and up to 20 inline ones. */
const MAX_FILES = 21;

/** Reads a create/update body, JSON or multipart, before the route schema (blogBody) validates it. */
export const blogFormBody = formBody({ maxFiles: MAX_FILES });

/** Turns a validated create/update body and its files into a BlogInput (SPEC.md 7 payload names). */
export function blogInputOf(request: FastifyRequest, body: z.infer<typeof blogBody>): BlogInput {
  const { content, tags, image: imageText, ...fields } = body;
  const files = formFiles(request);
  const featured = files.find((f) => f.fieldname === 'image');
  let image: BlogInput['image'];
  if (featured) image = { file: featured.buffer };
  else if ('image' in body) image = typeof imageText === 'string' && imageText ? { url: imageText } : null;
  const images = files.filter((f) => f.fieldname === 'images').map((f) => f.buffer);
  // A scheduled post is stored as a draft until the scheduled-posts job publishes it.
  const draft = fields.draft || !!fields.scheduledAt;
  return { ...fields, draft, content: content ?? { blocks: [] }, tags: tags ?? [], image, ...(request.isMultipart() ? { images } : {}) };
}
