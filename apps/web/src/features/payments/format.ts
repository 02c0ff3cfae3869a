import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { type Currency, currencyIsoCodes } from '@odontia/shared/enums';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../session/session';

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
