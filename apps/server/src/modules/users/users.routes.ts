import {
  type BlogListResponse,
  blogListResponse,
  deleteAccountBody,
  followListResponse,
  messageResponse,
  type Profile,
  profileResponse,
  profileUpdateBody,
  profileUpdateResponse,
  USER_MESSAGES,
  userListQuery,
} from '@inkwell/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../lib/errors';
import { formBody } from '../../lib/form-body';
import { canEditProfile } from '../../lib/policies';
import { cardTags, followersTag, LISTS_TAG, profileTag } from '../../lib/public-tags';
import { profileFormBody, profileInputOf } from './users.input';
import { withFollowerCount } from './users.presenter';

const usernameParams = z.object({ username: z.string().min(1) });
const idParams = z.object({ id: z.string().min(1).max(64) });
const BLOG_TABS = ['blogs', 'drafts', 'saved-blogs', 'liked-blogs'] as const;

/**
 * The policy's rule (canEditProfile), asked here before the body is read, so nobody's upload is
 * processed for someone else's profile. An id the params schema refuses is left to it, so that
 * answer stays a 400.
 */
async function ownProfileOnly(request: FastifyRequest) {
  const params = idParams.safeParse(request.params);
  if (params.success && !canEditProfile(request.user!.id, params.data.id)) throw forbidden(USER_MESSAGES.notYourProfile);
}

/** Profiles and accounts (SPEC.md 2 Profile, Edit profile; 7 GET, PATCH and DELETE /users/{…}). Handlers only translate HTTP. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profiles, profileEdit, account } = app.services;
  // A profile and its tabs are dropped by whatever changes that user's counts or lists; a tab of
  // post cards also by what changes those posts. A follow keeps the profile: its follower count
  // is put in when served (lib/live-counts.ts); the followers tab goes.
  const usernameOf = (request: FastifyRequest) => (request.params as { username: string }).username;
  const profileTags = (request: FastifyRequest) => [profileTag(usernameOf(request))];
  const publicCache = { publicCache: 'anonymous' as const, cacheTags: profileTags };
  const profileCache = {
    ...publicCache,
    // Its liked and saved counts leave out posts the reader may not see: a post hidden, restored or
    // made a draft (LISTS_TAG) moves the counts of everyone who liked or saved it, as on /@user.
    cacheTags: (request: FastifyRequest) => [...profileTags(request), LISTS_TAG],
    liveCounts: {
      keyOf: (request: FastifyRequest) => followersTag(usernameOf(request)),
      seen: (body: unknown) => String((body as { user: Profile }).user.followerCount),
      read: (request: FastifyRequest) => profiles.followerCount(usernameOf(request)),
      apply: withFollowerCount,
    },
  };
  const followsCache = {
    followers: { ...publicCache, cacheTags: (request: FastifyRequest) => [...profileTags(request), followersTag(usernameOf(request))] },
    following: publicCache,
  };
  const tabCache = {
    publicCache: 'anonymous' as const,
    cacheTags: (request: FastifyRequest, body: unknown) => [...profileTags(request), ...cardTags((body as BlogListResponse).blogs)],
  };

  app.get(
    '/users/:username',
    { config: profileCache, onRequest: app.identify, schema: { params: usernameParams, response: { 200: profileResponse } } },
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
        config: followsCache[direction],
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
      config: { rateLimit: 'profile', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: [ownProfileOnly, profileFormBody],
      schema: {
        params: idParams,
        body: profileUpdateBody,
        consumes: ['application/json', 'multipart/form-data'],
        description: 'JSON, or multipart/form-data with the same fields and the picture as a `profilePic` file.',
        response: { 200: profileUpdateResponse },
      },
    },
    async (request) => {
      const user = await profileEdit.update(request.user!.id, profileInputOf(request, request.body));
      return { success: true as const, message: USER_MESSAGES.profileUpdated, user };
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { rateLimit: 'password', bodyMessages: 'as-written' },
      onRequest: app.authenticate,
      preValidation: formBody(),
      schema: { params: idParams, body: deleteAccountBody, response: { 200: messageResponse } },
    },
    async (request) => {
      await account.deleteAccount(request.user!.id, request.params.id, request.body);
      return { success: true, message: USER_MESSAGES.accountDeleted };
    },
  );
};
