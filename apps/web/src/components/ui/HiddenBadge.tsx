import { EyeOff } from 'lucide-react';

/** What the author sees on their own post or comment that a moderator hid (issue 15); nobody else gets it at all. */
export const HIDDEN_BY_MODERATOR = 'Hidden by a moderator';

/** The small badge of a hidden comment or profile list card. */
export function HiddenBadge({ className = '' }: { className?: string }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-500/15 dark:text-red-300 ${className}`}
    >
      <EyeOff size={12} aria-hidden="true" />
      {HIDDEN_BY_MODERATOR}
    </span>
  );
}
