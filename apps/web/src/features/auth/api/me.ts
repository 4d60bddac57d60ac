import type { SessionUser } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export interface MeResponse {
  success: true;
  user: SessionUser;
}

/** GET /api/v1/me (Bearer) → the current session user with a fresh token; 401 when revoked. `sentAt`: when it was asked. */
export async function fetchMe(): Promise<MeResponse & { sentAt: number }> {
  const sentAt = Date.now();
  return { ...(await apiRequest<MeResponse>('/me')), sentAt };
}

export function useMe(enabled: boolean) {
  return useQuery({ queryKey: ['me'], queryFn: fetchMe, enabled, retry: false, staleTime: 5 * 60_000 });
}
