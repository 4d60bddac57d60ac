import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CapturedMail, startSmtpServer } from '../../apps/server/test/smtp';

export interface Stack {
  baseURL: string;
  /** The server's DATA_DIR (its SQLite database): the admin command line runs against it (e2e/moderation.spec.ts). */
  dataDir: string;
  mails: CapturedMail[];
  /** Waits for the newest mail to an address and returns the first link in it. */
  linkMailedTo(email: string, after?: number): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The built server (apps/server/dist) on a fresh SQLite data folder, with a real SMTP
 * server started here; both on 127.0.0.1, both stopped by stop() or when this process exits.
 */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const smtp = await startSmtpServer();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      ENV_FILE: 'none', // never a developer's .env
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      RATE_LIMIT_FACTOR: '50',
      LOG_LEVEL: 'warn',
      // Scheduled posts go out within a second or two (e2e/schedule.spec.ts), not every 15 s.
      SCHEDULED_POSTS_INTERVAL_MS: '1000',
      WEB_DIST_DIR: path.join(root, 'apps/web/dist'),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseURL}/api/v1/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('server did not become healthy in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    baseURL,
    dataDir,
    mails: smtp.mails,
    async linkMailedTo(email, after = 0) {
      const until = Date.now() + 15_000;
      for (;;) {
        const mail = smtp.mails
          .filter((m) => m.to.includes(email))
          .slice(after)
          .pop();
        const link = mail?.text.match(/https?:\/\/[^\s"<]+/)?.[0];
        if (link) return link;
        if (Date.now() > until) throw new Error(`no mail to ${email}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      process.off('exit', killChild);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
