import { blogFields, changePasswordBody, deleteAccountBody, postVersion, rawContent, transferBody, visibilityBody } from '@inkwell/core';
import { z } from 'zod';

/**
 * Bodies that a handler validates itself rather than a route schema (so the spec's messages
 * reach the client unprefixed). They are listed here, keyed by method and URL, only so the API
 * reference shows them; validation stays where it is.
 */
const blogBody = blogFields.extend({
  content: rawContent.describe('Editor.js output: { blocks: [{ type, data, tunes? }] }'),
  tags: z.array(z.string()).max(10).optional(),
  image: z.string().nullable().optional().describe('Featured image URL (an upload or https), or null to remove it'),
});

export const HANDLER_BODIES: Record<string, { body: z.ZodType; description: string }> = {
  'POST /api/v1/blogs': {
    body: blogBody,
    description:
      'JSON as below, or multipart/form-data with the same fields (content and tags as JSON strings), a featured `image` file and `images` files for image blocks that point at local placeholders.',
  },
  'PATCH /api/v1/blogs/:id': {
    body: blogBody.extend({
      version: postVersion
        .optional()
        .describe('The post version the edit started from (autosave); a stale one gets 409. Absent: not checked.'),
    }),
    description: 'As for creating a blog: JSON, or multipart/form-data with files.',
  },
  'PATCH /api/v1/change-saved-liked-blog-visibility': { body: visibilityBody, description: 'Which profile tabs others may see.' },
  'PATCH /api/v1/change-password': { body: changePasswordBody, description: 'The current and the new password.' },
  'DELETE /api/v1/users/:id': { body: deleteAccountBody, description: 'The current password (not needed for Google-only accounts).' },
  'POST /api/v1/transfer-account': { body: transferBody, description: 'The recipient and the current password.' },
};
