import { API_BASE, ApiError, apiRequest, FALLBACK_ERROR } from '../../../lib/api';
import { endRefusedSession, sessionToken } from '../../../lib/session';

export interface MessageResponse {
  success: true;
  message: string;
}

/**
 * Calls that re-check the current password. The server answers a wrong password with 401, which
 * lib/api's apiRequest treats as a dead session and signs the person out; here a 401 that is about
 * the password stays an ordinary error, and any other 401 still ends the session.
 */
async function passwordCheckedRequest<T>(path: string, method: 'PATCH' | 'POST' | 'DELETE', body: unknown): Promise<T> {
  const token = sessionToken();
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, { method, headers, body: JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(FALLBACK_ERROR, 0);
  }
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    /* empty or non-JSON body */
  }
  const message =
    data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
      ? (data as { message: string }).message.trim()
      : '';
  if (!response.ok || (data as { success?: unknown } | null)?.success === false) {
    if (response.status === 401 && !/password/i.test(message) && token) endRefusedSession(token);
    throw new ApiError(message || FALLBACK_ERROR, response.status);
  }
  return data as T;
}

/** PATCH /change-password {currentPassword, newPassword}; every token stops working afterwards. */
export const changePassword = (body: { currentPassword: string; newPassword: string }) =>
  passwordCheckedRequest<MessageResponse>('/change-password', 'PATCH', body);

/** DELETE /users/{id} {currentPassword, googleAuth}. */
export const deleteAccount = (userId: string, body: { currentPassword?: string; googleAuth: boolean }) =>
  passwordCheckedRequest<MessageResponse>(`/users/${encodeURIComponent(userId)}`, 'DELETE', body);

/** POST /transfer-account {newOwnerEmail, currentPassword (omitted for Google users), googleAuth}. */
export const transferAccount = (body: { newOwnerEmail: string; currentPassword?: string; googleAuth: boolean }) =>
  passwordCheckedRequest<MessageResponse>('/transfer-account', 'POST', body);

/** POST /signout-everywhere (Bearer): every token issued before now stops working, this device's too. */
export const signoutEverywhere = () => apiRequest<MessageResponse>('/signout-everywhere', { method: 'POST' });
