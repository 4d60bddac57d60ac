/**
 * The one toast API of the app. sonner (and its Toaster, see app/Toasts.tsx) is loaded on
 * first use or when the browser is idle, keeping it out of the first load; toasts raised
 * before the Toaster mounts are replayed by sonner when it subscribes.
 */
type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | undefined;
export const loadSonner = (): Promise<Sonner> => (sonner ??= import('sonner'));

let wanted = false;
const listeners = new Set<() => void>();

/** Asks app/Toasts to mount the Toaster (idempotent). */
export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export function subscribeToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isToasterWanted = (): boolean => wanted;

type Kind = 'success' | 'error' | 'info' | 'message';

function show(kind: Kind, message: string): void {
  wantToaster();
  void loadSonner().then(({ toast: sonnerToast }) => {
    if (kind === 'message') sonnerToast(message);
    else sonnerToast[kind](message);
  });
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  message: (message: string) => show('message', message),
};
