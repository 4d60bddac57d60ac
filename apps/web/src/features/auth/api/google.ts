import type { SessionUser } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export interface GoogleConfig {
  enabled: boolean;
  clientId?: string;
  authorizationEndpoint?: string;
}

export interface GoogleNonce {
  nonce: string;
  /** Seconds the server accepts it. */
  expiresIn: number;
}

export interface GoogleAuthResponse {
  success: true;
  message: string;
  user: SessionUser;
}

export const googleConfigKey = ['google-auth', 'config'] as const;

/** GET /api/v1/google-auth/config → whether Google sign-in is set up, and where to send the person. */
export function fetchGoogleConfig(): Promise<GoogleConfig> {
  return apiRequest<GoogleConfig>('/google-auth/config');
}

/** GET /api/v1/google-auth/nonce → a single-use nonce the ID token must carry (10 minutes). */
export function fetchGoogleNonce(): Promise<GoogleNonce> {
  return apiRequest<GoogleNonce>('/google-auth/nonce');
}

/** POST /api/v1/google-auth {accessToken: the identity token} → {success, message, user}. */
export function googleAuth(accessToken: string): Promise<GoogleAuthResponse> {
  return apiRequest<GoogleAuthResponse>('/google-auth', { method: 'POST', body: { accessToken } });
}

/** Loaded with the auth screen so a click can open the popup at once (popup blockers want that). */
export function useGoogleConfig(enabled = true) {
  return useQuery({ queryKey: googleConfigKey, queryFn: fetchGoogleConfig, enabled, retry: false, staleTime: 10 * 60_000 });
}
