import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { ONCE_PER_LINK } from '../../../lib/queryClient';

interface MessageResponse {
  success: boolean;
  message: string;
}

/** POST /newsletter/confirm {token}: the double opt-in's second step. */
export function confirmSubscription(token: string) {
  return apiRequest<MessageResponse>('/newsletter/confirm', { method: 'POST', body: { token } });
}

/** POST /newsletter/unsubscribe/{token}: the same address a mail client's one-click button posts to. */
export function unsubscribe(token: string) {
  return apiRequest<MessageResponse>(`/newsletter/unsubscribe/${encodeURIComponent(token)}`, { method: 'POST' });
}

/** Confirms once per token when the page opens (the link in the mail leads here). */
export function useConfirmSubscription(token: string) {
  return useQuery({
    queryKey: ['newsletter-confirm', token],
    queryFn: () => confirmSubscription(token),
    enabled: token.length > 0,
    ...ONCE_PER_LINK,
  });
}
