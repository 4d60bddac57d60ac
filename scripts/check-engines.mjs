#!/usr/bin/env node
// Fails when a locked package does not run on every Node version the root `engines` promises,
// so EBADENGINE warnings (and the breakage they announce) cannot come back unnoticed. It reads
// package-lock.json, which records the `engines` of every package for every platform, so it is
// cheap, needs no network and also covers optional packages that are not installed here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const semver = createRequire(join(root, 'package.json'))('semver');

// Packages npm installs only on platforms we do not support, with the reason.
const UNSUPPORTED_PLATFORM_ONLY = {
  '@img/sharp-win32-ia32': '32-bit Windows is not a supported platform',
};

const supported = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

const problems = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  const required = entry.engines?.node;
  if (!path || !required) continue;
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  if (UNSUPPORTED_PLATFORM_ONLY[name]) continue;
  let covered = false;
  try {
    covered = semver.subset(supported, required);
  } catch {
    // An engines range semver cannot read is reported like an unmet one.
  }
  if (!covered) problems.push(`${name}@${entry.version} requires node ${required}`);
}

if (problems.length > 0) {
  console.error(`These packages do not support every Node version of engines.node (${supported}):`);
  for (const line of problems) console.error(`  ${line}`);
  console.error('Pin a version whose engines cover them (package.json or npm overrides).');
  process.exit(1);
}
console.log(`engines: every locked package supports node ${supported}`);
