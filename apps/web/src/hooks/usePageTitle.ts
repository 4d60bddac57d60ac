import { pageTitle } from '@inkwell/core';
import { useLayoutEffect } from 'react';
import { setDocumentTitle } from '../lib/server-page';

export { pageTitle, SITE_NAME } from '@inkwell/core';

/**
 * Sets the tab title of the current screen. Each screen calls it with its own name (loading,
 * error and not-found states included), so a title never lingers from the previous screen.
 */
export function usePageTitle(page: string | null | undefined): void {
  // A layout effect: it runs before the screen releases the server page in the same commit
  // (lib/server-page.ts), so the title changes with the page, not one frame later.
  useLayoutEffect(() => {
    setDocumentTitle(pageTitle(page));
  }, [page]);
}
