import type { Language } from '@odontia/shared/enums';
import { genderedText } from '@odontia/shared/gendered-text';
import type { MailMessage } from '../../lib/mail.ts';
import type { LinkMailTemplate } from '../auth/auth.mail.ts';
import { formatAppointmentTime } from '../reminders/reminder.mail.ts';

/**
 * The link to sign a consent or a budget away from the chair (issue 37), in the patient's language,
 * addressed as "usted". Plain text and a simple HTML twin, like the reminder.
 */

const templates: Record<Language, LinkMailTemplate> = {
  es: {
    subject: '{clinic}: documento para firmar — {title}',
    greeting: 'Estimado/a {name}:',
    body: '{clinic} le envía «{title}» para que lo lea y lo firme desde su teléfono o su ordenador.',
    action: 'Leer y firmar',
    footer: 'El enlace sirve una sola vez y caduca el {expires}. Si no esperaba este mensaje, llame a la clínica.',
  },
  en: {
    subject: '{clinic}: document to sign — {title}',
    greeting: 'Dear {name},',
    body: '{clinic} has sent you “{title}” to read and sign from your phone or computer.',
    action: 'Read and sign',
    footer: 'The link works once and expires on {expires}. If you did not expect this message, please call the clinic.',
  },
  fr: {
    subject: '{clinic} : document à signer — {title}',
    greeting: 'Bonjour {name},',
    body: '{clinic} vous envoie « {title} » à lire et à signer depuis votre téléphone ou votre ordinateur.',
    action: 'Lire et signer',
    footer:
      'Le lien ne sert qu’une fois et expire le {expires}. Si vous n’attendiez pas ce message, appelez le cabinet.',
  },
  pt: {
    subject: '{clinic}: documento para assinar — {title}',
    greeting: 'Prezado(a) {name},',
    body: '{clinic} envia-lhe «{title}» para o ler e assinar a partir do seu telemóvel ou computador.',
    action: 'Ler e assinar',
    footer: 'O link só funciona uma vez e expira em {expires}. Se não esperava esta mensagem, ligue para a clínica.',
  },
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface SigningMailInput {
  language: Language;
  to: string;
  firstName: string;
  sex: string | null;
  clinicName: string;
  /** The document's first line: "Consentimiento para extracción", "Presupuesto 0001-00000012". */
  title: string;
  expiresAt: Date;
  timeZone: string;
  link: string;
}

export function signingMail(input: SigningMailInput): MailMessage {
  const template = templates[input.language];
  const values: Record<string, string> = {
    clinic: input.clinicName,
    name: input.firstName,
    title: input.title,
    expires: formatAppointmentTime(input.expiresAt, input.timeZone, input.language),
  };
  const fill = (text: string, html: boolean) =>
    genderedText(text, input.sex).replace(/\{(\w+)\}/g, (_, key: string) =>
      html ? escapeHtml(values[key] ?? '') : (values[key] ?? ''),
    );
  const text = [
    fill(template.greeting, false),
    '',
    fill(template.body, false),
    '',
    `${template.action}: ${input.link}`,
    '',
    fill(template.footer, false),
    '',
    `— ${input.clinicName}`,
  ].join('\n');
  const html = `<!doctype html><html lang="${input.language}"><body style="font-family:sans-serif">
<p>${fill(template.greeting, true)}</p>
<p>${fill(template.body, true)}</p>
<p><a href="${escapeHtml(input.link)}"><strong>${escapeHtml(template.action)}</strong></a></p>
<p style="color:#555">${fill(template.footer, true)}</p>
<p>— ${escapeHtml(input.clinicName)}</p>
</body></html>`;
  return { to: input.to, subject: fill(template.subject, false), text, html, link: input.link };
}
