import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import type { MessageResponse } from './signup';

/** POST /api/v1/signout-everywhere (Bearer): every token issued before now stops working. */
export function signoutEverywhere(): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/signout-everywhere', { method: 'POST' });
}

export function useSignoutEverywhere() {
  return useMutation({ mutationFn: signoutEverywhere });
}
