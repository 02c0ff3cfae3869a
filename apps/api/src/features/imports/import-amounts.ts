/**
 * An amount as another system exports it (issue 42's imports): "12.500,50", "-300", "(300,00)",
 * "1 234,5 €", "12,500.50" with the clinic's decimal separator. Strict, because money is: the
 * thousands groups are checked ("12.5.0" and "1.23,00" are not amounts), at most two decimals, and
 * at most 12 digits before them (numeric(14,2)). The one leniency: the other separator once with
 * one or two digits after it ("1234.5" in a Spanish clinic) can only be a decimal point.
 */

export type AmountReason = 'required' | 'invalid_amount' | 'too_big';

export type ParsedAmount = { value: string } | { reason: AmountReason };

/** Currency signs and codes a cell may carry around its number. */
const currencyMarks = /(€|\$|£|R\$|US\$|EUR|USD|ARS|BRL|GBP|CHF|MXN|CLP|COP|UYU|PEN)/gi;
const groupSpaces = /[\s\u00a0\u202f\u2009']/g;

function thousands(text: string, separator: string): string | null {
  const groups = separator === '' ? [text] : text.split(separator);
  if (groups.length === 1) return /^\d+$/.test(text) ? text : null;
  if (!/^\d{1,3}$/.test(groups[0] ?? '')) return null;
  return groups.slice(1).every((group) => /^\d{3}$/.test(group)) ? groups.join('') : null;
}

/** The amount as a plain decimal string with two decimals ("-1234.50"), or why it is not one. */
export function parseAmount(text: string, decimalSeparator: ',' | '.'): ParsedAmount {
  let value = text.trim();
  if (value === '') return { reason: 'required' };
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1);
  }
  value = value.replace(currencyMarks, '').trim();
  if (/^[-+]/.test(value)) {
    negative = negative || value.startsWith('-');
    value = value.slice(1).trim();
  } else if (/-$/.test(value)) {
    negative = true;
    value = value.slice(0, -1).trim();
  }
  const other = decimalSeparator === ',' ? '.' : ',';
  // Spaces (and the apostrophe) group thousands too, but only as groups: "12 34" is no amount.
  const spaced = value.replace(groupSpaces, ' ');
  if (spaced.includes(' ')) {
    if (!/^\d{1,3}( \d{3})+$/.test(spaced.split(decimalSeparator)[0] ?? '')) return { reason: 'invalid_amount' };
    value = spaced.replace(/ /g, '');
  }
  let integer: string;
  let decimals = '';
  const decimalAt = value.indexOf(decimalSeparator);
  if (decimalAt >= 0) {
    if (value.indexOf(decimalSeparator, decimalAt + 1) >= 0) return { reason: 'invalid_amount' };
    integer = value.slice(0, decimalAt);
    decimals = value.slice(decimalAt + 1);
  } else {
    const lone = new RegExp(`^(\\d+)\\${other}(\\d{1,2})$`).exec(value);
    if (lone) [integer, decimals] = [lone[1] as string, lone[2] as string];
    else integer = value;
  }
  if (!/^\d{0,2}$/.test(decimals) || (decimalAt >= 0 && decimals === '')) return { reason: 'invalid_amount' };
  const digits = integer === '' && decimals !== '' ? '0' : thousands(integer, other);
  if (digits === null || digits === '') return { reason: 'invalid_amount' };
  const whole = digits.replace(/^0+(?=\d)/, '');
  if (whole.length > 12) return { reason: 'too_big' };
  const amount = `${whole}.${decimals.padEnd(2, '0')}`;
  return { value: negative && amount !== '0.00' ? `-${amount}` : amount };
}
