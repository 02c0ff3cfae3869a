/**
 * Tax ids whose check digits are public (issue 17), checked the same way on the server and in the
 * form. Each function takes what people type (dots, dashes, spaces, lower case) and answers
 * whether it is a well-formed id of its kind; `normalizeTaxId` is how it is stored and compared.
 *
 * - Argentina: CUIT/CUIL (11 digits, modulo 11 with weights 5 4 3 2 7 6 5 4 3 2).
 * - Spain: NIF of a person (8 digits and a letter), NIE (X/Y/Z, 7 digits, letter), CIF of a
 *   company (letter, 7 digits, a digit or letter of control).
 * - Brazil: CPF (11 digits) and CNPJ (14 characters; the alphanumeric CNPJ of July 2026 included:
 *   each character counts as its ASCII code minus 48).
 * - France: SIREN (9 digits) and SIRET (14 digits), Luhn; La Poste's SIRETs by their own rule.
 */

export const taxIdKinds = ['cuit', 'nif', 'cpf', 'cnpj', 'siren', 'siret', 'other'] as const;
export type TaxIdKind = (typeof taxIdKinds)[number];

/** Upper case, without spaces, dots, dashes or slashes. */
export function normalizeTaxId(value: string): string {
  return value.replace(/[\s./-]/g, '').toUpperCase();
}

const cuitPrefixes = new Set(['20', '23', '24', '25', '26', '27', '30', '33', '34']);
const cuitWeights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

export function isValidCuit(value: string): boolean {
  const id = normalizeTaxId(value);
  if (!/^\d{11}$/.test(id) || !cuitPrefixes.has(id.slice(0, 2))) return false;
  const sum = cuitWeights.reduce((total, weight, index) => total + weight * Number(id[index]), 0);
  const rest = 11 - (sum % 11);
  const check = rest === 11 ? 0 : rest;
  return check !== 10 && check === Number(id[10]);
}

const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';
const cifControlLetters = 'JABCDEFGHI';

/** A Spanish NIF of a person (DNI), a NIE or a company's CIF. */
export function isValidSpanishNif(value: string): boolean {
  const id = normalizeTaxId(value);
  if (/^\d{8}[A-Z]$/.test(id)) return dniLetters[Number(id.slice(0, 8)) % 23] === id[8];
  if (/^[XYZ]\d{7}[A-Z]$/.test(id)) {
    const number = `${'XYZ'.indexOf(id[0] as string)}${id.slice(1, 8)}`;
    return dniLetters[Number(number) % 23] === id[8];
  }
  if (/^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(id)) {
    const digits = id.slice(1, 8);
    let sum = 0;
    for (let index = 0; index < 7; index += 1) {
      const digit = Number(digits[index]);
      if (index % 2 === 1) sum += digit;
      else {
        const doubled = digit * 2;
        sum += Math.floor(doubled / 10) + (doubled % 10);
      }
    }
    const controlDigit = (10 - (sum % 10)) % 10;
    const control = id[8] as string;
    const letterOnly = 'NPQRSW'.includes(id[0] as string);
    const digitOnly = 'ABEH'.includes(id[0] as string);
    const byLetter = control === cifControlLetters[controlDigit];
    const byDigit = control === String(controlDigit);
    if (letterOnly) return byLetter;
    if (digitOnly) return byDigit;
    return byLetter || byDigit;
  }
  return false;
}

function brazilCheckDigit(values: number[], firstWeight: number): number {
  let weight = firstWeight;
  let sum = 0;
  for (const value of values) {
    sum += value * weight;
    weight = weight === 2 ? 9 : weight - 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(value: string): boolean {
  const id = normalizeTaxId(value);
  if (!/^\d{11}$/.test(id) || /^(\d)\1{10}$/.test(id)) return false;
  const digits = [...id].map(Number);
  const check = (length: number) => {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === digits[9] && check(10) === digits[10];
}

export function isValidCnpj(value: string): boolean {
  const id = normalizeTaxId(value);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(id) || /^(\d)\1{13}$/.test(id)) return false;
  const values = [...id].map((character) => character.charCodeAt(0) - 48);
  const first = brazilCheckDigit(values.slice(0, 12), 5);
  const second = brazilCheckDigit([...values.slice(0, 12), first], 6);
  return first === values[12] && second === values[13];
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function isValidSiren(value: string): boolean {
  const id = normalizeTaxId(value);
  return /^\d{9}$/.test(id) && luhn(id);
}

/** La Poste's establishments share SIREN 356000000 and follow "sum of the digits is a multiple of 5". */
const laPosteSiren = '356000000';

export function isValidSiret(value: string): boolean {
  const id = normalizeTaxId(value);
  if (!/^\d{14}$/.test(id)) return false;
  if (id.startsWith(laPosteSiren)) return [...id].reduce((total, digit) => total + Number(digit), 0) % 5 === 0;
  return luhn(id) && isValidSiren(id.slice(0, 9));
}

const checks: Record<TaxIdKind, (value: string) => boolean> = {
  cuit: isValidCuit,
  nif: isValidSpanishNif,
  cpf: isValidCpf,
  cnpj: isValidCnpj,
  siren: isValidSiren,
  siret: isValidSiret,
  other: (value) => normalizeTaxId(value).length >= 3,
};

/** Whether `value` is a well-formed tax id of `kind` ('other': any 3 or more characters). */
export function isValidTaxId(kind: TaxIdKind, value: string): boolean {
  return checks[kind](value);
}

/** The usual written form: CUIT 20-12345678-6, CNPJ 12.345.678/0001-95, CPF 123.456.789-09; others as stored. */
export function formatTaxId(kind: TaxIdKind | null | undefined, value: string | null | undefined): string {
  if (!value) return '';
  const id = normalizeTaxId(value);
  if (kind === 'cuit' && id.length === 11) return `${id.slice(0, 2)}-${id.slice(2, 10)}-${id.slice(10)}`;
  if (kind === 'cpf' && id.length === 11) return `${id.slice(0, 3)}.${id.slice(3, 6)}.${id.slice(6, 9)}-${id.slice(9)}`;
  if (kind === 'cnpj' && id.length === 14)
    return `${id.slice(0, 2)}.${id.slice(2, 5)}.${id.slice(5, 8)}/${id.slice(8, 12)}-${id.slice(12)}`;
  if (kind === 'siren' && id.length === 9) return `${id.slice(0, 3)} ${id.slice(3, 6)} ${id.slice(6)}`;
  if (kind === 'siret' && id.length === 14)
    return `${id.slice(0, 3)} ${id.slice(3, 6)} ${id.slice(6, 9)} ${id.slice(9)}`;
  return id;
}
