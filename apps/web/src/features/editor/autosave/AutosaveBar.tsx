import { History } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import type { AutosaveFields } from './api';
import { statusText } from './statusText';
import type { Autosave, AutosaveStatus } from './useAutosave';

// The history dialog (and its diff) is fetched only when the author opens it.
const HistoryDialog = lazy(() => import('./HistoryDialog'));

interface AutosaveBarProps {
  autosave: Autosave;
  /** Shown when the editor opened with text that was not published yet. */
  restoredFrom?: 'server' | 'device' | null;
  /** The editor's current text, for the history diff. */
  read: () => Promise<AutosaveFields | null>;
  disabled?: boolean;
}

/** Save state, 'History' and the conflict choice, above the editor's fields. */
export function AutosaveBar({ autosave, restoredFrom, read, disabled }: AutosaveBarProps) {
  const { status } = autosave;
  const [now, setNow] = useState(() => Date.now());
  const [historyOpen, setHistoryOpen] = useState(false);
  const [conflictClosed, setConflictClosed] = useState<AutosaveStatus | null>(null);

  // 'Saved 12 s ago' keeps counting.
  useEffect(() => {
    if (status.kind !== 'saved') return;
    setNow(Date.now());
    const id = window.setInterval(() => setNow(Date.now()), 5000);
    return () => window.clearInterval(id);
  }, [status]);

  const blogId = autosave.blogId();
  const text = statusText(status, now);
  const warn = status.kind === 'offline' || status.kind === 'conflict' || status.kind === 'error';
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
      <div className="min-h-5 text-sm">
        <p role="status" aria-live="polite" className={warn ? 'text-amber-700 dark:text-amber-300' : 'text-gray-500 dark:text-gray-400'}>
          {text}
        </p>
        {restoredFrom && status.kind === 'idle' && (
          <p className="text-gray-500 dark:text-gray-400">
            {restoredFrom === 'server' ? 'Restored your unpublished changes.' : 'Restored changes kept on this device.'}{' '}
            <button
              type="button"
              onClick={() => void autosave.discard(restoredFrom === 'server')}
              className="font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300"
            >
              Discard them
            </button>
          </p>
        )}
      </div>
      {blogId && (
        <Button variant="secondary" size="sm" onClick={() => setHistoryOpen(true)} disabled={disabled}>
          <History size={16} aria-hidden="true" />
          History
        </Button>
      )}
      {historyOpen && blogId && (
        <Suspense fallback={null}>
          <HistoryDialog blogId={blogId} autosave={autosave} read={read} onClose={() => setHistoryOpen(false)} />
        </Suspense>
      )}
      <Modal
        open={status.kind === 'conflict' && conflictClosed !== status}
        title="This post changed elsewhere"
        onClose={() => setConflictClosed(status)}
      >
        <p className="text-gray-700 dark:text-gray-300">{status.kind === 'conflict' ? status.message : ''}</p>
        <p className="mt-2 text-sm text-gray-500 dark:text-gray-400">
          Reload shows the latest saved version (this tab’s changes are dropped). Overwrite saves this tab’s text over it.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={() => autosave.reload()}>
            Reload
          </Button>
          <Button variant="danger" onClick={() => void autosave.overwrite()}>
            Overwrite
          </Button>
        </div>
      </Modal>
    </div>
  );
}
