import { z } from 'zod';
import { dateText, instantText } from '../api-schema.ts';
import { currencies, paymentMethods } from '../enums.ts';
import { calendarDate } from '../validation.ts';
import { idSchema, maxPageSize } from './common.ts';

/**
 * Reports (issue 19, spec §1 "reports"): GET /api/reports is the catalogue, GET
 * /api/reports/:reportId one page of a report's rows for a period with the totals of the whole
 * period (always the sum of every row), or the whole report as CSV, XLSX or PDF (`format`); a
 * large export runs as a job (POST /api/reports/:reportId/exports). docs/decisions.md "Reports
 * (issue 19)".
 */

/** The reports answered by GET /api/reports/:reportId, in the catalogue's order. */
export const reportIds = [
  'daily-cash',
  'production-by-treatment',
  'production-by-professional',
  'receivables-aging',
  'payables',
  'sales-vat-book',
  'purchases-vat-book',
  'stock-valuation',
  'stock-movements',
  'appointments-by-professional',
  'new-patients',
  'active-patients',
  // Issue 40: the cash registers' closings.
  'cash-closings',
  'cash-differences',
  // Issue 40: third-party payers.
  'payer-presentations',
  'payer-rejections',
  // Payment plans (issue 40)
  'payment-plan-instalments',
  // Issue 40: professionals' settlements by period, what is still to pay.
  'professional-settlements',
] as const;
export type ReportId = (typeof reportIds)[number];

/** Reports of other areas the catalogue lists with their own endpoint (not exported here). */
export const linkedReportIds = ['sales-integrity'] as const;

export const reportFormats = ['csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** The filters a report may take besides the period. */
export const reportFilters = ['method', 'professionalId', 'registerId'] as const;
export type ReportFilter = (typeof reportFilters)[number];

export const reportColumnKinds = ['text', 'date', 'money', 'integer', 'rate'] as const;
export type ReportColumnKind = (typeof reportColumnKinds)[number];

/** The longest period a report covers (a year and a day: a leap year's whole year). */
export const reportMaxDays = 366;
/** Rows a GET with `format` answers at once; more must be exported as a job. */
export const reportDirectExportMaxRows = 5000;
/** Rows a PDF may hold (pdfmake lays out the whole document in memory). */
export const reportPdfMaxRows = 20_000;

const period = {
  from: calendarDate(),
  to: calendarDate(),
};

function checkPeriod(value: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (value.to < value.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'end_before_start' });
  else {
    const days = (Date.parse(`${value.to}T00:00:00Z`) - Date.parse(`${value.from}T00:00:00Z`)) / 86_400_000 + 1;
    if (days > reportMaxDays) ctx.addIssue({ code: 'custom', path: ['to'], message: 'range_too_long' });
  }
}

const filters = {
  /** daily-cash: one payment method. */
  method: z.enum(paymentMethods).optional(),
  /** appointments-by-professional: one professional. */
  professionalId: idSchema.optional(),
  /** cash-closings, cash-differences: one cash register (issue 40). */
  registerId: idSchema.optional(),
};

export const reportParamsSchema = z.object({ reportId: z.enum(reportIds) });
export const reportExportParamsSchema = z.object({ exportId: idSchema });

export const reportQuerySchema = z
  .object({
    ...period,
    ...filters,
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(50),
    /** The whole report as a file instead of a page (at most `reportDirectExportMaxRows` rows). */
    format: z.enum(reportFormats).optional(),
  })
  .superRefine(checkPeriod);
export type ReportQuery = z.output<typeof reportQuerySchema>;

/**
 * What a report is asked for: the period, its filters, the clinic's today when asked (aging and
 * stock are as of it) and its time zone then (the period's instants).
 */
export type ReportRequest = Pick<ReportQuery, 'from' | 'to' | 'method' | 'professionalId' | 'registerId'> & {
  asOf: string;
  timeZone?: string;
};

export const reportExportBodySchema = z
  .object({ ...period, ...filters, format: z.enum(reportFormats) })
  .superRefine(checkPeriod);
export type ReportExportBody = z.output<typeof reportExportBodySchema>;

const cell = z.union([z.string(), z.number(), z.null()]);
export const reportRowSchema = z.record(z.string(), cell);
export type ReportRow = z.output<typeof reportRowSchema>;

export const reportColumnSchema = z.object({
  key: z.string(),
  kind: z.enum(reportColumnKinds),
  /** Summed in the totals. */
  summed: z.boolean(),
});
export type ReportColumn = z.output<typeof reportColumnSchema>;

export const reportCatalogueEntrySchema = z.object({
  id: z.string(),
  filters: z.array(z.enum(reportFilters)),
  columns: z.array(reportColumnSchema),
  formats: z.array(z.enum(reportFormats)),
  /** false: the report is as of the clinic's today (aging, payables, stock valuation); the period is asked but not used. */
  period: z.boolean(),
  /** Where a report of another area is read (sales-integrity: /api/sales/integrity); null for this API's. */
  endpoint: z.string().nullable(),
});
export type ReportCatalogueEntry = z.output<typeof reportCatalogueEntrySchema>;

export const reportCatalogueSchema = z.object({ data: z.array(reportCatalogueEntrySchema) });

export const reportPageSchema = z.object({
  data: z.object({
    reportId: z.enum(reportIds),
    from: dateText(),
    to: dateText(),
    /** The clinic's currency: the money columns' (the screen formats them in it). */
    currency: z.enum(currencies),
    columns: z.array(reportColumnSchema),
    rows: z.array(reportRowSchema),
    /** The summed columns over every row of the period (not only this page). */
    totals: reportRowSchema,
  }),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
});
export type ReportPage = z.output<typeof reportPageSchema>;

/** expired: done, and its file removed after REPORT_EXPORT_KEEP_DAYS (the export can be asked again). */
export const reportExportStates = ['queued', 'running', 'done', 'failed', 'expired'] as const;

export const reportExportSchema = z.object({
  id: idSchema,
  reportId: z.enum(reportIds),
  format: z.enum(reportFormats),
  from: dateText(),
  to: dateText(),
  state: z.enum(reportExportStates),
  /** 0–100, moved as rows are written. */
  progress: z.number().int().min(0).max(100),
  rowsWritten: z.number().int().min(0),
  totalRows: z.number().int().min(0).nullable(),
  fileName: z.string(),
  byteSize: z.number().int().min(0).nullable(),
  createdAt: instantText(),
  finishedAt: instantText().nullable(),
});
export type ReportExport = z.output<typeof reportExportSchema>;

export const reportExportAnswerSchema = z.object({
  data: reportExportSchema,
  code: z.literal('report_export_queued').optional(),
});
