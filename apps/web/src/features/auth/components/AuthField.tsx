import type { InputHTMLAttributes, ReactNode } from 'react';

interface AuthFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  icon: ReactNode;
  /** Inline message under the field; shown as an error when `invalid`. */
  message?: string;
  invalid?: boolean;
}

/** Labelled input of the auth screen with an optional inline hint or error. */
export function AuthField({ id, label, icon, message, invalid = false, ...input }: AuthFieldProps) {
  const messageId = message ? `${id}-message` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      <div className="relative">
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-gray-400">
          {icon}
        </span>
        <input
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={messageId}
          className={`w-full rounded-lg border bg-white py-2.5 pr-3 pl-10 text-gray-900 placeholder-gray-400 outline-none transition focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 dark:bg-gray-800 dark:text-gray-100 dark:placeholder-gray-500 ${
            invalid ? 'border-red-500 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'
          }`}
          {...input}
        />
      </div>
      {message && (
        <p id={messageId} className={`mt-1 text-xs ${invalid ? 'text-red-600 dark:text-red-400' : 'text-gray-500 dark:text-gray-400'}`}>
          {message}
        </p>
      )}
    </div>
  );
}
