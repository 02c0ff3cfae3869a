import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../lib/mail.ts';

/** A sale's e-mail leaves through a real SMTP transport with its PDF attached. */
describe('sale mail over SMTP', () => {
  const received: { to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((address) => address.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('sends the attachment as application/pdf with its file name', async () => {
    const silent = { info: () => undefined } as unknown as Parameters<typeof createMailer>[0]['log'];
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: '/tmp',
      from: 'clinica@example.com',
      log: silent,
    });
    const pdf = Buffer.from('%PDF-1.4\n%odontia\n');
    await mailer.send({
      to: 'paciente@example.com',
      subject: 'Factura 0001-00000001 — Clínica',
      text: 'Le enviamos adjunto el documento.',
      html: '<p>Le enviamos adjunto el documento.</p>',
      attachments: [{ filename: 'Factura 0001-00000001.pdf', content: pdf, contentType: 'application/pdf' }],
    });
    const mail = received.find((message) => message.to.includes('paciente@example.com'));
    expect(mail?.raw).toMatch(/Content-Type: application\/pdf; name="?Factura 0001-00000001\.pdf"?/);
    expect(mail?.raw).toContain(pdf.toString('base64').slice(0, 16));
  });
});
