import { z } from 'zod';
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_INPUT_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  USER_ROLES,
} from '../constants';
import { visibleText } from './text';

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(MAX_EMAIL_LENGTH, 'Email is too long')
  .pipe(z.email('Please enter a valid email address'))
  .transform((e) => e.toLowerCase());

export const passwordField = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** Normalized (NFC, invisible characters removed, trimmed); a name of only invisible characters is empty. */
export const nameField = visibleText({
  required: 'Name is required',
  max: MAX_NAME_LENGTH,
  tooLong: `Name must be at most ${MAX_NAME_LENGTH} characters`,
});

export const signupBody = z.object({ name: nameField, email: emailField, password: passwordField });
export type SignupBody = z.input<typeof signupBody>;

export const signinBody = z.object({
  email: emailField,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(MAX_PASSWORD_INPUT_LENGTH),
});
export type SigninBody = z.input<typeof signinBody>;

export const verifyEmailParams = z.object({ verificationToken: z.string().min(1).max(200) });

/** POST /forgot-password: the answer is the same whether or not the address has an account. */
export const forgotPasswordBody = z.object({ email: emailField });
export type ForgotPasswordBody = z.input<typeof forgotPasswordBody>;

/** POST /reset-password: the token from the mailed link and the new password (confirmed in the form). */
export const resetPasswordBody = z.object({
  token: z.string({ error: 'The reset link is missing its token' }).min(1, 'The reset link is missing its token').max(200),
  password: passwordField,
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

/** The session user of SPEC.md section 3, as returned by sign-in. */
export const sessionUser = z.object({
  token: z.string(),
  id: z.string(),
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  username: z.string(),
  profilePic: z.string().nullable(),
  bio: z.string().nullable(),
  followers: z.array(z.string()),
  following: z.array(z.string()),
  showLikedBlogs: z.boolean(),
  showSavedBlogs: z.boolean(),
  googleAuth: z.boolean(),
  /** Issue 15: moderators and admins see the moderation screen. */
  role: z.enum(USER_ROLES),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const signinResponse = z.object({ success: z.literal(true), message: z.string(), user: sessionUser });
