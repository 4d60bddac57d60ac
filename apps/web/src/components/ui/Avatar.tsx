import { initials } from '@inkwell/core';
import { useState } from 'react';

const PALETTE = ['#4f46e5', '#0891b2', '#059669', '#d97706', '#dc2626', '#db2777', '#7c3aed', '#2563eb'];

/** A stable colour seeded by the name, so the same person keeps the same avatar. */
function colourFor(seed: string): string {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length] ?? '#4f46e5';
}

interface AvatarProps {
  name?: string | null;
  src?: string | null;
  /** Size in pixels. */
  size?: number;
  className?: string;
}

/**
 * Profile picture, or a generated initials avatar when there is none or it fails to load
 * (rendered locally; the CSP allows no external avatar service).
 */
export function Avatar({ name, src, size = 36, className = '' }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const label = name?.trim() || 'User';
  const style = { width: size, height: size };

  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt={label}
        style={style}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(src)}
        className={`shrink-0 rounded-full object-cover ${className}`}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={label}
      style={{ ...style, backgroundColor: colourFor(label), fontSize: Math.max(10, Math.round(size * 0.4)) }}
      className={`inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white ${className}`}
    >
      {initials(name)}
    </span>
  );
}
