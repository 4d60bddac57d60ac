import { CheckCircle2, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from './Spinner';

/** The outcome of a mailed link (verify email, confirm subscription): an icon, the message, what next. */
export function LinkResult({ ok, message, children }: { ok: boolean; message: string; children?: ReactNode }) {
  return (
    <div className="mt-6 flex flex-col items-center gap-3" role="status">
      {ok ? (
        <CheckCircle2 size={48} className="text-green-600 dark:text-green-400" aria-hidden="true" />
      ) : (
        <XCircle size={48} className="text-red-600 dark:text-red-400" aria-hidden="true" />
      )}
      <p className={ok ? 'text-gray-800 dark:text-gray-200' : 'text-red-700 dark:text-red-300'}>{message}</p>
      {children}
    </div>
  );
}

/**
 * The page a mailed link opens: a card with its heading, a spinner saying what is being done
 * while `busy` (a string), else the children (usually a LinkResult).
 */
export function LinkCard({ title, busy, children }: { title: string; busy?: string | false; children?: ReactNode }) {
  return (
    <section className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-gray-200 bg-white p-6 text-center shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900">
        <h1 className="text-2xl font-bold text-gray-900 dark:text-gray-100">{title}</h1>
        {busy ? (
          <div className="mt-8 flex flex-col items-center gap-3 text-indigo-600 dark:text-indigo-400">
            <Spinner size={36} label={busy.replace(/\.+$/, '')} />
            <p className="text-sm text-gray-600 dark:text-gray-400">{busy}</p>
          </div>
        ) : (
          children
        )}
      </div>
    </section>
  );
}
