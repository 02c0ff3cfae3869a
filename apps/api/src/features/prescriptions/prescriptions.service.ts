import { randomInt } from 'node:crypto';
import { yearsOld } from '@odontia/shared/clinic-time';
import { type Language, languages } from '@odontia/shared/enums';
import {
  type Prescription,
  type PrescriptionByCode,
  type PrescriptionInput,
  type PrescriptionLineInput,
  verificationCodeAlphabet,
} from '@odontia/shared/schemas/prescriptions';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { renderPdf, safeFileName } from '../../lib/pdf.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { invalidFields, requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import { prescriptionDocument } from './prescription.pdf.ts';
import * as repository from './prescriptions.repository.ts';

/**
 * Prescriptions of a patient's medical history (issue 6). Every create, edit and delete writes an
 * audit event (entity 'prescription', with the patient) in the same transaction; delete is soft,
 * and an edit soft-deletes the old set of lines and writes the new one.
 */

type UpdateInput = PrescriptionInput & { version: number };

/** A short code a pharmacy can read out on the phone: 'RX-7KQ2-M9PD' (no 0/O, 1/I/L). */
export function newVerificationCode(): string {
  const group = () =>
    Array.from({ length: 4 }, () => verificationCodeAlphabet[randomInt(verificationCodeAlphabet.length)]).join('');
  return `RX-${group()}-${group()}`;
}

/** A line as the history of changes shows it: one readable sentence. */
function lineText(line: Omit<PrescriptionLineInput, 'medicationId'> & { medicationId?: string | null }): string {
  return [line.medicine, line.dose, line.frequency, line.duration, line.quantity, line.instructions]
    .filter(Boolean)
    .join(' · ');
}

interface Audited {
  date: string;
  professionalId: string;
  diagnosis: string | null;
  notes: string | null;
  attendanceId: string | null;
  lines: string[];
}

function toPrescription(
  row: repository.PrescriptionRowWithNames,
  lines: repository.PrescriptionLineRow[],
): Prescription {
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
    lines: lines
      .filter((line) => line.prescriptionId === row.id)
      .map((line) => ({
        id: line.id,
        position: line.position,
        medicationId: line.medicationId,
        medicine: line.medicine,
        dose: line.dose,
        frequency: line.frequency,
        duration: line.duration,
        quantity: line.quantity,
        instructions: line.instructions,
      })),
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

function audited(record: {
  date: string;
  professionalId: string;
  diagnosis: string | null;
  notes: string | null;
  attendanceId: string | null;
  lines: (Omit<PrescriptionLineInput, 'medicationId'> & { medicationId?: string | null })[];
}): Audited {
  return {
    date: record.date,
    professionalId: record.professionalId,
    diagnosis: record.diagnosis,
    notes: record.notes,
    attendanceId: record.attendanceId,
    lines: record.lines.map(lineText),
  };
}

export function createPrescriptionsService({ db }: { db: Database }) {
  async function getPrescription(
    tx: TenantTx,
    accountId: string,
    patientId: string,
    id: string,
  ): Promise<Prescription> {
    const row = await repository.findPrescription(tx, accountId, patientId, id);
    if (!row) throw new AppError('prescription_not_found');
    return toPrescription(row, await repository.listLines(tx, accountId, [id]));
  }

  /**
   * The lines to write: a catalogue medicine must be a medication of the clinic, approved and
   * active (else 409 medication_not_prescribable, or 400 on the line when it is not the clinic's);
   * its name is copied. Free text is written as given.
   */
  async function resolveLines(tx: TenantTx, accountId: string, lines: PrescriptionLineInput[]) {
    const ids = [...new Set(lines.flatMap((line) => (line.medicationId ? [line.medicationId] : [])))];
    const items = new Map((await repository.findItems(tx, accountId, ids)).map((item) => [item.id, item]));
    return lines.map((line, index) => {
      if (!line.medicationId) return { ...line, medicationId: null };
      const item = items.get(line.medicationId);
      if (!item) throw invalidFields([{ path: `lines.${index}.medicationId`, code: 'invalid_value' }]);
      if (item.kind !== 'medication' || item.approvalStatus !== 'approved' || item.productStatus !== 'active') {
        throw new AppError('medication_not_prescribable', { name: item.name, path: `lines.${index}.medicationId` });
      }
      return { ...line, medicine: item.name };
    });
  }

  async function checkAttendance(tx: TenantTx, accountId: string, patientId: string, attendanceId: string | null) {
    if (attendanceId && !(await repository.attendanceOfPatient(tx, accountId, patientId, attendanceId))) {
      throw invalidFields([{ path: 'attendanceId', code: 'invalid_value' }]);
    }
  }

  async function professionalDetails(tx: TenantTx, accountId: string, professionalId: string) {
    await requireProfessional({ tx: tx, accountId: accountId }, professionalId);
    const details = await repository.findProfessionalDetails(tx, accountId, professionalId);
    if (!details) throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
    return {
      professionalName: details.completeName,
      professionalLicense: details.licenseNumber,
      professionalSpecialty: details.specialty,
    };
  }

  function lineRows(
    accountId: string,
    prescriptionId: string,
    userId: string,
    lines: Awaited<ReturnType<typeof resolveLines>>,
  ): repository.PrescriptionLineInsert[] {
    return lines.map((line, index) => ({
      accountId,
      id: newId(),
      prescriptionId,
      position: index + 1,
      medicationId: line.medicationId,
      medicine: line.medicine,
      dose: line.dose,
      frequency: line.frequency,
      duration: line.duration,
      quantity: line.quantity,
      instructions: line.instructions,
      createdBy: userId,
    }));
  }

  return {
    async list(session: AuthSession, patientId: string, query: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const { rows, total } = await repository.listPrescriptions(tx, session.accountId, patientId, query);
        const lines = await repository.listLines(
          tx,
          session.accountId,
          rows.map((row) => row.id),
        );
        return {
          data: rows.map((row) => toPrescription(row, lines)),
          total,
          page: query.page,
          pageSize: query.pageSize,
        };
      });
    },

    async get(session: AuthSession, patientId: string, id: string): Promise<Prescription> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        return getPrescription(tx, session.accountId, patientId, id);
      });
    },

    async byCode(session: AuthSession, code: string): Promise<PrescriptionByCode> {
      return db.withTenant(session.accountId, async (tx) => {
        const row = await repository.findPrescriptionByCode(tx, session.accountId, code);
        if (!row) throw new AppError('prescription_not_found');
        const lines = await repository.listLines(tx, session.accountId, [row.id]);
        return {
          ...toPrescription(row, lines),
          patientName: `${row.firstName} ${row.lastName}`,
          patientSsn: row.ssn,
        };
      });
    },

    async create(session: AuthSession, patientId: string, input: PrescriptionInput, ip: string): Promise<Prescription> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const professional = await professionalDetails(tx, session.accountId, input.professionalId);
        await checkAttendance(tx, session.accountId, patientId, input.attendanceId);
        const lines = await resolveLines(tx, session.accountId, input.lines);
        let verificationCode = newVerificationCode();
        while (await repository.codeTaken(tx, session.accountId, verificationCode)) {
          verificationCode = newVerificationCode();
        }
        const id = newId();
        await repository.insertPrescription(tx, {
          accountId: session.accountId,
          id,
          patientId,
          professionalId: input.professionalId,
          ...professional,
          date: input.date,
          diagnosis: input.diagnosis,
          notes: input.notes,
          attendanceId: input.attendanceId,
          verificationCode,
          createdBy: session.userId,
          updatedBy: session.userId,
        });
        await repository.insertLines(tx, lineRows(session.accountId, id, session.userId, lines));
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'prescription_created',
          entity: 'prescription',
          entityId: id,
          ip,
          after: { ...audited({ ...input, lines }), ...professional, verificationCode },
        });
        return getPrescription(tx, session.accountId, patientId, id);
      });
    },

    async update(
      session: AuthSession,
      patientId: string,
      id: string,
      input: UpdateInput,
      ip: string,
    ): Promise<Prescription> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findPrescriptionForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('prescription_not_found');
        if (current.version !== input.version) {
          throw new AppError('version_conflict', {
            current: await getPrescription(tx, session.accountId, patientId, id),
          });
        }
        // Another professional: their details now; the same one keeps what was printed.
        const professional =
          input.professionalId !== current.professionalId
            ? await professionalDetails(tx, session.accountId, input.professionalId)
            : {};
        await checkAttendance(tx, session.accountId, patientId, input.attendanceId);
        const lines = await resolveLines(tx, session.accountId, input.lines);
        const currentLines = await repository.listLines(tx, session.accountId, [id]);
        const { before, after } = changedFields(
          audited({ ...current, lines: currentLines }) as unknown as Record<string, unknown>,
          audited({ ...input, lines }) as unknown as Record<string, unknown>,
        );
        await repository.updatePrescription(tx, session.accountId, id, {
          professionalId: input.professionalId,
          ...professional,
          date: input.date,
          diagnosis: input.diagnosis,
          notes: input.notes,
          attendanceId: input.attendanceId,
          updatedBy: session.userId,
        });
        if ('lines' in after) {
          await repository.softDeleteLines(tx, session.accountId, id, session.userId);
          await repository.insertLines(tx, lineRows(session.accountId, id, session.userId, lines));
        }
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'prescription_updated',
          entity: 'prescription',
          entityId: id,
          ip,
          before,
          after: { ...after, ...professional },
        });
        return getPrescription(tx, session.accountId, patientId, id);
      });
    },

    async remove(session: AuthSession, patientId: string, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findPrescriptionForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('prescription_not_found');
        const lines = await repository.listLines(tx, session.accountId, [id]);
        await repository.softDeletePrescription(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'prescription_deleted',
          entity: 'prescription',
          entityId: id,
          ip,
          before: {
            ...audited({ ...current, lines }),
            verificationCode: current.verificationCode,
            version: current.version,
          },
          after: { deleted: true },
        });
      });
    },

    /** The printable prescription (PDF) in the patient's language, with its file name. */
    async pdf(session: AuthSession, patientId: string, id: string): Promise<{ pdf: Buffer; fileName: string }> {
      const { record, header } = await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const row = await repository.findPrescription(tx, session.accountId, patientId, id);
        if (!row) throw new AppError('prescription_file_not_found');
        const record = toPrescription(row, await repository.listLines(tx, session.accountId, [id]));
        const header = await repository.findPrintHeader(tx, session.accountId, patientId);
        if (!header) throw new AppError('patient_not_found');
        return { record, header };
      });
      const language: Language = languages.includes(header.language as Language) ? (header.language as Language) : 'es';
      const pdf = await renderPdf(
        prescriptionDocument({
          language,
          clinicName: header.clinicName,
          clinicContact: header.clinicContact,
          patientName: `${header.firstName} ${header.lastName}`,
          patientSsn: header.ssn,
          // The age on the prescription's date: a reprint years later shows what was true then.
          patientAge: yearsOld(header.birthdate, record.date.slice(0, 10)) ?? 0,
          date: record.date,
          diagnosis: record.diagnosis,
          professionalName: record.professionalName,
          professionalLicense: record.professionalLicense,
          professionalSpecialty: record.professionalSpecialty,
          verificationCode: record.verificationCode,
          lines: record.lines,
        }),
      );
      return { pdf, fileName: safeFileName(`receta-${header.lastName}-${record.date}-${record.verificationCode}.pdf`) };
    },

    async changes(session: AuthSession, patientId: string, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        if (!(await repository.findPrescription(tx, session.accountId, patientId, id))) {
          throw new AppError('prescription_not_found');
        }
        return listRecordChanges(tx, session.accountId, { entity: 'prescription', entityId: id }, page);
      });
    },
  };
}

export type PrescriptionsService = ReturnType<typeof createPrescriptionsService>;
