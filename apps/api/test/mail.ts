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
