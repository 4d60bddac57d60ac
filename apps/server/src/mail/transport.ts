import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface MailTransport {
  send(mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string | null;
    headers?: Record<string, string>;
  }): Promise<void>;
  close(): void;
}

/** Real SMTP delivery (SMTP_URL, e.g. smtp://user:pass@host:587). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transporter.sendMail({ ...mail, html: mail.html ?? undefined });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP, each mail becomes an .eml file under the data folder and its links are
 * logged, so a person running the default install can still verify an account.
 */
export function createFileTransport(dir: string, log: FastifyBaseLogger): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await builder.sendMail({ ...mail, html: mail.html ?? undefined });
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`);
      await writeFile(file, info.message as Buffer);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      log.info(
        { to: mail.to, subject: mail.subject, file, links },
        `mail written to ${file}${links.length ? `; links: ${links.join(' ')}` : ''}`,
      );
    },
    close: () => {},
  };
}
