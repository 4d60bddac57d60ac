import { z } from 'zod';
import {
  MAX_BIO_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_PAGE_LIMIT,
  MAX_PASSWORD_INPUT_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from '../constants';
import { MAX_USERNAME_LENGTH, MIN_USERNAME_LENGTH, NOTHING_TO_UPDATE, TRANSFER_MESSAGES } from '../messages';
import { nameField, sessionUser } from './auth';
import { queryWholeNumber } from './common';
import { normalizeText, optionalVisibleText } from './text';

/** Lowercase letters, digits and underscores, 3 to 20 characters; input is trimmed and lowercased first. */
export const usernameField = z
  .string({ error: 'Username is required' })
  .overwrite((u) => normalizeText(u).toLowerCase())
  .min(MIN_USERNAME_LENGTH, `Username must be ${MIN_USERNAME_LENGTH}-${MAX_USERNAME_LENGTH} characters`)
  .max(MAX_USERNAME_LENGTH, `Username must be ${MIN_USERNAME_LENGTH}-${MAX_USERNAME_LENGTH} characters`)
  .regex(/^[a-z0-9_]+$/, 'Username can contain only lowercase letters, numbers and underscores');

export const bioField = optionalVisibleText({
  invalid: 'Bio must be text',
  max: MAX_BIO_LENGTH,
  tooLong: `Bio must be at most ${MAX_BIO_LENGTH} characters`,
  multiline: true,
});

/**
 * The text fields of PATCH /users/{id}; each is optional (only what changed is sent). profilePic is
 * read separately. bio is optional on a profile (shown as null when empty), so null clears it like
 * ''; name and username are required ones: null is refused with their 'is required' message.
 */
export const profileUpdateFields = z.object({
  name: nameField.optional(),
  username: usernameField.optional(),
  bio: bioField.nullable().optional().meta({ description: "The profile's bio; '' or null clears it" }),
});
export type ProfileUpdateFields = z.infer<typeof profileUpdateFields>;

/**
 * The body of PATCH /users/{id}, as JSON or as multipart/form-data text fields: the profile fields
 * and profilePic ('' or null removes the picture, a URL re-selects an own upload; in a form, a file
 * in this field replaces it).
 */
export const profileUpdateBody = profileUpdateFields.extend({
  profilePic: z
    .string({ error: 'profilePic must be a file, an image URL or an empty string' })
    .nullable()
    .optional()
    .meta({ description: "An uploaded image's URL, or '' / null to remove the picture; in a form, the image file" }),
});

export const visibilityBody = z
  .object({
    showLikedBlogs: z.boolean({ error: 'showLikedBlogs must be true or false' }).optional(),
    showSavedBlogs: z.boolean({ error: 'showSavedBlogs must be true or false' }).optional(),
  })
  .refine((b) => b.showLikedBlogs !== undefined || b.showSavedBlogs !== undefined, NOTHING_TO_UPDATE);

const optionalPassword = z.string({ error: 'Password must be text' }).max(MAX_PASSWORD_INPUT_LENGTH).optional();

export const changePasswordBody = z.object({
  currentPassword: optionalPassword,
  newPassword: z
    .string({ error: 'New password is required' })
    .min(MIN_PASSWORD_LENGTH, `New password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `New password must be at most ${MAX_PASSWORD_LENGTH} characters`),
});

/** googleAuth is what the client believes; the server decides from the account itself. */
export const deleteAccountBody = z.object({ currentPassword: optionalPassword, googleAuth: z.boolean().optional() });

export const transferBody = z.object({
  newOwnerEmail: z
    .string({ error: TRANSFER_MESSAGES.emailRequired })
    .trim()
    .min(1, TRANSFER_MESSAGES.emailRequired)
    .max(MAX_EMAIL_LENGTH, TRANSFER_MESSAGES.emailInvalid)
    .pipe(z.email(TRANSFER_MESSAGES.emailInvalid))
    .transform((e) => e.toLowerCase()),
  currentPassword: optionalPassword,
  googleAuth: z.boolean().optional(),
});

export const userListQuery = z.object({
  page: queryWholeNumber(1, 100_000, 1),
  limit: queryWholeNumber(1, MAX_PAGE_LIMIT, 10),
});

/** A user in lists (followers, following, the profile's Following card). */
export const userCardSchema = z.object({ _id: z.string(), name: z.string(), username: z.string(), profilePic: z.string().nullable() });
export type UserCard = z.infer<typeof userCardSchema>;

/** The profile page (SPEC.md 2 Profile): counts and the viewer's flags instead of unbounded id lists. */
export const profileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  bio: z.string().nullable(),
  profilePic: z.string().nullable(),
  createdAt: z.string(),
  followerCount: z.number(),
  followingCount: z.number(),
  publishedCount: z.number(),
  likedCount: z.number(),
  savedCount: z.number(),
  /** Only for the owner; null for everyone else. */
  draftCount: z.number().nullable(),
  showSavedBlogs: z.boolean(),
  showLikedBlogs: z.boolean(),
  googleAuth: z.boolean(),
  isOwner: z.boolean(),
  isFollowing: z.boolean(),
  /** The signed-in viewer blocked or muted this user (issue 15); false for visitors. */
  isBlocked: z.boolean(),
  isMuted: z.boolean(),
  followingPreview: z.array(userCardSchema),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileResponse = z.object({ success: z.literal(true), user: profileSchema });

export const followUserSchema = userCardSchema.extend({ isFollowing: z.boolean() });
export type FollowUser = z.infer<typeof followUserSchema>;
export const followListResponse = z.object({ success: z.literal(true), users: z.array(followUserSchema), hasMore: z.boolean() });

export const profileUpdateResponse = z.object({ success: z.literal(true), message: z.string(), user: sessionUser });

export const visibilityResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  showLikedBlogs: z.boolean(),
  showSavedBlogs: z.boolean(),
});

export const transferResultData = z.object({
  transferredBlogs: z.number(),
  transferredComments: z.number(),
  transferredFollowers: z.number(),
});
export type TransferResultData = z.infer<typeof transferResultData>;
export const transferConfirmResponse = z.object({ success: z.literal(true), message: z.string(), data: transferResultData });
