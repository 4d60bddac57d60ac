/**
 * The browser's half of Google sign-in (OpenID Connect implicit flow, response_type=id_token):
 * building the authorization request and reading the answer the issuer puts in the URL fragment.
 * No network here; see hooks/useGoogleSignIn.ts for the flow itself.
 */

import { GOOGLE_MESSAGES } from '@inkwell/core';

export const GOOGLE_TEXT = {
  notConfigured: GOOGLE_MESSAGES.notConfigured,
  /** The popup could not start (blocked, or the server could not prepare it). */
  popupFailed: 'Please try again later',
  /** The redirect came back with an error or a state we did not send. */
  redirectResultFailed: 'Authentication failed. Please try again.',
  /** Any other failure, and a server failure without a message. */
  failed: GOOGLE_MESSAGES.failed,
} as const;

export type GoogleFlowMode = 'popup' | 'redirect';

/** Where the issuer sends the person back: the auth screen, which reads the fragment. */
export const CALLBACK_PATH = '/signin';
/** Carries a popup's result to the tab that opened it when window.opener is not available. */
export const CHANNEL_NAME = 'inkwell-google-signin';
export const MESSAGE_TYPE = 'inkwell:google-signin';
/** Kept across the full-page redirect (phones and tablets). */
export const REDIRECT_STORAGE_KEY = 'inkwell.googleSignin';

const PREFIX: Record<GoogleFlowMode, string> = { popup: 'p', redirect: 'r' };

function randomToken(bytes = 24): string {
  const data = new Uint8Array(bytes);
  crypto.getRandomValues(data);
  return Array.from(data, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh state; its prefix tells the returning page which flow it belongs to. */
export function newState(mode: GoogleFlowMode): string {
  return `${PREFIX[mode]}.${randomToken()}`;
}

export function modeOfState(state: string | null | undefined): GoogleFlowMode | null {
  if (!state) return null;
  if (state.startsWith('p.')) return 'popup';
  if (state.startsWith('r.')) return 'redirect';
  return null;
}

export interface AuthorizationRequest {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  nonce: string;
  state: string;
}

/** The issuer's authorization URL for an ID token (fragment response). */
export function authorizationUrl(request: AuthorizationRequest): string {
  const url = new URL(request.authorizationEndpoint);
  url.searchParams.set('client_id', request.clientId);
  url.searchParams.set('response_type', 'id_token');
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('nonce', request.nonce);
  url.searchParams.set('state', request.state);
  url.searchParams.set('prompt', 'select_account');
  return url.toString();
}

export interface GoogleCallback {
  state: string | null;
  idToken: string | null;
  error: string | null;
}

/** The issuer's answer in a URL fragment, or null when the fragment is not one. */
export function parseCallback(hash: string): GoogleCallback | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const idToken = params.get('id_token');
  const error = params.get('error');
  if (!idToken && !error) return null;
  return { state: params.get('state'), idToken, error };
}

export interface CallbackMessage {
  type: typeof MESSAGE_TYPE;
  callback: GoogleCallback;
}

export function isCallbackMessage(data: unknown): data is CallbackMessage {
  if (!data || typeof data !== 'object') return false;
  const message = data as Partial<CallbackMessage>;
  return message.type === MESSAGE_TYPE && !!message.callback && typeof message.callback === 'object';
}

export type CallbackCheck = { ok: true; idToken: string } | { ok: false; message: string };

/**
 * Whether a returned answer may be sent to the server: no error, the state we sent, a token.
 * Messages follow SPEC.md 8 for each flow.
 */
export function checkCallback(callback: GoogleCallback, expectedState: string | null, mode: GoogleFlowMode): CallbackCheck {
  const resultFailed = mode === 'popup' ? GOOGLE_TEXT.popupFailed : GOOGLE_TEXT.redirectResultFailed;
  if (callback.error || !expectedState || callback.state !== expectedState) return { ok: false, message: resultFailed };
  if (!callback.idToken) return { ok: false, message: GOOGLE_TEXT.failed };
  return { ok: true, idToken: callback.idToken };
}
