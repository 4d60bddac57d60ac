import { BLOCKS_PER_READING_MINUTE } from '../constants';

/** Reading time in minutes: number of content blocks divided by 5, rounded up (SPEC.md 3). */
export function readingTimeMinutes(blockCount: number): number {
  return Math.ceil(Math.max(0, blockCount) / BLOCKS_PER_READING_MINUTE);
}
