import { randomBytes } from 'node:crypto';

/** A readable, URL-safe, unique-enough id from a title: 'Hello, Kysely!' -> 'hello-kysely-x3k9q2'. */
export function blogIdFromTitle(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const suffix = randomBytes(6)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 6)
    .padEnd(6, '0');
  return `${base || 'post'}-${suffix}`;
}
