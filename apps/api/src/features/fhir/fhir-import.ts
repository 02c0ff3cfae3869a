import type { PerioTooth } from '@odontia/shared/perio';
import { createDiagnosisRequestSchema } from '@odontia/shared/schemas/diagnoses';
import type { FhirBundleBody, FhirImportReport } from '@odontia/shared/schemas/fhir';
import { createOdontogramEntriesRequestSchema } from '@odontia/shared/schemas/odontogram';
import { createPatientRequestSchema } from '@odontia/shared/schemas/patients';
import { createPerioExamRequestSchema } from '@odontia/shared/schemas/perio';
import { createPrescriptionRequestSchema } from '@odontia/shared/schemas/prescriptions';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { isExclusionViolation } from '../../db/errors.ts';
import { appointments } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { diagnosesService } from '../diagnoses/diagnoses.service.ts';
import { odontogramService } from '../odontogram/odontogram.service.ts';
import { patientsService } from '../patients/patients.service.ts';
import { perioService } from '../perio/perio.service.ts';
import { prescriptionsService } from '../prescriptions/prescriptions.service.ts';
import { codeSystems, extensions, zoneOfSurface } from './fhir-bundle.ts';

/**
 * A patient moving in from another clinic (issue 42; docs/decisions.md "FHIR R4"): the bundle of
 * `patientBundle` (or any FHIR R4 collection with one Patient) becomes a new patient of this clinic
 * with new ids, each record written through its own service (its checks, its audit) under a
 * savepoint: an entry its contract refuses is reported and left out, the rest is imported. The
 * professional of every record is the user who imports (the other clinic's users are not ours).
 * Financial records (Invoice, ChargeItem, the attendances' billing lines) stay with the clinic that
 * issued them; consents and documents are reported, their bytes are not in the bundle.
 */

type Json = Record<string, unknown>;
type Problem = { path: string; reason: string };
type Skip = FhirImportReport['skipped'][number];

const objectOf = (value: unknown): Json | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function codings(concept: unknown): Json[] {
  return arrayOf(objectOf(concept)?.coding).flatMap((coding) => {
    const found = objectOf(coding);
    return found ? [found] : [];
  });
}
const codeIn = (concept: unknown, system: string) =>
  textOf(codings(concept).find((coding) => coding.system === system)?.code);
const extensionOf = (resource: Json, url: string) =>
  arrayOf(resource.extension)
    .map(objectOf)
    .find((extension) => extension?.url === url) ?? null;
const extensionString = (resource: Json, url: string) => textOf(extensionOf(resource, url)?.valueString);
const extensionCode = (resource: Json, url: string) => textOf(extensionOf(resource, url)?.valueCode);
const noteOf = (resource: Json) => textOf(objectOf(arrayOf(resource.note)[0])?.text);
const teethOf = (sites: unknown[]) =>
  sites.flatMap((site) => {
    const code = codeIn(site, codeSystems.tooth);
    return code && /^\d{2}$/.test(code) ? [Number(code)] : [];
  });

/** The bundle's shape: a FHIR R4 Bundle of type collection whose entries hold resources, one of them the Patient. */
export function bundleProblems(bundle: FhirBundleBody): Problem[] {
  const problems: Problem[] = [];
  if (bundle.resourceType !== 'Bundle') problems.push({ path: 'resourceType', reason: 'not_a_bundle' });
  if (bundle.type !== 'collection') problems.push({ path: 'type', reason: 'not_a_collection' });
  const entries = bundle.entry ?? [];
  entries.forEach((entry, index) => {
    const resource = objectOf(entry.resource);
    if (!resource || typeof resource.resourceType !== 'string' || !/^[A-Z][A-Za-z]{1,63}$/.test(resource.resourceType))
      problems.push({ path: `entry.${index}.resource`, reason: 'no_resource' });
  });
  const patients = entries.filter((entry) => objectOf(entry.resource)?.resourceType === 'Patient').length;
  if (patients !== 1) problems.push({ path: 'entry', reason: patients === 0 ? 'no_patient' : 'several_patients' });
  return problems.slice(0, 20);
}

function patientInput(resource: Json) {
  const name = objectOf(arrayOf(resource.name)[0]) ?? {};
  const address = objectOf(arrayOf(resource.address)[0]) ?? {};
  const lines = arrayOf(address.line).map(textOf);
  const telecom = arrayOf(resource.telecom).map(objectOf);
  const phone = textOf(telecom.find((point) => point?.system === 'phone')?.value);
  const [phoneArea, ...phoneRest] = phone?.includes(' ') ? phone.split(' ') : [null, phone];
  const language = codeIn(objectOf(objectOf(arrayOf(resource.communication)[0])?.language), codeSystems.language);
  const deceased = textOf(resource.deceasedDateTime)?.slice(0, 10) ?? null;
  return createPatientRequestSchema.parse({
    firstName: arrayOf(name.given).map(textOf).filter(Boolean).join(' '),
    lastName: textOf(name.family) ?? '',
    email: textOf(telecom.find((point) => point?.system === 'email')?.value),
    phoneArea: phoneArea ?? null,
    phone: phoneRest.filter(Boolean).join(' ') || null,
    sex: resource.gender === 'female' || resource.gender === 'male' ? resource.gender : null,
    birthdate: textOf(resource.birthDate),
    ssn: textOf(
      objectOf(arrayOf(resource.identifier).find((id) => objectOf(id)?.system === codeSystems.nationalId))?.value,
    ),
    medicalHistory: extensionString(resource, extensions.medicalHistory),
    active: resource.active !== false,
    deceasedOn: deceased,
    street: lines[0] ?? null,
    complement: lines[1] ?? null,
    zipCode: textOf(address.postalCode),
    country: textOf(address.country),
    state: textOf(address.state),
    city: textOf(address.city),
    district: textOf(address.district),
    address: textOf(address.text),
    obs: extensionString(resource, extensions.obs),
    allergies: extensionString(resource, extensions.allergies),
    chronicConditions: extensionString(resource, extensions.chronicConditions),
    currentMedication: extensionString(resource, extensions.currentMedication),
    ...(language ? { language } : {}),
  });
}

const appointmentStatuses: Record<string, 'scheduled' | 'completed' | 'cancelled'> = {
  booked: 'scheduled',
  fulfilled: 'completed',
  cancelled: 'cancelled',
  noshow: 'cancelled',
};

/** What an entry is, once read: the service that writes it and the resource it came from. */
type Planned = { index: number; resourceType: string; write: (ctx: RequestContext) => Promise<unknown> };

export async function importBundle(ctx: RequestContext, bundle: FhirBundleBody): Promise<FhirImportReport> {
  const problems = bundleProblems(bundle);
  if (problems.length > 0) throw new AppError('fhir_bundle_invalid', { problems });
  const entries = (bundle.entry ?? []).map((entry, index) => ({
    index,
    resource: objectOf(entry.resource) as Json,
  }));
  const patientEntry = entries.find((entry) => entry.resource.resourceType === 'Patient');
  let input: ReturnType<typeof patientInput>;
  try {
    input = patientInput(patientEntry?.resource ?? {});
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    throw new AppError('fhir_bundle_invalid', {
      problems: error.issues.slice(0, 20).map((issue) => ({
        path: `entry.${patientEntry?.index}.resource.${issue.path.join('.')}`,
        reason: issue.message,
      })),
    });
  }
  const patient = await patientsService.create({ ctx, input });
  const patientId = patient.id;
  const professionalId = ctx.userId;
  const skipped: Skip[] = [];
  const imported: Record<string, number> = { Patient: 1 };
  const planned: Planned[] = [];
  const prescriptions = new Map<string, { index: number; resources: Json[] }>();

  for (const { index, resource } of entries) {
    const type = String(resource.resourceType);
    const skip = (reason: Skip['reason']) => skipped.push({ index, resourceType: type, reason });
    const plan = (write: Planned['write']) => planned.push({ index, resourceType: type, write });
    const kind = codeIn(resource.category, codeSystems.procedureKind);
    const toothStatus = codeIn(resource.code, codeSystems.toothStatus);
    switch (type) {
      case 'Patient':
        break;
      case 'Condition':
        plan((c) =>
          diagnosesService.create({
            ctx: c,
            patientId,
            input: createDiagnosisRequestSchema.parse({
              date: textOf(resource.recordedDate)?.slice(0, 10),
              professionalId,
              text: textOf(objectOf(resource.code)?.text) ?? codeIn(resource.code, codeSystems.icd10),
              icd10Code: codeIn(resource.code, codeSystems.icd10),
              teeth: teethOf(arrayOf(resource.bodySite)),
              status:
                codeIn(resource.clinicalStatus, codeSystems.conditionClinical) === 'resolved' ? 'resolved' : 'active',
              notes: noteOf(resource),
            }),
          }),
        );
        break;
      case 'Procedure':
      case 'Observation': {
        if (kind === 'attendance_line') {
          skip('financial_record');
          break;
        }
        if (toothStatus) {
          const site = type === 'Procedure' ? arrayOf(resource.bodySite)[0] : resource.bodySite;
          const tooth = teethOf([site])[0];
          const surface = codeIn(site, codeSystems.surface);
          plan((c) =>
            odontogramService.create({
              ctx: c,
              patientId,
              input: createOdontogramEntriesRequestSchema.parse({
                marks: [
                  {
                    tooth,
                    zone: surface ? (zoneOfSurface[surface] ?? 'invalid') : null,
                    status: toothStatus,
                    notes: noteOf(resource),
                  },
                ],
                chartedAt: textOf(resource.performedDateTime) ?? textOf(resource.effectiveDateTime),
                professionalId,
              }),
            }),
          );
          break;
        }
        const chart = extensionString(resource, extensions.perioChart);
        if (type === 'Observation' && chart) {
          plan(async (c) => {
            const exam = await perioService.create({
              ctx: c,
              patientId,
              input: createPerioExamRequestSchema.parse({
                date: textOf(resource.effectiveDateTime)?.slice(0, 10),
                professionalId,
                dentition: extensionCode(resource, extensions.perioDentition),
                notes: noteOf(resource),
                teeth: JSON.parse(chart) as PerioTooth[],
              }),
            });
            if (resource.status === 'final')
              await perioService.close({ ctx: c, patientId, id: exam.id, version: exam.version });
          });
          break;
        }
        skip('not_mapped');
        break;
      }
      case 'Appointment':
        plan(async (c) => {
          const start = new Date(String(resource.start));
          const end = new Date(String(resource.end));
          const own = extensionCode(resource, extensions.appointmentStatus);
          const status =
            own === 'scheduled' || own === 'completed' || own === 'cancelled' || own === 'rescheduled'
              ? own
              : appointmentStatuses[String(resource.status)];
          if (!status || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
            throw new AppError('fhir_bundle_invalid');
          const id = newId();
          const cancelled = status === 'cancelled' || status === 'rescheduled';
          await c.tx.insert(appointments).values({
            accountId: c.accountId,
            id,
            patientId,
            professionalId,
            startsAt: start,
            endsAt: end,
            timeZone: c.timeZone,
            reason: textOf(resource.description),
            notes: textOf(resource.comment),
            status,
            outsideSchedule: true,
            ...(cancelled
              ? {
                  cancelledAt: start,
                  cancelledBy: c.userId,
                  cancelReason: resource.status === 'noshow' ? 'no_show' : 'other',
                }
              : {}),
            createdBy: c.userId,
            updatedBy: c.userId,
          });
          await audit(c, {
            patientId,
            action: 'appointment_imported',
            entity: 'appointment',
            entityId: id,
            after: { startsAt: start.toISOString(), endsAt: end.toISOString(), status },
          });
        });
        break;
      case 'MedicationRequest': {
        const group = textOf(objectOf(resource.groupIdentifier)?.value) ?? `entry-${index}`;
        const found = prescriptions.get(group);
        if (found) found.resources.push(resource);
        else {
          prescriptions.set(group, { index, resources: [resource] });
          plan((c) => {
            const resources = prescriptions.get(group)?.resources ?? [];
            const first = resources[0] as Json;
            return prescriptionsService.create({
              ctx: c,
              patientId,
              input: createPrescriptionRequestSchema.parse({
                date: extensionString(first, extensions.prescriptionDate) ?? textOf(first.authoredOn)?.slice(0, 10),
                professionalId,
                diagnosis: extensionString(first, extensions.prescriptionDiagnosis),
                notes: noteOf(first),
                lines: resources.map((line) => {
                  const dosage = objectOf(arrayOf(line.dosageInstruction)[0]) ?? {};
                  return {
                    medicine: textOf(objectOf(line.medicationCodeableConcept)?.text),
                    dose: textOf(dosage.text),
                    frequency: textOf(objectOf(objectOf(dosage.timing)?.code)?.text),
                    duration: textOf(objectOf(arrayOf(dosage.additionalInstruction)[0])?.text),
                    instructions: textOf(dosage.patientInstruction),
                    quantity: textOf(objectOf(objectOf(line.dispenseRequest)?.quantity)?.unit),
                  };
                }),
              }),
            });
          });
        }
        break;
      }
      case 'Invoice':
      case 'ChargeItem':
        skip('financial_record');
        break;
      case 'Consent':
      case 'DocumentReference':
        skip('document_bytes_not_included');
        break;
      default:
        skip('not_mapped');
    }
  }

  for (const entry of planned) {
    try {
      // A savepoint: an entry refused by its service's checks leaves the others written.
      await ctx.tx.transaction(() => entry.write(ctx));
      imported[entry.resourceType] = (imported[entry.resourceType] ?? 0) + 1;
    } catch (error) {
      // An appointment at a time the importing professional is already booked (the bundle's own
      // clinic, or a busy agenda): left out and said, like any entry its checks refuse.
      const overlaps = isExclusionViolation(error);
      if (!(overlaps || error instanceof z.ZodError || error instanceof AppError || error instanceof SyntaxError))
        throw error;
      skipped.push({
        index: entry.index,
        resourceType: entry.resourceType,
        reason: 'invalid',
        code: overlaps ? 'appointment_overlaps' : error instanceof AppError ? error.code : 'invalid_value',
      });
    }
  }
  skipped.sort((a, b) => a.index - b.index);
  await audit(ctx, {
    patientId,
    action: 'patient_imported',
    entity: 'patient',
    entityId: patientId,
    after: { format: 'fhir-r4', entries: entries.length, imported, skipped: skipped.length },
  });
  return { patientId, imported, skipped };
}
