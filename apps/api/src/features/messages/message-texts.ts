import type { Language } from '@odontia/shared/enums';
import { type ProviderChannel, type TemplateKind, templatePlaceholders } from '@odontia/shared/schemas/messages';
import { fillTemplate } from '@odontia/shared/template-placeholders';
import { mailLocales } from '../../lib/patient-mail.ts';

/**
 * The built-in wording of each SMS and WhatsApp message (issue 38), per kind and language, addressed
 * as "usted"; a clinic may write its own (message_templates). Short on purpose: an SMS is paid per
 * 70-character part once it has an accent. The reply words are the ones `reply-intent.ts` reads.
 */
const builtIn: Record<TemplateKind, Record<Language, string>> = {
  appointment_reminder: {
    es: '{{clinic}}: le recordamos su cita del {{date}} a las {{time}} con {{professional}}. Responda 1 para confirmar o 2 para cancelar. BAJA: no recibir más mensajes.',
    en: '{{clinic}}: a reminder of your appointment on {{date}} at {{time}} with {{professional}}. Reply 1 to confirm or 2 to cancel. STOP to opt out.',
    fr: '{{clinic}} : rappel de votre rendez-vous le {{date}} à {{time}} avec {{professional}}. Répondez 1 pour confirmer ou 2 pour annuler. STOP pour ne plus rien recevoir.',
    pt: '{{clinic}}: lembrete da sua consulta em {{date}} às {{time}} com {{professional}}. Responda 1 para confirmar ou 2 para cancelar. SAIR para não receber mais.',
  },
  waiting_list_offer: {
    es: '{{clinic}}: se liberó un hueco para {{treatment}} el {{date}} a las {{time}} con {{professional}}. Se lo guardamos {{minutes}} minutos: {{link}}',
    en: '{{clinic}}: a slot for {{treatment}} is free on {{date}} at {{time}} with {{professional}}. We hold it for you {{minutes}} minutes: {{link}}',
    fr: '{{clinic}} : un créneau pour {{treatment}} s’est libéré le {{date}} à {{time}} avec {{professional}}. Nous vous le gardons {{minutes}} minutes : {{link}}',
    pt: '{{clinic}}: vagou um horário para {{treatment}} em {{date}} às {{time}} com {{professional}}. Guardamos para si {{minutes}} minutos: {{link}}',
  },
  recall: {
    es: '{{clinic}}: {{patient}}, le toca su control de {{treatment}} ({{due_date}}). Llámenos al {{clinic_phone}} para pedir cita. BAJA: no recibir más mensajes.',
    en: '{{clinic}}: {{patient}}, your {{treatment}} check-up is due ({{due_date}}). Call us on {{clinic_phone}} to book. STOP to opt out.',
    fr: '{{clinic}} : {{patient}}, votre contrôle {{treatment}} est à prévoir ({{due_date}}). Appelez-nous au {{clinic_phone}}. STOP pour ne plus rien recevoir.',
    pt: '{{clinic}}: {{patient}}, está na altura do seu controlo de {{treatment}} ({{due_date}}). Ligue-nos para {{clinic_phone}}. SAIR para não receber mais.',
  },
};

/** The WhatsApp template a clinic registers at Meta for each kind (its text is the built-in one above). */
export const builtInWhatsappTemplates: Record<TemplateKind, string> = {
  appointment_reminder: 'odontia_appointment_reminder',
  waiting_list_offer: 'odontia_waiting_list_offer',
  recall: 'odontia_recall',
};

/** Meta's language codes for our languages. */
export const whatsappLanguageCodes: Record<Language, string> = { es: 'es', en: 'en', fr: 'fr', pt: 'pt_PT' };

export function builtInText(kind: TemplateKind, language: Language): string {
  return builtIn[kind][language];
}

/** The values of a message's placeholders; what a kind does not use may be left out. */
export type PlaceholderValues = Partial<Record<(typeof templatePlaceholders)[TemplateKind][number], string>>;

/** The text with its placeholders filled (an unknown one stays as written, as the preview shows). */
export function renderTemplate(kind: TemplateKind, body: string, values: PlaceholderValues): string {
  const names = templatePlaceholders[kind];
  const filled = Object.fromEntries(names.map((name) => [name, values[name] ?? ''])) as Record<
    (typeof names)[number],
    string
  >;
  return fillTemplate(body, names, filled).replace(/\s+/g, ' ').trim();
}

/** A WhatsApp template's parameters: the kind's placeholders in their fixed order. */
export function templateParameters(kind: TemplateKind, values: PlaceholderValues): string[] {
  return templatePlaceholders[kind].map((name) => values[name] ?? '');
}

/** Formatters per language and zone: making one costs more than formatting with it (a minute's reminders). */
const formatters = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/** "lun 7 dic" and "10:30" in the patient's language and the clinic's zone. */
export function dateAndTime(instant: Date, timeZone: string, language: Language): { date: string; time: string } {
  const locale = mailLocales[language];
  const key = `${locale} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    format = {
      date: new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone }),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }),
    };
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(key, format);
  }
  return { date: format.date.format(instant), time: format.time.format(instant) };
}

/** What a channel's message may hold: SMS 1,600 characters (10 parts), WhatsApp 4,096. */
export const maxBodyLength: Record<ProviderChannel, number> = { sms: 1600, whatsapp: 4000 };

/** The fixed confirmation of an opt-out by reply (no template: the law wants it plain). */
export const optOutConfirmation: Record<Language, string> = {
  es: '{clinic}: no le enviaremos más mensajes por este medio. Para volver a recibirlos responda ALTA.',
  en: '{clinic}: you will get no more messages here. Reply START to receive them again.',
  fr: '{clinic} : vous ne recevrez plus de messages ici. Répondez START pour les recevoir à nouveau.',
  pt: '{clinic}: não voltará a receber mensagens por aqui. Responda ALTA para voltar a recebê-las.',
};
