import { describe, expect, it } from 'vitest';
import {
  authorizationUrl,
  checkCallback,
  GOOGLE_TEXT,
  isCallbackMessage,
  MESSAGE_TYPE,
  modeOfState,
  newState,
  parseCallback,
} from './googleFlow';

describe('Google sign-in flow helpers', () => {
  it('builds the authorization request of the implicit flow', () => {
    const url = new URL(
      authorizationUrl({
        authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
        clientId: 'abc.apps.googleusercontent.com',
        redirectUri: 'https://blog.example/signin',
        nonce: 'n.1.x',
        state: 'p.123',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'abc.apps.googleusercontent.com',
      response_type: 'id_token',
      scope: 'openid email profile',
      redirect_uri: 'https://blog.example/signin',
      nonce: 'n.1.x',
      state: 'p.123',
      prompt: 'select_account',
    });
  });

  it('marks the flow in the state and makes each state unique', () => {
    const a = newState('popup');
    expect(modeOfState(a)).toBe('popup');
    expect(modeOfState(newState('redirect'))).toBe('redirect');
    expect(newState('popup')).not.toBe(a);
    expect(modeOfState('x.1')).toBeNull();
    expect(modeOfState(null)).toBeNull();
  });

  it('reads the answer from the fragment and ignores other fragments', () => {
    expect(parseCallback('#id_token=a.b.c&state=r.1')).toEqual({ idToken: 'a.b.c', state: 'r.1', error: null });
    expect(parseCallback('#error=access_denied&state=r.1')).toEqual({ idToken: null, state: 'r.1', error: 'access_denied' });
    expect(parseCallback('#comments')).toBeNull();
    expect(parseCallback('')).toBeNull();
  });

  it('accepts only an answer with our state and a token, with the messages of SPEC.md 8', () => {
    const ok = { idToken: 't', state: 'r.1', error: null };
    expect(checkCallback(ok, 'r.1', 'redirect')).toEqual({ ok: true, idToken: 't' });
    expect(checkCallback(ok, 'r.2', 'redirect')).toEqual({ ok: false, message: GOOGLE_TEXT.redirectResultFailed });
    expect(checkCallback(ok, null, 'redirect')).toEqual({ ok: false, message: GOOGLE_TEXT.redirectResultFailed });
    expect(checkCallback({ ...ok, error: 'access_denied' }, 'r.1', 'redirect').ok).toBe(false);
    expect(checkCallback({ ...ok, idToken: null }, 'r.1', 'redirect')).toEqual({ ok: false, message: 'Authentication failed' });
    expect(checkCallback({ ...ok, error: 'access_denied' }, 'r.1', 'popup')).toEqual({ ok: false, message: 'Please try again later' });
  });

  it('recognises only its own window messages', () => {
    expect(isCallbackMessage({ type: MESSAGE_TYPE, callback: { idToken: 't', state: 'p.1', error: null } })).toBe(true);
    expect(isCallbackMessage({ type: 'other', callback: {} })).toBe(false);
    expect(isCallbackMessage('hello')).toBe(false);
  });
});
