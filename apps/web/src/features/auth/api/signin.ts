import type { SessionUser, SigninBody } from '@inkwell/core';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export interface SigninResponse {
  success: true;
  message: string;
  user: SessionUser;
}

/** POST /api/v1/signin {email, password} → {success, message, user}. */
export function signin(body: SigninBody): Promise<SigninResponse> {
  return apiRequest<SigninResponse>('/signin', { method: 'POST', body });
}

export function useSignin() {
  return useMutation({ mutationFn: signin });
}
