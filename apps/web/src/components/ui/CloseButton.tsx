import { X } from 'lucide-react';
import type { Ref } from 'react';

interface CloseButtonProps {
  /** The accessible name ('Close', 'Close comments'). */
  label: string;
  onClick: () => void;
  ref?: Ref<HTMLButtonElement>;
  /** Icon size; the round button of the drawers is larger. */
  size?: 18 | 20;
}

/** The X button of dialogs and drawers. */
export function CloseButton({ label, onClick, ref, size = 18 }: CloseButtonProps) {
  return (
    <button
      ref={ref}
      type="button"
      onClick={onClick}
      aria-label={label}
      className={`${size === 20 ? 'rounded-full p-2' : 'rounded-md p-1'} text-gray-500 hover:bg-gray-100 hover:text-gray-800 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100`}
    >
      <X size={size} aria-hidden="true" />
    </button>
  );
}
