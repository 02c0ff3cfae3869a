import { randomInt } from 'node:crypto';
import {
  type Prescription,
  type PrescriptionByCode,
  type PrescriptionInput,
  type PrescriptionLineInput,
  verificationCodeAlphabet,
} from '@odontia/shared/schemas/prescriptions';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { pdfFile, printLanguage } from '../../lib/pdf.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { changedFields } from '../audit/record-changes.ts';
import { attendanceOfPatient, findCatalogueItems } from '../clinical/clinical.repository.ts';
import {
  invalidFields,
  printedPatient,
  professionalDetails,
  requirePatient,
  requirePrintHeader,
} from '../clinical/clinical.service.ts';
import { prescriptionDocument } from './prescription.pdf.ts';
import * as repository from './prescriptions.repository.ts';

/**
 * Prescriptions of a patient's medical history (issue 6). Every create, edit and delete writes an
 * audit event (entity 'prescription', with the patient) in the same transaction; delete is soft,
 * and an edit that changes the lines soft-deletes the old set and writes the new one. The
 * professional's name, licence and specialty are copied when written (and when the professional
 * changes), so a reprint shows what was signed.
 */

type Scope = { ctx: RequestContext; patientId: string };
type Line = Omit<PrescriptionLineInput, 'medicationId'> & { medicationId: string | null };
type Columns = Pick<Prescription, 'date' | 'professionalId' | 'diagnosis' | 'notes' | 'attendanceId'>;

/**
 * A short code a pharmacy or an employer can read out on the phone: 'RX-7KQ2-M9PD' (no 0/O,
 * 1/I/L); health certificates use the prefix 'CE'.
 */
export function newVerificationCode(prefix: 'RX' | 'CE' = 'RX'): string {
  const group = () =>
    Array.from({ length: 4 }, () => verificationCodeAlphabet[randomInt(verificationCodeAlphabet.length)]).join('');
  return `${prefix}-${group()}-${group()}`;
}

function columnsOf(record: Columns): Columns {
  const { date, professionalId, diagnosis, notes, attendanceId } = record;
  return { date, professionalId, diagnosis, notes, attendanceId };
}

/** The audited shape: the columns, and each line as one readable sentence. */
function audited(record: Columns & { lines: Line[] }) {
  const lineText = (line: Line) =>
    [line.medicine, line.dose, line.frequency, line.duration, line.quantity, line.instructions]
      .filter(Boolean)
      .join(' · ');
  return { ...columnsOf(record), lines: record.lines.map(lineText) };
}

type Row = NonNullable<Awaited<ReturnType<typeof repository.prescriptionsRepository.find>>>;

/** The prescription without its lines: withLines adds them, one query for a whole page. */
function present(row: Row): Prescription {
  return {
    id: row.id,
    patientId: row.patientId,
    date: row.date,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    professionalLicense: row.professionalLicense,
    professionalSpecialty: row.professionalSpecialty,
    diagnosis: row.diagnosis,
    notes: row.notes,
    attendanceId: row.attendanceId,
    verificationCode: row.verificationCode,
    lines: [],
    ...presentStamps(row),
  };
}

const records = auditedRecords({
  repository: repository.prescriptionsRepository,
  entity: 'prescription',
  notFound: 'prescription_not_found',
  columnsOf,
  present,
});

async function withLines(ctx: RequestContext, list: Prescription[]): Promise<Prescription[]> {
  const lines = await repository.listLines(
    ctx,
    list.map((prescription) => prescription.id),
  );
  return list.map((prescription) => ({
    ...prescription,
    lines: lines
      .filter((line) => line.prescriptionId === prescription.id)
      .map(({ id, position, medicationId, medicine, dose, frequency, duration, quantity, instructions }) => {
        return { id, position, medicationId, medicine, dose, frequency, duration, quantity, instructions };
      }),
  }));
}

async function get(ctx: RequestContext, patientId: string, id: string): Promise<Prescription> {
  const [prescription] = await withLines(ctx, [await records.get(ctx, { patientId }, id)]);
  return prescription as Prescription;
}

/**
 * What is copied of the professional into the prescription (400 when not an active professional).
 * Without a licence number the prescription is refused (409 professional_license_required): in
 * Argentina a prescription must carry the prescriber's matrícula (docs/decisions.md).
 */
async function professionalCopy(ctx: RequestContext, professionalId: string) {
  const professional = await professionalDetails(ctx, professionalId);
  if (!professional.licenseNumber?.trim()) {
    throw new AppError('professional_license_required', { name: professional.completeName, path: 'professionalId' });
  }
  return {
    professionalName: professional.completeName,
    professionalLicense: professional.licenseNumber,
    professionalSpecialty: professional.specialty,
  };
}

/**
 * The lines to write: a catalogue medicine must be a medication of the clinic, approved and
 * active (else 409 medication_not_prescribable, or 400 on the line when it is not the clinic's);
 * its name is copied. Free text is written as given. The attendance, when named, must be the patient's.
 */
async function checkInput(ctx: RequestContext, patientId: string, input: PrescriptionInput): Promise<Line[]> {
  if (input.attendanceId && !(await attendanceOfPatient(ctx, patientId, input.attendanceId))) {
    throw invalidFields([{ path: 'attendanceId', code: 'invalid_value' }]);
  }
  const ids = [...new Set(input.lines.flatMap((line) => (line.medicationId ? [line.medicationId] : [])))];
  const items = new Map((await findCatalogueItems(ctx, ids)).map((item) => [item.id, item]));
  return input.lines.map((line, index) => {
    if (!line.medicationId) return { ...line, medicationId: null };
    const item = items.get(line.medicationId);
    if (!item) throw invalidFields([{ path: `lines.${index}.medicationId`, code: 'invalid_value' }]);
    if (item.kind !== 'medication' || item.approvalStatus !== 'approved' || item.productStatus !== 'active') {
      throw new AppError('medication_not_prescribable', { name: item.name, path: `lines.${index}.medicationId` });
    }
    return { ...line, medicine: item.name };
  });
}

function writeLines(ctx: RequestContext, prescriptionId: string, lines: Line[]) {
  return repository.insertLines(
    ctx,
    lines.map((line, index) => ({ ...line, id: newId(), prescriptionId, position: index + 1 })),
  );
}

const auditPrescription = recordAudit('prescription');

export const prescriptionsService = {
  async list({ ctx, patientId, query }: Scope & { query: PageQuery }) {
    await requirePatient(ctx, patientId);
    const page = await records.page(ctx, { patientId }, query);
    return { ...page, data: await withLines(ctx, page.data) };
  },

  async get({ ctx, patientId, id }: Scope & { id: string }): Promise<Prescription> {
    await requirePatient(ctx, patientId);
    return get(ctx, patientId, id);
  },

  async byCode({ ctx, code }: { ctx: RequestContext; code: string }): Promise<PrescriptionByCode> {
    const found = await repository.findByCode(ctx, code);
    if (!found) throw new AppError('prescription_not_found');
    return {
      ...(await get(ctx, found.patientId, found.id)),
      patientName: `${found.firstName} ${found.lastName}`,
      patientSsn: found.ssn,
    };
  },

  async create({ ctx, patientId, input }: Scope & { input: PrescriptionInput }): Promise<Prescription> {
    await requirePatient(ctx, patientId, { lock: true });
    const professional = await professionalCopy(ctx, input.professionalId);
    const lines = await checkInput(ctx, patientId, input);
    let verificationCode = newVerificationCode();
    while (await repository.codeTaken(ctx, verificationCode)) verificationCode = newVerificationCode();
    const id = newId();
    await repository.prescriptionsRepository.insert(ctx, {
      ...columnsOf(input),
      ...professional,
      id,
      patientId,
      verificationCode,
    });
    await writeLines(ctx, id, lines);
    await auditPrescription(ctx, id, 'created', {
      patientId,
      after: { ...audited({ ...input, lines }), ...professional, verificationCode },
    });
    return get(ctx, patientId, id);
  },

  async update({ ctx, patientId, id, input }: Scope & { id: string; input: PrescriptionInput & { version: number } }) {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await records.lock(ctx, { patientId }, id);
    if (current.version !== input.version) {
      throw new AppError('version_conflict', { current: await get(ctx, patientId, id) });
    }
    // Another professional: their details now; the same one keeps what was printed.
    const professional =
      input.professionalId !== current.professionalId ? await professionalCopy(ctx, input.professionalId) : {};
    const lines = await checkInput(ctx, patientId, input);
    const currentLines = await repository.listLines(ctx, [id]);
    const { before, after } = changedFields(audited({ ...current, lines: currentLines }), audited({ ...input, lines }));
    await repository.prescriptionsRepository.update(ctx, id, { ...columnsOf(input), ...professional });
    if ('lines' in after) {
      await repository.softDeleteLines(ctx, id);
      await writeLines(ctx, id, lines);
    }
    await auditPrescription(ctx, id, 'updated', {
      patientId,
      before,
      after: { ...after, ...professional },
    });
    return get(ctx, patientId, id);
  },

  async remove({ ctx, patientId, id }: Scope & { id: string }): Promise<void> {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await records.lock(ctx, { patientId }, id);
    const lines = await repository.listLines(ctx, [id]);
    await repository.prescriptionsRepository.softDelete(ctx, id);
    await auditPrescription(ctx, id, 'deleted', {
      patientId,
      before: {
        ...audited({ ...current, lines }),
        verificationCode: current.verificationCode,
        version: current.version,
      },
      after: { deleted: true },
    });
  },

  async changes({ ctx, patientId, id, query }: Scope & { id: string; query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.changes(ctx, { patientId }, id, query);
  },

  /** What the printed prescription shows, read in the request's transaction (rendered after it). */
  async printable({ ctx, patientId, id }: Scope & { id: string }) {
    await requirePatient(ctx, patientId);
    const row = await repository.prescriptionsRepository.find(ctx, { patientId }, id);
    if (!row) throw new AppError('prescription_file_not_found');
    const [prescription] = await withLines(ctx, [present(row)]);
    return { prescription: prescription as Prescription, header: await requirePrintHeader(ctx, patientId) };
  },
};

/** The printable prescription (PDF) in the patient's language, with its file name. */
export async function prescriptionPdf({
  prescription,
  header,
}: Awaited<ReturnType<typeof prescriptionsService.printable>>) {
  return pdfFile(
    prescriptionDocument({
      language: printLanguage(header.patientLanguage),
      ...printedPatient(header, prescription.date),
      date: prescription.date,
      diagnosis: prescription.diagnosis,
      professionalName: prescription.professionalName,
      professionalLicense: prescription.professionalLicense,
      professionalSpecialty: prescription.professionalSpecialty,
      verificationCode: prescription.verificationCode,
      lines: prescription.lines,
    }),
    `receta-${header.lastName}-${prescription.date}-${prescription.verificationCode}.pdf`,
  );
}
