#!/usr/bin/env bash
# `npm test`: every test. Type check and lint, unit and API integration suites (SQLite, and
# PostgreSQL when TEST_DATABASE_URL is set), production build, then the browser suite.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "engines (every locked package supports the Node versions package.json promises)"
node scripts/check-engines.mjs

step "type check"
npm run --silent typecheck

step "lint"
npx biome check --diagnostic-level=error .

step "unit and API integration tests${TEST_DATABASE_URL:+ (SQLite and PostgreSQL)}"
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "TEST_DATABASE_URL is not set: the PostgreSQL run of the server suite is skipped (CI sets it)."
fi
npx vitest run

step "build"
npm run --silent build

step "web budget (gzipped first load of / and /blog/{id})"
node scripts/web-budget.mjs

step "browser tests (Playwright, Debian Chromium)"
if [ ! -x /usr/bin/chromium ]; then
  echo "SKIPPED: /usr/bin/chromium is missing (apt-get install -y chromium); the browser suite did not run." >&2
  [ "${CI:-}" = "true" ] && exit 1
  exit 0
fi
npx playwright test
