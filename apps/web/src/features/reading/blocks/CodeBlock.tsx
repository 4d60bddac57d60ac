import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';

type Highlighter = typeof import('../highlight');
let highlighter: Promise<Highlighter> | undefined;
/** highlight.js is loaded on the first code block only. */
const loadHighlighter = (): Promise<Highlighter> => (highlighter ??= import('../highlight'));
/**
 * Each block is highlighted in a task of its own (not all in the microtasks right after the module
 * has loaded), so a blog with many code blocks does not block the main thread in one long task.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const LANGUAGE_NAMES: Record<string, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  bash: 'Shell',
  json: 'JSON',
  css: 'CSS',
  xml: 'HTML',
  sql: 'SQL',
  go: 'Go',
  rust: 'Rust',
  java: 'Java',
  cpp: 'C++',
  yaml: 'YAML',
  diff: 'Diff',
};

/** A code block: plain text first, highlighted once highlight.js has loaded; with a copy button. */
export function CodeBlock({ code, language }: { code: string; language?: string }) {
  const [highlighted, setHighlighted] = useState<{ html: string; language: string } | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let live = true;
    setHighlighted(null);
    loadHighlighter()
      .then(async ({ highlight }) => {
        await nextTask();
        if (live) setHighlighted(highlight(code, language));
      })
      .catch(() => {
        /* keep the plain text */
      });
    return () => {
      live = false;
    };
  }, [code, language]);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const shown = highlighted?.language ?? (language && language !== 'plaintext' ? language : '');
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => {},
    );
  };

  return (
    <div className="group relative my-6 overflow-hidden rounded-xl bg-gray-900 text-gray-100 ring-1 ring-gray-800 dark:bg-black/60">
      <div className="flex items-center justify-between border-b border-white/10 px-4 py-1.5 text-xs text-gray-400">
        <span className="font-mono">{LANGUAGE_NAMES[shown] ?? (shown || 'Code')}</span>
        <button
          type="button"
          onClick={copy}
          aria-label={copied ? 'Copied' : 'Copy code'}
          className="inline-flex items-center gap-1 rounded px-2 py-1 text-gray-400 transition hover:bg-white/10 hover:text-white"
        >
          {copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
          <span>{copied ? 'Copied' : 'Copy'}</span>
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a line wider than the screen scrolls inside the block, which the keyboard can reach only if the block takes the focus (WCAG 2.1.1; axe scrollable-region-focusable). */}
      <pre tabIndex={0} className="overflow-x-auto p-4 text-sm leading-relaxed focus-visible:outline-2 focus-visible:outline-indigo-400">
        {highlighted ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js output: the code is escaped, only its own <span class> tokens are added.
          <code className="hljs font-mono" data-language={highlighted.language} dangerouslySetInnerHTML={{ __html: highlighted.html }} />
        ) : (
          <code className="font-mono">{code}</code>
        )}
      </pre>
    </div>
  );
}
