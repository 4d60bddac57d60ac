import { DELAYS_MS } from '@inkwell/core';
import { Mail } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';

type Status = 'idle' | 'submitting' | 'done';

export const NEWSLETTER_THANKS = "Thanks for subscribing! You'll hear from us soon.";

/** Newsletter block: simulated only, no request (SPEC.md 4). */
export function Newsletter() {
  const [status, setStatus] = useState<Status>('idle');
  const [email, setEmail] = useState('');
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== 'idle') return;
    setStatus('submitting');
    timer.current = window.setTimeout(() => setStatus('done'), DELAYS_MS.newsletter);
  };

  return (
    <section aria-labelledby="newsletter" className="bg-indigo-600 dark:bg-indigo-950">
      <div className="mx-auto max-w-3xl px-4 py-12 text-center text-white">
        <Mail className="mx-auto" size={32} aria-hidden="true" />
        <h2 id="newsletter" className="mt-3 text-2xl font-bold">
          Stay in the loop
        </h2>
        <p className="mt-2 text-indigo-100">Get the best new articles delivered to your inbox.</p>
        {status === 'done' ? (
          <p role="status" className="mt-6 text-lg font-medium">
            {NEWSLETTER_THANKS}
          </p>
        ) : (
          <form onSubmit={onSubmit} className="mx-auto mt-6 flex max-w-md flex-col gap-3 sm:flex-row">
            <label htmlFor="newsletter-email" className="sr-only">
              Email address
            </label>
            <input
              id="newsletter-email"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="you@example.com"
              className="min-w-0 flex-1 rounded-lg border border-transparent bg-white px-4 py-2.5 text-gray-900 placeholder-gray-500 outline-none focus:ring-2 focus:ring-white/70 dark:bg-gray-900 dark:text-gray-100"
            />
            <button
              type="submit"
              disabled={status === 'submitting'}
              className="rounded-lg bg-gray-900 px-5 py-2.5 font-semibold text-white transition hover:bg-gray-800 disabled:opacity-70 dark:bg-indigo-500 dark:hover:bg-indigo-400"
            >
              {status === 'submitting' ? 'Subscribing...' : 'Subscribe'}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
