import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Smtp, startSmtp, stopSmtp } from '../../../test/mail.ts';
import { createMailer } from '../../lib/mail.ts';

/** A sale's e-mail leaves through a real SMTP transport with its PDF attached. */
describe('sale mail over SMTP', () => {
  let smtp: Smtp;

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await stopSmtp(smtp);
  });

  it('sends the attachment as application/pdf with its file name', async () => {
    const silent = { info: () => undefined } as unknown as Parameters<typeof createMailer>[0]['log'];
    const mailer = createMailer({
      smtpUrl: smtp.url,
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
    const mail = smtp.received.find((message) => message.to.includes('paciente@example.com'));
    expect(mail?.raw).toMatch(/Content-Type: application\/pdf; name="?Factura 0001-00000001\.pdf"?/);
    expect(mail?.raw).toContain(pdf.toString('base64').slice(0, 16));
  });
});
