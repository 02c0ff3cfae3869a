import { type Currency, currencyIsoCodes } from '@odontia/shared/enums';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The locale to format with: Argentine pesos read as in Argentina, reais as in Brazil (as inventory/format.ts). */
function localeFor(language: string, currency: Currency): string {
  if (language === 'es' && currency === 'argentine_peso') return 'es-AR';
  if (language === 'pt' && currency === 'brazilian_real') return 'pt-BR';
  return language;
}

/**
 * A document's amounts in the document's own currency (a purchase in dollars stays in dollars),
 * in the user's language; the decimal string goes to Intl as it is, never a float in between.
 */
export function useDocumentMoney(): (amount: string | null | undefined, currency: Currency) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const formats = new Map<Currency, Intl.NumberFormat>();
    return (amount, currency) => {
      if (amount == null || amount === '') return '—';
      let format = formats.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(localeFor(language, currency), {
          style: 'currency',
          currency: currencyIsoCodes[currency],
        });
        formats.set(currency, format);
      }
      return format.format(amount as unknown as number);
    };
  }, [language]);
}

/** "0001-00001234", as printed. */
export const documentNumberText = (document: { pointOfService: string | null; documentNumber: string | null }) =>
  [document.pointOfService, document.documentNumber].filter(Boolean).join('-') || '—';
