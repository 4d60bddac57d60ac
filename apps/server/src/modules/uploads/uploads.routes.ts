import { uploadResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../lib/errors';
import { readMultipart } from './multipart';
import type { StoredImage } from './uploads.service';

const uploadQuery = z.object({
  kind: z.enum(['featured', 'inline', 'avatar']).default('inline'),
  /** Editor.js lets the uploader's field name be configured; 'image' is its default. */
  field: z
    .string()
    .regex(/^[\w.[\]-]{1,64}$/, 'field must be a simple form field name')
    .default('image'),
});

const byUrlBody = z.object({ url: z.string().trim().min(1, 'Please enter an image URL').max(2048, 'That URL is too long') });

/** The Editor.js image tool's response shape (success 1, file.url). */
const editorJsFile = (img: StoredImage) => ({
  success: 1 as const,
  file: { url: img.url, imageId: img.id, width: img.width, height: img.height },
});

/** Image uploads for the editor, featured images and avatars. Handlers only translate HTTP. */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { uploads } = app.services;

  app.post(
    '/uploads/image',
    {
      config: { rateLimit: 'upload' },
      onRequest: app.authenticate,
      schema: { querystring: uploadQuery, response: { 200: uploadResponse } },
    },
    async (request) => {
      const { kind, field } = request.query;
      const { files } = await readMultipart(request, { maxFiles: 1 });
      const file = files.find((f) => f.fieldname === field);
      if (!file) throw badRequest(`Please choose an image to upload (form field "${field}")`);
      return editorJsFile(await uploads.storeImage(request.user!.id, file.buffer, kind));
    },
  );

  app.post(
    '/uploads/image-by-url',
    {
      config: { rateLimit: 'upload' },
      onRequest: app.authenticate,
      schema: { querystring: uploadQuery.pick({ kind: true }), body: byUrlBody, response: { 200: uploadResponse } },
    },
    async (request) => {
      return editorJsFile(await uploads.storeImageFromUrl(request.user!.id, request.body.url, request.query.kind));
    },
  );
};
