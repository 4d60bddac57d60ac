import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, Result } from 'axe-core';

/** axe-core's browser bundle, read from node_modules: it is only ever loaded by the tests, never by the app. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.1 A and AA plus axe's best practices; label-content-name-mismatch (WCAG 2.5.3) is experimental, so named. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface AxeFinding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe on the page once what is moving has settled. The source goes in through the DevTools protocol
 * (page.evaluate), which the app's Content-Security-Policy does not govern.
 */
export async function axeScan(page: Page, screen: string): Promise<AxeFinding[]> {
  // Colours are judged as painted: a toast or dialog still fading in is lighter than it will be,
  // so the finite transitions and animations running now finish first (at most 2 s; spinners are endless).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  await page.evaluate(axeSource);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<AxeResults> } }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
      }),
    TAGS,
  );
  return results.violations.map((v: Result) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    nodes: v.nodes.map(
      (n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)})` : ''}`,
    ),
  }));
}

export const isBlocking = (f: AxeFinding) => f.impact === 'serious' || f.impact === 'critical';

export function formatFindings(findings: AxeFinding[]): string {
  return findings
    .map((f) => `[${f.impact}] ${f.screen}: ${f.rule} - ${f.help} (${f.nodes.length})\n${f.nodes.map((n) => `    ${n}`).join('\n')}`)
    .join('\n');
}

/** Fails the test on any serious or critical finding of this screen, listing them all. */
export async function expectNoBlockingA11y(page: Page, screen: string): Promise<void> {
  const findings = (await axeScan(page, screen)).filter(isBlocking);
  expect(findings, formatFindings(findings)).toEqual([]);
}
