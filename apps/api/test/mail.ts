import { SMTPServer } from 'smtp-server';
import type { Mailer, MailMessage } from '../src/lib/mail.ts';

/** A mailer that keeps what it is asked to send; `failing = true` makes the next sends throw. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failing = false;

  async send(message: MailMessage): Promise<void> {
    if (this.failing) throw new Error('SMTP server not reachable');
    this.sent.push(message);
  }

  /** The last message to `to`. */
  lastTo(to: string): MailMessage | undefined {
    return this.sent.filter((message) => message.to === to).at(-1);
  }

  /** The token at the end of the last link mailed to `to`. */
  tokenFor(to: string): string {
    const link = this.lastTo(to)?.link;
    if (!link) throw new Error(`no mail with a link to ${to}`);
    return link.slice(link.lastIndexOf('/') + 1);
  }
}

/** An in-process SMTP server on a free port: what it received; `refuseNext` refuses that many deliveries (451). */
export interface Smtp {
  server: SMTPServer;
  url: string;
  received: { to: string[]; raw: string }[];
  refuseNext: number;
}

export async function startSmtp(): Promise<Smtp> {
  const smtp = { received: [], refuseNext: 0 } as unknown as Smtp;
  smtp.server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (smtp.refuseNext > 0) {
          smtp.refuseNext -= 1;
          const refused = new Error('Mailbox busy, try again later') as Error & { responseCode: number };
          refused.responseCode = 451;
          callback(refused);
          return;
        }
        smtp.received.push({
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
  const address = smtp.server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  smtp.url = `smtp://127.0.0.1:${port}`;
  return smtp;
}

/** Stops an SMTP server started by startSmtp. */
export const stopSmtp = (smtp: Smtp | undefined) =>
  new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
