import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 1,
    },
    // Offline, a mutation fails at once with its error (React Query's default pauses it until the
    // connection returns, leaving its button on 'Processing...' and sending it later unasked).
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** For a call a mailed link makes once when its page opens (verify, confirm): never again by itself. */
export const ONCE_PER_LINK = {
  retry: false,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  refetchOnMount: false,
  refetchOnReconnect: false,
} as const;
