import { clinicToday } from '@odontia/shared/clinic-time';
import { instantFormatter } from '@odontia/shared/date-format';
import { type Language, languages, type ToothZone } from '@odontia/shared/enums';
import { chartAt } from '@odontia/shared/odontogram';
import type { OdontogramChart, OdontogramEntriesInput, OdontogramEntry } from '@odontia/shared/schemas/odontogram';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { renderPdf, safeFileName } from '../../lib/pdf.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import * as clinicalRepository from '../clinical/clinical.repository.ts';
import { invalidFields, requireProfessional, type TenantScope } from '../clinical/clinical.service.ts';
import { odontogramDocument } from './odontogram.pdf.ts';
import * as repository from './odontogram.repository.ts';

/**
 * The odontogram of a patient (issue 6): append-only dated entries. A batch of marks is one
 * transaction and one audit event ('odontogram_entries_saved'); a void is one audit event
 * ('odontogram_entry_voided'). An unknown patient, another clinic's, or an entry not of this
 * patient answers 404 odontogram_not_found.
 */

/** A little clock skew between the browser and the server is not "the future". */
const futureSlackMs = 5 * 60 * 1000;

export function toEntry(row: repository.OdontogramEntryRowWithNames): OdontogramEntry {
  return {
    id: row.id,
    patientId: row.patientId,
    tooth: row.tooth,
    zone: row.zone as ToothZone | null,
    status: row.status,
    notes: row.notes,
    chartedAt: row.chartedAt.toISOString(),
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    attendanceId: row.attendanceId,
    attendanceTitle: row.attendanceTitle,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
  };
}

type Chart = { ctx: RequestContext; patientId: string };

async function requireChartPatient(ctx: TenantScope, patientId: string, options: { lock?: boolean } = {}) {
  if (!(await clinicalRepository.patientExists(ctx.tx, ctx.accountId, patientId, options)))
    throw new AppError('odontogram_not_found');
}

async function chartOf(ctx: TenantScope, patientId: string, at: Date): Promise<OdontogramChart> {
  const rows = await repository.entriesUpTo(ctx, patientId, at);
  const { dates, hasPrimary } = await repository.chartDates(ctx, patientId);
  const teeth = chartAt(
    rows.map((row) => ({
      id: row.id,
      tooth: row.tooth,
      zone: row.zone as ToothZone | null,
      status: row.status,
      chartedAt: row.chartedAt.toISOString(),
    })),
  );
  return { at: at.toISOString(), teeth, dates: dates.map((date) => date.toISOString()), hasPrimary };
}

export const odontogramService = {
  async chart({ ctx, patientId, at }: Chart & { at?: string | undefined }): Promise<OdontogramChart> {
    await requireChartPatient(ctx, patientId);
    return chartOf(ctx, patientId, at ? new Date(at) : new Date());
  },

  async list({ ctx, patientId, query }: Chart & { query: PageQuery }) {
    await requireChartPatient(ctx, patientId);
    const { rows, total } = await repository.listEntries(ctx, patientId, query);
    return { data: rows.map(toEntry), total, page: query.page, pageSize: query.pageSize };
  },

  async create({ ctx, patientId, input }: Chart & { input: OdontogramEntriesInput }): Promise<OdontogramEntry[]> {
    const chartedAt = input.chartedAt ? new Date(input.chartedAt) : new Date();
    if (chartedAt.getTime() > Date.now() + futureSlackMs) {
      throw invalidFields([{ path: 'chartedAt', code: 'date_in_future' }]);
    }
    await requireChartPatient(ctx, patientId, { lock: true });
    const professionalId = input.professionalId ?? ctx.userId;
    await requireProfessional(ctx, professionalId);
    if (input.attendanceId && !(await clinicalRepository.attendanceOfPatient(ctx, patientId, input.attendanceId))) {
      throw invalidFields([{ path: 'attendanceId', code: 'invalid_value' }]);
    }
    const rows = input.marks.map((mark) => ({
      accountId: ctx.accountId,
      id: newId(),
      patientId,
      tooth: mark.tooth,
      zone: mark.zone,
      status: mark.status,
      notes: mark.notes ?? null,
      chartedAt,
      professionalId,
      attendanceId: input.attendanceId,
      createdBy: ctx.userId,
    }));
    await repository.insertEntries(ctx.tx, rows);
    await audit(
      ctx,
      repository.entriesSavedEvent({ patientId, chartedAt, professionalId, attendanceId: input.attendanceId }, rows),
    );
    const saved = await repository.findEntriesByIds(
      ctx,
      patientId,
      rows.map((row) => row.id),
    );
    return saved.map(toEntry);
  },

  async void({ ctx, patientId, entryId, reason }: Chart & { entryId: string; reason: string }): Promise<void> {
    await requireChartPatient(ctx, patientId, { lock: true });
    const current = await repository.findEntryForUpdate(ctx, patientId, entryId);
    if (!current) throw new AppError('odontogram_not_found');
    await repository.voidEntry(ctx, entryId, reason);
    await audit(ctx, {
      patientId,
      action: 'odontogram_entry_voided',
      entity: 'odontogram_entry',
      entityId: entryId,
      before: {
        tooth: current.tooth,
        zone: current.zone,
        status: current.status,
        notes: current.notes,
        chartedAt: current.chartedAt.toISOString(),
        professionalId: current.professionalId,
        attendanceId: current.attendanceId,
      },
      after: { voided: true, reason },
    });
  },

  /** Reads in one transaction, then renders outside it (the route runs without one). */
  async pdf({
    db,
    actor,
    patientId,
    at,
  }: {
    db: Database;
    actor: Actor;
    patientId: string;
    at?: string | undefined;
  }): Promise<{ pdf: Buffer; fileName: string }> {
    const instant = at ? new Date(at) : new Date();
    const { chart, header, clinic } = await inTransaction(db, actor, async (ctx) => {
      await requireChartPatient(ctx, patientId);
      const header = await repository.findChartHeader(ctx, patientId);
      if (!header) throw new AppError('odontogram_not_found');
      return { chart: await chartOf(ctx, patientId, instant), header, clinic: await loadPrintHeader(ctx) };
    });
    const language: Language = languages.includes(header.language as Language) ? (header.language as Language) : 'es';
    // Like the screens: the reader's language, the clinic's clock.
    const format = instantFormatter(language, header.timeZone);
    const pdf = await renderPdf(
      odontogramDocument({
        language,
        clinicName: header.clinicName,
        clinicContact: header.clinicContact,
        clinic,
        patientName: `${header.firstName} ${header.lastName}`,
        patientSsn: header.ssn,
        skuPatient: header.skuPatient,
        chartAtText: format(instant),
        printedAtText: format(new Date()),
        teeth: chart.teeth,
        primary: chart.hasPrimary,
      }),
    );
    const day = clinicToday(header.timeZone, instant);
    return { pdf, fileName: safeFileName(`odontograma-${header.lastName}-${day}.pdf`) };
  },
};
