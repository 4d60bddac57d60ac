import { MAX_SEARCH_LENGTH } from '@inkwell/core';
import { Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

interface NavSearchProps {
  id: string;
  autoFocus?: boolean;
  /** Called after a search was started (the mobile bar closes its search row). */
  onSearched?: () => void;
  className?: string;
}

/**
 * Top bar search (SPEC.md 2): Enter with non-blank text goes to /search?q={text} and clears
 * the box; the text is also cleared whenever the path is not /search.
 */
export function NavSearch({ id, autoFocus = false, onSearched, className = '' }: NavSearchProps) {
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    if (pathname !== '/search') setText('');
  }, [pathname]);

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const term = text.trim();
    if (!term) return;
    navigate(`/search?q=${encodeURIComponent(term)}`);
    setText('');
    onSearched?.();
  };

  return (
    <search className={`relative block ${className}`}>
      <label htmlFor={id} className="sr-only">
        Search articles
      </label>
      <Search size={16} aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-gray-400" />
      <input
        ref={inputRef}
        id={id}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Search articles..."
        maxLength={MAX_SEARCH_LENGTH}
        autoComplete="off"
        enterKeyHint="search"
        className="w-full rounded-full border border-gray-200 bg-gray-100 py-2 pr-4 pl-9 text-sm text-gray-900 placeholder-gray-500 outline-none transition focus:border-indigo-500 focus:bg-white focus:ring-2 focus:ring-indigo-500/30 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-100 dark:placeholder-gray-400 dark:focus:bg-gray-900"
      />
    </search>
  );
}
