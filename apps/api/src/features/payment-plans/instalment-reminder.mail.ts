import { type Currency, currencyIsoCodes } from '@odontia/shared/currencies';
import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml, mailLocales, templateFiller } from '../../lib/patient-mail.ts';
import { formatRecallDay } from '../recalls/recall.mail.ts';

/**
 * The patient's instalment reminder (issue 40), in the patient's language and addressed as
 * "usted": before the due date ("vence el…") and once overdue ("venció el…"). The same words go by
 * e-mail (with a greeting) or, short, by SMS/WhatsApp.
 */

export type ReminderWhen = 'before' | 'overdue';

interface Template {
  subject: Record<ReminderWhen, string>;
  greeting: string;
  body: Record<ReminderWhen, string>;
  footer: Record<ReminderWhen, string>;
  short: Record<ReminderWhen, string>;
}

const templates: Record<Language, Template> = {
  es: {
    subject: {
      before: '{clinic}: su cuota {number} de {count} vence el {due}',
      overdue: '{clinic}: su cuota {number} de {count} está vencida',
    },
    greeting: 'Estimado/a {name}:',
    body: {
      before:
        'Le recordamos que la cuota {number} de {count} de su plan de pago de la factura {document}, por {amount}, vence el {due}.',
      overdue:
        'La cuota {number} de {count} de su plan de pago de la factura {document}, por {amount}, venció el {due} y figura pendiente de pago.',
    },
    footer: {
      before: 'Si ya la abonó, no tenga en cuenta este mensaje.',
      overdue: 'Si ya la abonó, no tenga en cuenta este mensaje; si necesita otro plazo, llámenos.',
    },
    short: {
      before:
        '{clinic}: le recordamos que la cuota {number} de {count} de su plan de pago, por {amount}, vence el {due}.',
      overdue:
        '{clinic}: la cuota {number} de {count} de su plan de pago, por {amount}, venció el {due}. Si ya la abonó, no tenga en cuenta este mensaje.',
    },
  },
  en: {
    subject: {
      before: '{clinic}: your instalment {number} of {count} is due on {due}',
      overdue: '{clinic}: your instalment {number} of {count} is overdue',
    },
    greeting: 'Dear {name},',
    body: {
      before:
        'This is a reminder that instalment {number} of {count} of your payment plan for invoice {document}, for {amount}, is due on {due}.',
      overdue:
        'Instalment {number} of {count} of your payment plan for invoice {document}, for {amount}, was due on {due} and is still unpaid.',
    },
    footer: {
      before: 'If you have already paid it, please disregard this message.',
      overdue: 'If you have already paid it, please disregard this message; if you need more time, please call us.',
    },
    short: {
      before:
        '{clinic}: a reminder that instalment {number} of {count} of your payment plan, for {amount}, is due on {due}.',
      overdue:
        '{clinic}: instalment {number} of {count} of your payment plan, for {amount}, was due on {due}. If you have paid it, please disregard this message.',
    },
  },
  fr: {
    subject: {
      before: '{clinic} : votre échéance {number} sur {count} arrive le {due}',
      overdue: '{clinic} : votre échéance {number} sur {count} est en retard',
    },
    greeting: 'Bonjour {name},',
    body: {
      before:
        "Nous vous rappelons que l'échéance {number} sur {count} de votre échéancier de la facture {document}, d'un montant de {amount}, arrive le {due}.",
      overdue:
        "L'échéance {number} sur {count} de votre échéancier de la facture {document}, d'un montant de {amount}, était due le {due} et reste impayée.",
    },
    footer: {
      before: "Si vous l'avez déjà réglée, ne tenez pas compte de ce message.",
      overdue:
        "Si vous l'avez déjà réglée, ne tenez pas compte de ce message ; si vous avez besoin d'un délai, appelez-nous.",
    },
    short: {
      before: "{clinic} : rappel, l'échéance {number} sur {count} de votre échéancier, {amount}, arrive le {due}.",
      overdue:
        "{clinic} : l'échéance {number} sur {count} de votre échéancier, {amount}, était due le {due}. Si elle est réglée, ignorez ce message.",
    },
  },
  pt: {
    subject: {
      before: '{clinic}: a sua parcela {number} de {count} vence em {due}',
      overdue: '{clinic}: a sua parcela {number} de {count} está vencida',
    },
    greeting: 'Prezado(a) {name},',
    body: {
      before:
        'Lembramos que a parcela {number} de {count} do seu plano de pagamento da fatura {document}, no valor de {amount}, vence em {due}.',
      overdue:
        'A parcela {number} de {count} do seu plano de pagamento da fatura {document}, no valor de {amount}, venceu em {due} e continua por pagar.',
    },
    footer: {
      before: 'Se já a pagou, ignore esta mensagem.',
      overdue: 'Se já a pagou, ignore esta mensagem; se precisar de mais prazo, contacte-nos.',
    },
    short: {
      before:
        '{clinic}: lembramos que a parcela {number} de {count} do seu plano de pagamento, de {amount}, vence em {due}.',
      overdue:
        '{clinic}: a parcela {number} de {count} do seu plano de pagamento, de {amount}, venceu em {due}. Se já a pagou, ignore esta mensagem.',
    },
  },
};

/** An amount in the clinic's currency, as the patient's language writes it. */
export function formatPatientMoney(amount: string, currency: string, language: Language): string {
  const iso = currencyIsoCodes[currency as Currency] ?? currency;
  // Intl takes a decimal string exactly (no float in between).
  return new Intl.NumberFormat(mailLocales[language], { style: 'currency', currency: iso }).format(
    amount as unknown as number,
  );
}

export interface InstalmentReminderInput {
  language: Language;
  when: ReminderWhen;
  firstName: string;
  sex?: string | null;
  clinicName: string;
  number: number;
  count: number;
  /** What is still owed of the instalment. */
  amount: string;
  currency: string;
  dueOn: string;
  document: string;
}

function values(input: InstalmentReminderInput): Record<string, string> {
  return {
    clinic: input.clinicName,
    name: input.firstName,
    number: String(input.number),
    count: String(input.count),
    amount: formatPatientMoney(input.amount, input.currency, input.language),
    due: formatRecallDay(input.dueOn, input.language),
    document: input.document,
  };
}

/** The SMS/WhatsApp text. */
export function instalmentReminderText(input: InstalmentReminderInput): string {
  return templateFiller(values(input), input.sex)(templates[input.language].short[input.when], false);
}

export function instalmentReminderMail(input: InstalmentReminderInput & { to: string }): MailMessage {
  const template = templates[input.language];
  const fill = templateFiller(values(input), input.sex);
  const body = template.body[input.when];
  const footer = template.footer[input.when];
  const text = [fill(template.greeting, false), '', fill(body, false), '', footer, '', `— ${input.clinicName}`].join(
    '\n',
  );
  const html = `<!doctype html><html lang="${input.language}"><body style="font-family:sans-serif">
<p>${fill(template.greeting, true)}</p>
<p>${fill(body, true)}</p>
<p style="color:#555">${escapeHtml(footer)}</p>
<p>— ${escapeHtml(input.clinicName)}</p>
</body></html>`;
  return { to: input.to, subject: fill(template.subject[input.when], false), text, html };
}
