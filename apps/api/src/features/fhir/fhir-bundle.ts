import type { PerioIndices } from '@odontia/shared/perio';
import type { PatientRecord } from './fhir.repository.ts';

/**
 * A patient's record as a FHIR R4 `collection` Bundle (issue 42; docs/decisions.md "FHIR R4").
 * Pure: the rows come from `loadPatientRecord`. Every resource's `id` is its row's id and its
 * `fullUrl` the `urn:uuid:` of it, so references hold inside the bundle whatever server reads it.
 * Codes: ICD-10 for diagnoses, the FDI tooth (`ex-tooth`) and surface (`FDI-surface`) for teeth;
 * what has no standard code (a tooth's status, the perio indices) uses Odontia's own code systems
 * under `fhirBase`, and fields FHIR has no place for travel as Odontia's extensions.
 */

export const fhirBase = 'https://odontia.app/fhir';
export const codeSystems = {
  icd10: 'http://hl7.org/fhir/sid/icd-10',
  tooth: 'http://terminology.hl7.org/CodeSystem/ex-tooth',
  surface: 'http://terminology.hl7.org/CodeSystem/FDI-surface',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  consentScope: 'http://terminology.hl7.org/CodeSystem/consentscope',
  consentCategory: 'http://loinc.org',
  language: 'urn:ietf:bcp:47',
  toothStatus: `${fhirBase}/CodeSystem/tooth-status`,
  perio: `${fhirBase}/CodeSystem/perio`,
  procedureKind: `${fhirBase}/CodeSystem/procedure-kind`,
  treatment: `${fhirBase}/CodeSystem/treatment`,
  fileType: `${fhirBase}/CodeSystem/file-type`,
  skuPatient: `${fhirBase}/NamingSystem/sku-patient`,
  nationalId: `${fhirBase}/NamingSystem/national-id`,
  verification: `${fhirBase}/NamingSystem/prescription-verification`,
  invoiceNumber: `${fhirBase}/NamingSystem/invoice-number`,
  prescription: `${fhirBase}/NamingSystem/prescription`,
} as const;
export const extensions = {
  medicalHistory: `${fhirBase}/StructureDefinition/medical-history-number`,
  allergies: `${fhirBase}/StructureDefinition/allergies`,
  chronicConditions: `${fhirBase}/StructureDefinition/chronic-conditions`,
  currentMedication: `${fhirBase}/StructureDefinition/current-medication`,
  obs: `${fhirBase}/StructureDefinition/internal-notes`,
  appointmentStatus: `${fhirBase}/StructureDefinition/appointment-status`,
  perioChart: `${fhirBase}/StructureDefinition/perio-chart`,
  perioDentition: `${fhirBase}/StructureDefinition/perio-dentition`,
  sha256: `${fhirBase}/StructureDefinition/sha256`,
  prescriptionDiagnosis: `${fhirBase}/StructureDefinition/prescription-diagnosis`,
  prescriptionDate: `${fhirBase}/StructureDefinition/prescription-date`,
} as const;

/** The odontogram's statuses that record a treatment done (a Procedure); the others are findings (an Observation). */
export const treatmentStatuses = new Set([
  'filling',
  'sealant',
  'extracted',
  'implant',
  'crown',
  'bridge',
  'root_canal',
  'provisional',
]);
const surfaceCodes: Record<string, string> = { mesial: 'M', distal: 'D', buccal: 'B', lingual: 'L', occlusal: 'O' };
export const zoneOfSurface = Object.fromEntries(Object.entries(surfaceCodes).map(([zone, code]) => [code, zone]));

type Json = Record<string, unknown>;
const urn = (id: string) => `urn:uuid:${id}`;
const stringExtension = (url: string, value: string | null | undefined) => (value ? [{ url, valueString: value }] : []);
const toothCoding = (tooth: number | string) => ({ system: codeSystems.tooth, code: String(tooth) });
const money = (value: string, currency: string) => ({ value: Number(value), currency });
const compact = <T extends Json>(value: T): T =>
  Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)),
  ) as T;

function patientResource(record: PatientRecord): Json {
  const p = record.patient;
  const address = compact({
    line: [p.street, p.complement].filter((line): line is string => Boolean(line)),
    text: p.address,
    city: p.city,
    district: p.district,
    state: p.state,
    postalCode: p.zipCode,
    country: p.country,
  });
  return compact({
    resourceType: 'Patient',
    id: p.id,
    extension: [
      ...stringExtension(extensions.medicalHistory, p.medicalHistory),
      ...stringExtension(extensions.allergies, p.allergies),
      ...stringExtension(extensions.chronicConditions, p.chronicConditions),
      ...stringExtension(extensions.currentMedication, p.currentMedication),
      ...stringExtension(extensions.obs, p.obs),
    ],
    identifier: [
      { system: codeSystems.skuPatient, value: p.skuPatient },
      ...(p.ssn ? [{ system: codeSystems.nationalId, value: p.ssn }] : []),
    ],
    active: p.active,
    name: [{ use: 'official', family: p.lastName, given: [p.firstName] }],
    telecom: [
      ...(p.email ? [{ system: 'email', value: p.email }] : []),
      ...(p.phone ? [{ system: 'phone', value: [p.phoneArea, p.phone].filter(Boolean).join(' ') }] : []),
    ],
    gender: p.sex === 'female' ? 'female' : p.sex === 'male' ? 'male' : 'unknown',
    birthDate: p.birthdate,
    ...(p.deceasedOn ? { deceasedDateTime: p.deceasedOn } : {}),
    address: Object.keys(address).length > 0 ? [address] : [],
    communication: [{ language: { coding: [{ system: codeSystems.language, code: p.language }] }, preferred: true }],
  });
}

function conditionResource(row: PatientRecord['diagnoses'][number], subject: Json): Json {
  return compact({
    resourceType: 'Condition',
    id: row.id,
    clinicalStatus: { coding: [{ system: codeSystems.conditionClinical, code: row.status }] },
    code: compact({
      coding: row.icd10Code ? [{ system: codeSystems.icd10, code: row.icd10Code }] : [],
      text: row.text,
    }),
    bodySite: row.teeth.map((tooth) => ({ coding: [toothCoding(tooth)] })),
    subject,
    recordedDate: row.date,
    note: row.notes ? [{ text: row.notes }] : [],
  });
}

function toothSite(tooth: number, zone: string | null) {
  return {
    coding: [
      toothCoding(tooth),
      ...(zone && surfaceCodes[zone] ? [{ system: codeSystems.surface, code: surfaceCodes[zone] }] : []),
    ],
  };
}

function odontogramResource(row: PatientRecord['odontogram'][number], subject: Json): Json {
  const code = { coding: [{ system: codeSystems.toothStatus, code: row.status }] };
  const note = row.notes ? [{ text: row.notes }] : [];
  if (treatmentStatuses.has(row.status)) {
    return compact({
      resourceType: 'Procedure',
      id: row.id,
      status: 'completed',
      category: { coding: [{ system: codeSystems.procedureKind, code: 'odontogram' }] },
      code,
      subject,
      performedDateTime: row.chartedAt.toISOString(),
      bodySite: [toothSite(row.tooth, row.zone)],
      note,
    });
  }
  return compact({
    resourceType: 'Observation',
    id: row.id,
    status: 'final',
    category: [{ coding: [{ system: codeSystems.observationCategory, code: 'exam' }] }],
    code,
    subject,
    effectiveDateTime: row.chartedAt.toISOString(),
    bodySite: toothSite(row.tooth, row.zone),
    note,
  });
}

function attendanceLineResource(row: PatientRecord['attendanceLines'][number], subject: Json): Json {
  const tooth = row.tooth && /^[1-8][1-8]$/.test(row.tooth) ? row.tooth : null;
  return compact({
    resourceType: 'Procedure',
    id: row.id,
    status: 'completed',
    category: { coding: [{ system: codeSystems.procedureKind, code: 'attendance_line' }] },
    code: compact({
      coding: row.treatmentCode ? [{ system: codeSystems.treatment, code: row.treatmentCode }] : [],
      text: row.description,
    }),
    subject,
    performedDateTime: row.date.toISOString(),
    bodySite: tooth ? [{ coding: [toothCoding(tooth)] }] : [],
  });
}

const perioComponents: [keyof PerioIndices, string, string | null][] = [
  ['sites', 'sites', null],
  ['probedSites', 'probed-sites', null],
  ['plaquePercent', 'plaque-percent', '%'],
  ['bleedingPercent', 'bleeding-percent', '%'],
  ['suppurationSites', 'suppuration-sites', null],
  ['depth4Sites', 'depth-4-sites', null],
  ['depth6Sites', 'depth-6-sites', null],
  ['meanDepth', 'mean-probing-depth', 'mm'],
  ['meanAttachment', 'mean-clinical-attachment-level', 'mm'],
];

function perioResource(row: PatientRecord['perioExams'][number], subject: Json): Json {
  const indices = row.indices as PerioIndices;
  return compact({
    resourceType: 'Observation',
    id: row.id,
    extension: [
      { url: extensions.perioDentition, valueCode: row.dentition },
      // The whole chart (six sites a tooth: depth, margin, bleeding, plaque, suppuration), as charted.
      { url: extensions.perioChart, valueString: JSON.stringify(row.teeth) },
    ],
    status: row.status === 'closed' ? 'final' : 'preliminary',
    category: [{ coding: [{ system: codeSystems.observationCategory, code: 'exam' }] }],
    code: { coding: [{ system: codeSystems.perio, code: 'periodontal-chart' }], text: 'Periodontograma' },
    subject,
    effectiveDateTime: row.date,
    note: row.notes ? [{ text: row.notes }] : [],
    component: perioComponents
      .filter(([key]) => indices[key] !== null && indices[key] !== undefined)
      .map(([key, code, unit]) => ({
        code: { coding: [{ system: codeSystems.perio, code }] },
        valueQuantity: compact({
          value: indices[key] as number,
          ...(unit ? { unit, system: 'http://unitsofmeasure.org', code: unit } : {}),
        }),
      })),
  });
}

const appointmentStatusOf: Record<string, string> = {
  scheduled: 'booked',
  completed: 'fulfilled',
  cancelled: 'cancelled',
  rescheduled: 'cancelled',
};

function appointmentResource(row: PatientRecord['appointments'][number], subject: Json): Json {
  const status =
    row.status === 'cancelled' && row.cancelReason === 'no_show' ? 'noshow' : appointmentStatusOf[row.status];
  return compact({
    resourceType: 'Appointment',
    id: row.id,
    extension: [{ url: extensions.appointmentStatus, valueCode: row.status }],
    status,
    description: row.reason,
    start: row.startsAt.toISOString(),
    end: row.endsAt.toISOString(),
    minutesDuration: Math.round((row.endsAt.getTime() - row.startsAt.getTime()) / 60_000),
    comment: row.notes,
    participant: [{ actor: subject, status: 'accepted' }],
  });
}

function medicationRequests(record: PatientRecord, subject: Json): Json[] {
  const byId = new Map(record.prescriptions.map((row) => [row.id, row]));
  return record.prescriptionLines.flatMap((line) => {
    const prescription = byId.get(line.prescriptionId);
    if (!prescription) return [];
    return [
      compact({
        resourceType: 'MedicationRequest',
        id: line.id,
        extension: [
          { url: extensions.prescriptionDate, valueString: prescription.date },
          ...stringExtension(extensions.prescriptionDiagnosis, prescription.diagnosis),
        ],
        identifier: [{ system: codeSystems.verification, value: prescription.verificationCode }],
        groupIdentifier: { system: codeSystems.prescription, value: prescription.id },
        status: 'completed',
        intent: 'order',
        medicationCodeableConcept: { text: line.medicine },
        subject,
        authoredOn: prescription.date,
        requester: { display: prescription.professionalName },
        note: prescription.notes ? [{ text: prescription.notes }] : [],
        dosageInstruction: [
          compact({
            sequence: line.position,
            text: line.dose,
            timing: line.frequency ? { code: { text: line.frequency } } : undefined,
            additionalInstruction: line.duration ? [{ text: line.duration }] : [],
            patientInstruction: line.instructions,
          }),
        ],
        dispenseRequest: line.quantity ? { quantity: { unit: line.quantity } } : undefined,
      }),
    ];
  });
}

function consentResource(row: PatientRecord['authorizations'][number], subject: Json): Json {
  return compact({
    resourceType: 'Consent',
    id: row.id,
    status: row.signedAt ? 'active' : 'draft',
    scope: { coding: [{ system: codeSystems.consentScope, code: 'treatment' }] },
    category: [{ coding: [{ system: codeSystems.consentCategory, code: '59284-0' }], text: row.title }],
    patient: subject,
    dateTime: row.signedAt ? row.signedAt.toISOString() : row.date,
    // The signed PDF: the DocumentReference of the standing signature.
    ...(row.signatureId ? { sourceReference: { reference: urn(row.signatureId), display: row.title } } : {}),
    policyRule: { text: row.treatment },
    extension: stringExtension(extensions.sha256, row.sha256),
    ...(row.signerName ? { performer: [{ display: row.signerName }] } : {}),
  });
}

function documentReferences(record: PatientRecord, subject: Json, apiBase: string): Json[] {
  const patientId = record.patient.id;
  const files = record.files.map((file) =>
    compact({
      resourceType: 'DocumentReference',
      id: file.id,
      extension: [{ url: extensions.sha256, valueString: file.sha256 }],
      status: 'current',
      type: { coding: [{ system: codeSystems.fileType, code: file.fileType }] },
      subject,
      date: file.createdAt.toISOString(),
      description: file.note,
      content: [
        {
          attachment: compact({
            contentType: file.mimeType,
            url: `${apiBase}/patients/${patientId}/files/${file.id}/content`,
            size: file.sizeBytes,
            title: file.originalName,
            creation: file.takenOn ?? undefined,
          }),
        },
      ],
    }),
  );
  const signed = record.authorizations
    .flatMap((row) => (row.signatureId && row.signedAt ? [{ ...row, signatureId: row.signatureId }] : []))
    .map((row) =>
      compact({
        resourceType: 'DocumentReference',
        id: row.signatureId,
        extension: stringExtension(extensions.sha256, row.sha256),
        status: 'current',
        type: { coding: [{ system: codeSystems.fileType, code: 'signed_authorization' }], text: row.title },
        subject,
        date: row.signedAt?.toISOString(),
        content: [
          {
            attachment: {
              contentType: 'application/pdf',
              url: `${apiBase}/patients/${patientId}/authorizations/${row.id}/pdf`,
              title: `${row.title}.pdf`,
            },
          },
        ],
        context: { related: [{ reference: urn(row.id) }] },
      }),
    );
  return [...files, ...signed];
}

function invoiceResources(record: PatientRecord, subject: Json): Json[] {
  const out: Json[] = [];
  const linesOf = new Map<string, PatientRecord['invoiceLines']>();
  for (const line of record.invoiceLines) {
    const list = linesOf.get(line.documentId) ?? [];
    list.push(line);
    linesOf.set(line.documentId, list);
  }
  for (const doc of record.invoices) {
    const lines = linesOf.get(doc.id) ?? [];
    for (const line of lines) {
      out.push(
        compact({
          resourceType: 'ChargeItem',
          id: line.id,
          status: 'billed',
          code: { text: line.description },
          subject,
          quantity: { value: Number(line.quantity) },
          priceOverride: money(line.unitPrice, doc.currency),
          bodysite: line.tooth && /^[1-8][1-8]$/.test(line.tooth) ? [{ coding: [toothCoding(line.tooth)] }] : [],
        }),
      );
    }
    out.push(
      compact({
        resourceType: 'Invoice',
        id: doc.id,
        identifier: [
          {
            system: codeSystems.invoiceNumber,
            value: [doc.pointOfService, doc.documentNumber].filter(Boolean).join('-') || doc.id,
          },
        ],
        status: 'issued',
        type: { text: doc.documentType },
        subject,
        date: doc.date,
        lineItem: lines.map((line, index) => ({
          sequence: index + 1,
          chargeItemReference: { reference: urn(line.id) },
          priceComponent: [{ type: 'base', amount: money(line.subtotal, doc.currency) }],
        })),
        totalNet: money(doc.subtotal2, doc.currency),
        totalGross: money(doc.total, doc.currency),
        note: doc.notes ? [{ text: doc.notes }] : [],
      }),
    );
  }
  return out;
}

/** The bundle: the patient first, then each kind of record in the order of `fhirExportedTypes`. */
export function patientBundle(record: PatientRecord, options: { apiBase: string; timestamp: Date }): Json {
  const subject = { reference: urn(record.patient.id) };
  const resources: Json[] = [
    patientResource(record),
    ...record.diagnoses.map((row) => conditionResource(row, subject)),
    ...record.odontogram.map((row) => odontogramResource(row, subject)),
    ...record.attendanceLines.map((row) => attendanceLineResource(row, subject)),
    ...record.perioExams.map((row) => perioResource(row, subject)),
    ...record.appointments.map((row) => appointmentResource(row, subject)),
    ...medicationRequests(record, subject),
    ...record.authorizations.map((row) => consentResource(row, subject)),
    ...documentReferences(record, subject, options.apiBase),
    ...invoiceResources(record, subject),
  ];
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: options.timestamp.toISOString(),
    meta: { lastUpdated: options.timestamp.toISOString() },
    entry: resources.map((resource) => ({
      fullUrl: urn(String(resource.id)),
      resource,
    })),
  };
}
