import { describe, expect, it } from 'vitest';
import { AVATAR_COLOURS, avatarColour } from './avatarColour';

/** WCAG 2.1 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('initials avatar colours', () => {
  it.each(AVATAR_COLOURS)('%s keeps white initials at 4.5:1 or more', (colour) => {
    expect(contrast('#ffffff', colour)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives a name the same colour every time, and different names several colours', () => {
    expect(avatarColour('Dana Reader')).toBe(avatarColour('Dana Reader'));
    const names = ['Ada', 'Bo', 'Cy', 'Dee', 'Eve', 'Flo', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kai', 'Lu'];
    expect(new Set(names.map(avatarColour)).size).toBeGreaterThan(4);
  });
});
