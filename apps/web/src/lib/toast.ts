/**
 * The one toast API of the app. sonner (and its Toaster, see app/Toasts.tsx) is loaded on
 * first use or when the browser is idle, keeping it out of the first load; toasts raised
 * before the Toaster mounts are replayed by sonner when it subscribes.
 */
import { showPlainToast } from './plainToast';

type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | undefined;
let loaded: Sonner | null = null;
let wanted = false;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** sonner's chunk, fetched once; a failed fetch (offline) is forgotten so the next call tries again. */
export const loadSonner = (): Promise<Sonner> =>
  (sonner ??= import('sonner').then(
    (module) => {
      loaded = module;
      notify();
      return module;
    },
    (error: unknown) => {
      sonner = undefined;
      throw error;
    },
  ));

/** sonner's Toaster once its chunk is here, for app/Toasts. */
export const loadedToaster = (): Sonner['Toaster'] | null => loaded?.Toaster ?? null;

/** Asks app/Toasts to mount the Toaster (idempotent). */
export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  notify();
}

export function subscribeToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isToasterWanted = (): boolean => wanted;

type Kind = 'success' | 'error' | 'info' | 'message';

function show(kind: Kind, message: string): void {
  wantToaster();
  // The same words twice (a failed call's own toast and the session's end, two reads of one list)
  // show as one toast: sonner replaces a toast of the same id.
  const options = { id: `${kind}:${message}` };
  loadSonner().then(
    ({ toast: sonnerToast }) => {
      if (kind === 'message') sonnerToast(message, options);
      else sonnerToast[kind](message, options);
    },
    // Static import: a second chunk would be just as unreachable offline.
    () => showPlainToast(kind, message),
  );
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  message: (message: string) => show('message', message),
};
