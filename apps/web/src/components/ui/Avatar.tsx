import { initials } from '@inkwell/core';
import { useState } from 'react';
import { avatarColour } from './avatarColour';

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
      style={{ ...style, backgroundColor: avatarColour(label), fontSize: Math.max(10, Math.round(size * 0.4)) }}
      className={`inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white ${className}`}
    >
      {initials(name)}
    </span>
  );
}
