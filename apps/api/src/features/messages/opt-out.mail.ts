import type { Language } from '@odontia/shared/enums';
import type { MailMessage } from '../../lib/mail.ts';
import { escapeHtml } from '../../lib/patient-mail.ts';

/**
 * The "no more e-mails" line at the foot of an e-mail to a patient (issue 38): its link records the
 * patient's no for e-mail (consent source `link`), one click, no sign-in.
 */
const optOutLine: Record<Language, string> = {
  es: 'Si no desea recibir más mensajes de la clínica por correo electrónico:',
  en: 'If you no longer wish to receive e-mails from the clinic:',
  fr: 'Si vous ne souhaitez plus recevoir d’e-mails du cabinet :',
  pt: 'Se não quiser receber mais mensagens da clínica por e-mail:',
};

const optOutLabel: Record<Language, string> = {
  es: 'darse de baja',
  en: 'unsubscribe',
  fr: 'se désabonner',
  pt: 'cancelar a subscrição',
};

export function withOptOutLink(mail: MailMessage, language: Language, link: string): MailMessage {
  const html = `<p style="margin:16px 0 0;font-size:12px;color:#555555">${escapeHtml(optOutLine[language])} <a href="${escapeHtml(link)}" style="color:#1d4ed8">${escapeHtml(optOutLabel[language])}</a></p>`;
  return {
    ...mail,
    text: `${mail.text}\n\n${optOutLine[language]} ${link}\n`,
    html: mail.html.includes('</body>') ? mail.html.replace('</body>', `${html}</body>`) : `${mail.html}${html}`,
  };
}
