import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createDatabase } from '../db/database';
import { isDatabaseDown } from '../lib/error-handler';
import { MailRepository } from './mail.repo';
import { MailService } from './mail.service';
import type { MailTransport } from './transport';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

function fakeLog() {
  const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn(), trace: vi.fn(), fatal: vi.fn(), level: 'info' };
  return Object.assign(log, { child: () => log }) as unknown as FastifyBaseLogger & typeof log;
}

function countingTransport() {
  const sent: string[] = [];
  const transport: MailTransport = {
    async send(mail) {
      sent.push(mail.to);
    },
    close() {},
  };
  return { transport, sent };
}

const downError = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the mail worker during a database outage', () => {
  it('logs a failed drain instead of crashing, and drains again afterwards', async () => {
    // Nothing listens on port 1: every query is refused, as while PostgreSQL restarts.
    const down = createDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/inkwell', sqliteFile: '' });
    const log = fakeLog();
    const { transport } = countingTransport();
    const mail = new MailService(new MailRepository(down.db), transport, 'x@example.com', log);
    try {
      mail.kick();
      await vi.waitFor(() => expect(log.error).toHaveBeenCalled());
      expect(isDatabaseDown(log.error.mock.calls[0]![0].err)).toBe(true);
      // A new drain starts once the failed one is over (the worker is not stuck on it).
      await expect(mail.drain()).rejects.toSatisfy(isDatabaseDown);
    } finally {
      await mail.stop();
      await down.destroy();
    }
  });

  it('does not count a delivered mail as failed when recording it fails', async () => {
    const t = await createTestApp();
    apps.push(t);
    const repo = new MailRepository(t.database.db);
    await repo.insert({ to: 'outage@example.com', subject: 'Hello', text: 'Body' });
    const markSent = vi.spyOn(repo, 'markSent').mockRejectedValueOnce(downError());
    const markFailed = vi.spyOn(repo, 'markFailed');
    const { transport, sent } = countingTransport();
    const mail = new MailService(repo, transport, 'x@example.com', fakeLog());
    try {
      await expect(mail.drain()).rejects.toSatisfy(isDatabaseDown);
      expect(sent).toEqual(['outage@example.com']);
      expect(markSent).toHaveBeenCalledTimes(1);
      expect(markFailed).not.toHaveBeenCalled();
      const row = await t.database.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('to_address', '=', 'outage@example.com')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 0, last_error: null, sent_at: null });
    } finally {
      await mail.stop();
    }
  });
});
