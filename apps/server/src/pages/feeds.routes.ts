import { FEED_FORMATS, type FeedFormat } from '@inkwell/core';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { LISTS_TAG, profileTag } from '../lib/public-tags';
import { feedContentType, renderFeed } from './feeds';
import type { FeedData } from './feeds.service';
import { sendPublicDocument } from './feeds-http';

/**
 * Public feeds (issue 13): `/feed.xml` (Atom), `/rss.xml`, `/feed.json` for the site, the same
 * three under `/@{username}/` and `/tag/{tag}/`. Their extensions keep them out of the SPA's
 * client routes (web.ts isClientRoute); the public response cache keeps and invalidates them
 * with the API's answers.
 */
export const feedsRoutes: FastifyPluginAsync = async (app) => {
  const {
    feeds,
    config: { publicUrl },
  } = app.services;
  // Feeds show posts, not counts: only a post's change (LISTS_TAG) or its author's moves them.
  const config = { publicCache: 'anyone' as const, cacheTags: () => [LISTS_TAG] };
  const authorConfig = {
    ...config,
    cacheTags: (request: FastifyRequest) => [profileTag((request.params as { username: string }).username), LISTS_TAG],
  };
  const send = (request: FastifyRequest, reply: FastifyReply, format: FeedFormat, data: FeedData) =>
    sendPublicDocument(request, reply, {
      body: renderFeed(data, format, publicUrl),
      type: feedContentType(format),
    });

  for (const format of Object.keys(FEED_FORMATS) as FeedFormat[]) {
    const file = FEED_FORMATS[format].file;
    app.get(`/${file}`, { config }, async (request, reply) => send(request, reply, format, await feeds.site()));
    app.get<{ Params: { username: string } }>(`/@:username/${file}`, { config: authorConfig }, async (request, reply) =>
      send(request, reply, format, await feeds.author(request.params.username)),
    );
    app.get<{ Params: { tag: string } }>(`/tag/:tag/${file}`, { config }, async (request, reply) =>
      send(request, reply, format, await feeds.tag(request.params.tag)),
    );
  }
};
