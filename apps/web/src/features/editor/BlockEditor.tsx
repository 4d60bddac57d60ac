import type EditorJS from '@editorjs/editorjs';
import type { OutputData } from '@editorjs/editorjs';
import type { BlogContent } from '@inkwell/core';
import { type Ref, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Spinner } from '../../components/ui/Spinner';
import { editorImageUploader } from './api';
import { cleanEditorOutput, contentForEditor, type EditorOutput } from './content';

type EditorModule = typeof import('./tools/createEditor');

let editorModule: Promise<EditorModule> | undefined;

/** Loads the Editor.js chunk (once); call early to fetch it while other data loads. */
export function preloadEditor(): Promise<EditorModule> {
  editorModule ??= import('./tools/createEditor').catch((error: unknown) => {
    editorModule = undefined;
    throw error;
  });
  return editorModule;
}

const LOAD_FAILED = 'The editor could not be loaded.';
/** The class of the block last edited (editor.css gives it room for the controls on phones). */
const EDITING_BLOCK = 'ink-editor__editing';

export class ReadOnlyEditorError extends Error {
  constructor() {
    super('The editor is read-only and cannot be saved');
    this.name = 'ReadOnlyEditorError';
  }
}

export interface BlockEditorHandle {
  /**
   * Resolves once the editor can be saved; rejects if it could not be loaded. Editor.js shows the
   * blocks before it is ready (it waits for an idle moment, up to 2 s on a busy machine), so text
   * on screen does not mean save() works yet.
   */
  ready(): Promise<void>;
  /** The cleaned content; rejects while the editor is loading or read-only (SPEC.md 4). */
  save(): Promise<BlogContent>;
  setReadOnly(readOnly: boolean): Promise<void>;
  /** Replaces every block (a Markdown import), once the editor is ready. */
  render(content: BlogContent): Promise<void>;
}

interface BlockEditorProps {
  ref?: Ref<BlockEditorHandle>;
  /** Content to start with; read once when the editor is created. */
  initialContent?: BlogContent | null;
  /** Labels the editing area for assistive technology. */
  labelledBy?: string;
  onChange?: () => void;
}

/** The Editor.js block editor; destroyed on unmount. */
export function BlockEditor({ ref, initialContent, labelledBy, onChange }: BlockEditorProps) {
  const holderRef = useRef<HTMLElement>(null);
  const editorRef = useRef<EditorJS | null>(null);
  const readyRef = useRef(false);
  const initial = useRef(initialContent);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [attempt, setAttempt] = useState(0);
  /** Callers of ready() waiting for the current attempt to finish loading. */
  const waiters = useRef(new Set<{ resolve: () => void; reject: (error: Error) => void }>());
  const failed = useRef(false);
  /**
   * What the editor held when it was taken down (the writer left through an in-app link): read in
   * the cleanup before destroy(), so the last autosave, which runs after it, still has the words
   * typed since the previous one.
   */
  const lastContent = useRef<Promise<BlogContent> | null>(null);

  const ready = useCallback(() => {
    if (readyRef.current) return Promise.resolve();
    if (failed.current) return Promise.reject(new Error(LOAD_FAILED));
    return new Promise<void>((resolve, reject) => waiters.current.add({ resolve, reject }));
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the setup after a failed chunk load
  useEffect(() => {
    const holder = holderRef.current;
    if (!holder) return;
    lastContent.current = null;
    let cancelled = false;
    let editor: EditorJS | null = null;
    // Each instance gets its own element: Editor.js' destroy() empties its holder, and in
    // development StrictMode the next instance is created before the previous one is gone.
    const element = document.createElement('div');
    element.className = 'ink-editor__instance';
    holder.appendChild(element);
    setState('loading');
    failed.current = false;
    // Editor.js starts watching a block for changes only at the browser's next idle moment, with no
    // deadline: on a busy device the first keystrokes would go unseen (and unsaved). Typing in a
    // block is a change whether Editor.js has noticed it or not.
    const onInput = (event: Event) => {
      if (event.target instanceof Element && event.target.closest('.ce-block')) changeRef.current?.();
    };
    element.addEventListener('input', onInput);
    // Phones (editor.css): the block last edited keeps room below it for Editor.js' controls. It
    // keeps it when focus leaves the editor: room that went with focus moved everything below up
    // between a tap's press and release, so the first tap on Draft or Publish hit nothing.
    let editing: Element | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const block = event.target instanceof Element ? event.target.closest('.ce-block') : null;
      if (!block || block === editing) return;
      editing?.classList.remove(EDITING_BLOCK);
      block.classList.add(EDITING_BLOCK);
      editing = block;
    };
    element.addEventListener('focusin', onFocusIn);

    preloadEditor()
      .then(({ createEditor }) => {
        if (cancelled) return;
        editor = createEditor({
          holder: element,
          data: initial.current ? (contentForEditor(initial.current) as OutputData) : undefined,
          uploader: editorImageUploader,
          onChange: () => changeRef.current?.(),
        });
        editorRef.current = editor;
        return editor.isReady.then(() => {
          if (cancelled) return;
          readyRef.current = true;
          setState('ready');
          for (const waiter of waiters.current) waiter.resolve();
          waiters.current.clear();
        });
      })
      .catch(() => {
        if (cancelled) return;
        failed.current = true;
        setState('error');
        for (const waiter of waiters.current) waiter.reject(new Error(LOAD_FAILED));
        waiters.current.clear();
      });

    return () => {
      cancelled = true;
      const wasReady = readyRef.current;
      readyRef.current = false;
      element.removeEventListener('input', onInput);
      element.removeEventListener('focusin', onFocusIn);
      if (editorRef.current === editor) editorRef.current = null;
      const current = editor;
      // Editor.js reads every block's DOM as save() starts, so this holds the text as it is now.
      const last =
        wasReady && current && !current.readOnly.isEnabled ? current.save().then((o) => cleanEditorOutput(o as EditorOutput)) : null;
      lastContent.current = last;
      const dispose = () => {
        try {
          current?.destroy();
        } catch {
          /* already gone */
        }
        element.remove();
      };
      if (current) Promise.allSettled([current.isReady, last]).then(dispose);
      else element.remove();
    };
  }, [attempt]);

  useImperativeHandle(
    ref,
    () => ({
      ready,
      async save() {
        const editor = editorRef.current;
        if ((!editor || !readyRef.current) && lastContent.current) return lastContent.current;
        if (!editor || !readyRef.current) throw new Error('The editor is still loading');
        if (editor.readOnly.isEnabled) throw new ReadOnlyEditorError();
        return cleanEditorOutput((await editor.save()) as EditorOutput);
      },
      async setReadOnly(readOnly: boolean) {
        const editor = editorRef.current;
        if (!editor || !readyRef.current || editor.readOnly.isEnabled === readOnly) return;
        await editor.readOnly.toggle(readOnly);
      },
      async render(content: BlogContent) {
        await ready();
        const editor = editorRef.current;
        if (!editor) throw new Error(LOAD_FAILED);
        if (content.blocks.length) await editor.render(contentForEditor(content) as OutputData);
        else await editor.clear();
        changeRef.current?.();
      },
    }),
    [ready],
  );

  return (
    <div className="ink-editor relative">
      <section ref={holderRef} aria-labelledby={labelledBy} aria-busy={state === 'loading' || undefined} />
      {state === 'loading' && (
        <div className="absolute inset-0 flex items-start justify-center pt-16 text-indigo-600 dark:text-indigo-400">
          <Spinner size={28} label="Loading editor" />
        </div>
      )}
      {state === 'error' && (
        <div
          role="alert"
          className="absolute inset-0 flex flex-col items-center justify-center gap-3 text-sm text-gray-600 dark:text-gray-300"
        >
          <p>{LOAD_FAILED}</p>
          <button
            type="button"
            onClick={() => setAttempt((n) => n + 1)}
            className="rounded-lg border border-gray-300 px-3 py-1.5 font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800"
          >
            Try again
          </button>
        </div>
      )}
    </div>
  );
}
