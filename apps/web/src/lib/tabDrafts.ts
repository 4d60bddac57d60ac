import { useSession } from './session';

/**
 * Unsent short texts (a comment, a reply, profile fields) kept in this tab's sessionStorage: a
 * session that ends while typing closes their box, and the text is back once the same person has
 * signed in again. Each is kept under its writer's id, so another account signing in at this tab
 * never finds it; signing out on purpose drops them all.
 */
const PREFIX = 'draft:';

function storageKey(key: string): string {
  const { user } = useSession.getState();
  return `${PREFIX}${user.id ?? user._id ?? ''}:${key}`;
}

export function readTabDraft(key: string | undefined): string {
  if (!key) return '';
  try {
    return sessionStorage.getItem(storageKey(key)) ?? '';
  } catch {
    return '';
  }
}

export function writeTabDraft(key: string | undefined, text: string): void {
  if (!key) return;
  try {
    if (text) sessionStorage.setItem(storageKey(key), text);
    else sessionStorage.removeItem(storageKey(key));
  } catch {
    // Storage full or refused: the draft is only not kept.
  }
}

export function clearTabDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // Nothing kept.
  }
}
