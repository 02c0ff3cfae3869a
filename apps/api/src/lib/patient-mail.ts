import { brandPalette, defaultBrandColor, isHexColor } from '@odontia/shared/brand-color';
import { type Language, languages } from '@odontia/shared/enums';
import { genderedText } from '@odontia/shared/gendered-text';

/**
 * The one frame of every e-mail to a patient (issue 37): the online booking's confirmation and
 * link, the portal's invitation and sign-in link, the signing request and the reminder. The
 * clinic's band and its buttons take the clinic's brand colour (settings `brandColor`; the
 * product's blue without one) in the shades of `brandPalette`, so their text reaches 4.5:1
 * whatever colour the clinic picked. Styles are inline: mail clients drop style sheets.
 */

/** A patient's (or clinic's) stored language as a mail's language; Spanish when it is none of ours. */
export const languageOf = (value: string): Language =>
  (languages as readonly string[]).includes(value) ? (value as Language) : 'es';

/** The locale a mail's dates and times are written in, per language. */
export const mailLocales: Record<Language, string> = { es: 'es-ES', en: 'en-GB', fr: 'fr-FR', pt: 'pt-PT' };

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Who the mail is from and in what language: the clinic, its brand colour ('#rrggbb'; null: the product's). */
export interface MailFrom {
  language: Language;
  clinicName: string;
  clinicColor?: string | null | undefined;
}

/**
 * Fills a template's `{placeholders}` with `values` (escaped for HTML when `html`), after saying
 * its inclusive words for the patient's sex ("Estimado/a" → "Estimada").
 */
export function templateFiller(values: Record<string, string>, sex?: string | null) {
  return (text: string, html: boolean) =>
    genderedText(text, sex).replace(/\{(\w+)\}/g, (_, key: string) =>
      html ? escapeHtml(values[key] ?? '') : (values[key] ?? ''),
    );
}

/** A link shown as a button: the mail's main one filled with the colour, another one outlined. */
export interface MailAction {
  label: string;
  url: string;
  secondary?: boolean;
}

/**
 * What the mail says, in order; every text is HTML already (filled with `templateFiller(…)(text,
 * true)` or escaped): a paragraph (`strong` for the one the mail is about), a muted note, or a row
 * of buttons.
 */
export type MailBlock = { html: string; strong?: boolean } | { note: string } | { actions: MailAction[] };

const font = "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif";

function button(action: MailAction, palette: ReturnType<typeof brandPalette>): string {
  const look = action.secondary
    ? `background:#ffffff;color:${palette.onLight};border:2px solid ${palette.onLight}`
    : `background:${palette.fill};color:${palette.onFill};border:2px solid ${palette.fill}`;
  return `<a href="${escapeHtml(action.url)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 18px;border-radius:6px;font-weight:600;text-decoration:none;${look}">${escapeHtml(action.label)}</a>`;
}

function block(item: MailBlock, palette: ReturnType<typeof brandPalette>): string {
  if ('actions' in item)
    return `<p style="margin:20px 0 12px">${item.actions.map((action) => button(action, palette)).join('')}</p>`;
  if ('note' in item) return `<p style="margin:0 0 12px;color:#555555;font-size:14px">${item.note}</p>`;
  return `<p style="margin:0 0 12px">${item.strong ? `<strong>${item.html}</strong>` : item.html}</p>`;
}

/** The mail's HTML: the clinic's band, the blocks, and the clinic's name as the signature. */
export function patientMailHtml(from: MailFrom, blocks: MailBlock[]): string {
  const color = from.clinicColor;
  const palette = brandPalette(color && isHexColor(color) ? color : defaultBrandColor);
  const name = escapeHtml(from.clinicName);
  return `<!doctype html><html lang="${from.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:${font};color:#1f2937;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="background:${palette.fill};color:${palette.onFill};padding:16px 24px;font-size:18px;font-weight:600;border-radius:8px 8px 0 0">${name}</td></tr>
<tr><td style="padding:24px;font-size:16px">
${blocks.map((item) => block(item, palette)).join('\n')}
<p style="margin:16px 0 0">— ${name}</p>
</td></tr>
</table>
</td></tr></table>
</body></html>`;
}
