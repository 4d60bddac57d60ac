interface SpinnerProps {
  /** Size in pixels. */
  size?: number;
  className?: string;
  /** Announced to screen readers. */
  label?: string;
}

/** A small spinning ring (CSS only, no icon font). */
export function Spinner({ size = 20, className = '', label = 'Loading' }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className={`inline-flex ${className}`}>
      <span
        aria-hidden="true"
        style={{ width: size, height: size }}
        className="animate-spin rounded-full border-2 border-current border-r-transparent opacity-80"
      />
    </span>
  );
}

/**
 * Centered spinner for lazy routes and page loads. It holds a full screen of height so the footer
 * stays below the fold until the page arrives (the footer jumping down is a layout shift).
 */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="min-h-screen">
      <div className="flex min-h-[50vh] items-center justify-center text-indigo-600 dark:text-indigo-400">
        <Spinner size={36} label={label} />
      </div>
    </div>
  );
}
