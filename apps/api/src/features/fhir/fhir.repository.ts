import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TxContext } from '../../context.ts';
import {
  appointments,
  attendanceLines,
  attendances,
  authorizationSignatures,
  commercialDocuments,
  diagnoses,
  documentLines,
  odontogramEntries,
  patientFiles,
  patients,
  payments,
  perioExams,
  prescriptionLines,
  prescriptions,
  treatmentAuthorizations,
  treatments,
} from '../../db/schema/index.ts';

/**
 * A patient's whole record read for FHIR and the right of access (issue 42): one statement per
 * kind of row, whatever the number of rows (no query per row); deleted rows never come out.
 * Every statement names the clinic first and row-level security checks it again.
 */
export async function loadPatientRecord(ctx: TxContext, patientId: string) {
  const { tx, accountId } = ctx;
  const [patient] = await tx
    .select()
    .from(patients)
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  if (!patient) return null;
  const ofPatient = (table: { accountId: AnyPgColumn; patientId: AnyPgColumn }) =>
    and(eq(table.accountId, accountId), eq(table.patientId, patientId));

  const [
    diagnosisRows,
    odontogramRows,
    lineRows,
    perioRows,
    appointmentRows,
    prescriptionRows,
    prescriptionLineRows,
    authorizationRows,
    fileRows,
    documentRows,
    chargeRows,
    collectionRows,
  ] = await Promise.all([
    tx
      .select()
      .from(diagnoses)
      .where(and(ofPatient(diagnoses), isNull(diagnoses.deletedAt)))
      .orderBy(asc(diagnoses.date), asc(diagnoses.id)),
    tx
      .select()
      .from(odontogramEntries)
      .where(and(ofPatient(odontogramEntries), isNull(odontogramEntries.deletedAt)))
      .orderBy(asc(odontogramEntries.chartedAt), asc(odontogramEntries.id)),
    tx
      .select({
        id: attendanceLines.id,
        attendanceId: attendances.id,
        date: attendances.date,
        professionalId: attendances.professionalId,
        description: attendanceLines.description,
        tooth: attendanceLines.tooth,
        quantity: attendanceLines.quantity,
        treatmentCode: treatments.code,
        position: attendanceLines.position,
      })
      .from(attendanceLines)
      .innerJoin(
        attendances,
        and(eq(attendances.accountId, attendanceLines.accountId), eq(attendances.id, attendanceLines.attendanceId)),
      )
      .leftJoin(
        treatments,
        and(eq(treatments.accountId, attendanceLines.accountId), eq(treatments.id, attendanceLines.treatmentId)),
      )
      .where(and(ofPatient(attendances), isNull(attendances.deletedAt), isNull(attendanceLines.deletedAt)))
      .orderBy(asc(attendances.date), asc(attendances.id), asc(attendanceLines.position)),
    tx
      .select()
      .from(perioExams)
      .where(and(ofPatient(perioExams), isNull(perioExams.deletedAt)))
      .orderBy(asc(perioExams.date), asc(perioExams.id)),
    tx
      .select()
      .from(appointments)
      .where(and(ofPatient(appointments), isNull(appointments.deletedAt)))
      .orderBy(asc(appointments.startsAt), asc(appointments.id)),
    tx
      .select()
      .from(prescriptions)
      .where(and(ofPatient(prescriptions), isNull(prescriptions.deletedAt)))
      .orderBy(asc(prescriptions.date), asc(prescriptions.id)),
    tx
      .select({
        id: prescriptionLines.id,
        prescriptionId: prescriptionLines.prescriptionId,
        position: prescriptionLines.position,
        medicine: prescriptionLines.medicine,
        dose: prescriptionLines.dose,
        frequency: prescriptionLines.frequency,
        duration: prescriptionLines.duration,
        quantity: prescriptionLines.quantity,
        instructions: prescriptionLines.instructions,
      })
      .from(prescriptionLines)
      .innerJoin(
        prescriptions,
        and(
          eq(prescriptions.accountId, prescriptionLines.accountId),
          eq(prescriptions.id, prescriptionLines.prescriptionId),
        ),
      )
      .where(and(ofPatient(prescriptions), isNull(prescriptions.deletedAt), isNull(prescriptionLines.deletedAt)))
      .orderBy(asc(prescriptions.date), asc(prescriptions.id), asc(prescriptionLines.position)),
    tx
      .select({
        id: treatmentAuthorizations.id,
        date: treatmentAuthorizations.date,
        title: treatmentAuthorizations.title,
        treatment: treatmentAuthorizations.treatment,
        status: treatmentAuthorizations.status,
        signatureId: authorizationSignatures.id,
        signedAt: authorizationSignatures.signedAt,
        signerName: authorizationSignatures.signerName,
        sha256: authorizationSignatures.sha256,
      })
      .from(treatmentAuthorizations)
      .leftJoin(
        authorizationSignatures,
        and(
          eq(authorizationSignatures.accountId, treatmentAuthorizations.accountId),
          eq(authorizationSignatures.authorizationId, treatmentAuthorizations.id),
          isNull(authorizationSignatures.revokedAt),
        ),
      )
      .where(and(ofPatient(treatmentAuthorizations), isNull(treatmentAuthorizations.deletedAt)))
      .orderBy(asc(treatmentAuthorizations.date), asc(treatmentAuthorizations.id)),
    tx
      .select()
      .from(patientFiles)
      .where(and(ofPatient(patientFiles), isNull(patientFiles.deletedAt)))
      .orderBy(asc(patientFiles.createdAt), asc(patientFiles.id)),
    tx
      .select()
      .from(commercialDocuments)
      .where(
        and(
          ofPatient(commercialDocuments),
          eq(commercialDocuments.side, 'sale'),
          eq(commercialDocuments.status, 'issued'),
          inArray(commercialDocuments.documentType, ['invoice', 'credit_note', 'debit_note']),
          isNull(commercialDocuments.deletedAt),
        ),
      )
      .orderBy(asc(commercialDocuments.date), asc(commercialDocuments.id)),
    tx
      .select({
        id: documentLines.id,
        documentId: documentLines.documentId,
        position: documentLines.position,
        description: documentLines.description,
        quantity: documentLines.quantity,
        unitPrice: documentLines.unitPrice,
        subtotal: documentLines.subtotal,
        vat: documentLines.vat,
        tooth: documentLines.tooth,
      })
      .from(documentLines)
      .innerJoin(
        commercialDocuments,
        and(
          eq(commercialDocuments.accountId, documentLines.accountId),
          eq(commercialDocuments.id, documentLines.documentId),
        ),
      )
      .where(
        and(
          ofPatient(commercialDocuments),
          eq(commercialDocuments.side, 'sale'),
          eq(commercialDocuments.status, 'issued'),
          inArray(commercialDocuments.documentType, ['invoice', 'credit_note', 'debit_note']),
          isNull(commercialDocuments.deletedAt),
        ),
      )
      .orderBy(asc(commercialDocuments.date), asc(commercialDocuments.id), asc(documentLines.position)),
    tx
      .select({
        id: payments.id,
        number: payments.number,
        date: payments.date,
        currency: payments.currency,
        method: payments.method,
        amount: payments.amount,
        reversedAt: payments.reversedAt,
      })
      .from(payments)
      .where(and(ofPatient(payments), eq(payments.side, 'customer'), isNull(payments.deletedAt)))
      .orderBy(asc(payments.date), asc(payments.id)),
  ]);
  return {
    patient,
    diagnoses: diagnosisRows,
    odontogram: odontogramRows,
    attendanceLines: lineRows,
    perioExams: perioRows,
    appointments: appointmentRows,
    prescriptions: prescriptionRows,
    prescriptionLines: prescriptionLineRows,
    authorizations: authorizationRows,
    files: fileRows,
    invoices: documentRows,
    invoiceLines: chargeRows,
    collections: collectionRows,
  };
}

export type PatientRecord = NonNullable<Awaited<ReturnType<typeof loadPatientRecord>>>;
