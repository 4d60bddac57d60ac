import { type FeedScope, feedPath } from '@inkwell/core';
import { Rss } from 'lucide-react';

/**
 * The visible way to subscribe: an RSS icon linking the page's Atom feed (the server also
 * announces Atom, RSS and JSON Feed in the page head). A plain link: feeds are server documents,
 * not client routes.
 */
/** `label` must contain the visible 'RSS' outside parentheses (WCAG 2.5.3; axe's label-in-name ignores parentheticals). */
export function FeedLink({ scope, label, className = '' }: { scope: FeedScope; label: string; className?: string }) {
  return (
    <a
      href={feedPath(scope, 'atom')}
      type="application/atom+xml"
      title={label}
      aria-label={label}
      data-feed-link=""
      className={`inline-flex items-center gap-1.5 rounded-md px-1.5 py-1 text-sm font-medium text-orange-700 hover:bg-orange-50 hover:text-orange-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-orange-500 dark:text-orange-400 dark:hover:bg-orange-500/10 dark:hover:text-orange-300 ${className}`}
    >
      <Rss size={16} aria-hidden="true" />
      <span>RSS</span>
    </a>
  );
}
