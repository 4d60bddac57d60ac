import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { newId } from '../../db/ids';
import { badRequest, tooLarge } from '../../lib/errors';

export type UploadKind = 'featured' | 'inline' | 'avatar';

export interface ProcessedImage {
  buffer: Buffer;
  width: number;
  height: number;
}

/** Decoding a 40 MP image already takes ~160 MB of RAM; larger ones are refused before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** WebP cannot encode a side longer than 16383 px; very tall images are scaled to fit. */
const MAX_SIDE = 16_000;
const WIDTHS: Record<Exclude<UploadKind, 'avatar'>, number> = { featured: 1600, inline: 1400 };
const AVATAR_SIDE = 400;
/** Raster formats browsers and editors produce; anything else libvips might parse (PDF, FITS, raw vips…) is refused. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff', 'svg']);

export const INVALID_IMAGE = 'The file is not a valid image';

/** '5MB' for the default limit; smaller limits (tests, tight deployments) in KB. */
export function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10}MB` : `${Math.round(bytes / 1024)}KB`;
}

export const tooLargeError = (maxBytes: number) => tooLarge(`Image must be at most ${formatLimit(maxBytes)}`);

/**
 * Validates by decoding (the file name and MIME type a client sends prove nothing), then
 * re-encodes: EXIF orientation applied, every metadata block dropped (sharp keeps none unless
 * asked, and converts to sRGB), resized for its use, WebP. Animated GIFs keep their first frame.
 */
export async function processImage(input: Buffer, kind: UploadKind, maxBytes: number): Promise<ProcessedImage> {
  if (input.length > maxBytes) throw tooLargeError(maxBytes);
  if (input.length === 0) throw badRequest(INVALID_IMAGE);

  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(INVALID_IMAGE);
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format) || !meta.width || !meta.height) throw badRequest(INVALID_IMAGE);
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw badRequest(`Image dimensions are too large (${meta.width}x${meta.height}); the limit is 40 megapixels`);
  }

  let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', autoOrient: true });
  if (kind === 'avatar') {
    // Square crop, no upscaling beyond the shorter side of the original.
    const side = Math.min(AVATAR_SIDE, meta.autoOrient.width, meta.autoOrient.height);
    pipeline = pipeline.resize(side, side, { fit: 'cover', position: 'attention' });
  } else {
    pipeline = pipeline.resize({ width: WIDTHS[kind], height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  }
  try {
    const { data, info } = await pipeline.webp({ quality: 80, effort: 4 }).toBuffer({ resolveWithObject: true });
    return { buffer: data, width: info.width, height: info.height };
  } catch {
    // Headers parsed but pixels did not (truncated or corrupt file): still the client's file.
    throw badRequest(INVALID_IMAGE);
  }
}

/** Random, unguessable and never reused, so files can be cached forever and not enumerated. */
export function newStorageKey(kind: UploadKind, now = new Date()): string {
  const yyyy = now.getUTCFullYear();
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${kind}/${yyyy}/${mm}/${newId()}-${randomBytes(8).toString('hex')}.webp`;
}
