import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Person } from './fixtures';
import type { Stack } from './stack';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** `npm run admin -- grant <role> <email>` against the test server's database, as an operator would. */
export async function grant(stack: Stack, role: 'moderator' | 'admin', who: Person) {
  await run('npm', ['run', '--silent', 'admin', '--', 'grant', role, who.email], {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: stack.dataDir, LOG_LEVEL: 'warn' },
  });
}
