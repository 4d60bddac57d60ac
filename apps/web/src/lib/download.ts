import { API_BASE, ApiError, FALLBACK_ERROR } from './api';
import { endRefusedSession, sessionToken } from './session';

/**
 * Downloads a file answer of the API (a Markdown export, the 'Download my data' zip) with the
 * session's Bearer token, which a plain link cannot send, and hands it to the browser to save.
 * An error answer becomes an ApiError with the server's message.
 */
export async function downloadFromApi(path: string, fallbackName: string): Promise<string> {
  const token = sessionToken();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(FALLBACK_ERROR, 0);
  }
  if (!response.ok) {
    if (response.status === 401 && token) endRefusedSession(token);
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    const retryAfter = Number(response.headers.get('retry-after'));
    const message = typeof body?.message === 'string' && body.message ? body.message : FALLBACK_ERROR;
    throw new ApiError(message, response.status, retryAfter > 0 ? retryAfter : undefined);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveFile(await response.blob(), name);
  return name;
}

/** Saves a blob under a name through a temporary download link. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
