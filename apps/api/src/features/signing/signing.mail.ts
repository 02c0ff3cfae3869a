import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { patientMailHtml, templateFiller } from '../../lib/patient-mail.ts';
import type { LinkMailTemplate } from '../auth/auth.mail.ts';
import { formatAppointmentTime } from '../reminders/reminder.mail.ts';

/**
 * The link to sign a consent or a budget away from the chair (issue 37), in the patient's language,
 * addressed as "usted". Plain text and its HTML twin in the patients' frame (`lib/patient-mail.ts`).
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

export interface SigningMailInput {
  language: Language;
  to: string;
  firstName: string;
  sex: string | null;
  clinicName: string;
  /** The clinic's brand colour ('#rrggbb') for the mail's band and button; null: the product's. */
  clinicColor: string | null;
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
  const fill = templateFiller(values, input.sex);
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
  const html = patientMailHtml(input, [
    { html: fill(template.greeting, true) },
    { html: fill(template.body, true) },
    { actions: [{ label: template.action, url: input.link }] },
    { note: fill(template.footer, true) },
  ]);
  return { to: input.to, subject: fill(template.subject, false), text, html, link: input.link };
}
