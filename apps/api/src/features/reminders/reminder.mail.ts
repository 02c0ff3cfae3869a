import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml, mailLocales, patientMailHtml, templateFiller } from '../../lib/patient-mail.ts';

/**
 * The appointment reminder (issue 16) in the patient's language, addressed as "usted": the clinic,
 * its address and phone, the professional, the date and time in the clinic's zone, and the two
 * links as buttons. Plain text and its HTML twin in the patients' frame (`lib/patient-mail.ts`:
 * the clinic's band and buttons in its brand colour).
 */

interface Template {
  subject: string;
  greeting: string;
  body: string;
  professional: string;
  where: string;
  phone: string;
  confirm: string;
  cancel: string;
  footer: string;
}

const templates: Record<Language, Template> = {
  es: {
    subject: 'Recordatorio de su cita en {clinic}: {when}',
    greeting: 'Estimado/a {name}:',
    body: 'Le recordamos su cita en {clinic} el {when}.',
    professional: 'Le atenderá: {professional}',
    where: 'Dirección: {address}',
    phone: 'Teléfono: {phone}',
    confirm: 'Confirmar mi cita',
    cancel: 'Cancelar mi cita',
    footer: 'Si necesita cambiar la fecha, llame a la clínica. Los enlaces dejan de servir cuando termina la cita.',
  },
  en: {
    subject: 'Reminder of your appointment at {clinic}: {when}',
    greeting: 'Dear {name},',
    body: 'This is a reminder of your appointment at {clinic} on {when}.',
    professional: 'You will be seen by: {professional}',
    where: 'Address: {address}',
    phone: 'Phone: {phone}',
    confirm: 'Confirm my appointment',
    cancel: 'Cancel my appointment',
    footer: 'If you need another date, please call the clinic. The links stop working when the appointment ends.',
  },
  fr: {
    subject: 'Rappel de votre rendez-vous chez {clinic} : {when}',
    greeting: 'Bonjour {name},',
    body: 'Nous vous rappelons votre rendez-vous chez {clinic} le {when}.',
    professional: 'Vous serez reçu(e) par : {professional}',
    where: 'Adresse : {address}',
    phone: 'Téléphone : {phone}',
    confirm: 'Confirmer mon rendez-vous',
    cancel: 'Annuler mon rendez-vous',
    footer: 'Pour changer de date, appelez le cabinet. Les liens ne fonctionnent plus une fois le rendez-vous terminé.',
  },
  pt: {
    subject: 'Lembrete da sua consulta em {clinic}: {when}',
    greeting: 'Prezado(a) {name},',
    body: 'Lembramos a sua consulta em {clinic} em {when}.',
    professional: 'Será atendido(a) por: {professional}',
    where: 'Endereço: {address}',
    phone: 'Telefone: {phone}',
    confirm: 'Confirmar a minha consulta',
    cancel: 'Cancelar a minha consulta',
    footer: 'Se precisar de outra data, ligue para a clínica. Os links deixam de funcionar quando a consulta termina.',
  },
};

/** "martes, 3 de marzo de 2026, 10:30" in the clinic's zone, in the patient's language. */
export function formatAppointmentTime(startsAt: Date, timeZone: string, language: Language): string {
  return new Intl.DateTimeFormat(mailLocales[language], {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(startsAt);
}

export interface ReminderMailInput {
  language: Language;
  to: string;
  firstName: string;
  /** The patient's sex: "Estimado" or "Estimada" rather than "Estimado/a" (gendered-text.ts). */
  sex?: string | null;
  clinicName: string;
  /** The clinic's brand colour ('#rrggbb') for the mail's band and buttons; null: the product's. */
  clinicColor: string | null;
  clinicAddress: string | null;
  clinicPhone: string | null;
  professionalName: string;
  startsAt: Date;
  timeZone: string;
  confirmLink: string;
  cancelLink: string;
}

export function reminderMail(input: ReminderMailInput): MailMessage {
  const template = templates[input.language];
  const values: Record<string, string> = {
    clinic: input.clinicName,
    name: input.firstName,
    when: formatAppointmentTime(input.startsAt, input.timeZone, input.language),
    professional: input.professionalName,
    address: input.clinicAddress ?? '',
    phone: input.clinicPhone ?? '',
  };
  const fill = templateFiller(values, input.sex);
  const details = [
    template.professional,
    ...(input.clinicAddress ? [template.where] : []),
    ...(input.clinicPhone ? [template.phone] : []),
  ];
  const text = [
    fill(template.greeting, false),
    '',
    fill(template.body, false),
    ...details.map((line) => fill(line, false)),
    '',
    `${template.confirm}: ${input.confirmLink}`,
    '',
    `${template.cancel}: ${input.cancelLink}`,
    '',
    template.footer,
    '',
    `— ${input.clinicName}`,
  ].join('\n');
  const html = patientMailHtml(input, [
    { html: fill(template.greeting, true) },
    { html: fill(template.body, true), strong: true },
    { html: details.map((line) => fill(line, true)).join('<br>') },
    {
      actions: [
        { label: template.confirm, url: input.confirmLink },
        { label: template.cancel, url: input.cancelLink, secondary: true },
      ],
    },
    { note: escapeHtml(template.footer) },
  ]);
  return { to: input.to, subject: fill(template.subject, false), text, html, link: input.confirmLink };
}
