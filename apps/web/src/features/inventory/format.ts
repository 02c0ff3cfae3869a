import { type Currency, currencyIsoCodes } from '@odontia/shared/enums';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../session/session';

/** The locale to format with: Argentine pesos read as in Argentina, reais as in Brazil. */
function localeFor(language: string, currency: Currency): string {
  if (language === 'es' && currency === 'argentine_peso') return 'es-AR';
  if (language === 'pt' && currency === 'brazilian_real') return 'pt-BR';
  return language;
}

/**
 * Formats decimal strings ("1234.50") as money in the user's currency (profile setting) and
 * language. The string goes to Intl as it is: never a float in between.
 */
export function useMoneyFormat(): (amount: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const user = useSessionUser();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const currency = user?.settings.systemCurrency ?? 'us_dollar';
  return useMemo(() => {
    const format = new Intl.NumberFormat(localeFor(language, currency), {
      style: 'currency',
      currency: currencyIsoCodes[currency],
    });
    // Intl.NumberFormat formats a decimal string exactly (ES2023); the DOM types still say number.
    return (amount) => (amount == null || amount === '' ? '—' : format.format(amount as unknown as number));
  }, [language, currency]);
}

export function useNumberFormat(): (value: number) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const format = new Intl.NumberFormat(language);
    return (value) => format.format(value);
  }, [language]);
}

/** Date and time of an instant on the clinic's clock. */
export { useDateTimeFormat } from '../../session/clinic-time';

/** The second line under the name: active principle and concentration, or brand and model. */
export function itemDetails(item: InventoryItem): string {
  const parts = item.kind === 'medication' ? [item.activePrinciple, item.concentration] : [item.brand, item.model];
  return parts.filter(Boolean).join(' · ');
}
