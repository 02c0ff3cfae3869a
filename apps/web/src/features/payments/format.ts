import { type Currency, currencyIsoCodes } from '@odontia/shared/enums';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../auth/session';

function localeFor(language: string, currency: Currency): string {
  if (language === 'es' && currency === 'argentine_peso') return 'es-AR';
  if (language === 'pt' && currency === 'brazilian_real') return 'pt-BR';
  return language;
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
    const formats = new Map<string, Intl.NumberFormat>();
    return (amount, currency) => {
      if (amount == null || amount === '') return '—';
      const code =
        ((currency as Currency | null) ?? fallback) in currencyIsoCodes
          ? ((currency as Currency) ?? fallback)
          : fallback;
      let format = formats.get(code);
      if (!format) {
        format = new Intl.NumberFormat(localeFor(language, code), {
          style: 'currency',
          currency: currencyIsoCodes[code],
        });
        formats.set(code, format);
      }
      return format.format(amount as unknown as number);
    };
  }, [language, fallback]);
}

/** Whole cents of a decimal string ("12.30" → 1230), for sums without floats. */
export function toCents(value: string): number {
  const match = /^(-)?(\d+)(?:[.,](\d{0,2}))?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** Cents as a decimal string ("1230" → "12.30"). */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
