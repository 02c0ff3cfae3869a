import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml, mailLocales, templateFiller } from '../../lib/patient-mail.ts';

/**
 * The automatic recall e-mail (issue 38), in the patient's language and addressed as "usted": it is
 * time for the treatment's check-up (the rule's reason, or the treatment), around which day, and how
 * to book (the clinic's phone). Plain text and a simple HTML twin, like the appointment reminder.
 */

interface Template {
  subject: string;
  greeting: string;
  body: string;
  reason: string;
  book: string;
  phone: string;
  footer: string;
}

const templates: Record<Language, Template> = {
  es: {
    subject: '{clinic}: es momento de su control',
    greeting: 'Estimado/a {name}:',
    body: 'Según su último tratamiento en {clinic}, le corresponde un control hacia el {due}.',
    reason: 'Motivo: {reason}',
    book: 'Le esperamos: pida su cita cuando le resulte cómodo.',
    phone: 'Teléfono de la clínica: {phone}',
    footer: 'Si ya tiene una cita, no tenga en cuenta este mensaje.',
  },
  en: {
    subject: '{clinic}: time for your check-up',
    greeting: 'Dear {name},',
    body: 'Following your last treatment at {clinic}, your check-up is due around {due}.',
    reason: 'Reason: {reason}',
    book: 'We look forward to seeing you: please book your appointment at your convenience.',
    phone: "The clinic's phone: {phone}",
    footer: 'If you already have an appointment, please disregard this message.',
  },
  fr: {
    subject: '{clinic} : il est temps de votre contrôle',
    greeting: 'Bonjour {name},',
    body: 'Suite à votre dernier soin chez {clinic}, votre contrôle est prévu vers le {due}.',
    reason: 'Motif : {reason}',
    book: 'Nous vous attendons : prenez rendez-vous quand cela vous convient.',
    phone: 'Téléphone du cabinet : {phone}',
    footer: 'Si vous avez déjà un rendez-vous, ne tenez pas compte de ce message.',
  },
  pt: {
    subject: '{clinic}: está na hora do seu retorno',
    greeting: 'Prezado(a) {name},',
    body: 'De acordo com o seu último tratamento em {clinic}, o seu retorno está previsto para cerca de {due}.',
    reason: 'Motivo: {reason}',
    book: 'Aguardamos a sua visita: marque a sua consulta quando lhe for conveniente.',
    phone: 'Telefone da clínica: {phone}',
    footer: 'Se já tiver uma consulta marcada, ignore esta mensagem.',
  },
};

/** "3 de marzo de 2026": a calendar day in the patient's language (no zone: it is a day). */
export function formatRecallDay(day: string, language: Language): string {
  return new Intl.DateTimeFormat(mailLocales[language], {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(`${day}T12:00:00Z`));
}

export interface RecallMailInput {
  language: Language;
  to: string;
  firstName: string;
  sex?: string | null;
  clinicName: string;
  clinicPhone: string | null;
  dueOn: string;
  /** The rule's reason, else the treatment's name. */
  reason: string;
}

export function recallMail(input: RecallMailInput): MailMessage {
  const template = templates[input.language];
  const values: Record<string, string> = {
    clinic: input.clinicName,
    name: input.firstName,
    due: formatRecallDay(input.dueOn, input.language),
    reason: input.reason,
    phone: input.clinicPhone ?? '',
  };
  const fill = templateFiller(values, input.sex);
  const lines = [template.body, template.reason, template.book, ...(input.clinicPhone ? [template.phone] : [])];
  const text = [
    fill(template.greeting, false),
    '',
    ...lines.map((line) => fill(line, false)),
    '',
    template.footer,
    '',
    `— ${input.clinicName}`,
  ].join('\n');
  const html = `<!doctype html><html lang="${input.language}"><body style="font-family:sans-serif">
<p>${fill(template.greeting, true)}</p>
${lines.map((line) => `<p>${fill(line, true)}</p>`).join('\n')}
<p style="color:#555">${escapeHtml(template.footer)}</p>
<p>— ${escapeHtml(input.clinicName)}</p>
</body></html>`;
  return { to: input.to, subject: fill(template.subject, false), text, html };
}
