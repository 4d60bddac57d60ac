import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type PageHead, renderHead } from './head';

/** The id of the server-rendered page the app removes when its own screen is ready (apps/web/src/lib/server-page.ts). */
export const SERVER_PAGE_ID = 'server-page';

/**
 * The built index.html cut once into the parts around what each page fills in: its head tags
 * (instead of the generic title and description) and its server-rendered body, placed before the
 * app's #root, which starts hidden so the app can render into it without being seen.
 */
export class PageDocument {
  private readonly beforeHead: string;
  private readonly beforeRoot: string;
  /** The same without index.html's <noscript> note (that the app needs JavaScript), for pages readable without it. */
  private readonly beforeRootReadable: string;
  private readonly afterRoot: string;

  constructor(template: string) {
    const withoutGeneric = template.replace(/<title>[\s\S]*?<\/title>\s*/i, '').replace(/<meta\s+name="description"[^>]*>\s*/i, '');
    const headEnd = withoutGeneric.search(/<\/head>/i);
    const root = withoutGeneric.match(/<div id="root"><\/div>/i);
    if (headEnd < 0 || !root || root.index === undefined) throw new Error('index.html has no </head> or no <div id="root"></div>');
    this.beforeHead = withoutGeneric.slice(0, headEnd);
    this.beforeRoot = withoutGeneric.slice(headEnd, root.index);
    this.beforeRootReadable = this.beforeRoot.replace(/<noscript>[\s\S]*?<\/noscript>\s*/gi, '');
    this.afterRoot = withoutGeneric.slice(root.index + root[0].length);
  }

  static fromDist(distDir: string): PageDocument {
    return new PageDocument(readFileSync(path.join(distDir, 'index.html'), 'utf8'));
  }

  /**
   * The whole page: `body` is already-escaped HTML shown until the app takes over, when its screen
   * has its data, or at once ('start') for screens the server only stands in for.
   */
  render(head: PageHead, body: string, release: 'data' | 'start' = 'data'): string {
    const beforeRoot = release === 'start' ? this.beforeRoot : this.beforeRootReadable;
    return `${this.beforeHead}  ${renderHead(head)}\n  ${beforeRoot}<div id="${SERVER_PAGE_ID}" data-release="${release}">${body}</div>\n    <div id="root" hidden></div>${this.afterRoot}`;
  }
}
