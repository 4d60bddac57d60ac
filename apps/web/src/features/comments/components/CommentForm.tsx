import { MAX_COMMENT_LENGTH } from '@inkwell/core';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { readTabDraft, writeTabDraft } from '../../../lib/tabDrafts';

const COUNTER_FROM = Math.floor(MAX_COMMENT_LENGTH * 0.9);

interface CommentFormProps {
  /** Accessible name of the text box. */
  label: string;
  placeholder: string;
  submitLabel: string;
  busyLabel: string;
  pending: boolean;
  initial?: string;
  autoFocus?: boolean;
  /** Resolves true when the text was accepted (the box is then cleared). */
  onSubmit: (text: string) => Promise<boolean>;
  onCancel?: () => void;
  /** Keeps the unsent text in this tab under this key (lib/tabDrafts). */
  draftKey?: string;
}

/**
 * Comment, reply and edit box (SPEC.md 2 and 5): the button is disabled while the text is blank
 * (or unchanged when editing); Enter without Shift sends; Escape cancels when there is a Cancel.
 */
export function CommentForm({
  label,
  placeholder,
  submitLabel,
  busyLabel,
  pending,
  initial = '',
  autoFocus,
  onSubmit,
  onCancel,
  draftKey,
}: CommentFormProps) {
  const [text, setText] = useState(() => initial || readTabDraft(draftKey));
  const change = (value: string) => {
    setText(value);
    writeTabDraft(draftKey, value);
  };
  // Cancel means the text is not wanted: it is not kept either.
  const cancel = onCancel
    ? () => {
        writeTabDraft(draftKey, '');
        onCancel();
      }
    : undefined;
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const blank = text.trim() === '';
  const unchanged = initial !== '' && text.trim() === initial.trim();
  const disabled = blank || unchanged || pending;
  // The box stops at the limit (maxLength cuts a long paste without a word): the count shows from
  // nine tenths of it, so the writer sees why the text ends where it does.
  const nearLimit = text.length >= COUNTER_FROM;

  useEffect(() => {
    if (!autoFocus) return;
    const box = ref.current;
    box?.focus();
    box?.setSelectionRange(box.value.length, box.value.length);
  }, [autoFocus]);

  // `pending` comes from a render that a second click can beat (a double click, two quick taps):
  // this flag is set at once, so one text is sent once.
  const sending = useRef(false);
  const submit = async () => {
    if (disabled || sending.current) return;
    sending.current = true;
    try {
      if (await onSubmit(text.trim())) change('');
    } finally {
      sending.current = false;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && cancel) {
      event.stopPropagation();
      cancel();
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="w-full"
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        ref={ref}
        id={id}
        value={text}
        onChange={(event) => change(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        rows={initial ? 3 : 2}
        maxLength={MAX_COMMENT_LENGTH}
        aria-describedby={nearLimit ? `${id}-count` : undefined}
        className="block w-full resize-y rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 placeholder:text-gray-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:border-gray-700 dark:bg-gray-950 dark:text-gray-100 dark:placeholder:text-gray-500"
      />
      <div className="mt-2 flex items-center justify-end gap-2">
        {nearLimit && (
          <p
            id={`${id}-count`}
            className={`mr-auto text-xs ${text.length >= MAX_COMMENT_LENGTH ? 'font-medium text-amber-700 dark:text-amber-400' : 'text-gray-500 dark:text-gray-400'}`}
          >
            {text.length >= MAX_COMMENT_LENGTH
              ? `${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters: the limit`
              : `${text.length.toLocaleString('en-US')}/${MAX_COMMENT_LENGTH.toLocaleString('en-US')}`}
          </p>
        )}
        {cancel && (
          <button
            type="button"
            onClick={cancel}
            className="rounded-lg px-3 py-1.5 text-sm font-medium text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800"
          >
            Cancel
          </button>
        )}
        <button
          type="submit"
          disabled={disabled}
          className="rounded-lg bg-indigo-600 px-4 py-1.5 text-sm font-medium text-white transition-colors hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-indigo-500 dark:hover:bg-indigo-600"
        >
          {pending ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
