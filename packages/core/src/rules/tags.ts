import { MAX_TAGS } from '../constants';

export const TAG_MESSAGES = {
  tooMany: 'You can add up to 10 tags maximum',
  duplicate: 'This tag already exists',
} as const;

export type AddTagResult = { ok: true; tags: string[] } | { ok: false; error?: string };

/** Normalises a typed tag: lowercased, spaces removed (Space is blocked in the input). */
export function normalizeTag(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '');
}

/** The tag input's Enter rule (SPEC.md 5): empty ignored, duplicates and an 11th tag rejected. */
export function addTag(tags: readonly string[], raw: string): AddTagResult {
  const tag = normalizeTag(raw);
  if (!tag) return { ok: false };
  if (tags.length >= MAX_TAGS) return { ok: false, error: TAG_MESSAGES.tooMany };
  if (tags.includes(tag)) return { ok: false, error: TAG_MESSAGES.duplicate };
  return { ok: true, tags: [...tags, tag] };
}

/** Tag search (SPEC.md 5): lowercased, the first space replaced with a hyphen. */
export function tagSlug(topic: string): string {
  return topic.toLowerCase().replace(' ', '-');
}
