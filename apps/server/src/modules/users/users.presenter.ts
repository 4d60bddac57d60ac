import type { SessionUser } from '@inkwell/core';
import type { UserRow } from './users.repo';

/** The session user of SPEC.md section 3 (sign-in, Google sign-in, profile update). */
export function presentSessionUser(user: UserRow, token: string, follows: { followers: string[]; following: string[] }): SessionUser {
  return {
    token,
    id: user.id,
    _id: user.id,
    email: user.email,
    name: user.name,
    username: user.username,
    profilePic: user.profile_pic,
    bio: user.bio,
    followers: follows.followers,
    following: follows.following,
    showLikedBlogs: user.show_liked_blogs === 1,
    showSavedBlogs: user.show_saved_blogs === 1,
    googleAuth: user.google_auth === 1,
  };
}
