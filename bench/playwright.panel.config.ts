import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

/** `npm run bench:panel`: the browser measurement in bench/, with the e2e suite's browser settings. */
export default defineConfig({ ...base, testDir: '.', testMatch: 'comment-panel.pw.ts', workers: 1, retries: 0, timeout: 600_000 });
