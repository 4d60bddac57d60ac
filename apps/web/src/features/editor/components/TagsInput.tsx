import { addTag, MAX_TAG_LENGTH, MAX_TAGS } from '@inkwell/core';
import { X } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { TAG_CHARACTERS_MESSAGE, TAG_PATTERN } from '../limits';

interface TagsInputProps {
  tags: string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
}

export function remainingText(count: number): string {
  const left = Math.max(0, MAX_TAGS - count);
  return `${left} ${left === 1 ? 'tag' : 'tags'} remaining`;
}

/**
 * Tags (SPEC.md 5): Enter adds through core addTag (lowercased; empty ignored; duplicates and
 * an 11th tag rejected with its message), Space is blocked, each tag has a remove button.
 */
export function TagsInput({ tags, onChange, disabled = false }: TagsInputProps) {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === ' ' || event.key === 'Spacebar') {
      event.preventDefault();
      return;
    }
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    const result = addTag(tags, value);
    if (!result.ok) {
      if (result.error) setError(result.error);
      return;
    }
    const added = result.tags[result.tags.length - 1] ?? '';
    if (!TAG_PATTERN.test(added)) {
      setError(TAG_CHARACTERS_MESSAGE);
      return;
    }
    onChange(result.tags);
    setValue('');
    setError(null);
  };

  const remove = (tag: string) => {
    onChange(tags.filter((t) => t !== tag));
    setError(null);
    document.getElementById(`${id}-input`)?.focus();
  };

  return (
    <div>
      <label htmlFor={`${id}-input`} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-300">
        Tags
      </label>
      <div
        className={`flex flex-wrap items-center gap-2 rounded-lg border bg-white px-2 py-2 transition focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/30 dark:bg-gray-800 ${
          error ? 'border-red-500 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'
        }`}
      >
        {tags.length > 0 && (
          <ul className="contents" aria-label="Added tags">
            {tags.map((tag) => (
              <li
                key={tag}
                className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-1 pr-1 pl-3 text-sm font-medium text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300"
              >
                #{tag}
                <button
                  type="button"
                  onClick={() => remove(tag)}
                  disabled={disabled}
                  aria-label={`Remove tag ${tag}`}
                  className="inline-flex h-6 w-6 items-center justify-center rounded-full text-indigo-500 hover:bg-indigo-100 hover:text-indigo-800 disabled:opacity-50 dark:text-indigo-300 dark:hover:bg-indigo-500/25 dark:hover:text-white"
                >
                  <X size={14} aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={`${id}-input`}
          type="text"
          value={value}
          disabled={disabled}
          maxLength={MAX_TAG_LENGTH}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          enterKeyHint="enter"
          placeholder={tags.length ? 'Add another tag' : 'Type a tag and press Enter'}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            setValue(event.target.value.replace(/\s+/g, '').toLowerCase());
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          className="min-w-[10rem] flex-1 bg-transparent px-1 py-1 text-gray-900 placeholder-gray-400 outline-none dark:text-gray-100 dark:placeholder-gray-500"
        />
      </div>
      <div className="mt-1 flex flex-wrap justify-between gap-x-4 text-xs">
        <p id={`${id}-error`} role="alert" className="text-red-600 dark:text-red-400">
          {error}
        </p>
        <p id={`${id}-hint`} className="text-gray-500 dark:text-gray-400" aria-live="polite">
          {remainingText(tags.length)}
        </p>
      </div>
    </div>
  );
}
