import { type BlogListResponse, blogListQuery, blogListResponse } from '@inkwell/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cardTags } from '../../lib/public-tags';

/**
 * Search (GET /search-blogs?search=…|tag=…&page=&limit=). The ranking lives in search.repo.ts; the
 * blogs service applies the same filters as GET /blogs, so both calls answer the same way.
 */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { blogs } = app.services;

  app.get(
    '/search-blogs',
    // The answer depends only on the URL and public data: lib/public-cache.ts. Which posts match
    // changes only with a post (LISTS_TAG); a like moves only the counts on its card.
    {
      config: { publicCache: 'anyone', cacheTags: (_request, body) => cardTags((body as BlogListResponse).blogs) },
      schema: { querystring: blogListQuery, response: { 200: blogListResponse } },
    },
    async (request) => ({ success: true as const, ...(await blogs.list(request.query)) }),
  );
};
