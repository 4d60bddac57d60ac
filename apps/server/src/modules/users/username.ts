import { randomInt } from 'node:crypto';

const RESERVED = new Set([
  'admin',
  'api',
  'about',
  'signin',
  'signup',
  'setting',
  'settings',
  'unknown',
  'notifications',
  'search',
  'tag',
  'blog',
  'blogs',
  'me',
  'www',
  'root',
  'support',
  'help',
  'uploads',
  'edit_profile',
  'add_blog',
  'inkwell',
  'system',
  'null',
  'undefined',
]);

/** The username a profile URL names, as stored: URLs may carry an @ and capitals (/@Ada is ada). */
export function storedUsername(fromUrl: string): string {
  return fromUrl.replace(/^@/, '').trim().toLowerCase();
}

/** Names that read as pages or staff of the site are not handed out. */
export function isReservedUsername(username: string): boolean {
  return RESERVED.has(username.toLowerCase());
}

/** A URL-safe username base from an e-mail's local part: 'Jane.Doe+x@..' -> 'janedoe'. */
export function usernameBase(email: string): string {
  const local = email.split('@')[0]?.split('+')[0] ?? '';
  const base = local
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '')
    .slice(0, 20);
  if (base.length < 3 || RESERVED.has(base)) return `user${base}`.slice(0, 20);
  return base;
}

/** Candidates to try in order: the base, then the base with random digits. */
export function* usernameCandidates(email: string): Generator<string> {
  const base = usernameBase(email);
  yield base;
  for (let i = 0; i < 20; i++) yield `${base}${randomInt(10, 10 ** Math.min(6, 2 + Math.floor(i / 4)))}`;
}
