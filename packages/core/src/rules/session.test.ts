import { describe, expect, it } from 'vitest';
import { emptySession, isSignedIn, loginSession, logoutSession, parseStoredSession, updateSession } from './session';

const user = {
  token: 'tok',
  id: 'u1',
  _id: 'u1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  username: 'ada',
  profilePic: null,
  bio: 'Hi',
  followers: ['u2'],
  following: ['u3'],
  showLikedBlogs: true,
  showSavedBlogs: false,
  googleAuth: false,
};

describe('session rules (SPEC.md 3 and 4)', () => {
  it('empty state has null values, empty lists and googleAuth false', () => {
    expect(emptySession()).toEqual({
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
    });
    expect(isSignedIn(emptySession())).toBe(false);
  });

  it('login merges the supplied fields into the record', () => {
    const first = loginSession(emptySession(), user);
    expect(first).toEqual(user);
    expect(isSignedIn(first)).toBe(true);
    const merged = loginSession(first, { name: 'Ada L.', token: 'tok2' });
    expect(merged).toEqual({ ...user, name: 'Ada L.', token: 'tok2' });
  });

  it('login ignores unknown and mistyped fields', () => {
    const state = loginSession(emptySession(), { token: 't', extra: 1, followers: 'x' } as never);
    expect(state).toEqual({ ...emptySession(), token: 't' });
    expect(state).not.toHaveProperty('extra');
  });

  it('logout resets to the empty state', () => {
    expect(logoutSession()).toEqual(emptySession());
  });

  it("update 'visibility' merges fields", () => {
    const state = loginSession(emptySession(), user);
    const next = updateSession(state, { kind: 'visibility', fields: { showSavedBlogs: true, showLikedBlogs: false } });
    expect(next.showSavedBlogs).toBe(true);
    expect(next.showLikedBlogs).toBe(false);
    expect(next.token).toBe('tok');
  });

  it("update 'followers' toggles a user id in following", () => {
    const state = loginSession(emptySession(), user);
    const added = updateSession(state, { kind: 'followers', userId: 'u9' });
    expect(added.following).toEqual(['u3', 'u9']);
    const removed = updateSession(added, { kind: 'followers', userId: 'u3' });
    expect(removed.following).toEqual(['u9']);
    expect(state.following).toEqual(['u3']);
  });

  it('any other kind changes nothing', () => {
    const state = loginSession(emptySession(), user);
    expect(updateSession(state, { kind: 'something-else', fields: { name: 'X' } })).toBe(state);
  });

  it('parses a stored record, falling back to empty on bad input', () => {
    expect(parseStoredSession(JSON.stringify(user))).toEqual(user);
    expect(parseStoredSession(null)).toEqual(emptySession());
    expect(parseStoredSession('{not json')).toEqual(emptySession());
    expect(parseStoredSession('"a string"')).toEqual(emptySession());
    expect(parseStoredSession(JSON.stringify({ token: 'x' }))).toEqual({ ...emptySession(), token: 'x' });
  });
});
