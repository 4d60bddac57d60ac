import { z } from 'zod';

/**
 * Characters that render as nothing. Bidi controls can reorder what a reader sees (a name that
 * displays differently from what it is); zero-width ones make two names look identical. They are
 * removed everywhere, with the other format controls that draw nothing (deprecated U+206A-206F,
 * Khmer's invisible vowels, shorthand and musical format controls, the language tag). Joiners (ZWJ, ZWNJ) carry meaning between letters (emoji sequences, Persian)
 * and are kept there, but not at the ends. Hangul and braille fillers count as letters to Unicode
 * yet draw blank, so they are trimmed from the ends like spaces.
 */
const ALWAYS_REMOVED = new RegExp(
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u061C\\u17B4\\u17B5\\u180E\\u200B\\u200E\\u200F' +
    '\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0001}]',
  'gu',
);
const BLANKS = '\\s\\u200C\\u200D\\u115F\\u1160\\u3164\\uFFA0\\u2800';
// Marks that change the character before them, so never the first: variation selectors (after an
// emoji), Mongolian ones (after a letter) and tag characters (U+E0020-E007F, which spell the flags
// of England, Scotland and Wales after U+1F3F4). Trimmed from the start only; text of them alone
// is empty.
const NOT_FIRST = '\\uFE00-\\uFE0F\\u180B-\\u180D\\u180F\\u{E0020}-\\u{E007F}';
const EDGE_BLANKS = new RegExp(`^[${BLANKS}${NOT_FIRST}]+|[${BLANKS}]+$`, 'gu');
const LINE_BREAKS = /[\r\n\t\u2028\u2029]+/g;

export const NUL_MESSAGE = 'Text cannot contain NUL (\\u0000) characters';
export const UNPAIRED_SURROGATE_MESSAGE = 'Text cannot contain unpaired surrogates (\\ud800-\\udfff alone): it is not valid Unicode';
/** Deeper JSON than any payload of the API needs (a post's lists nest 6 levels, about 20 in all). */
export const MAX_JSON_DEPTH = 40;
export const TOO_DEEP_MESSAGE = 'Request body is nested too deeply';

/** NFC, invisible characters removed, trimmed of whitespace and blank fillers. */
export function normalizeText(raw: string, opts: { multiline?: boolean } = {}): string {
  let text = raw.normalize('NFC').replace(ALWAYS_REMOVED, '');
  if (!opts.multiline) text = text.replace(LINE_BREAKS, ' ');
  return text.replace(EDGE_BLANKS, '');
}

/**
 * A text field people read (names, titles, comments): normalized as above, then refused when
 * nothing visible is left or it is longer than max. The one schema for every such field.
 */
export function visibleText(opts: { required: string; max: number; tooLong: string; multiline?: boolean }) {
  // overwrite (not transform + pipe) keeps this one string schema, so the API reference shows
  // minLength and maxLength on the input a client sends (a pipe documents only its first half).
  return z
    .string({ error: opts.required })
    .overwrite((s) => normalizeText(s, { multiline: opts.multiline }))
    .min(1, opts.required)
    .max(opts.max, opts.tooLong);
}

/** Like visibleText, but empty is allowed (descriptions, bios). */
export function optionalVisibleText(opts: { max: number; tooLong: string; multiline?: boolean; invalid?: string }) {
  return z
    .string(opts.invalid ? { error: opts.invalid } : undefined)
    .overwrite((s) => normalizeText(s, { multiline: opts.multiline }))
    .max(opts.max, opts.tooLong);
}
