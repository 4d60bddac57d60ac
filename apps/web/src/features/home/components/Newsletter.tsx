import { DELAYS_MS } from '@inkwell/core';
import { Mail } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { subscribeToNewsletter } from '../api/newsletter';

type Status = 'idle' | 'submitting' | 'done';

export const NEWSLETTER_THANKS = "Thanks for subscribing! You'll hear from us soon.";

/**
 * Newsletter block (SPEC.md 4's texts and 1.5 s 'Subscribing...'), now a real double opt-in
 * subscription (issue 16): the address is sent at once and a confirmation mail follows; the thanks
 * shows once both the delay and the request are over. The server answers alike for any address.
 */
export function Newsletter() {
  const [status, setStatus] = useState<Status>('idle');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== 'idle') return;
    setStatus('submitting');
    setError(null);
    const delay = new Promise((resolve) => window.setTimeout(resolve, DELAYS_MS.newsletter));
    Promise.all([subscribeToNewsletter(email), delay]).then(
      () => mounted.current && setStatus('done'),
      async (err: unknown) => {
        await delay;
        if (!mounted.current) return;
        setError(errorMessage(err));
        setStatus('idle');
      },
    );
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
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'newsletter-error' : undefined}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="you@example.com"
              className="min-w-0 flex-1 rounded-lg border border-transparent bg-white px-4 py-2.5 text-gray-900 placeholder-gray-500 outline-none focus:ring-2 focus:ring-white/70 dark:bg-gray-900 dark:text-gray-100"
            />
            <button
              type="submit"
              disabled={status === 'submitting'}
              className="rounded-lg bg-gray-900 px-5 py-2.5 font-semibold text-white transition hover:bg-gray-800 disabled:opacity-70 dark:bg-indigo-500 dark:hover:bg-indigo-600"
            >
              {status === 'submitting' ? 'Subscribing...' : 'Subscribe'}
            </button>
          </form>
        )}
        {error && status === 'idle' && (
          <p id="newsletter-error" role="alert" className="mt-3 text-sm font-medium text-white">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
