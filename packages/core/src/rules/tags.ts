import { MAX_TAGS } from '../constants';
import { MAX_TAG_LENGTH } from '../messages';
import { normalizeText } from '../schemas/text';

export const TAG_MESSAGES = {
  tooMany: 'You can add up to 10 tags maximum',
  duplicate: 'This tag already exists',
  tooLong: `A tag can have at most ${MAX_TAG_LENGTH} characters`,
  characters: 'Tags can contain letters, numbers and . _ + # - only',
} as const;

/** The characters a stored tag may have (checked by the server's tagsField and by the editor before adding). */
export const TAG_PATTERN = /^[\p{L}\p{N}._+#-]+$/u;

export type AddTagResult = { ok: true; tags: string[] } | { ok: false; error?: string };

/**
 * The one form a tag is stored, searched and linked in (docs/decisions.md, 'Canonical tags'):
 * lowercased, without spaces, dots, hyphens or underscores, so 'Node.js', 'node js' and 'nodejs'
 * are one tag, and 'Full Stack' and 'full-stack' another. '+' and '#' stay (c++, c#).
 */
export function normalizeTag(raw: string): string {
  // Invisible characters and blank fillers (a tag of U+3164 alone) go first, as in every text field.
  return normalizeText(raw)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s._-]+/g, '');
}

/** The tag input's Enter rule (SPEC.md 5): empty ignored, duplicates and an 11th tag rejected. */
export function addTag(tags: readonly string[], raw: string): AddTagResult {
  const tag = normalizeTag(raw);
  if (!tag) return { ok: false };
  if (tags.length >= MAX_TAGS) return { ok: false, error: TAG_MESSAGES.tooMany };
  if (tags.includes(tag)) return { ok: false, error: TAG_MESSAGES.duplicate };
  return { ok: true, tags: [...tags, tag] };
}

/** Tag search and tag links (SPEC.md 5): a topic or typed tag in its canonical form. */
export function tagSlug(topic: string): string {
  return normalizeTag(topic);
}
