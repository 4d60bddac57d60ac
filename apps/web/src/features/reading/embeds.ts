import { EMBED_ORIGINS } from '@inkwell/core';
import { UNSAFE_CHARS } from '../../lib/urls';

/** An embed iframe may only load https pages from the known embed origins (core EMBED_ORIGINS). */
export function isAllowedEmbed(src: string | null | undefined): boolean {
  if (typeof src !== 'string' || UNSAFE_CHARS.test(src)) return false;
  try {
    const url = new URL(src);
    return url.protocol === 'https:' && !url.username && !url.password && EMBED_ORIGINS.includes(url.origin);
  } catch {
    return false;
  }
}
