import { apiRequest } from '../../../lib/api';

/** POST /newsletter/subscribe {email}: the same answer whether or not the address is subscribed. */
export function subscribeToNewsletter(email: string) {
  return apiRequest<{ success: boolean; message: string }>('/newsletter/subscribe', { method: 'POST', body: { email } });
}
