import { describe, expect, it } from 'vitest';
import { statusText } from './statusText';

describe('statusText', () => {
  it('counts seconds, then minutes, since the last save', () => {
    const at = 1_000_000;
    expect(statusText({ kind: 'saved', at }, at + 1000)).toBe('Saved just now');
    expect(statusText({ kind: 'saved', at }, at + 12_000)).toBe('Saved 12 s ago');
    expect(statusText({ kind: 'saved', at }, at + 150_000)).toBe('Saved 3 min ago');
  });

  it('says where unsaved changes are', () => {
    expect(statusText({ kind: 'saving' }, 0)).toBe('Saving…');
    expect(statusText({ kind: 'offline' }, 0)).toBe('Offline: changes kept on this device');
    expect(statusText({ kind: 'error', message: 'Too many' }, 0)).toBe('Not saved: Too many');
    expect(statusText({ kind: 'idle' }, 0)).toBe('');
  });
});
