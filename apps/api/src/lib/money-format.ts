import { type Currency, currencyIsoCodes, type Language } from '@odontia/shared/enums';
import { moneyLocale } from '@odontia/shared/schemas/authorizations';

/**
 * Money as the reader reads it, in the locale of `moneyLocale` (the one the consent's cost uses):
 * one formatter for a whole document; the decimal string goes to Intl as it is.
 */
export function moneyFormatter(language: Language, currency: Currency): (amount: string) => string {
  const format = new Intl.NumberFormat(moneyLocale(language, currency), {
    style: 'currency',
    currency: currencyIsoCodes[currency],
  });
  return (amount) => format.format(amount as unknown as number);
}
