import {
  emptySession,
  isSignedIn,
  loginSession,
  parseStoredSession,
  type SessionFields,
  type SessionState,
  type SessionUpdate,
  USER_MESSAGES,
  type UserRole,
  updateSession,
} from '@inkwell/core';
import { create } from 'zustand';
import { STORAGE_KEYS, storage } from './storage';
import { toast } from './toast';

interface SessionStore {
  user: SessionState;
  /** When this tab last changed the session itself (Date.now()): an older /me answer must not undo it. */
  changedAt: number;
  /** Merges the supplied fields into the session and saves it under the `user` key. */
  login: (fields: SessionFields) => void;
  /** Removes the stored session and resets to the empty state. */
  logout: () => void;
  /** 'visibility' merges fields; 'followers' toggles a user id in following; other kinds do nothing. */
  update: (update: SessionUpdate) => void;
}

function save(user: SessionState): void {
  storage.set(STORAGE_KEYS.user, JSON.stringify(user));
}

export const useSession = create<SessionStore>((set, get) => ({
  user: parseStoredSession(storage.get(STORAGE_KEYS.user)),
  changedAt: 0,
  login: (fields) => {
    const user = loginSession(get().user, fields);
    save(user);
    set({ user, changedAt: Date.now() });
  },
  logout: () => {
    storage.remove(STORAGE_KEYS.user);
    set({ user: emptySession() });
  },
  update: (change) => {
    const current = get().user;
    const user = updateSession(current, change);
    if (user === current) return;
    save(user);
    set({ user, changedAt: Date.now() });
  },
}));

/**
 * The server refused this session's token (revoked, expired, the account gone): signs this tab out
 * and says so, instead of a silent jump to the sign-in page with whatever was being typed gone.
 */
export function endRefusedSession(token: string): void {
  if (sessionToken() !== token) return;
  useSession.getState().logout();
  toast.info(USER_MESSAGES.sessionExpired);
}

/** The current token outside React (api client). */
export function sessionToken(): string | null {
  return useSession.getState().user.token;
}

export function useIsSignedIn(): boolean {
  return useSession((s) => isSignedIn(s.user));
}

/** Keeps tabs in step: signing in or out in one tab updates the others. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.user && event.key !== null) return;
    useSession.setState({ user: parseStoredSession(storage.get(STORAGE_KEYS.user)) });
  });
}

/** Whether a role may open /moderation (issue 15). It only decides what the web shows: the server checks every call. */
export const canModerate = (role: UserRole | null | undefined): boolean => role === 'moderator' || role === 'admin';
