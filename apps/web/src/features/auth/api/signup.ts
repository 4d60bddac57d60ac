import type { SignupBody } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export interface MessageResponse {
  success: boolean;
  message: string;
}

/** POST /api/v1/signup {name, email, password} → 201 {success, message}. */
export function signup(body: SignupBody): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/signup', { method: 'POST', body });
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
