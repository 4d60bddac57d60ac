import {
  type BlogListResponse,
  blogListResponse,
  followListResponse,
  profileResponse,
  profileUpdateResponse,
  USER_MESSAGES,
  userListQuery,
} from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../lib/errors';
import { cardTags, profileTag } from '../../lib/public-tags';
import { readProfileInput } from './users.input';

const usernameParams = z.object({ username: z.string().min(1) });
const idParams = z.object({ id: z.string().min(1).max(64) });
const BLOG_TABS = ['blogs', 'drafts', 'saved-blogs', 'liked-blogs'] as const;

/** Profiles (SPEC.md 2 Profile, Edit profile; 7 GET and PATCH /users/{…}). Handlers only translate HTTP. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profiles, profileEdit } = app.services;
  // A profile and its tabs are dropped by whatever changes that user's counts or lists; a tab of
  // post cards also by what changes those posts.
  const profileTags = (request: FastifyRequest) => [profileTag((request.params as { username: string }).username)];
  const publicCache = { publicCache: 'anonymous' as const, cacheTags: profileTags };
  const tabCache = {
    publicCache: 'anonymous' as const,
    cacheTags: (request: FastifyRequest, body: unknown) => [...profileTags(request), ...cardTags((body as BlogListResponse).blogs)],
  };

  app.get(
    '/users/:username',
    { config: publicCache, onRequest: app.identify, schema: { params: usernameParams, response: { 200: profileResponse } } },
    async (request) => ({ success: true as const, user: await profiles.get(request.params.username, request.user?.id ?? null) }),
  );

  for (const tab of BLOG_TABS) {
    app.get(
      `/users/:username/${tab}`,
      {
        config: tabCache,
        onRequest: app.identify,
        schema: { params: usernameParams, querystring: userListQuery, response: { 200: blogListResponse } },
      },
      async (request) => ({
        success: true as const,
        ...(await profiles.blogs(request.params.username, tab, request.user?.id ?? null, request.query)),
      }),
    );
  }

  for (const direction of ['followers', 'following'] as const) {
    app.get(
      `/users/:username/${direction}`,
      {
        config: publicCache,
        onRequest: app.identify,
        schema: { params: usernameParams, querystring: userListQuery, response: { 200: followListResponse } },
      },
      async (request) => ({
        success: true as const,
        ...(await profiles.follows(request.params.username, direction, request.user?.id ?? null, request.query)),
      }),
    );
  }

  app.patch(
    '/users/:id',
    {
      config: { rateLimit: 'profile' },
      onRequest: app.authenticate,
      schema: { params: idParams, response: { 200: profileUpdateResponse } },
    },
    async (request) => {
      // Checked before the body is read, so nobody's upload is processed for someone else's profile.
      if (request.params.id !== request.user!.id) throw forbidden(USER_MESSAGES.notYourProfile);
      const user = await profileEdit.update(request.user!.id, await readProfileInput(request));
      return { success: true as const, message: USER_MESSAGES.profileUpdated, user };
    },
  );
};
