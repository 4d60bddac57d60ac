import { lookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { AppError, badRequest } from '../../lib/errors';
import { tooLargeError } from './image-processing';
import { isBlockedAddress } from './ip-policy';

export const FETCH_FAILED = 'Could not fetch the image from that URL';
export const ADDRESS_NOT_ALLOWED = 'That address is not allowed';

export interface FetchOptions {
  maxBytes: number;
  /** Development and tests only: lets the server fetch from its own network. */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Override of the address policy (tests); default refuses every non-public address. */
  isAllowedAddress?: (ip: string) => boolean;
}

interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Fetches an image for the editor's upload-by-URL. Each hop (first URL and every redirect)
 * is resolved once, every resolved address is vetted, and the socket connects to the vetted
 * address itself, so a DNS answer that changes between check and connect (rebinding) is never used.
 */
export async function fetchRemoteImage(rawUrl: string, options: FetchOptions): Promise<Buffer> {
  const { maxBytes, timeoutMs = 10_000, maxRedirects = 3 } = options;
  const allowed = options.isAllowedAddress ?? ((ip: string) => options.allowPrivate === true || !isBlockedAddress(ip));
  const signal = AbortSignal.timeout(timeoutMs); // one deadline for the whole chain
  let url = parseUrl(rawUrl);
  for (let hop = 0; ; hop++) {
    const target = await vet(url, allowed);
    const response = await request(target, signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.destroy();
      if (hop >= maxRedirects) throw badRequest(`${FETCH_FAILED} (too many redirects)`);
      url = parseUrl(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw badRequest(`${FETCH_FAILED} (it answered ${status})`);
    }
    return readCapped(response, maxBytes, signal);
  }
}

function parseUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw badRequest('Please enter a valid image URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(ADDRESS_NOT_ALLOWED);
  return url;
}

async function vet(url: URL, allowed: (ip: string) => boolean): Promise<Target> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw badRequest(`${FETCH_FAILED} (the host could not be found)`);
    }
  }
  // Every address must pass: a host that also resolves to an internal address is refused outright.
  if (addresses.length === 0 || addresses.some((a) => !allowed(a.address))) throw badRequest(ADDRESS_NOT_ALLOWED);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

function request(target: Target, signal: AbortSignal): Promise<IncomingMessage> {
  const pinned: LookupFunction = (_hostname, opts, callback) => {
    if (opts.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(target.url, {
      method: 'GET',
      lookup: pinned,
      agent: false, // no pooled socket from another lookup
      signal,
      headers: { accept: 'image/*', 'accept-encoding': 'identity', 'user-agent': 'InkwellImageFetcher/1.0' },
    });
    req.once('response', resolve);
    req.on('error', () => reject(badRequest(signal.aborted ? `${FETCH_FAILED} (it took too long)` : FETCH_FAILED)));
    req.end();
  });
}

async function readCapped(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      // The declared length may lie or be absent: the cap is enforced on bytes actually read.
      if (total > maxBytes) {
        response.destroy();
        throw tooLargeError(maxBytes);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest(signal.aborted ? `${FETCH_FAILED} (it took too long)` : FETCH_FAILED);
  }
  if (!response.complete) throw badRequest(FETCH_FAILED);
  return Buffer.concat(chunks);
}
