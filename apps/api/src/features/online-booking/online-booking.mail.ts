import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { patientMailHtml, templateFiller } from '../../lib/patient-mail.ts';
import { formatAppointmentTime } from '../reminders/reminder.mail.ts';
import { icsCalendar } from './ics.ts';

/**
 * The mails of online booking (issue 37), in the patient's language, addressed as "usted": the
 * booking's confirmation (with the appointment as an .ics file) and, for a booking of the public
 * page, the link that confirms the e-mail and makes the appointment stand; and a waiting-list
 * offer of a freed time (issue 38).
 */

interface Texts {
  bookedSubject: string;
  heldSubject: string;
  greeting: string;
  booked: string;
  held: string;
  treatment: string;
  professional: string;
  where: string;
  phone: string;
  confirmLink: string;
  heldExpiry: string;
  bookedFooter: string;
  offerSubject: string;
  offer: string;
  offerLink: string;
  offerExpiry: string;
}

const texts: Record<Language, Texts> = {
  es: {
    bookedSubject: 'Su cita en {clinic}: {when}',
    heldSubject: 'Confirme su reserva en {clinic}',
    greeting: 'Estimado/a {name}:',
    booked: 'Su cita en {clinic} está reservada para el {when}.',
    held: 'Recibimos su reserva en {clinic} para el {when}. Para que la cita quede firme, confírmela desde este enlace:',
    treatment: 'Tratamiento: {treatment}',
    professional: 'Le atenderá: {professional}',
    where: 'Dirección: {address}',
    phone: 'Teléfono: {phone}',
    confirmLink: 'Confirmar mi reserva',
    heldExpiry: 'Si no la confirma antes de {expires}, el horario quedará libre de nuevo.',
    bookedFooter:
      'Adjuntamos la cita para su calendario. Si necesita cambiarla, hágalo desde el portal o llame a la clínica.',
    offerSubject: 'Se ha liberado un horario en {clinic}: {when}',
    offer:
      'Está usted en nuestra lista de espera y se ha liberado un horario en {clinic} el {when}. Si le viene bien, resérvelo desde este enlace:',
    offerLink: 'Reservar este horario',
    offerExpiry:
      'Le guardamos el horario hasta {expires}. Se lo ofrecemos también a otros pacientes en espera: la cita será de quien la reserve primero.',
  },
  en: {
    bookedSubject: 'Your appointment at {clinic}: {when}',
    heldSubject: 'Please confirm your booking at {clinic}',
    greeting: 'Dear {name},',
    booked: 'Your appointment at {clinic} is booked for {when}.',
    held: 'We have received your booking at {clinic} for {when}. To make it stand, please confirm it from this link:',
    treatment: 'Treatment: {treatment}',
    professional: 'You will be seen by: {professional}',
    where: 'Address: {address}',
    phone: 'Phone: {phone}',
    confirmLink: 'Confirm my booking',
    heldExpiry: 'If it is not confirmed by {expires}, the time will be free again.',
    bookedFooter: 'The appointment is attached for your calendar. To change it, use the portal or call the clinic.',
    offerSubject: 'A time has become free at {clinic}: {when}',
    offer:
      'You are on our waiting list and a time has become free at {clinic} on {when}. If it suits you, book it from this link:',
    offerLink: 'Book this time',
    offerExpiry:
      'We keep it for you until {expires}. Other waiting patients are offered it too: it goes to whoever books it first.',
  },
  fr: {
    bookedSubject: 'Votre rendez-vous chez {clinic} : {when}',
    heldSubject: 'Veuillez confirmer votre réservation chez {clinic}',
    greeting: 'Bonjour {name},',
    booked: 'Votre rendez-vous chez {clinic} est réservé pour le {when}.',
    held: 'Nous avons reçu votre réservation chez {clinic} pour le {when}. Pour qu’elle soit retenue, veuillez la confirmer depuis ce lien :',
    treatment: 'Soin : {treatment}',
    professional: 'Vous serez reçu(e) par : {professional}',
    where: 'Adresse : {address}',
    phone: 'Téléphone : {phone}',
    confirmLink: 'Confirmer ma réservation',
    heldExpiry: 'Sans confirmation avant le {expires}, le créneau sera de nouveau libre.',
    bookedFooter:
      'Le rendez-vous est joint pour votre agenda. Pour le modifier, utilisez le portail ou appelez le cabinet.',
    offerSubject: 'Un créneau s’est libéré chez {clinic} : {when}',
    offer:
      'Vous êtes sur notre liste d’attente et un créneau s’est libéré chez {clinic} le {when}. S’il vous convient, réservez-le depuis ce lien :',
    offerLink: 'Réserver ce créneau',
    offerExpiry:
      'Nous vous le gardons jusqu’au {expires}. Il est aussi proposé à d’autres patients en attente : il revient à la première personne qui le réserve.',
  },
  pt: {
    bookedSubject: 'Sua consulta em {clinic}: {when}',
    heldSubject: 'Confirme seu agendamento em {clinic}',
    greeting: 'Prezado(a) {name},',
    booked: 'Sua consulta em {clinic} está agendada para {when}.',
    held: 'Recebemos seu agendamento em {clinic} para {when}. Para que a consulta fique marcada, confirme-a por este link:',
    treatment: 'Tratamento: {treatment}',
    professional: 'Será atendido(a) por: {professional}',
    where: 'Endereço: {address}',
    phone: 'Telefone: {phone}',
    confirmLink: 'Confirmar meu agendamento',
    heldExpiry: 'Se não for confirmado até {expires}, o horário ficará livre novamente.',
    bookedFooter: 'A consulta segue em anexo para a sua agenda. Para alterá-la, use o portal ou ligue para a clínica.',
    offerSubject: 'Vagou um horário em {clinic}: {when}',
    offer:
      'Está na nossa lista de espera e vagou um horário em {clinic} em {when}. Se lhe convier, marque-o por este link:',
    offerLink: 'Marcar este horário',
    offerExpiry:
      'Guardamos-lho até {expires}. Também o oferecemos a outros pacientes em espera: a consulta fica para quem a marcar primeiro.',
  },
};

export interface BookingMailInput {
  language: Language;
  to: string;
  firstName: string;
  sex?: string | null | undefined;
  clinicName: string;
  /** The clinic's brand colour ('#rrggbb') for the mail's band and button; null: the product's. */
  clinicColor: string | null;
  clinicAddress: string | null;
  clinicPhone: string | null;
  treatmentName: string | null;
  professionalName: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
}

function compose(
  input: BookingMailInput,
  parts: { subject: string; lead: string; after: string[]; link?: { label: string; url: string } },
  extra: Record<string, string> = {},
): Omit<MailMessage, 'attachments'> {
  const t = texts[input.language];
  const values: Record<string, string> = {
    clinic: input.clinicName,
    name: input.firstName,
    when: formatAppointmentTime(input.startsAt, input.timeZone, input.language),
    treatment: input.treatmentName ?? '',
    professional: input.professionalName,
    address: input.clinicAddress ?? '',
    phone: input.clinicPhone ?? '',
    ...extra,
  };
  const fill = templateFiller(values, input.sex);
  const details = [
    ...(input.treatmentName ? [t.treatment] : []),
    t.professional,
    ...(input.clinicAddress ? [t.where] : []),
    ...(input.clinicPhone ? [t.phone] : []),
  ];
  const text = [
    fill(t.greeting, false),
    '',
    fill(parts.lead, false),
    ...(parts.link ? ['', `${parts.link.label}: ${parts.link.url}`] : []),
    '',
    ...details.map((line) => fill(line, false)),
    '',
    ...parts.after.map((line) => fill(line, false)),
    '',
    `— ${input.clinicName}`,
  ].join('\n');
  const html = patientMailHtml(input, [
    { html: fill(t.greeting, true) },
    { html: fill(parts.lead, true), strong: true },
    ...(parts.link ? [{ actions: [parts.link] }] : []),
    { html: details.map((line) => fill(line, true)).join('<br>') },
    ...parts.after.map((line) => ({ html: fill(line, true) })),
  ]);
  return {
    to: input.to,
    subject: fill(parts.subject, false),
    text,
    html,
    ...(parts.link ? { link: parts.link.url } : {}),
  };
}

/** The confirmation of a booked appointment, with it as `cita.ics`. */
export function bookedMail(input: BookingMailInput & { appointmentId: string; version: number }): MailMessage {
  const t = texts[input.language];
  const message = compose(input, { subject: t.bookedSubject, lead: t.booked, after: [t.bookedFooter] });
  const ics = icsCalendar({
    uid: `${input.appointmentId}@odontia`,
    sequence: input.version,
    start: input.startsAt,
    end: input.endsAt,
    stamp: new Date(),
    summary: input.treatmentName ? `${input.treatmentName} · ${input.clinicName}` : input.clinicName,
    description: `${input.professionalName}${input.clinicPhone ? ` · ${input.clinicPhone}` : ''}`,
    location: input.clinicAddress ?? undefined,
  });
  return {
    ...message,
    attachments: [
      { filename: 'cita.ics', content: Buffer.from(ics, 'utf8'), contentType: 'text/calendar; charset=utf-8' },
    ],
  };
}

type ExpiringLinkInput = BookingMailInput & { link: string; expiresAt: Date };

/** The words of each mail whose link expires: its subject, lead, expiry line and link. */
const expiringLinkWords = {
  held: { subject: 'heldSubject', lead: 'held', expiry: 'heldExpiry', link: 'confirmLink' },
  offer: { subject: 'offerSubject', lead: 'offer', expiry: 'offerExpiry', link: 'offerLink' },
} as const satisfies Record<string, Record<string, keyof Texts>>;

/** A mail whose link works until `expiresAt`: its lead, the link and the time it expires. */
function expiringLinkMail(input: ExpiringLinkInput, kind: keyof typeof expiringLinkWords): MailMessage {
  const t = texts[input.language];
  const words = expiringLinkWords[kind];
  return compose(
    input,
    {
      subject: t[words.subject],
      lead: t[words.lead],
      after: [t[words.expiry]],
      link: { label: t[words.link], url: input.link },
    },
    { expires: formatAppointmentTime(input.expiresAt, input.timeZone, input.language) },
  );
}

/** The link of a public booking: it confirms the e-mail, once, before `expiresAt`. */
export function heldMail(input: ExpiringLinkInput): MailMessage {
  return expiringLinkMail(input, 'held');
}

/** A waiting-list offer (issue 38): the freed time, the link that books it, until when it is kept. */
export function offerMail(input: ExpiringLinkInput): MailMessage {
  return expiringLinkMail(input, 'offer');
}
