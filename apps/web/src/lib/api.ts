import { endRefusedSession, sessionToken } from './session';

export const API_BASE = '/api/v1';
export const FALLBACK_ERROR = 'Something went wrong';
/** A call that could not leave the browser because it is offline (ApiError status 0). */
export const OFFLINE_ERROR = 'You are offline. Check your connection and try again.';

/** An API failure carrying the server's message (or the fallback) and the HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  /** From a 429's Retry-After header: seconds until the server takes this action again. */
  readonly retryAfterSeconds?: number;
  constructor(message: string, status: number, retryAfterSeconds?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Whether the server refused the call for coming too often (429): its message then says how long to wait. */
export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  /** Query parameters; undefined values are skipped. */
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.trim()) return message;
  }
  return null;
}

/**
 * Calls the API: adds `Authorization: Bearer` from the session, parses JSON and turns
 * any error body into an ApiError(message). A 401 on an authenticated call clears the session.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = sessionToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(FALLBACK_ERROR, 0);
  }

  const data = await readJson(response);
  if (!response.ok || (data && typeof data === 'object' && (data as { success?: unknown }).success === false)) {
    if (response.status === 401 && token) endRefusedSession(token);
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(messageOf(data) ?? FALLBACK_ERROR, response.status, retryAfter > 0 ? retryAfter : undefined);
  }
  return data as T;
}

/**
 * The message to show for a failed call: the server's, else the given fallback; offline, that it is.
 * A 429's message says how long to wait.
 */
export function errorMessage(error: unknown, fallback = FALLBACK_ERROR): string {
  if (error instanceof ApiError && error.status === 0 && globalThis.navigator?.onLine === false) return OFFLINE_ERROR;
  if (error instanceof ApiError) return error.message === FALLBACK_ERROR ? fallback : error.message;
  return fallback;
}
