import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { ONCE_PER_LINK } from '../../../lib/queryClient';
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
    ...ONCE_PER_LINK,
  });
}
