import type { SessionUser } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export interface MeResponse {
  success: true;
  user: SessionUser;
}

/** GET /api/v1/me (Bearer) → the current session user with a fresh token; 401 when revoked. */
export function fetchMe(): Promise<MeResponse> {
  return apiRequest<MeResponse>('/me');
}

export function useMe(enabled: boolean) {
  return useQuery({ queryKey: ['me'], queryFn: fetchMe, enabled, retry: false, staleTime: 5 * 60_000 });
}
