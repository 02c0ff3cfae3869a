/** The currencies a clinic may keep its money in (spec §3). */
export const currencies = ['us_dollar', 'euro', 'brazilian_real', 'argentine_peso'] as const;
export type Currency = (typeof currencies)[number];
/** ISO 4217 code of each currency, for Intl.NumberFormat. */
export const currencyIsoCodes: Record<Currency, string> = {
  us_dollar: 'USD',
  euro: 'EUR',
  brazilian_real: 'BRL',
  argentine_peso: 'ARS',
};
