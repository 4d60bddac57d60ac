import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@inkwell/core';
import type { InputHTMLAttributes, ReactNode } from 'react';

/** Classes of a text input; `withIcon` leaves room for an icon at the left (auth screens). */
export const inputClasses = (invalid = false, withIcon = false) =>
  `w-full rounded-lg border bg-white py-2.5 text-gray-900 placeholder-gray-400 outline-none transition focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 disabled:opacity-60 dark:bg-gray-800 dark:text-gray-100 dark:placeholder-gray-500 ${
    withIcon ? 'pr-3 pl-10' : 'px-3'
  } ${invalid ? 'border-red-500 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'}`;

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: string;
  /** Decorative icon inside the input, at the left. */
  icon?: ReactNode;
  /** Inline error under the input (`{id}-error`). */
  error?: string | null;
  /** Inline hint under the input when there is no error (`{id}-hint`). */
  hint?: ReactNode;
}

/** A labelled input with an inline error or hint: every form of the web (auth, settings, account, profile). */
export function Field({ id, label, icon, error, hint, ...input }: FieldProps) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const field = (
    <input
      id={id}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      className={inputClasses(Boolean(error), Boolean(icon))}
      {...input}
    />
  );
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      {icon ? (
        <div className="relative">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-gray-400">
            {icon}
          </span>
          {field}
        </div>
      ) : (
        field
      )}
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-500 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A password input (type and autocomplete; `autoComplete="new-password"` where one is chosen). */
export function PasswordField(props: Omit<FieldProps, 'type'>) {
  return <Field type="password" autoComplete="current-password" {...props} />;
}

/** The rule of a new password (SPEC.md 5), shown under each field that chooses one. */
export const NEW_PASSWORD_HINT = `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters, not a common password`;

/** A field that chooses a new password (change, and its confirmation): new-password autocomplete and the length cap. */
export function NewPasswordField(props: Omit<FieldProps, 'type'>) {
  return <PasswordField autoComplete="new-password" maxLength={MAX_PASSWORD_LENGTH} {...props} />;
}

interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
  hint?: ReactNode;
}

/** A labelled native select. */
export function SelectField({ id, label, value, options, onChange, disabled, hint }: SelectFieldProps) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={`${inputClasses()} appearance-auto pr-8`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-500 dark:text-gray-400">
          {hint}
        </p>
      )}
    </div>
  );
}

interface TextAreaFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The length limit: the box stops there and a counter shows 'n/max' under it. */
  maxLength: number;
  rows?: number;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  /** Inline error under the box (`{id}-error`). */
  error?: string | null;
  /** A hint under the box, beside the counter (`{id}-hint`). */
  hint?: ReactNode;
}

/** A labelled multi-line box with a character counter and an inline error (report and moderation reasons). */
export function TextAreaField({
  id,
  label,
  value,
  onChange,
  maxLength,
  rows = 4,
  placeholder,
  required,
  disabled,
  error,
  hint,
}: TextAreaFieldProps) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null, `${id}-count`].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value.slice(0, maxLength))}
        maxLength={maxLength}
        rows={rows}
        placeholder={placeholder}
        required={required}
        aria-required={required || undefined}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`${inputClasses(Boolean(error))} resize-y`}
      />
      <div className="mt-1 flex items-start gap-3 text-xs">
        <div className="min-w-0 flex-1">
          {error && (
            <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          )}
          {hint && (
            <p id={`${id}-hint`} className="text-gray-500 dark:text-gray-400">
              {hint}
            </p>
          )}
        </div>
        <p id={`${id}-count`} className="shrink-0 text-gray-500 dark:text-gray-400">
          {value.length}/{maxLength}
        </p>
      </div>
    </div>
  );
}
