/**
 * A failed save or action of a settings form, shown next to it as well as in SPEC.md 8's toast
 * (a toast goes by; this stays until the next try). role="alert": read out when it appears.
 */
export function FormError({ id, message, className = '' }: { id: string; message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className={`text-sm text-red-600 dark:text-red-400 ${className}`}>
      {message}
    </p>
  );
}
