import type { MarkdownPost } from '@inkwell/core/markdown';
import { FileDown, FileUp } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { downloadFromApi } from '../../../lib/download';
import { toast } from '../../../lib/toast';

const buttonClasses =
  'inline-flex items-center gap-1.5 rounded-lg border border-gray-300 px-3 py-1.5 text-sm font-medium text-gray-700 transition hover:bg-gray-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800';

interface MarkdownToolsProps {
  /** The post being edited (export is offered for saved posts only). */
  blogId?: string;
  disabled?: boolean;
  /** Fills the form and the editor from an imported file. */
  onImport: (post: MarkdownPost) => Promise<void>;
}

/**
 * 'Import Markdown' and 'Export Markdown' of the editor (issue 16). The converter and its
 * Markdown parser are loaded only when a file is picked, never with the editor or the app.
 */
export function MarkdownTools({ blogId, disabled, onImport }: MarkdownToolsProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file can be picked again after a failed import.
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      const { markdownToPost, MarkdownImportError, MAX_MARKDOWN_BYTES } = await import('@inkwell/core/markdown');
      if (file.size > MAX_MARKDOWN_BYTES) throw new MarkdownImportError('This Markdown file is too large (at most 1 MB).');
      const post = markdownToPost(await file.text());
      await onImport(post);
      toast.success(`Imported ${file.name}: ${post.content.blocks.length} blocks`);
    } catch (error) {
      toast.error(
        error instanceof Error && error.name === 'MarkdownImportError'
          ? error.message
          : errorMessage(error, 'This file could not be imported'),
      );
    } finally {
      setBusy(false);
    }
  };

  const exportPost = async () => {
    if (!blogId) return;
    setBusy(true);
    try {
      await downloadFromApi(`/blogs/${encodeURIComponent(blogId)}/markdown`, `${blogId}.md`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        ref={inputRef}
        id={`${id}-file`}
        type="file"
        accept=".md,.markdown,.mdx,.txt,text/markdown,text/plain"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onFile}
      />
      <button type="button" className={buttonClasses} disabled={disabled || busy} onClick={() => inputRef.current?.click()}>
        <FileUp size={16} aria-hidden="true" />
        Import Markdown
      </button>
      {blogId && (
        <button type="button" className={buttonClasses} disabled={disabled || busy} onClick={exportPost}>
          <FileDown size={16} aria-hidden="true" />
          Export Markdown
        </button>
      )}
    </div>
  );
}
