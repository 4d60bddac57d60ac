import { UserCheck, UserPlus } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useFollow } from '../../hooks/useFollow';
import { buttonClasses } from './Button';

interface FollowButtonProps {
  userId: string;
  initial: boolean;
  size?: 'sm' | 'md';
  /** Names the person for screen readers (lists have many Follow buttons). */
  name?: string;
}

/** Follow / Following, 'Processing...' while the call runs (SPEC.md 2 Profile, follow lists and the reading page). */
export function FollowButton({ userId, initial, size = 'md', name }: FollowButtonProps) {
  const { following, busy, toggle } = useFollow(userId, initial);
  const Icon = following ? UserCheck : UserPlus;
  // Disabled while the call runs (SPEC.md), the button loses the focus: it takes it back after,
  // unless the reader has moved on, so a keyboard user stays where they were.
  const button = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (busy || !refocus.current) return;
    refocus.current = false;
    if (document.activeElement === document.body) button.current?.focus();
  }, [busy]);
  return (
    <button
      ref={button}
      type="button"
      onClick={() => {
        refocus.current = document.activeElement === button.current;
        void toggle();
      }}
      disabled={busy}
      aria-pressed={following}
      aria-label={name ? `${following ? 'Following' : 'Follow'} ${name}` : undefined}
      className={buttonClasses(following ? 'secondary' : 'primary', size, 'min-w-[7rem] shrink-0')}
    >
      {!busy && <Icon size={size === 'sm' ? 14 : 16} aria-hidden="true" />}
      {busy ? 'Processing...' : following ? 'Following' : 'Follow'}
    </button>
  );
}
