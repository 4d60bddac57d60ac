/**
 * Unsent short texts (a comment, a reply) kept in this tab's sessionStorage: a session that ends
 * while typing closes their box, and the text is back once signed in again. Signing out on
 * purpose drops them, so the next person at this browser does not find them.
 */
const PREFIX = 'draft:';

export function readTabDraft(key: string | undefined): string {
  if (!key) return '';
  try {
    return sessionStorage.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

export function writeTabDraft(key: string | undefined, text: string): void {
  if (!key) return;
  try {
    if (text) sessionStorage.setItem(PREFIX + key, text);
    else sessionStorage.removeItem(PREFIX + key);
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
