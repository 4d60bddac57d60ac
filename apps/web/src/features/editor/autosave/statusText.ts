import type { AutosaveStatus } from './useAutosave';

/** The words the editor shows for a save state (issue 16). */
export function statusText(status: AutosaveStatus, now: number): string {
  switch (status.kind) {
    case 'saving':
      return 'Saving…';
    case 'saved': {
      const seconds = Math.max(0, Math.round((now - status.at) / 1000));
      if (seconds < 5) return 'Saved just now';
      return seconds < 60 ? `Saved ${seconds} s ago` : `Saved ${Math.round(seconds / 60)} min ago`;
    }
    case 'local':
      return 'Changes kept on this device: add a title to save a draft';
    case 'offline':
      return 'Offline: changes kept on this device';
    case 'conflict':
      return 'Not saved: changed in another tab';
    case 'error':
      return `Not saved: ${status.message}`;
    default:
      return '';
  }
}
