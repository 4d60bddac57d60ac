import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Config } from '../src/config';
import { createTestApp, type TestApp } from './helpers';

/** A test app serving pages from a build folder holding the web app's own index.html. */
export async function createPagesApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dist = mkdtempSync(path.join(tmpdir(), 'inkwell-dist-'));
  copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(dist, 'index.html'));
  return createTestApp({ webDistDir: dist, ...overrides });
}

/** A page as an HTML parser reads it: head values, JSON-LD and the server-rendered body text. */
export function readPage(html: string) {
  const doc = parseDocument(html);
  const all = (name: string) => DomUtils.getElementsByTagName(name, doc);
  const metas = all('meta');
  const metaValues = (key: string) =>
    metas.filter((m) => m.attribs.property === key || m.attribs.name === key).map((m) => m.attribs.content ?? '');
  const serverPage = DomUtils.getElementById('server-page', doc);
  return {
    doc,
    titles: all('title').map((t) => DomUtils.textContent(t)),
    meta: (key: string) => metaValues(key)[0],
    metaAll: metaValues,
    canonical: all('link').find((l) => l.attribs.rel === 'canonical')?.attribs.href,
    jsonLd: all('script')
      .filter((s) => s.attribs.type === 'application/ld+json')
      .map((s) => JSON.parse(DomUtils.textContent(s)) as Record<string, unknown>),
    /** Scripts that would run: the app's module and the theme script, nothing else. */
    runnableScripts: all('script').filter((s) => s.attribs.type !== 'application/ld+json'),
    bodyText: serverPage ? DomUtils.textContent(serverPage).replace(/\s+/g, ' ') : '',
    elements: (name: string) => (serverPage ? DomUtils.getElementsByTagName(name, serverPage) : []),
    root: DomUtils.getElementById('root', doc),
  };
}
