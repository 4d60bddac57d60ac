import { describe, expect, it } from 'vitest';
import { parseTheme, resolveTheme } from './theme';

describe('theme rules (SPEC.md 4)', () => {
  it('defaults to system for missing or unknown values', () => {
    expect(parseTheme(null)).toBe('system');
    expect(parseTheme('purple')).toBe('system');
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('light')).toBe('light');
  });

  it('system follows the OS preference; explicit choices win', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
  });
});
