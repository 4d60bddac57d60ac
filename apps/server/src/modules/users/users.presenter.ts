import type { FollowUser, Profile, SessionUser, UserCard } from '@inkwell/core';
import { truthy } from '../../db/flags';
import { canSeeProfileList } from '../../lib/policies';
import type { FollowUserRow, ProfileRow } from './users.lists.repo';
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
    role: user.role,
  };
}

/** A user in followers/following lists, with whether the viewer follows them. */
export function presentFollowUser(row: FollowUserRow): FollowUser {
  return { ...presentUserCard(row), isFollowing: truthy(row.is_following) };
}

export function presentUserCard(row: { id: string; name: string; username: string; profile_pic: string | null }): UserCard {
  return { _id: row.id, name: row.name, username: row.username, profilePic: row.profile_pic };
}

/** The profile page's user (SPEC.md 2 Profile); no e-mail, drafts counted only for the owner. */
export function presentProfile(row: ProfileRow, viewerId: string | null, followingPreview: UserCard[]): Profile {
  const isOwner = viewerId === row.id;
  const lists = { id: row.id, showSavedBlogs: row.show_saved_blogs === 1, showLikedBlogs: row.show_liked_blogs === 1 };
  return {
    _id: row.id,
    name: row.name,
    username: row.username,
    bio: row.bio,
    profilePic: row.profile_pic,
    createdAt: row.created_at,
    followerCount: row.follower_count,
    followingCount: row.following_count,
    publishedCount: row.published_count,
    likedCount: Number(row.liked_count ?? 0),
    savedCount: Number(row.saved_count ?? 0),
    draftCount: canSeeProfileList(viewerId, lists, 'drafts') ? Number(row.draft_count ?? 0) : null,
    showSavedBlogs: lists.showSavedBlogs,
    showLikedBlogs: lists.showLikedBlogs,
    googleAuth: row.google_auth === 1,
    isOwner,
    isFollowing: !isOwner && truthy(row.is_following),
    isBlocked: false,
    isMuted: false,
    followingPreview,
  };
}

// A quote inside a JSON string is always escaped, so `,"` never occurs in the user's own texts,
// and no object nested in a profile has this key: the one match is the field.
const FOLLOWER_COUNT = /,"followerCount":\d+,/;

/** A cached profile body with another follower count (lib/live-counts.ts); undefined if its shape is not the expected one. */
export function withFollowerCount(body: string, count: string): string | undefined {
  const found = FOLLOWER_COUNT.exec(body);
  if (!found || !/^\d+$/.test(count)) return undefined;
  return `${body.slice(0, found.index)},"followerCount":${count},${body.slice(found.index + found[0].length)}`;
}
