import { calendarDateFormatter } from '@odontia/shared/date-format';
import {
  type CertificateByCode,
  certificateDefaults,
  fillCertificate,
  genderedText,
  type HealthCertificate,
  type HealthCertificateInput,
  restDays,
} from '@odontia/shared/schemas/health-certificates';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { pdfFile, printLanguage } from '../../lib/pdf.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import {
  invalidFields,
  printedPatient,
  professionalDetails,
  requirePatient,
  requirePrintHeader,
} from '../clinical/clinical.service.ts';
import { newVerificationCode } from '../prescriptions/prescriptions.service.ts';
import { certificateDocument } from './certificate.pdf.ts';
import * as repository from './certificates.repository.ts';

/**
 * Health certificates of a patient's medical history (issue 24). Issued from a template whose
 * placeholders are filled here, with the professional copied and a verification code; audited
 * (entity 'health_certificate'). The printed fields never change after issue (409
 * health_certificate_issued): only the internal notes do. A mistake is voided with a reason
 * (audited 'health_certificate_voided') and issued again, naming the voided one in `replacesId`.
 */

type Scope = { ctx: RequestContext; patientId: string };
type Row = NonNullable<Awaited<ReturnType<typeof repository.certificatesRepository.find>>>;
type Printed = Pick<
  HealthCertificate,
  | 'kind'
  | 'date'
  | 'professionalId'
  | 'addressee'
  | 'visitTime'
  | 'restFrom'
  | 'restTo'
  | 'diagnosis'
  | 'showDiagnosis'
  | 'activity'
  | 'text'
>;
type Columns = Printed & { notes: string | null };

const printedKeys = [
  'kind',
  'date',
  'professionalId',
  'addressee',
  'visitTime',
  'restFrom',
  'restTo',
  'diagnosis',
  'showDiagnosis',
  'activity',
  'text',
] as const satisfies readonly (keyof Printed)[];

function columnsOf(record: Columns): Columns {
  const columns = Object.fromEntries(printedKeys.map((key) => [key, record[key] ?? null])) as Printed;
  return { ...columns, notes: record.notes ?? null };
}

function present(row: Row): HealthCertificate {
  return {
    id: row.id,
    patientId: row.patientId,
    ...columnsOf({ ...row, kind: row.kind as HealthCertificate['kind'] }),
    professionalName: row.professionalName,
    professionalLicense: row.professionalLicense,
    professionalSpecialty: row.professionalSpecialty,
    verificationCode: row.verificationCode,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    voidReason: row.voidReason,
    replacesId: row.replacesId,
    ...presentStamps(row),
  };
}

/** The audited columns of a stored row. */
const storedColumns = (row: Omit<Columns, 'kind'> & { kind: string }) =>
  columnsOf({ ...row, kind: row.kind as HealthCertificate['kind'] });

const records = auditedRecords({
  repository: repository.certificatesRepository,
  entity: 'health_certificate',
  notFound: 'health_certificate_not_found',
  columnsOf: (row) => storedColumns(row),
  present,
});

/** Days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The text with its placeholders filled, in the patient's document language. */
async function filledText(ctx: RequestContext, patientId: string, input: HealthCertificateInput, professional: string) {
  const header = await requirePrintHeader(ctx, patientId);
  const language = printLanguage(header.patientLanguage);
  const day = calendarDateFormatter(language);
  const defaults = certificateDefaults[language];
  return fillCertificate(genderedText(input.text, header.sex), {
    patient: `${header.firstName} ${header.lastName}`,
    idNumber: header.ssn ?? '—',
    date: day(input.date),
    time: input.visitTime ?? '—',
    addressee: input.addressee ?? defaults.addressee,
    from: input.restFrom ? day(input.restFrom) : '—',
    to: input.restTo ? day(input.restTo) : '—',
    days: input.restFrom && input.restTo ? restDays(language, daysBetween(input.restFrom, input.restTo)) : '—',
    diagnosis: input.showDiagnosis && input.diagnosis ? input.diagnosis : defaults.withheld,
    activity: input.activity ?? '—',
    professional: professional,
    clinic: header.clinicName,
  });
}

export const certificatesService = {
  async list({ ctx, patientId, query }: Scope & { query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.page(ctx, { patientId }, query);
  },

  async get({ ctx, patientId, id }: Scope & { id: string }): Promise<HealthCertificate> {
    await requirePatient(ctx, patientId);
    return records.get(ctx, { patientId }, id);
  },

  async byCode({ ctx, code }: { ctx: RequestContext; code: string }): Promise<CertificateByCode> {
    const found = await repository.findByCode(ctx, code);
    if (!found) throw new AppError('health_certificate_not_found');
    return {
      ...(await records.get(ctx, { patientId: found.patientId }, found.id)),
      patientName: `${found.firstName} ${found.lastName}`,
      patientSsn: found.ssn,
    };
  },

  /** Issues a certificate: the professional copied, the placeholders filled, a new code. */
  async create({ ctx, patientId, input }: Scope & { input: HealthCertificateInput }): Promise<HealthCertificate> {
    await requirePatient(ctx, patientId, { lock: true });
    const professional = await professionalDetails(ctx, input.professionalId);
    if (input.replacesId) {
      const replaced = await repository.certificatesRepository.find(ctx, { patientId }, input.replacesId);
      if (!replaced?.voidedAt) throw invalidFields([{ path: 'replacesId', code: 'invalid_value' }]);
    }
    let verificationCode = newVerificationCode('CE');
    while (await repository.codeTaken(ctx, verificationCode)) verificationCode = newVerificationCode('CE');
    const text = await filledText(ctx, patientId, input, professional.completeName);
    return records.create(ctx, { patientId }, columnsOf({ ...input, text }), {
      professionalName: professional.completeName,
      professionalLicense: professional.licenseNumber,
      professionalSpecialty: professional.specialty,
      verificationCode,
      replacesId: input.replacesId ?? null,
    });
  },

  /**
   * Only the internal notes change. The text is compared filled as it was at issue (the same
   * template and values give the same text); any printed field that differs answers 409
   * health_certificate_issued.
   */
  async update({
    ctx,
    patientId,
    id,
    input,
  }: Scope & { id: string; input: HealthCertificateInput & { version: number } }) {
    await requirePatient(ctx, patientId, { lock: true });
    return records.update(
      ctx,
      { patientId },
      id,
      { version: input.version, next: (current) => ({ ...storedColumns(current), notes: input.notes ?? null }) },
      async (current) => {
        const text = await filledText(ctx, patientId, input, current.professionalName);
        const next = columnsOf({ ...input, text });
        const before = storedColumns(current);
        const changed = printedKeys.filter((key) => before[key] !== next[key]);
        if (changed.length > 0) throw new AppError('health_certificate_issued', { printed: changed });
      },
    );
  },

  /** Voids the certificate with a reason: kept, marked, audited; 409 when already voided. */
  async void({ ctx, patientId, id, input }: Scope & { id: string; input: { reason: string; version: number } }) {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await records.lock(ctx, { patientId }, id);
    if (current.version !== input.version) {
      throw new AppError('version_conflict', { current: await records.get(ctx, { patientId }, id) });
    }
    if (current.voidedAt) throw new AppError('health_certificate_already_voided');
    await repository.certificatesRepository.update(ctx, id, {
      voidedAt: new Date(),
      voidedBy: ctx.userId,
      voidReason: input.reason,
    });
    await audit(ctx, {
      patientId,
      action: 'health_certificate_voided',
      entity: 'health_certificate',
      entityId: id,
      before: { voided: false },
      after: { voided: true, voidReason: input.reason },
    });
    return records.get(ctx, { patientId }, id);
  },

  async remove({ ctx, patientId, id }: Scope & { id: string }): Promise<void> {
    await requirePatient(ctx, patientId, { lock: true });
    await records.remove(ctx, { patientId }, id);
  },

  async changes({ ctx, patientId, id, query }: Scope & { id: string; query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.changes(ctx, { patientId }, id, query);
  },

  /** What the printed certificate shows, read in the request's transaction (rendered after it). */
  async printable({ ctx, patientId, id }: Scope & { id: string }) {
    await requirePatient(ctx, patientId);
    const certificate = await records.get(ctx, { patientId }, id);
    return { certificate, header: await requirePrintHeader(ctx, patientId) };
  },
};

/** The printable certificate (PDF) in the patient's language, with its file name. */
export async function certificatePdf({
  certificate,
  header,
}: Awaited<ReturnType<typeof certificatesService.printable>>) {
  return pdfFile(
    certificateDocument({
      language: printLanguage(header.patientLanguage),
      ...printedPatient(header, certificate.date),
      ...certificate,
    }),
    `certificado-${header.lastName}-${certificate.date}-${certificate.verificationCode}.pdf`,
  );
}
