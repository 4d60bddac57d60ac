import { SITE_NAME } from './feeds';

/** A tab title: '<page> · Inkwell', or the site name alone. The web app and the server's pages both use it. */
export function pageTitle(page?: string | null): string {
  const text = page?.trim();
  return text ? `${text} · ${SITE_NAME}` : SITE_NAME;
}
