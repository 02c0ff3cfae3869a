import { clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { ReplyIntent } from '@odontia/shared/schemas/messages';

/**
 * The rules every message obeys (issue 38), pure so they are tested alone: when the clinic's quiet
 * hours let a message leave, what a patient's reply means, and a patient's mobile number as the
 * providers want it (E.164).
 */

export interface QuietHours {
  start: number;
  end: number;
}

const minutesOfWallTime = (wall: string) => Number(wall.slice(11, 13)) * 60 + Number(wall.slice(14, 16));

/** Whether `minute` of the day lies in the quiet window (which may run past midnight: 21:00–09:00). */
export function inQuietHours(minute: number, quiet: QuietHours): boolean {
  if (quiet.start === quiet.end) return false;
  return quiet.start < quiet.end
    ? minute >= quiet.start && minute < quiet.end
    : minute >= quiet.start || minute < quiet.end;
}

/**
 * When a message may leave: `now`, or the end of the quiet hours it falls in (the clinic's wall
 * clock, so a change of summer time moves it with the clinic). Null quiet hours: always now.
 */
export function nextSendingInstant(now: Date, timeZone: string, quiet: QuietHours | null): Date {
  if (!quiet) return now;
  const wall = clinicWallTime(now, timeZone);
  const minute = minutesOfWallTime(wall);
  if (!inQuietHours(minute, quiet)) return now;
  const day = wall.slice(0, 10);
  const endToday = `${String(Math.floor(quiet.end / 60)).padStart(2, '0')}:${String(quiet.end % 60).padStart(2, '0')}`;
  // After the evening start, the window ends tomorrow morning; in the small hours, this morning.
  const endsTomorrow = quiet.start > quiet.end && minute >= quiet.start;
  const endDay = endsTomorrow ? nextDay(day) : day;
  return instantOfClinicWallTime(`${endDay}T${endToday}`, timeZone) ?? now;
}

function nextDay(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** Letters without accents, upper case, punctuation and emoji dropped: "¡Sí!" → "SI". */
function plainWord(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

const confirmWords = new Set(['1', 'SI', 'S', 'YES', 'Y', 'OUI', 'SIM', 'CONFIRMO', 'CONFIRMAR', 'CONFIRM', 'OK']);
const cancelWords = new Set(['2', 'NO', 'N', 'NON', 'NAO', 'CANCELAR', 'CANCELO', 'CANCEL', 'ANNULER']);
const stopWords = new Set(['STOP', 'BAJA', 'PARAR', 'SAIR', 'ARRET', 'UNSUBSCRIBE', 'STOPALL', 'CANCELAR SUSCRIPCION']);
const startWords = new Set(['START', 'ALTA', 'UNSTOP', 'INICIAR']);

/**
 * What a reply means: confirm ("1", "Sí", "ok"), cancel ("2", "No"), stop ("BAJA", "STOP"), start
 * ("ALTA") — one word or two at most, as people answer; anything else is for a person to read.
 */
export function replyIntent(body: string): ReplyIntent {
  const words = plainWord(body);
  if (words === '' || words.split(' ').length > 2) return 'unknown';
  if (stopWords.has(words)) return 'stop';
  if (startWords.has(words)) return 'start';
  if (confirmWords.has(words)) return 'confirm';
  if (cancelWords.has(words)) return 'cancel';
  return 'unknown';
}

/**
 * The patient's number in E.164 ('+5491140001234') from the record's code and number: a number
 * written with its '+' stands alone; otherwise the code must be a country's ('+54'). Null when
 * it cannot be known (no code, or an area code only): no SMS or WhatsApp is sent on a guess.
 */
export function mobileNumber(phoneArea: string | null, phone: string | null): string | null {
  if (!phone) return null;
  const digits = (text: string) => text.replace(/\D/g, '');
  const trimmed = phone.trim();
  const number = trimmed.startsWith('+')
    ? `+${digits(trimmed)}`
    : phoneArea?.trim().startsWith('+')
      ? `+${digits(phoneArea)}${digits(trimmed).replace(/^0+/, '')}`
      : null;
  return number && /^\+[1-9][0-9]{6,14}$/.test(number) ? number : null;
}

/** A provider's number as we store it: '+' and digits ('whatsapp:+54…' and '5411…' alike). */
export function normalizedAddress(address: string): string {
  const digits = address.replace(/\D/g, '');
  return digits ? `+${digits}` : address.trim();
}
