import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The XSS payload corpus: the shared copy beside the repository when present (it is the source
 * of truth), else the copy vendored here so the tests run from any checkout.
 */
export function xssCorpus(): string[] {
  const shared = path.resolve(import.meta.dirname, '../../../../shared/fixtures/xss-payloads.txt');
  const file = existsSync(shared) ? shared : path.join(import.meta.dirname, 'fixtures/xss-payloads.txt');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim());
}
