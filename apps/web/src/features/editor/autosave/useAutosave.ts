import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import { type AutosaveFields, autosaveNew, autosavePost, discardPending, sendOnLeave } from './api';
import { clearLocalCopy, sameFields, writeLocalCopy } from './localCopy';

/** Quiet time after the last change before the work in progress is saved. */
export const AUTOSAVE_DELAY_MS = 2500;

export type AutosaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: number }
  /** A new post without a title yet: kept in this browser only. */
  | { kind: 'local' }
  | { kind: 'offline' }
  | { kind: 'conflict'; message: string }
  | { kind: 'error'; message: string };

interface Options {
  userId: string;
  blogId?: string;
  /** The version the editor starts from; null for a post not created yet. */
  version: number | null;
  /** The editor's current text; null while it cannot be read (loading, read-only). */
  read: () => Promise<AutosaveFields | null>;
  /** The editor starts with changes the server has not seen (restored from this browser). */
  unsent?: boolean;
  /** Whether a new post may be created now (its address is made from the title: not mid-title). */
  canCreate?: () => boolean;
  /** What the server holds, when the editor opens with it (not with a copy restored from this browser). */
  serverHas?: AutosaveFields;
}

/**
 * Saves the editor's work in progress a little after each change, on hiding the tab and when the
 * connection comes back; keeps a copy in localStorage until the server has it. Saves run one at
 * a time, each naming the version it started from, so another tab's save is never overwritten
 * silently (the server answers 409 and the author chooses).
 */
export function useAutosave({ userId, blogId: startBlogId, version: startVersion, read, unsent, canCreate, serverHas: opened }: Options) {
  const [status, setStatus] = useState<AutosaveStatus>({ kind: 'idle' });
  const blogId = useRef(startBlogId);
  const version = useRef(startVersion);
  const readRef = useRef(read);
  readRef.current = read;
  const canCreateRef = useRef(canCreate);
  canCreateRef.current = canCreate;
  const timer = useRef<number | undefined>(undefined);
  /** Changes counted since the editor opened, and how many of them the server has. */
  const changes = useRef(unsent ? 1 : 0);
  const saved = useRef(0);
  const running = useRef<Promise<void> | null>(null);
  const stopped = useRef(false);
  const conflicted = useRef(false);
  /** The editor has been left: a save that cannot read it gives up instead of trying again. */
  const left = useRef(false);
  /**
   * The text the server has, as far as this tab knows. A change that leaves the words as they are
   * sends nothing: an embed's frame finishing its load is a change to Editor.js, and every post
   * with an embed was saved (and its "unpublished changes" restored, and another open tab told
   * "changed elsewhere") just by being opened.
   */
  const serverHas = useRef(opened ?? null);

  const keepLocal = useCallback(
    (fields: AutosaveFields) =>
      writeLocalCopy(userId, blogId.current, { fields, version: version.current, savedAt: new Date().toISOString() }),
    [userId],
  );

  const schedule = useCallback((saveNow: () => Promise<void>) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
  }, []);

  const saveNow = useCallback(
    async (force = false): Promise<void> => {
      while (running.current) await running.current;
      if (stopped.current || (!force && changes.current === saved.current)) return;
      const run = (async () => {
        const upTo = changes.current;
        const fields = await readRef.current();
        if (!fields) {
          if (!left.current) schedule(saveNow);
          return;
        }
        const had = serverHas.current;
        if (!force && had && sameFields(fields, had) && fields.image === had.image) {
          saved.current = upTo;
          if (changes.current === upTo) clearLocalCopy(userId, blogId.current);
          return;
        }
        keepLocal(fields);
        if (conflicted.current && !force) return;
        if (!navigator.onLine) return setStatus({ kind: 'offline' });
        if (!blogId.current && !fields.title.trim()) return setStatus({ kind: 'local' });
        if (!blogId.current && canCreateRef.current && !canCreateRef.current()) {
          schedule(saveNow);
          return;
        }
        setStatus({ kind: 'saving' });
        try {
          const id = blogId.current;
          const result = id ? await autosavePost(id, fields, version.current, force) : await autosaveNew(fields);
          if (!id) {
            // The new draft's own address, without a navigation that would rebuild the editor.
            clearLocalCopy(userId, undefined);
            window.history.replaceState(window.history.state, '', `/edit/${encodeURIComponent(result.blogId)}`);
          }
          blogId.current = result.blogId;
          version.current = result.version;
          saved.current = upTo;
          serverHas.current = fields;
          conflicted.current = false;
          if (changes.current === upTo) clearLocalCopy(userId, blogId.current);
          else keepLocal(fields);
          setStatus({ kind: 'saved', at: Date.now() });
        } catch (error) {
          if (error instanceof ApiError && error.status === 0) setStatus({ kind: 'offline' });
          else if (error instanceof ApiError && error.status === 409) {
            conflicted.current = true;
            serverHas.current = null; // another tab's text is there now
            setStatus({ kind: 'conflict', message: error.message });
          } else setStatus({ kind: 'error', message: errorMessage(error) });
        }
      })();
      running.current = run;
      try {
        await run;
      } finally {
        if (running.current === run) running.current = null;
      }
    },
    [keepLocal, schedule, userId],
  );

  const changed = useCallback(() => {
    changes.current++;
    if (!stopped.current) schedule(saveNow);
  }, [saveNow, schedule]);

  useEffect(() => {
    if (changes.current !== saved.current) schedule(saveNow);
    const onOnline = () => void saveNow();
    const onOffline = () => {
      if (changes.current !== saved.current) setStatus({ kind: 'offline' });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') void saveNow();
    };
    // The page is going away: keep the text here and send it with a request that outlives the page.
    const onPageHide = () => {
      if (stopped.current || changes.current === saved.current) return;
      window.clearTimeout(timer.current);
      void readRef.current().then((fields) => {
        if (!fields) return;
        keepLocal(fields);
        const id = blogId.current;
        if (id && version.current !== null && !conflicted.current && navigator.onLine) sendOnLeave(id, fields, version.current);
      });
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onVisibility);
      window.clearTimeout(timer.current);
      // Leaving the editor inside the app: one last save, of what the editor held as it was taken
      // down (BlockEditor keeps it), so the words typed since the previous save are not lost.
      left.current = true;
      void saveNow();
    };
  }, [keepLocal, saveNow, schedule]);

  return {
    status,
    changed,
    /** Stops autosaving (Publish/Update running) and waits for a save in flight. */
    async settle(): Promise<{ blogId?: string; version: number | null }> {
      window.clearTimeout(timer.current);
      stopped.current = true;
      while (running.current) await running.current;
      return { blogId: blogId.current, version: version.current };
    },
    resume() {
      stopped.current = false;
      if (changes.current !== saved.current) schedule(saveNow);
    },
    /** The post was published or saved: nothing is pending any more. */
    finish() {
      stopped.current = true;
      window.clearTimeout(timer.current);
      clearLocalCopy(userId, blogId.current);
    },
    /** 'Overwrite' after a conflict: save this tab's text over the newer version. */
    overwrite: () => saveNow(true),
    /** 'Reload' after a conflict: drop this tab's copy and start from the server's version. */
    reload() {
      stopped.current = true;
      clearLocalCopy(userId, blogId.current);
      window.location.reload();
    },
    /** 'Discard them': back to the post as last saved (the pending autosave too when asked). */
    async discard(onServer: boolean) {
      stopped.current = true;
      window.clearTimeout(timer.current);
      const id = blogId.current;
      try {
        if (onServer && id) await discardPending(id);
      } catch (error) {
        stopped.current = false;
        return setStatus({ kind: 'error', message: errorMessage(error) });
      }
      clearLocalCopy(userId, id);
      window.location.reload();
    },
    conflict(message: string) {
      conflicted.current = true;
      setStatus({ kind: 'conflict', message });
    },
    userId,
    blogId: () => blogId.current,
    version: () => version.current,
  };
}

export type Autosave = ReturnType<typeof useAutosave>;
