import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uniqueEmail } from '../../test/helpers';
import { startSmtpServer, waitFor } from '../../test/smtp';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

const signup = (t: TestApp, email: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/signup', payload: { name: 'Mail Person', email, password: 'quill-and-ink-42' } });

describe('mail outbox', () => {
  it('delivers the verification mail to a real SMTP server', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp({ smtpUrl: smtp.url, mailWorker: true });
    apps.push(t);
    try {
      const email = uniqueEmail();
      expect((await signup(t, email)).statusCode).toBe(201);
      const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(email)));
      expect(mail.text).toContain('Subject: Verify your email address');
      expect(mail.text).toMatch(/http:\/\/localhost:3000\/verify-email\/[A-Za-z0-9_-]{43}/);
      // The SMTP server has the mail before the worker records it as sent.
      const row = await waitFor(() =>
        t.database.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', email)
          .where('sent_at', 'is not', null)
          .executeTakeFirst(),
      );
      expect(row.sent_at).not.toBeNull();
    } finally {
      await smtp.close();
    }
  });

  it('answers sign-up at once while SMTP is down and delivers once it is back', async () => {
    // Reserve a port, then close it so nothing listens there.
    const probe = await startSmtpServer();
    const port = probe.port;
    await probe.close();
    const t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    apps.push(t);
    const email = uniqueEmail();
    expect((await signup(t, email)).statusCode).toBe(201);
    expect(await t.app.services.mail.drain()).toBe(0);
    const failed = await t.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ attempts: 1, sent_at: null });
    expect(failed.last_error).toBeTruthy();
    expect(failed.next_attempt_at > new Date().toISOString()).toBe(true);
  });

  it('retries a failed mail when it falls due', async () => {
    const smtp = await startSmtpServer();
    const t = await createTestApp({ smtpUrl: smtp.url });
    apps.push(t);
    try {
      const email = uniqueEmail();
      await signup(t, email);
      await t.database.db
        .updateTable('mail_outbox')
        .set({ attempts: 3, next_attempt_at: new Date(Date.now() + 60_000).toISOString() })
        .execute();
      expect(await t.app.services.mail.drain()).toBe(0);
      await t.database.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      expect(await t.app.services.mail.drain()).toBe(1);
      expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
      expect(await t.app.services.mail.drain()).toBe(0);
    } finally {
      await smtp.close();
    }
  });

  it('without SMTP writes an .eml file in the data folder', async () => {
    const t = await createTestApp();
    apps.push(t);
    const email = uniqueEmail();
    await signup(t, email);
    expect(await t.app.services.mail.drain()).toBe(1);
    const dir = path.join(t.config.dataDir, 'mail');
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const content = readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(content).toContain(`To: ${email}`);
    expect(content.replace(/=\r?\n/g, '')).toMatch(/verify-email\//);
  });
});
