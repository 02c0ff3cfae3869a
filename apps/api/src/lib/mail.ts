import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/**
 * Outgoing mail (ARCHITECTURE §1). With `SMTP_URL` a real SMTP transport; without it each
 * message is written as an `.eml` file into `DATA_DIR/outbox` and one log line gives its link,
 * so sign-up works on a laptop. A failure to send throws; the caller answers
 * `error_sending_email`.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about (activation, reset…): logged and sent as `X-Odontia-Link`. */
  link?: string;
  /** Files sent with it (a sale's PDF). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  smtpUrl?: string | undefined;
  outboxDir: string;
  from: string;
  log: FastifyBaseLogger;
}

export function createMailer(options: MailerOptions): Mailer {
  const { smtpUrl, outboxDir, from, log } = options;
  const transport = smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    async send(message) {
      const mail = {
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.link ? { headers: { 'X-Odontia-Link': message.link } } : {}),
        ...(message.attachments ? { attachments: message.attachments } : {}),
      };
      const info = await transport.sendMail(mail);
      if (smtpUrl) {
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
        return;
      }
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      const raw = (info as { message: Buffer | string }).message;
      await writeFile(file, raw);
      log.info({ to: message.to, file, link: message.link }, `mail to ${message.to}: ${message.link ?? file}`);
    },
  };
}
