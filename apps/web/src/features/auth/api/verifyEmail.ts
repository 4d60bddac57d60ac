import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import type { MessageResponse } from './signup';

/** GET /api/v1/verify-email/{verificationToken} → {success, message}. */
export function verifyEmail(verificationToken: string): Promise<MessageResponse> {
  return apiRequest<MessageResponse>(`/verify-email/${encodeURIComponent(verificationToken)}`);
}

/** Calls the API once per token (no retries, no refetch). */
export function useVerifyEmail(verificationToken: string) {
  return useQuery({
    queryKey: ['verify-email', verificationToken],
    queryFn: () => verifyEmail(verificationToken),
    enabled: verificationToken.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
}
