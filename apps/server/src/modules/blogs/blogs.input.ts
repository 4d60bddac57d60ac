import { blogFields, postVersion } from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../lib/errors';
import { readMultipart } from '../uploads/multipart';
import type { BlogInput } from './blogs.service';

/** Image files a create or update may carry: the featured image and up to 20 inline ones. */
const MAX_FILES = 21;

/** Turns a JSON or multipart create/update request into a BlogInput (SPEC.md 7 payload names). */
export async function readBlogInput(request: FastifyRequest): Promise<BlogInput> {
  if (request.isMultipart()) {
    const { fields, files } = await readMultipart(request, { maxFiles: MAX_FILES });
    const base = parseFields(fields);
    const featured = files.find((f) => f.fieldname === 'image');
    let image: BlogInput['image'];
    if (featured) image = { file: featured.buffer };
    else if ('image' in fields) image = fields.image ? { url: fields.image } : null;
    const images = files.filter((f) => f.fieldname === 'images').map((f) => f.buffer);
    return {
      ...base,
      content: fields.content ?? '{"blocks":[]}',
      tags: fields.tags ?? '[]',
      image,
      images,
      version: readVersion(fields.version),
    };
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be an object');
  const base = parseFields(body);
  let image: BlogInput['image'];
  if ('image' in body) image = typeof body.image === 'string' && body.image ? { url: body.image } : null;
  return { ...base, content: body.content ?? { blocks: [] }, tags: body.tags ?? [], image, version: readVersion(body.version) };
}

/** The optional `version` of an update (autosave conflicts); absent or '' means "no check". */
function readVersion(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const parsed = postVersion.safeParse(raw);
  if (!parsed.success) throw badRequest('version: must be a whole number');
  return parsed.data;
}

function parseFields(source: Record<string, unknown>) {
  const parsed = blogFields.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.');
    const message = issue?.message ?? 'Invalid input';
    throw badRequest(field && !message.toLowerCase().includes(field.toLowerCase()) ? `${field}: ${message}` : message);
  }
  return parsed.data;
}
