import type { SessionUser } from '../schemas/auth';

/**
 * The stored session of SPEC.md sections 3 and 4 (local storage key `user`).
 * Empty state: null values, empty lists, googleAuth false.
 */
export interface SessionState {
  token: string | null;
  id: string | null;
  _id: string | null;
  email: string | null;
  name: string | null;
  username: string | null;
  profilePic: string | null;
  bio: string | null;
  followers: string[];
  following: string[];
  showLikedBlogs: boolean | null;
  showSavedBlogs: boolean | null;
  googleAuth: boolean;
}

/** Fields a login or a 'visibility' update may supply. */
export type SessionFields = Partial<SessionUser> | Partial<SessionState>;

export type SessionUpdate =
  | { kind: 'visibility'; fields: Pick<SessionFields, 'showLikedBlogs' | 'showSavedBlogs'> & SessionFields }
  | { kind: 'followers'; userId: string }
  | { kind: string; [key: string]: unknown };

export function emptySession(): SessionState {
  return {
    token: null,
    id: null,
    _id: null,
    email: null,
    name: null,
    username: null,
    profilePic: null,
    bio: null,
    followers: [],
    following: [],
    showLikedBlogs: null,
    showSavedBlogs: null,
    googleAuth: false,
  };
}

const STRING_KEYS = ['token', 'id', '_id', 'email', 'name', 'username', 'profilePic', 'bio'] as const;
const LIST_KEYS = ['followers', 'following'] as const;
const FLAG_KEYS = ['showLikedBlogs', 'showSavedBlogs'] as const;

/** Copies only the known session fields of the right type; unknown or mistyped ones are dropped. */
function pickFields(fields: unknown): Partial<SessionState> {
  if (!fields || typeof fields !== 'object') return {};
  const source = fields as Record<string, unknown>;
  const out: Partial<SessionState> = {};
  for (const key of STRING_KEYS) {
    const value = source[key];
    if (typeof value === 'string' || value === null) out[key] = value;
  }
  for (const key of LIST_KEYS) {
    const value = source[key];
    if (Array.isArray(value)) out[key] = value.filter((v): v is string => typeof v === 'string');
  }
  for (const key of FLAG_KEYS) {
    const value = source[key];
    if (typeof value === 'boolean' || value === null) out[key] = value;
  }
  if (typeof source.googleAuth === 'boolean') out.googleAuth = source.googleAuth;
  return out;
}

/** Login: merges the supplied fields into the record (SPEC.md 4). */
export function loginSession(state: SessionState, fields: SessionFields): SessionState {
  return { ...state, ...pickFields(fields) };
}

/** Logout: back to the empty state (the caller removes the stored record). */
export function logoutSession(): SessionState {
  return emptySession();
}

/**
 * Update (SPEC.md 4): kind 'visibility' merges fields; kind 'followers' toggles a user id
 * in `following` (removed if present, else added); any other kind changes nothing.
 */
export function updateSession(state: SessionState, update: SessionUpdate): SessionState {
  if (update.kind === 'visibility' && 'fields' in update) {
    return { ...state, ...pickFields(update.fields) };
  }
  if (update.kind === 'followers' && 'userId' in update && typeof update.userId === 'string') {
    const { userId } = update;
    const following = state.following.includes(userId) ? state.following.filter((id) => id !== userId) : [...state.following, userId];
    return { ...state, following };
  }
  return state;
}

/** Reads a stored record (JSON text or null) back into a well-formed session. */
export function parseStoredSession(raw: string | null | undefined): SessionState {
  if (!raw) return emptySession();
  try {
    return loginSession(emptySession(), JSON.parse(raw) as unknown as SessionFields);
  } catch {
    return emptySession();
  }
}

/** True when the session carries a token (a signed-in user). */
export function isSignedIn(state: Pick<SessionState, 'token'>): boolean {
  return typeof state.token === 'string' && state.token.length > 0;
}
