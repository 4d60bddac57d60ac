import type { DigestFrequency } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export interface DigestSettings {
  success: true;
  message?: string;
  frequency: DigestFrequency;
}

export const DIGEST_KEY = ['digest-settings'] as const;

/** GET /digest-settings: the signed-in reader's digest of the authors they follow. */
export function useDigestSettings() {
  return useQuery({ queryKey: DIGEST_KEY, queryFn: () => apiRequest<DigestSettings>('/digest-settings') });
}

/** PUT /digest-settings {frequency}. */
export function saveDigestFrequency(frequency: DigestFrequency) {
  return apiRequest<DigestSettings>('/digest-settings', { method: 'PUT', body: { frequency } });
}
