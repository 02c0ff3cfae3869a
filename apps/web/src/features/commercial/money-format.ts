import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { type Currency, currencyIsoCodes } from '@odontia/shared/enums';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../session/session';

/*
 * Money and document names as the commercial wing shows them (sales and purchases, collections
 * and payments, the current accounts, reports): one place below the sides that use them.
 */

/** The locale to format with: Argentine pesos read as in Argentina, reais as in Brazil (as inventory/format.ts). */
function localeFor(language: string, currency: Currency): string {
  if (language === 'es' && currency === 'argentine_peso') return 'es-AR';
  if (language === 'pt' && currency === 'brazilian_real') return 'pt-BR';
  return language;
}

/** A decimal string as money in a currency ('—' when blank), with one Intl format a currency, made when first needed. */
function currencyFormatter(language: string) {
  const formats = new Map<Currency, Intl.NumberFormat>();
  return (amount: string | null | undefined, currency: Currency): string => {
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
}

/**
 * Money in a given currency (a payment's, a provider's), in the user's language; without one, the
 * clinic's currency (the profile setting). Decimal strings go to Intl as they are.
 */
export function useCurrencyFormat(): (
  amount: string | null | undefined,
  currency?: Currency | string | null,
) => string {
  const { i18n } = useTranslation();
  const user = useSessionUser();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const fallback = user?.settings.systemCurrency ?? 'us_dollar';
  return useMemo(() => {
    const format = currencyFormatter(language);
    return (amount, currency) =>
      format(
        amount,
        ((currency as Currency | null) ?? fallback) in currencyIsoCodes
          ? ((currency as Currency) ?? fallback)
          : fallback,
      );
  }, [language, fallback]);
}

/** Whole cents of a decimal string ("12.30" → 1230), for sums without floats. */
export function toCents(value: string): number {
  const text = value.trim();
  const negative = text.startsWith('-');
  const plain = normalizeDecimal(negative ? text.slice(1).trim() : text) ?? '';
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return Number.NaN;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** Cents as a decimal string ("1230" → "12.30"). */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A document's amounts in the document's own currency (a purchase in dollars stays in dollars),
 * in the user's language; the decimal string goes to Intl as it is, never a float in between.
 */
export function useDocumentMoney(): (amount: string | null | undefined, currency: Currency) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => currencyFormatter(language), [language]);
}

/** "0001-00001234", as printed. */
export const documentNumberText = (document: { pointOfService: string | null; documentNumber: string | null }) =>
  [document.pointOfService, document.documentNumber].filter(Boolean).join('-') || '—';

/** 'Factura 0001-00001234' from a document reference. */
export function useDocumentName() {
  const { t } = useTranslation('payments');
  return (document: { documentType: string; pointOfService: string | null; documentNumber: string | null }) => {
    const number =
      document.pointOfService && document.documentNumber
        ? `${document.pointOfService}-${document.documentNumber}`
        : (document.documentNumber ?? document.pointOfService ?? '—');
    return `${t(`documentTypes.${document.documentType}`)} ${number}`;
  };
}
