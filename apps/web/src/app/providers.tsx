import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useSessionRefresh } from '../features/auth/hooks/useSessionRefresh';
import { queryClient } from '../lib/queryClient';
import { startThemeSync } from '../lib/theme';
import { Toasts } from './Toasts';

function SessionRefresh() {
  useSessionRefresh();
  return null;
}

/** Server state (TanStack Query), theme sync, session refresh and the one Toaster. */
export function Providers({ children }: { children: ReactNode }) {
  useEffect(() => startThemeSync(), []);

  return (
    <QueryClientProvider client={queryClient}>
      <SessionRefresh />
      {children}
      <Toasts />
    </QueryClientProvider>
  );
}
