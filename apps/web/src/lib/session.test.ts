import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A browser's localStorage and storage events, as far as the session store uses them (node has neither). */
function fakeWindow(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  const localStorage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  return Object.assign(new EventTarget(), { localStorage, items });
}

/** The store as a freshly loaded tab sees it: it reads local storage once, when the module loads. */
async function loadStore(win: ReturnType<typeof fakeWindow>) {
  vi.stubGlobal('window', win);
  vi.resetModules();
  return (await import('./session')).useSession;
}

const signedIn = { token: 'tok', id: 'u1', _id: 'u1', email: 'a@example.com', name: 'Ada', username: 'ada', following: ['u2'] };

describe('session store (SPEC.md 3, 4: local storage key "user")', () => {
  let win: ReturnType<typeof fakeWindow>;
  beforeEach(() => {
    win = fakeWindow();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('starts empty, signs in with the known fields only, and saves them', async () => {
    const session = await loadStore(win);
    expect(session.getState().user).toMatchObject({ token: null, following: [], googleAuth: false });
    session.getState().login({ ...signedIn, isAdmin: true } as never);
    expect(session.getState().user).toMatchObject(signedIn);
    expect(session.getState().user).not.toHaveProperty('isAdmin');
    expect(JSON.parse(win.items.get('user')!)).toMatchObject(signedIn);
  });

  it('a new tab reads the stored session; a broken record reads as signed out', async () => {
    win = fakeWindow({ user: JSON.stringify(signedIn) });
    expect((await loadStore(win)).getState().user).toMatchObject(signedIn);
    win = fakeWindow({ user: '{not json' });
    expect((await loadStore(win)).getState().user.token).toBeNull();
  });

  it('follow and visibility updates change the saved record; other kinds change nothing', async () => {
    const session = await loadStore(win);
    session.getState().login(signedIn);
    session.getState().update({ kind: 'followers', userId: 'u3' });
    expect(session.getState().user.following).toEqual(['u2', 'u3']);
    session.getState().update({ kind: 'followers', userId: 'u2' });
    expect(session.getState().user.following).toEqual(['u3']);
    session.getState().update({ kind: 'visibility', fields: { showLikedBlogs: true, showSavedBlogs: false } });
    expect(JSON.parse(win.items.get('user')!)).toMatchObject({ following: ['u3'], showLikedBlogs: true, showSavedBlogs: false });
    const before = session.getState().user;
    session.getState().update({ kind: 'something-else' });
    expect(session.getState().user).toBe(before);
  });

  it('signing out removes the record; another tab signing in or out is followed here', async () => {
    const session = await loadStore(win);
    session.getState().login(signedIn);
    session.getState().logout();
    expect(win.items.has('user')).toBe(false);
    expect(session.getState().user.token).toBeNull();

    // Another tab writes the record and the browser tells this one.
    win.items.set('user', JSON.stringify(signedIn));
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'user' }));
    expect(session.getState().user.token).toBe('tok');
    win.items.delete('user');
    win.dispatchEvent(Object.assign(new Event('storage'), { key: 'theme' }));
    expect(session.getState().user.token).toBe('tok'); // another key: ignored
    win.dispatchEvent(Object.assign(new Event('storage'), { key: null })); // localStorage.clear()
    expect(session.getState().user.token).toBeNull();
  });
});
