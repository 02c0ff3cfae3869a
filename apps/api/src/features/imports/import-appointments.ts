import { createHash } from 'node:crypto';
import { clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { DateFormat } from '@odontia/shared/enums';
import type { ImportReason } from '@odontia/shared/schemas/imports';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { appointments, patients, users } from '../../db/schema/index.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditEventInput, recordAuditEvents } from '../audit/audit.repository.ts';
import { queueReminder, reminderPlan, reminderSettingsOf } from '../reminders/reminder-plan.ts';
import { normalizeHeader, parseClinicDate } from './import-columns.ts';
import { type ChunkImporter, storable } from './import-patients.ts';
import * as repository from './imports.repository.ts';

/**
 * One chunk of an appointments' file (issue 42; docs/decisions.md "Importar datos"): each row names
 * its patient by the same source's patient id, its professional by name or e-mail among the
 * clinic's users (case and accents aside), a day and a wall-clock start in the clinic's zone, a
 * duration or an end, and a state read in es/en/fr/pt (attended, missed, cancelled; booked for
 * what is still to come). Imported appointments send nothing when they are written: no
 * confirmation, no webhook, no recall booked; a future one gets the clinic's usual reminder plan,
 * a past one none. An overlap with another active appointment of the professional (in the
 * agenda, or earlier in the file) is refused, as the agenda refuses it.
 */

type ImportedStatus = 'scheduled' | 'completed' | 'no_show' | 'cancelled';

const statusWords: Record<ImportedStatus, readonly string[]> = {
  completed: [
    'atendida',
    'atendido',
    'asistio',
    'asistida',
    'realizada',
    'realizado',
    'completada',
    'completado',
    'finalizada',
    'attended',
    'completed',
    'done',
    'seen',
    'honore',
    'honoree',
    'effectue',
    'effectuee',
    'realise',
    'realisee',
    'present',
    'compareceu',
    'concluida',
    'concluido',
  ],
  no_show: [
    'no asistio',
    'no vino',
    'no se presento',
    'falta',
    'falto',
    'ausente',
    'inasistencia',
    'no show',
    'noshow',
    'missed',
    'did not attend',
    'dna',
    'absent',
    'absente',
    'lapin',
    'non honore',
    'faltou',
    'nao compareceu',
    'nao veio',
  ],
  cancelled: ['cancelada', 'cancelado', 'anulada', 'anulado', 'cancelled', 'canceled', 'annule', 'annulee'],
  scheduled: [
    'programada',
    'pendiente',
    'reservada',
    'confirmada',
    'citada',
    'agendada',
    'booked',
    'scheduled',
    'pending',
    'confirmed',
    'prevu',
    'prevue',
    'planifie',
    'planifiee',
    'confirme',
    'confirmee',
    'marcada',
    'agendado',
    'pendente',
  ],
};
const statusOfWord = new Map<string, ImportedStatus>(
  Object.entries(statusWords).flatMap(([status, words]) => words.map((word) => [word, status as ImportedStatus])),
);

/** A state as another system writes it, or null when it is none of the known words. */
export function parseAppointmentStatus(text: string): ImportedStatus | null {
  return statusOfWord.get(normalizeHeader(text)) ?? null;
}

/** '9:30', '09:30', '09.30', '0930', '09:30:00', '9h30' → '09:30'; null when it is no time of day. */
export function parseTimeOfDay(text: string): string | null {
  const match = /^(\d{1,2})(?:[:.h]?(\d{2}))(?::\d{2})?$/.exec(text.trim().toLowerCase());
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** A person's name as compared: lower case, no accents or punctuation, no leading title. */
function personKey(text: string): string {
  return normalizeHeader(text).replace(/^(dr|dra|doctor|doctora|dr a|od|odont)\s+/, '');
}

interface Values {
  patientId: string;
  professionalId: string;
  startsAt: string;
  endsAt: string;
  status: ImportedStatus;
  reason: string | null;
  notes: string | null;
}

interface Decided {
  line: number;
  cells: string[];
  externalId: string | null;
  label: string | null;
  reasons: ImportReason[];
  patientExternalId: string;
  professional: string;
  start?: Date;
  end?: Date;
  status?: ImportedStatus;
  reason?: string | null;
  notes?: string | null;
  values?: Values;
  hash?: string;
}

export const importAppointmentsChunk: ChunkImporter = async (ctx, run, phase, rows, clinic) => {
  const today = clinicToday(clinic.timeZone);
  const now = new Date();
  const cell = (cells: string[], field: string) => {
    const index = run.mapping[field];
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };

  const readRow = ({ line, cells }: { line: number; cells: string[] }): Decided => {
    const reasons: ImportReason[] = [];
    const externalId = cell(cells, 'externalId');
    if (externalId === '') reasons.push({ field: 'externalId', code: 'required' });
    else if (externalId.length > 100) reasons.push({ field: 'externalId', code: 'too_long' });
    const patientExternalId = cell(cells, 'patientExternalId');
    if (patientExternalId === '') reasons.push({ field: 'patientExternalId', code: 'required' });
    const professional = cell(cells, 'professional');
    if (professional === '') reasons.push({ field: 'professional', code: 'required' });
    const dateText = cell(cells, 'date');
    const date = dateText === '' ? null : parseClinicDate(dateText, clinic.dateFormat as DateFormat);
    if (dateText === '') reasons.push({ field: 'date', code: 'required' });
    else if (!date) reasons.push({ field: 'date', code: 'invalid_date' });
    else if (date < '1900-01-01') reasons.push({ field: 'date', code: 'date_too_early' });
    const startText = cell(cells, 'startTime');
    const startTime = startText === '' ? null : parseTimeOfDay(startText);
    if (startText === '') reasons.push({ field: 'startTime', code: 'required' });
    else if (!startTime) reasons.push({ field: 'startTime', code: 'invalid_time' });
    let start: Date | null = null;
    let end: Date | null = null;
    if (date && startTime) {
      start = instantOfClinicWallTime(`${date}T${startTime}`, clinic.timeZone);
      const durationText = cell(cells, 'durationMinutes');
      const endText = cell(cells, 'endTime');
      if (durationText !== '') {
        const minutes = /^\d{1,4}$/.test(durationText) ? Number(durationText) : Number.NaN;
        if (!Number.isInteger(minutes)) reasons.push({ field: 'durationMinutes', code: 'invalid_number' });
        else if (minutes < 1) reasons.push({ field: 'durationMinutes', code: 'too_small' });
        else if (minutes > 720) reasons.push({ field: 'durationMinutes', code: 'too_big' });
        else if (start) end = new Date(start.getTime() + minutes * 60_000);
      } else if (endText !== '') {
        const endTime = parseTimeOfDay(endText);
        if (!endTime) reasons.push({ field: 'endTime', code: 'invalid_time' });
        else if (endTime <= startTime) reasons.push({ field: 'endTime', code: 'end_before_start' });
        else end = instantOfClinicWallTime(`${date}T${endTime}`, clinic.timeZone);
      } else reasons.push({ field: 'durationMinutes', code: 'required' });
    }
    const past = date !== null && date < today;
    const statusText = cell(cells, 'status');
    // No state: what is still to come is booked, what is past was attended (it stayed on the other agenda).
    let status: ImportedStatus | null = statusText === '' ? (past ? 'completed' : 'scheduled') : null;
    if (statusText !== '') {
      status = parseAppointmentStatus(statusText);
      if (!status) reasons.push({ field: 'status', code: 'invalid_value' });
      else if ((status === 'completed' || status === 'no_show') && start && start.getTime() > now.getTime()) {
        reasons.push({ field: 'status', code: 'invalid_value' });
      }
    }
    const reason = cell(cells, 'reason');
    if (reason.length > 200) reasons.push({ field: 'reason', code: 'too_long' });
    const notes = cell(cells, 'notes');
    if (notes.length > 2000) reasons.push({ field: 'notes', code: 'too_long' });
    const label = [date && startTime ? `${date} ${startTime}` : dateText, professional].filter(Boolean).join(' · ');
    return {
      line,
      cells: cells.map(storable),
      externalId: externalId === '' ? null : storable(externalId.slice(0, 100)),
      label: label === '' ? null : storable(label.slice(0, 200)),
      reasons,
      patientExternalId,
      professional,
      ...(start ? { start } : {}),
      ...(end ? { end } : {}),
      ...(status ? { status } : {}),
      reason: reason === '' ? null : storable(reason),
      notes: notes === '' ? null : storable(notes),
    };
  };
  const decided: Decided[] = rows.map(readRow);

  const ids = [
    ...new Set(decided.flatMap((row) => (row.externalId && row.reasons.length === 0 ? [row.externalId] : []))),
  ];
  const earlier = await repository.seenExternalIds(ctx, run.id, phase, ids);
  const inChunk = new Set<string>();
  for (const row of decided) {
    if (!row.externalId) continue;
    if (earlier.has(row.externalId) || inChunk.has(row.externalId)) {
      row.reasons = [{ field: 'externalId', code: 'duplicate_in_file' }];
    }
    inChunk.add(row.externalId);
  }

  const patientIds = [...new Set(decided.flatMap((row) => (row.reasons.length === 0 ? [row.patientExternalId] : [])))];
  const patientsById = await repository.patientLinks(ctx, run.sourceKey, patientIds);
  const links = await repository.kindLinks(ctx, 'appointments', run.sourceKey, ids);
  // The clinic's people (every user but the portal's patients): by name and by e-mail.
  const people = await ctx.tx
    .select({ id: users.id, name: users.completeName, email: users.email })
    .from(users)
    .where(and(eq(users.accountId, ctx.accountId), ne(users.level, 'customer')));
  const byName = new Map<string, string | null>();
  for (const person of people) {
    const key = personKey(person.name);
    // Two people of the same name: neither is chosen (the e-mail tells them apart).
    byName.set(key, byName.has(key) ? null : person.id);
  }
  const byEmail = new Map(people.map((person) => [person.email.toLowerCase(), person.id]));

  const professionalOf = (text: string) =>
    text.includes('@') ? byEmail.get(text.toLowerCase()) : (byName.get(personKey(text)) ?? undefined);
  for (const row of decided) {
    if (row.reasons.length > 0) continue;
    const patient = patientsById.get(row.patientExternalId);
    const professionalId = professionalOf(row.professional);
    if (!patient) row.reasons.push({ field: 'patientExternalId', code: 'patient_not_imported' });
    else if (patient.deleted) row.reasons.push({ field: 'patientExternalId', code: 'record_deleted' });
    if (!professionalId) row.reasons.push({ field: 'professional', code: 'professional_not_found' });
    if (row.reasons.length > 0 || !patient || !professionalId || !row.start || !row.end || !row.status) continue;
    row.values = {
      patientId: patient.recordId,
      professionalId,
      startsAt: row.start.toISOString(),
      endsAt: row.end.toISOString(),
      status: row.status,
      reason: row.reason ?? null,
      notes: row.notes ?? null,
    };
    row.hash = createHash('sha256').update(canonicalJson(row.values)).digest('hex');
  }

  // Overlaps: an active (booked or attended) appointment of the same professional, in the agenda or earlier in this chunk.
  const active = (status: ImportedStatus) => status === 'scheduled' || status === 'completed';
  const candidates = decided.filter(
    (row) => row.values && active(row.values.status) && !(row.externalId && links.has(row.externalId)),
  );
  const busy = await busyOverlaps(
    ctx,
    candidates.map((row) => row.values as Values),
  );
  // The dry run writes nothing: the rows earlier chunks would create are read again (their cells are kept).
  const taken: Values[] = [];
  if (phase === 'check') {
    for (const earlierRow of await repository.createdCells(ctx, run.id, phase)) {
      const read = readRow(earlierRow);
      const professionalId = professionalOf(read.professional);
      if (!read.start || !read.end || !read.status || !professionalId || !active(read.status)) continue;
      taken.push({
        patientId: '',
        professionalId,
        startsAt: read.start.toISOString(),
        endsAt: read.end.toISOString(),
        status: read.status,
        reason: null,
        notes: null,
      });
    }
  }
  for (const row of candidates) {
    const values = row.values as Values;
    const overlaps = (other: Values) =>
      other.professionalId === values.professionalId &&
      other.startsAt < values.endsAt &&
      values.startsAt < other.endsAt;
    if (busy.has(`${values.professionalId} ${values.startsAt} ${values.endsAt}`) || taken.some(overlaps)) {
      row.reasons.push({ field: 'startTime', code: 'appointment_overlaps' });
    } else taken.push(values);
  }

  const results: repository.RowResult[] = [];
  const toCreate: (Decided & { id: string; values: Values })[] = [];
  const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const row of decided) {
    const link = row.externalId ? links.get(row.externalId) : undefined;
    // Once imported an appointment lives in this agenda: a changed row does not overwrite it.
    if (row.reasons.length === 0 && link && link.rowHash !== row.hash) {
      row.reasons = [{ field: 'externalId', code: 'already_exists' }];
    }
    if (row.reasons.length > 0 || !row.values || !row.externalId) {
      counts.refused += 1;
      results.push({
        line: row.line,
        externalId: row.externalId,
        outcome: 'refused',
        recordId: null,
        label: row.label,
        reasons: row.reasons,
        cells: row.cells,
      });
      continue;
    }
    const outcome = link ? 'unchanged' : 'created';
    counts[outcome] += 1;
    if (outcome === 'created') toCreate.push({ ...row, values: row.values, id: newId() });
    results.push({
      line: row.line,
      externalId: row.externalId,
      outcome,
      recordId: link?.recordId ?? null,
      label: row.label,
      reasons: [],
      cells: phase === 'check' && outcome === 'created' ? row.cells : null,
    });
  }

  if (phase === 'import' && toCreate.length > 0) {
    await createAppointments(ctx, run, toCreate, clinic.timeZone, now);
    const created = new Map(toCreate.map((row) => [row.line, row.id]));
    for (const result of results) if (result.outcome === 'created') result.recordId = created.get(result.line) ?? null;
  }
  await repository.insertResults(ctx, run.id, phase, results);
  return counts;
};

/** Which of these slots overlap an active appointment of their professional already in the agenda. */
async function busyOverlaps(ctx: Parameters<ChunkImporter>[0], slots: readonly Values[]): Promise<Set<string>> {
  if (slots.length === 0) return new Set();
  const values = sql.join(
    slots.map(
      (slot) => sql`(${slot.professionalId}::uuid, ${slot.startsAt}::timestamptz, ${slot.endsAt}::timestamptz)`,
    ),
    sql`, `,
  );
  const { rows } = await ctx.tx.execute<{ professional_id: string; starts_at: string; ends_at: string }>(sql`
    select distinct v.professional_id::text as professional_id, v.starts_at, v.ends_at
    from (values ${values}) as v(professional_id, starts_at, ends_at)
    where exists (
      select 1 from appointments a
      where a.account_id = ${ctx.accountId}::uuid and a.professional_id = v.professional_id
        and a.status in ('scheduled', 'completed') and a.deleted_at is null
        and tstzrange(a.starts_at, a.ends_at, '[)') && tstzrange(v.starts_at, v.ends_at, '[)'))`);
  return new Set(
    rows.map(
      (row) => `${row.professional_id} ${new Date(row.starts_at).toISOString()} ${new Date(row.ends_at).toISOString()}`,
    ),
  );
}

async function createAppointments(
  ctx: Parameters<ChunkImporter>[0],
  run: Parameters<ChunkImporter>[1],
  rows: readonly (Decided & { id: string; values: Values })[],
  timeZone: string,
  now: Date,
): Promise<void> {
  const settings = await reminderSettingsOf(ctx);
  const withEmail = new Set(
    (
      await ctx.tx
        .select({ id: patients.id })
        .from(patients)
        .where(
          and(
            eq(patients.accountId, ctx.accountId),
            inArray(patients.id, [...new Set(rows.map((row) => row.values.patientId))]),
            sql`${patients.email} is not null`,
          ),
        )
    ).map((row) => row.id),
  );
  const inserted = rows.map((row) => {
    const { values } = row;
    const startsAt = new Date(values.startsAt);
    // Only what is still to come is reminded, with the clinic's usual plan; nothing is sent now.
    const reminder =
      values.status === 'scheduled'
        ? reminderPlan(settings, { startsAt, patientHasEmail: withEmail.has(values.patientId) }, now)
        : ({ state: 'none' } as const);
    const cancelled = values.status === 'cancelled' || values.status === 'no_show';
    return {
      row,
      reminder,
      insert: {
        accountId: ctx.accountId,
        id: row.id,
        patientId: values.patientId,
        professionalId: values.professionalId,
        startsAt,
        endsAt: new Date(values.endsAt),
        timeZone,
        reason: values.reason,
        notes: values.notes,
        status: cancelled ? ('cancelled' as const) : (values.status as 'scheduled' | 'completed'),
        ...(cancelled
          ? {
              cancelledAt: startsAt < now ? startsAt : now,
              cancelReason: values.status === 'no_show' ? 'no_show' : 'other',
              cancelledBy: ctx.userId,
            }
          : {}),
        reminderState: reminder.state,
        origin: 'staff',
        createdBy: ctx.userId,
        updatedBy: ctx.userId,
      } satisfies typeof appointments.$inferInsert,
    };
  });
  for (let start = 0; start < inserted.length; start += 400) {
    await ctx.tx.insert(appointments).values(inserted.slice(start, start + 400).map((one) => one.insert));
  }
  for (const one of inserted) await queueReminder(ctx, { id: one.row.id, startsAt: one.insert.startsAt }, one.reminder);
  const events: AuditEventInput[] = inserted.map(({ row, insert }) => ({
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    patientId: insert.patientId,
    action: 'appointment_created',
    entity: 'appointment',
    entityId: row.id,
    after: {
      patientId: insert.patientId,
      professionalId: insert.professionalId,
      chairId: null,
      treatmentId: null,
      startsAt: insert.startsAt.toISOString(),
      endsAt: insert.endsAt.toISOString(),
      reason: insert.reason,
      notes: insert.notes,
      status: insert.status,
      ...(insert.cancelReason ? { cancelReason: insert.cancelReason } : {}),
      externalId: row.externalId,
      importRunId: run.id,
    },
  }));
  for (let start = 0; start < events.length; start += 1000) {
    await recordAuditEvents(ctx.tx, events.slice(start, start + 1000));
  }
  await repository.upsertLinks(
    ctx,
    rows.map((row) => ({
      sourceKey: run.sourceKey,
      externalId: row.externalId as string,
      recordId: row.id,
      rowHash: row.hash as string,
      runId: run.id,
    })),
    'appointments',
  );
}
