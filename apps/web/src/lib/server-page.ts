import { useLayoutEffect } from 'react';

/**
 * The page the server rendered (apps/server/src/pages) stays on screen while the app renders
 * into the hidden #root; the app's screen takes its place in one frame once it can show the
 * same thing (its data has arrived), so nothing flashes or moves. docs/decisions.md,
 * "Server-rendered pages".
 */
const SERVER_PAGE_ID = 'server-page';

/** The title the app's screen asked for while the server page (and its title) was still shown. */
let pendingTitle: string | undefined;
/** The app's screen failed to load: the server page, which shows the content, is not given up on a timer. */
let held = false;

/** Removes the server page and shows the app, with its screen's title. Idempotent. */
export function releaseServerPage(): void {
  const page = document.getElementById(SERVER_PAGE_ID);
  if (!page) return;
  page.remove();
  document.getElementById('root')?.removeAttribute('hidden');
  if (pendingTitle !== undefined) document.title = pendingTitle;
  pendingTitle = undefined;
}

/** The tab title of the app's screen: kept until the server page gives way, so the tab does not show 'Loading…' meanwhile. */
export function setDocumentTitle(title: string): void {
  if (hasServerPage()) pendingTitle = title;
  else document.title = title;
}

/** main.tsx's fallback for a screen that never says it is ready: not while the app's screen has failed. */
export function releaseServerPageUnlessHeld(): void {
  if (!held) releaseServerPage();
}

/** The app's screen could not be loaded: keep the server page until the reader goes elsewhere. */
export function holdServerPage(): void {
  held = hasServerPage();
}

export function hasServerPage(): boolean {
  return document.getElementById(SERVER_PAGE_ID) !== null;
}

/** Screens the server only stands in for (sign-in, editor, settings…): the app shows them from the start. */
export function serverPageWaits(): boolean {
  return document.getElementById(SERVER_PAGE_ID)?.dataset.release !== 'start';
}

/** A screen calls this with true once it shows its content (or its error): the swap happens in that commit. */
export function useServerPageReady(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) releaseServerPage();
  }, [ready]);
}
