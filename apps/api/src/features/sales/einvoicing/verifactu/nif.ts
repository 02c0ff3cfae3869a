/**
 * Spanish tax identifiers (NIF) as the AEAT checks them: DNI, NIE (X/Y/Z), the K/L/M personal
 * NIFs and the entity NIF (formerly CIF), each with its official control character.
 */

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const ENTITY_CONTROL_LETTERS = 'JABCDEFGHI';
// Entity types whose control character is always a letter / always a digit; the rest accept either.
const ENTITY_LETTER_CONTROL = new Set(['N', 'P', 'Q', 'R', 'S', 'W']);
const ENTITY_DIGIT_CONTROL = new Set(['A', 'B', 'E', 'H']);

function dniLetter(digits: string): string {
  return DNI_LETTERS[Number(digits) % 23] ?? '';
}

function entityControlDigit(sevenDigits: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const digit = Number(sevenDigits[i]);
    if (i % 2 === 1) {
      sum += digit;
    } else {
      const doubled = digit * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    }
  }
  return (10 - (sum % 10)) % 10;
}

export function nifIsValid(nif: string): boolean {
  const value = nif.trim().toUpperCase();
  if (/^\d{8}[A-Z]$/.test(value)) return dniLetter(value.slice(0, 8)) === value[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(value)) {
    const digits = `${'XYZ'.indexOf(value[0] as string)}${value.slice(1, 8)}`;
    return dniLetter(digits) === value[8];
  }
  // K (Spaniards under 14), L (non-resident Spaniards), M (foreigners without NIE): DNI letter on the 7 digits.
  if (/^[KLM]\d{7}[A-Z]$/.test(value)) return dniLetter(value.slice(1, 8)) === value[8];
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(value)) {
    const kind = value[0] as string;
    const digit = entityControlDigit(value.slice(1, 8));
    const control = value[8] as string;
    const asDigit = String(digit);
    const asLetter = ENTITY_CONTROL_LETTERS[digit] as string;
    if (ENTITY_LETTER_CONTROL.has(kind)) return control === asLetter;
    if (ENTITY_DIGIT_CONTROL.has(kind)) return control === asDigit;
    return control === asDigit || control === asLetter;
  }
  return false;
}
