import type { ToothZone } from '@odontia/shared/enums';
import type { FieldError } from '@odontia/shared/errors';
import { chartAt } from '@odontia/shared/odontogram';
import {
  attachmentLevel,
  type PerioDentition,
  type PerioTooth,
  perioIndices,
  perioSites,
  teethOfDentition,
} from '@odontia/shared/perio';
import type { PerioExam, PerioExamInput, PerioTeeth } from '@odontia/shared/schemas/perio';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { changedFields } from '../audit/record-changes.ts';
import { invalidFields, requirePatient, requireProfessional, type TenantScope } from '../clinical/clinical.service.ts';
import * as odontogramRepository from '../odontogram/odontogram.repository.ts';
import * as repository from './perio.repository.ts';

/**
 * Periodontal exams (issue 41). A draft is charted in many saves (each a version, audited with
 * the teeth that changed); closing it makes it final: an edit, a second close or a discard then
 * answers 409 perio_exam_already_closed (the table's trigger refuses it too). The indices are
 * computed here on every save with the shared engine and stored beside the teeth, so the history
 * of exams never reads the teeth. A tooth the odontogram shows missing or extracted cannot be
 * charted (400 tooth_not_present).
 */

type StoredRow = NonNullable<Awaited<ReturnType<typeof repository.perioExamsRepository.findForUpdate>>>;

function columnsOf(input: PerioExamInput) {
  const teeth = [...input.teeth].sort((a, b) => a.tooth - b.tooth);
  return {
    date: input.date,
    professionalId: input.professionalId,
    dentition: input.dentition,
    notes: input.notes ?? null,
    teeth,
    indices: perioIndices(teeth),
  };
}

/** A stored tooth as answered: every site with its CAL. */
function presentTooth(tooth: PerioTooth): PerioExam['teeth'][number] {
  return {
    tooth: tooth.tooth,
    missing: tooth.missing,
    implant: tooth.implant,
    mobility: tooth.mobility,
    furcation: tooth.furcation,
    sites: Object.fromEntries(
      perioSites.map((name) => {
        const site = tooth.sites[name];
        return [name, { ...site, attachment: attachmentLevel(site) }];
      }),
    ) as PerioExam['teeth'][number]['sites'],
  };
}

const records = auditedRecords({
  repository: repository.perioExamsRepository,
  entity: 'perio_exam',
  notFound: 'perio_exam_not_found',
  columnsOf: (row: StoredRow) => ({
    date: row.date,
    professionalId: row.professionalId,
    dentition: row.dentition,
    notes: row.notes,
    teeth: row.teeth,
    indices: row.indices,
  }),
  present: (row): PerioExam => ({
    id: row.id,
    patientId: row.patientId,
    date: row.date,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    dentition: row.dentition,
    status: row.status,
    closedAt: row.closedAt?.toISOString() ?? null,
    notes: row.notes,
    indices: row.indices,
    teeth: row.teeth.map(presentTooth),
    ...presentStamps(row),
  }),
});

/** The teeth the odontogram shows now: missing or extracted pieces, and implants. */
async function odontogramTeeth(ctx: TenantScope, patientId: string) {
  const rows = await odontogramRepository.entriesUpTo(ctx, patientId, new Date());
  const chart = chartAt(
    rows.map((row) => ({
      id: row.id,
      tooth: row.tooth,
      zone: row.zone as ToothZone | null,
      status: row.status,
      chartedAt: row.chartedAt.toISOString(),
    })),
  );
  const absent = new Set<number>();
  const implants = new Set<number>();
  for (const tooth of chart) {
    const status = tooth.piece?.status;
    if (status === 'missing' || status === 'extracted') absent.add(tooth.tooth);
    if (status === 'implant') implants.add(tooth.tooth);
  }
  return { absent, implants, hasPrimary: chart.some((tooth) => tooth.tooth >= 51) };
}

/** 400 tooth_not_present for a tooth charted now that the odontogram shows absent (`known`: already in the exam). */
async function requirePresentTeeth(
  ctx: TenantScope,
  patientId: string,
  teeth: readonly PerioTooth[],
  known: ReadonlySet<number> = new Set(),
) {
  const fresh = teeth.filter((tooth) => !known.has(tooth.tooth));
  if (fresh.length === 0) return;
  const { absent } = await odontogramTeeth(ctx, patientId);
  const fields: FieldError[] = [];
  teeth.forEach((tooth, index) => {
    if (!known.has(tooth.tooth) && absent.has(tooth.tooth))
      fields.push({ path: `teeth.${index}.tooth`, code: 'tooth_not_present' });
  });
  if (fields.length > 0) throw invalidFields(fields);
}

/** A tooth with its keys in one order (jsonb keeps its own): what is compared and audited. */
function canonicalTooth(tooth: PerioTooth): PerioTooth {
  return {
    tooth: tooth.tooth,
    missing: tooth.missing,
    implant: tooth.implant,
    mobility: tooth.mobility,
    furcation: tooth.furcation,
    sites: Object.fromEntries(
      perioSites.map((name) => {
        const site = tooth.sites[name];
        return [
          name,
          {
            depth: site.depth,
            margin: site.margin,
            bleeding: site.bleeding,
            plaque: site.plaque,
            suppuration: site.suppuration,
          },
        ];
      }),
    ) as PerioTooth['sites'],
  };
}

/** The teeth whose values differ, before and after (an exam's save audits only those). */
function changedTeeth(before: readonly PerioTooth[], after: readonly PerioTooth[]) {
  const old = new Map(before.map((tooth) => [tooth.tooth, canonicalTooth(tooth)]));
  const now = new Map(after.map((tooth) => [tooth.tooth, canonicalTooth(tooth)]));
  const teeth = [...new Set([...old.keys(), ...now.keys()])].sort((a, b) => a - b);
  const changed = teeth.filter(
    (tooth) => JSON.stringify(old.get(tooth) ?? null) !== JSON.stringify(now.get(tooth) ?? null),
  );
  return {
    before: changed.map((tooth) => old.get(tooth) ?? { tooth, removed: true }),
    after: changed.map((tooth) => now.get(tooth) ?? { tooth, removed: true }),
  };
}

function requireDraft(current: StoredRow) {
  if (current.status === 'closed') throw new AppError('perio_exam_already_closed');
}

type Scope = { ctx: RequestContext; patientId: string };

export const perioService = {
  async list({ ctx, patientId, query }: Scope & { query: PageQuery }) {
    await requirePatient(ctx, patientId);
    const { rows, total } = await repository.summaries(ctx, patientId, query);
    return { data: rows, total, page: query.page, pageSize: query.pageSize };
  },

  async get({ ctx, patientId, id }: Scope & { id: string }): Promise<PerioExam> {
    await requirePatient(ctx, patientId);
    return records.get(ctx, { patientId }, id);
  },

  /** The teeth of a dentition and which of them the odontogram shows present now. */
  async teeth({ ctx, patientId, dentition }: Scope & { dentition?: PerioDentition | undefined }): Promise<PerioTeeth> {
    await requirePatient(ctx, patientId);
    const { absent, implants, hasPrimary } = await odontogramTeeth(ctx, patientId);
    const suggested: PerioDentition = hasPrimary ? 'mixed' : 'adult';
    const chosen = dentition ?? suggested;
    const teeth = teethOfDentition(chosen).sort((a, b) => a - b);
    return {
      dentition: chosen,
      teeth,
      present: teeth.filter((tooth) => !absent.has(tooth)),
      implants: teeth.filter((tooth) => implants.has(tooth)),
      suggested,
    };
  },

  async create({ ctx, patientId, input }: Scope & { input: PerioExamInput }): Promise<PerioExam> {
    await requirePatient(ctx, patientId, { lock: true });
    await requireProfessional(ctx, input.professionalId);
    await requirePresentTeeth(ctx, patientId, input.teeth);
    return records.create(ctx, { patientId }, columnsOf(input), { status: 'draft' });
  },

  async update({ ctx, patientId, id, input }: Scope & { id: string; input: PerioExamInput & { version: number } }) {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await records.lock(ctx, { patientId }, id);
    if (current.version !== input.version) {
      throw new AppError('version_conflict', { current: await records.get(ctx, { patientId }, id) });
    }
    requireDraft(current);
    if (input.professionalId !== current.professionalId) await requireProfessional(ctx, input.professionalId);
    await requirePresentTeeth(ctx, patientId, input.teeth, new Set(current.teeth.map((tooth) => tooth.tooth)));
    const next = columnsOf(input);
    const { teeth, indices, ...fields } = next;
    const scalar = changedFields(
      {
        date: current.date,
        professionalId: current.professionalId,
        dentition: current.dentition,
        notes: current.notes,
      },
      fields,
    );
    const teethChange = changedTeeth(current.teeth, teeth);
    await repository.perioExamsRepository.update(ctx, id, next);
    const changed = teethChange.after.length > 0;
    await audit(ctx, {
      patientId,
      action: 'perio_exam_updated',
      entity: 'perio_exam',
      entityId: id,
      before: { ...scalar.before, ...(changed ? { teeth: teethChange.before, indices: current.indices } : {}) },
      after: { ...scalar.after, ...(changed ? { teeth: teethChange.after, indices } : {}) },
    });
    return records.get(ctx, { patientId }, id);
  },

  /** Closes the exam: final from now on (409 when it already is, or when the version is stale). */
  async close({ ctx, patientId, id, version }: Scope & { id: string; version: number }): Promise<PerioExam> {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await records.lock(ctx, { patientId }, id);
    requireDraft(current);
    if (current.version !== version) {
      throw new AppError('version_conflict', { current: await records.get(ctx, { patientId }, id) });
    }
    const closedAt = new Date();
    await repository.perioExamsRepository.update(ctx, id, { status: 'closed', closedAt, closedBy: ctx.userId });
    await audit(ctx, {
      patientId,
      action: 'perio_exam_closed',
      entity: 'perio_exam',
      entityId: id,
      before: { status: 'draft' },
      after: { status: 'closed', closedAt: closedAt.toISOString(), indices: current.indices },
    });
    return records.get(ctx, { patientId }, id);
  },

  /** Discards a draft (soft delete, audited); a closed exam is kept for ever (409). */
  async remove({ ctx, patientId, id }: Scope & { id: string }): Promise<void> {
    await requirePatient(ctx, patientId, { lock: true });
    await records.remove(ctx, { patientId }, id, requireDraft);
  },

  async changes({ ctx, patientId, id, query }: Scope & { id: string; query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.changes(ctx, { patientId }, id, query);
  },
};
