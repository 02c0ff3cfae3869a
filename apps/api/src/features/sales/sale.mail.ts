import type { Language } from '@odontia/shared/enums';
import type { Sale } from '@odontia/shared/schemas/sales';
import type { ClinicPrintHeader } from '../../lib/pdf.ts';
import { printLanguage } from '../../lib/pdf.ts';
import { saleTitle } from './sale.pdf.ts';

/** The e-mail that carries a sale's PDF, in the customer's language (patients as usted). */
const bodies: Record<Language, (title: string, clinic: string) => string> = {
  es: (title, clinic) =>
    `Estimado/a cliente:\n\nLe enviamos adjunto el documento ${title}.\n\nAnte cualquier consulta, no dude en comunicarse con nosotros.\n\nAtentamente,\n${clinic}`,
  en: (title, clinic) =>
    `Dear customer,\n\nPlease find attached the document ${title}.\n\nIf you have any questions, do not hesitate to contact us.\n\nKind regards,\n${clinic}`,
  fr: (title, clinic) =>
    `Madame, Monsieur,\n\nVeuillez trouver ci-joint le document ${title}.\n\nPour toute question, n'hésitez pas à nous contacter.\n\nCordialement,\n${clinic}`,
  pt: (title, clinic) =>
    `Prezado(a) cliente,\n\nSegue em anexo o documento ${title}.\n\nEm caso de dúvida, não hesite em nos contatar.\n\nAtenciosamente,\n${clinic}`,
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function saleMail({
  sale,
  clinic,
  readerLanguage,
}: {
  sale: Sale;
  clinic: ClinicPrintHeader;
  readerLanguage: string | null;
}): { subject: string; text: string; html: string } {
  const language = printLanguage(readerLanguage);
  const title = saleTitle(sale, language);
  const text = bodies[language](title, clinic.name);
  const html = text
    .split('\n\n')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`)
    .join('');
  return { subject: `${title} — ${clinic.name}`, text, html };
}
