import type { ReportId } from '@odontia/shared/schemas/reports';

/**
 * The catalogue's areas (how a clinic owner looks for a report) and the period presets. Pure: the
 * clinic's today comes in, so the presets are the clinic's months and years whatever the browser's
 * time zone.
 */

export const reportAreas = [
  { area: 'cash', reports: ['daily-cash', 'cash-closings', 'cash-differences'] },
  { area: 'production', reports: ['production-by-treatment', 'production-by-professional'] },
  {
    area: 'accounts',
    reports: [
      'receivables-aging',
      'payables',
      'payment-plan-instalments',
      'payer-presentations',
      'payer-rejections',
      'professional-settlements',
    ],
  },
  { area: 'taxes', reports: ['sales-vat-book', 'purchases-vat-book'] },
  { area: 'stock', reports: ['stock-valuation', 'stock-movements'] },
  { area: 'agenda', reports: ['appointments-by-professional'] },
  { area: 'patients', reports: ['new-patients', 'active-patients'] },
  { area: 'integrity', reports: ['sales-integrity'] },
] as const satisfies readonly { area: string; reports: readonly (ReportId | 'sales-integrity')[] }[];

export type ReportArea = (typeof reportAreas)[number]['area'];

export const periodPresets = ['thisMonth', 'lastMonth', 'thisQuarter', 'thisYear', 'lastYear'] as const;
export type PeriodPreset = (typeof periodPresets)[number];

const pad = (value: number) => String(value).padStart(2, '0');
const day = (year: number, month: number, date: number) => `${year}-${pad(month)}-${pad(date)}`;
/** The last day of a month (1–12). */
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A preset's first and last day; a period that has not ended stops at today. */
export function presetPeriod(preset: PeriodPreset, today: string): { from: string; to: string } {
  const [year = 1970, month = 1] = today.split('-').map(Number);
  switch (preset) {
    case 'thisMonth':
      return { from: day(year, month, 1), to: today };
    case 'lastMonth': {
      const [y, m] = month === 1 ? [year - 1, 12] : [year, month - 1];
      return { from: day(y, m, 1), to: day(y, m, lastDay(y, m)) };
    }
    case 'thisQuarter':
      return { from: day(year, Math.floor((month - 1) / 3) * 3 + 1, 1), to: today };
    case 'thisYear':
      return { from: day(year, 1, 1), to: today };
    case 'lastYear':
      return { from: day(year - 1, 1, 1), to: day(year - 1, 12, 31) };
  }
}

/** The preset a period is, if any ('' for a period of its own). */
export function presetOf(from: string, to: string, today: string): PeriodPreset | '' {
  return (
    periodPresets.find((preset) => {
      const period = presetPeriod(preset, today);
      return period.from === from && period.to === to;
    }) ?? ''
  );
}
