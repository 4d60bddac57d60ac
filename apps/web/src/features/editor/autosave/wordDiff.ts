import type { BlogContent } from '@inkwell/core';
import { htmlToText } from '../content';

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Block data keys that hold no words a reader sees (URLs, styles, sizes). */
const NOT_TEXT = new Set([
  'url',
  'file',
  'service',
  'source',
  'embed',
  'width',
  'height',
  'style',
  'level',
  'meta',
  'alignment',
  'language',
  // An uploaded image's id (a UUID) showed in History's diff as a line of text.
  'imageId',
]);

function collect(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    const text = htmlToText(value).trim();
    if (text) out.push(text);
  } else if (Array.isArray(value)) {
    for (const item of value) collect(item, out);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (!NOT_TEXT.has(key)) collect(item, out);
  }
}

/** The words of a post's blocks, one paragraph per block, for a readable diff. */
export function plainText(content: BlogContent | null | undefined): string {
  const parts: string[] = [];
  for (const block of content?.blocks ?? []) {
    const words: string[] = [];
    collect(block.data, words);
    if (words.length) parts.push(words.join(' '));
  }
  return parts.join('\n\n');
}

/** Beyond this many cells the middle part is shown as removed then added, not word by word. */
const MAX_CELLS = 2_000_000;

const tokens = (text: string) => text.match(/\s+|[^\s]+/g) ?? [];

/**
 * Word-level diff (longest common subsequence after trimming the common start and end), so a
 * change of a few words in a long post costs little. Whitespace runs are tokens of their own.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  push('same', a.slice(0, start).join(''));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS) {
    push('removed', midA.join(''));
    push('added', midB.join(''));
  } else {
    // lcs[i][j]: length of the LCS of midA[i..] and midB[j..], in one flat array.
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        push('same', midA[i++] ?? '');
        j++;
      } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) push('removed', midA[i++] ?? '');
      else push('added', midB[j++] ?? '');
    }
    while (i < n) push('removed', midA[i++] ?? '');
    while (j < m) push('added', midB[j++] ?? '');
  }
  push('same', a.slice(endA).join(''));
  return groupChanges(parts);
}

/**
 * "A rewritten" → "The original" reads better as one removal and one addition than as word pairs:
 * changes separated only by whitespace become one removed part followed by one added part.
 */
function groupChanges(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let i = 0;
  while (i < parts.length) {
    const part = parts[i] as DiffPart;
    if (part.kind === 'same') {
      out.push(part);
      i++;
      continue;
    }
    let removed = '';
    let added = '';
    let j = i;
    for (; j < parts.length; j++) {
      const p = parts[j] as DiffPart;
      const next = parts[j + 1];
      if (p.kind === 'removed') removed += p.text;
      else if (p.kind === 'added') added += p.text;
      else if (/^\s+$/.test(p.text) && next && next.kind !== 'same') {
        removed += p.text;
        added += p.text;
      } else break;
    }
    if (removed) out.push({ kind: 'removed', text: removed });
    if (added) out.push({ kind: 'added', text: added });
    i = j;
  }
  return out;
}
