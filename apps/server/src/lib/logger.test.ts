import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

// Log lines as pino writes them, one JSON object per line.
const lines: { level: number; msg?: string; err?: { message?: string } }[] = [];
const logStream = { write: (line: string) => void lines.push(JSON.parse(line)) };

let t: TestApp;
let webDir: string;
let origin: string;

beforeAll(async () => {
  // A web build with a large script and no precompressed copy: @fastify/compress gzips it on the
  // fly, so the response is a pipe the reader can abandon half way. Random hex stays ~50% of its
  // size after gzip, more than the sockets buffer.
  webDir = mkdtempSync(path.join(tmpdir(), 'inkwell-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><title>Inkwell</title></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(webDir, 'assets', 'big.js'), `// ${randomBytes(8 * 1024 * 1024).toString('hex')}\n`);
  t = await createTestApp({ webDistDir: webDir, logLevel: 'debug' }, undefined, undefined, { logStream });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** Reads the first chunk of a gzipped download, then drops the connection like a closed tab. */
function abandonDownload(url: string): Promise<{ status: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      response.once('data', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'] });
      });
    });
    request.on('error', (err) => {
      if (!request.destroyed) reject(err);
    });
  });
}

it('logs a download the reader abandons at debug, never at error', async () => {
  const answer = await abandonDownload(`${origin}/assets/big.js`);
  expect(answer).toEqual({ status: 200, encoding: 'gzip' });

  // The server notices the closed socket once compression writes again; wait for its log line.
  const aboutTheClose = () => lines.filter((line) => /premature close/i.test(line.err?.message ?? line.msg ?? ''));
  await expect.poll(() => aboutTheClose().length).toBeGreaterThan(0);
  expect(aboutTheClose().map((line) => line.level)).toEqual([20]);
  expect(lines.filter((line) => line.level >= 50)).toEqual([]);
});
