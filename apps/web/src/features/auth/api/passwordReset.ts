import type { ForgotPasswordBody, ResetPasswordBody } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import type { MessageResponse } from './signup';

/** POST /api/v1/forgot-password {email} → the same {success, message} whether or not the address has an account. */
export function forgotPassword(body: ForgotPasswordBody): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/forgot-password', { method: 'POST', body });
}

/** POST /api/v1/reset-password {token, password} → {success, message}; every session of the account ends. */
export function resetPassword(body: ResetPasswordBody): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/reset-password', { method: 'POST', body });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
