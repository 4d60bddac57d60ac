import { type Revision, relativeTime } from '@inkwell/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { LocalTime } from '../../../components/ui/LocalTime';
import { Modal } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { type AutosaveFields, fetchRevision, listRevisions, restoreRevision } from './api';
import { clearLocalCopy } from './localCopy';
import type { Autosave } from './useAutosave';
import { plainText, wordDiff } from './wordDiff';

const EDITOR_NOT_READ = 'The editor’s text could not be read to compare. Close History and try again.';
const REASONS = { publish: 'Before publishing', update: 'Before an update', restore: 'Before a restore' } as const;

interface HistoryDialogProps {
  blogId: string;
  autosave: Autosave;
  read: () => Promise<AutosaveFields | null>;
  onClose: () => void;
}

/** 'History': the post's previous versions, a word diff against the editor's text, and 'Restore'. */
export default function HistoryDialog({ blogId, autosave, read, onClose }: HistoryDialogProps) {
  const [selected, setSelected] = useState<string | null>(null);
  const [restoring, setRestoring] = useState(false);
  const list = useQuery({ queryKey: ['revisions', blogId], queryFn: () => listRevisions(blogId), staleTime: 0, gcTime: 0 });
  const revision = useQuery({
    queryKey: ['revision', blogId, selected],
    queryFn: () => fetchRevision(blogId, selected as string),
    enabled: selected !== null,
  });
  // The editor's text, read once (`read` waits for the editor to be ready); never compared as
  // empty, which would show everything as 'added'.
  const current = useQuery({
    queryKey: ['revision-current', blogId],
    queryFn: async () => {
      const fields = await read();
      if (!fields) throw new Error(EDITOR_NOT_READ);
      return fields;
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

  const restore = async () => {
    if (!selected) return;
    setRestoring(true);
    try {
      // The restore replaces pending work in progress (the server keeps it as a revision first).
      const { version } = await autosave.settle();
      await restoreRevision(blogId, selected, version);
      clearLocalCopy(autosave.userId, blogId);
      toast.success('Revision restored');
      window.location.reload();
    } catch (error) {
      toast.error(errorMessage(error));
      setRestoring(false);
      autosave.resume();
    }
  };

  const revisions = list.data?.revisions ?? [];
  return (
    <Modal open title="History" onClose={onClose} className="max-w-4xl">
      {list.isPending && <Spinner label="Loading versions" />}
      {list.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errorMessage(list.error)}
        </p>
      )}
      {list.isSuccess && revisions.length === 0 && (
        <p className="text-gray-600 dark:text-gray-400">No earlier versions yet. Each update keeps the version before it here.</p>
      )}
      {revisions.length > 0 && (
        // Rows bounded, so a long diff scrolls inside its column and Restore stays on screen below it.
        <div className="grid max-h-[70vh] grid-rows-[auto_minmax(0,1fr)] gap-4 sm:grid-cols-[14rem_1fr] sm:grid-rows-[minmax(0,1fr)]">
          <ul aria-label="Versions" className="max-h-48 space-y-1 overflow-y-auto sm:max-h-[70vh]">
            {revisions.map((r) => (
              <li key={r._id}>
                <button
                  type="button"
                  aria-pressed={selected === r._id}
                  onClick={() => setSelected(r._id)}
                  className={`w-full rounded-lg px-3 py-2 text-left text-sm transition hover:bg-gray-100 dark:hover:bg-gray-800 ${
                    selected === r._id ? 'bg-indigo-50 ring-1 ring-indigo-500 dark:bg-indigo-950/50' : ''
                  }`}
                >
                  <span className="block truncate font-medium text-gray-900 dark:text-gray-100">{r.title || 'Untitled'}</span>
                  <span className="block text-xs text-gray-600 dark:text-gray-400">
                    <LocalTime date={r.createdAt}>{relativeTime(r.createdAt)}</LocalTime> · {REASONS[r.reason]}
                    {r.draft ? ' · draft' : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <div className="flex min-h-0 min-w-0 flex-col">
            {!selected && (
              <p className="text-sm text-gray-600 dark:text-gray-400">Choose a version to compare it with the editor’s text.</p>
            )}
            {selected && (revision.isPending || current.isPending) && <Spinner label="Loading version" />}
            {selected && (revision.isError || current.isError) && (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {revision.isError ? errorMessage(revision.error) : EDITOR_NOT_READ}
              </p>
            )}
            {revision.data && current.data && (
              <>
                <div className="min-h-0 flex-1 overflow-y-auto">
                  <DiffView before={revision.data} after={current.data} />
                </div>
                <div className="mt-4 flex shrink-0 justify-end">
                  <Button onClick={() => void restore()} disabled={restoring}>
                    {restoring ? 'Restoring…' : 'Restore this version'}
                  </Button>
                </div>
              </>
            )}
          </div>
        </div>
      )}
    </Modal>
  );
}

function textOf(fields: Pick<Revision, 'title' | 'description' | 'content'>): string {
  return [fields.title, fields.description, plainText(fields.content)].filter(Boolean).join('\n\n');
}

/** Removed words struck through in red, added ones underlined in green (not by colour alone). */
function DiffView({ before, after }: { before: Revision; after: AutosaveFields }) {
  const parts = useMemo(() => wordDiff(textOf(after), textOf(before)), [before, after]);
  return (
    <div>
      <p className="mb-2 text-xs text-gray-600 dark:text-gray-400">
        Restoring saves this version as the post at once (a published post changes for its readers), its text changed as marked:{' '}
        <del className="text-red-700 dark:text-red-300">removed</del>, <ins className="text-green-800 dark:text-green-300">added</ins>.
      </p>
      <div
        data-testid="revision-diff"
        className="whitespace-pre-wrap break-words rounded-lg border border-gray-200 p-3 text-sm text-gray-800 dark:border-gray-700 dark:text-gray-200"
      >
        {parts.map((part, i) =>
          part.kind === 'same' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts never move
            <span key={i}>{part.text}</span>
          ) : part.kind === 'removed' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts never move
            <del key={i} className="bg-red-50 text-red-700 dark:bg-red-950/40 dark:text-red-300">
              {part.text}
            </del>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts never move
            <ins key={i} className="bg-green-50 text-green-800 dark:bg-green-950/40 dark:text-green-300">
              {part.text}
            </ins>
          ),
        )}
      </div>
    </div>
  );
}
