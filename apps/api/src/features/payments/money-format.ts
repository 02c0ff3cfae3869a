import { type Currency, currencyIsoCodes, type Language } from '@odontia/shared/enums';

/** Money as the reader reads it (Argentine pesos as in Argentina, reais as in Brazil); the decimal string goes to Intl as it is. */
export function moneyFormatter(language: Language, currency: Currency): (amount: string) => string {
  const locale =
    language === 'es' && currency === 'argentine_peso'
      ? 'es-AR'
      : language === 'pt' && currency === 'brazilian_real'
        ? 'pt-BR'
        : language;
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency: currencyIsoCodes[currency] });
  return (amount) => format.format(amount as unknown as number);
}
